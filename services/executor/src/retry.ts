import type { RetryPolicy } from '@signalbox/registry';
import { backoffCeiling, resolveBackoff } from '@signalbox/retry';
import { ToolCallError } from './errors.js';

/** How the retry loop waits, tells the time and draws jitter; replaced in unit tests only. */
export interface RetryClock {
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
  /** Milliseconds, for the outage budget. Without it the budget counts only the time the loop slept. */
  now?(): number;
}

/** The default clock: real timers, Math.random, Date.now. */
export const realClock: RetryClock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
  now: Date.now,
};

/**
 * The outcome of a retried call: its value, or the last error, and how many attempts were made. `aborted`: the
 * caller's signal ended a wait before the next attempt — the call neither succeeded nor failed for good.
 */
export type RetryOutcome<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: unknown; attempts: number; aborted: boolean };

/**
 * Issue 21: a brief outage of a tool delays its calls, it does not fail them. After the policy's attempts, a
 * failure `waitable` accepts (the call certainly did not reach the tool: refused connection, breaker open, 503…)
 * is tried again, with backoff, for up to `budgetMs`; only then is it reported.
 */
export interface OutageWait {
  /** How long, from the policy's last attempt, a waitable failure is tried again. 0: not at all. */
  budgetMs: number;
  /** True for a failure worth waiting out (see `createExecutor`). */
  waitable(error: ToolCallError): boolean;
  /** Ends any wait of the loop at once (the stage is stopping): the outcome is then `aborted`. */
  signal?: AbortSignal | undefined;
}

// A server's Retry-After is honoured, but never beyond this: a step must not hold its partition for minutes.
const MAX_RETRY_AFTER_MS = 30_000;
// The waits of an outage: from this, doubling, up to the cap (plus a breaker's or server's Retry-After).
const OUTAGE_BACKOFF = resolveBackoff({ initialMs: 250, maxMs: 4_000, multiplier: 2, jitter: 0 });

/** The wait before attempt `attempt + 1`: full jitter on a capped exponential, at least the server's Retry-After. */
export function backoffMs(
  policy: RetryPolicy,
  attempt: number,
  random: number,
  retryAfterMs?: number,
): number {
  // The registry's policy, as it is (the registry checks it): the one module's exponential, capped.
  const cap = backoffCeiling(attempt, {
    initialMs: policy.initial_backoff_ms,
    maxMs: policy.max_backoff_ms,
    multiplier: 2,
    jitter: 0,
  });
  const jittered = Math.floor(random * cap);
  return retryAfterMs === undefined
    ? jittered
    : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * The wait before the outage's try number `round` (1-based): half of a capped exponential plus up to as much again
 * at random (never zero: the tool is down, not busy), and at least the Retry-After of the breaker or the server —
 * an open breaker's is its remaining cool-down, so a waiting call comes back just as the breaker lets a probe through.
 */
export function outageBackoffMs(round: number, random: number, retryAfterMs?: number): number {
  const cap = backoffCeiling(round, OUTAGE_BACKOFF);
  const jittered = Math.floor(cap / 2 + (random * cap) / 2);
  return retryAfterMs === undefined
    ? jittered
    : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** Sleeps `ms` on the clock; false when `signal` aborted first (or already had). */
async function sleepUnlessAborted(clock: RetryClock, ms: number, signal?: AbortSignal): Promise<boolean> {
  if (!signal) {
    await clock.sleep(ms);
    return true;
  }
  if (signal.aborted) return false;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<false>((resolve) => {
    onAbort = () => {
      resolve(false);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([clock.sleep(ms).then(() => true as const), aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * EX-4: runs `call` up to `policy.max_attempts` times, retrying only {@link ToolCallError}s that are retriable and
 * whose class is in `policy.retry_on`, with bounded, jittered exponential backoff that honours `Retry-After`.
 * Programmer errors and every other class end the loop at once. With `outage`, a failure it finds waitable goes on
 * being tried after the policy's attempts, for up to its budget (see {@link OutageWait}).
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  call: (attempt: number) => Promise<T>,
  clock: RetryClock = realClock,
  outage?: OutageWait,
): Promise<RetryOutcome<T>> {
  let slept = 0;
  const now = () => (clock.now ? clock.now() : slept);
  let outageDeadline: number | undefined;
  let round = 0;
  for (let attempt = 1; ; attempt++) {
    let wait: number;
    try {
      return { ok: true, value: await call(attempt), attempts: attempt };
    } catch (error) {
      const retriable =
        error instanceof ToolCallError &&
        error.retriable &&
        (error.errorClass === 'transient' || error.errorClass === 'rate_limited') &&
        policy.retry_on.includes(error.errorClass);
      const failed = { ok: false as const, error, attempts: attempt, aborted: false };
      if (!retriable) return failed;
      if (attempt < policy.max_attempts) {
        wait = backoffMs(policy, attempt, clock.random(), error.retryAfterMs);
      } else {
        if (!outage || outage.budgetMs <= 0 || !outage.waitable(error)) return failed;
        outageDeadline ??= now() + outage.budgetMs;
        const remaining = outageDeadline - now();
        if (remaining <= 0) return failed;
        wait = Math.min(remaining, outageBackoffMs(++round, clock.random(), error.retryAfterMs));
      }
      if (!(await sleepUnlessAborted(clock, wait, outage?.signal))) return { ...failed, aborted: true };
      slept += wait;
    }
  }
}
