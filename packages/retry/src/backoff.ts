/** How long to wait between attempts. */
export interface BackoffOptions {
  /** Delay before the first retry. @default 100 */
  initialMs?: number;
  /** Cap of any single delay. @default 30_000 */
  maxMs?: number;
  /** Growth per attempt. @default 2 */
  multiplier?: number;
  /**
   * Fraction of the delay that is randomized (0..1), so replicas do not retry in lockstep: 0.2 spreads a delay ±20 %,
   * 1 is "full jitter" (anywhere from 0 to twice the delay, capped). @default 0.2
   */
  jitter?: number;
}

/** Backoff options with every default applied. */
export type ResolvedBackoff = Required<BackoffOptions>;

/** Applies the defaults of {@link BackoffOptions}; throws on values that make no sense. */
export function resolveBackoff(options: BackoffOptions = {}): ResolvedBackoff {
  const resolved = {
    initialMs: options.initialMs ?? 100,
    maxMs: options.maxMs ?? 30_000,
    multiplier: options.multiplier ?? 2,
    jitter: options.jitter ?? 0.2,
  };
  if (!(resolved.initialMs >= 0) || !(resolved.maxMs >= resolved.initialMs)) {
    throw new RangeError(`backoff: need 0 <= initialMs <= maxMs, got ${JSON.stringify(resolved)}`);
  }
  if (!(resolved.multiplier >= 1) || !(resolved.jitter >= 0 && resolved.jitter <= 1)) {
    throw new RangeError(
      `backoff: need multiplier >= 1 and 0 <= jitter <= 1, got ${JSON.stringify(resolved)}`,
    );
  }
  return resolved;
}

/** The un-jittered delay before retry number `attempt` (1-based): exponential from `initialMs`, capped at `maxMs`. */
export function backoffCeiling(attempt: number, backoff: ResolvedBackoff): number {
  return Math.min(backoff.maxMs, backoff.initialMs * backoff.multiplier ** Math.max(0, attempt - 1));
}

/** The delay before retry number `attempt` (1-based): exponential, capped, with ± `jitter` randomization. */
export function backoffDelay(
  attempt: number,
  backoff: ResolvedBackoff,
  random: () => number = Math.random,
): number {
  const capped = backoffCeiling(attempt, backoff);
  const spread = capped * backoff.jitter;
  return Math.max(0, Math.min(backoff.maxMs, Math.round(capped - spread + random() * 2 * spread)));
}
