import type { ToolLimits } from '@signalbox/registry';
import { ToolCallError } from './errors.js';

/** Options of the per-tool circuit breaker (EX-4). */
export interface BreakerOptions {
  /** Consecutive failed attempts (transient or internal) that open the breaker. @default 5 */
  failureThreshold?: number;
  /**
   * The longest cool-down: an open breaker refuses calls for a cool-down that starts at `probeAfterMs` and doubles
   * after each failed probe, up to this. @default 30000
   */
  openMs?: number;
  /** The first cool-down after the breaker opens, before one probe call is let through. @default 1000 */
  probeAfterMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** State of one tool's breaker. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * One admitted call's ticket: it reports the call's outcome once (later reports are ignored). Only outcomes of calls
 * admitted in the breaker's current period count: a call that started before the breaker opened cannot re-open it
 * or extend its cool-down when it fails late.
 */
export interface BreakerPermit {
  /** True for the single half-open probe. */
  readonly probe: boolean;
  /** The tool answered (whatever the answer): resets the failure count; a successful probe closes the breaker. */
  success(): void;
  /** A transient or internal failure: counts towards opening; a failed probe re-opens with a doubled cool-down. */
  failure(): void;
  /** The call ended without telling anything about the tool (refused before sending): frees the probe slot. */
  release(): void;
}

/**
 * A circuit breaker for one tool: closed → open after N consecutive failures → half-open after a short cool-down,
 * when exactly one probe call is let through: its success closes the breaker, its failure re-opens it with the
 * cool-down doubled (1 s, 2 s, 4 s … up to `openMs`). A recovered tool serves again within one cool-down.
 */
export interface CircuitBreaker {
  readonly state: BreakerState;
  /** Throws a `transient` {@link ToolCallError} (`circuit_open`) while open or while the probe is in flight. */
  admit(tool: string): BreakerPermit;
}

/** Creates one tool's breaker. */
export function createCircuitBreaker(options: BreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? 5;
  const openMs = options.openMs ?? 30_000;
  const firstCoolDown = Math.min(options.probeAfterMs ?? 1000, openMs);
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | undefined;
  let coolDown = firstCoolDown;
  // Every change of state starts a new period; a permit only counts in the period that admitted it.
  let period = 0;
  let probeStartedAt: number | undefined;

  const state = (): BreakerState => {
    if (openedAt === undefined) return 'closed';
    return now() - openedAt >= coolDown ? 'half_open' : 'open';
  };
  const open = (nextCoolDown: number) => {
    openedAt = now();
    coolDown = nextCoolDown;
    probeStartedAt = undefined;
    period++;
  };
  const close = () => {
    openedAt = undefined;
    failures = 0;
    coolDown = firstCoolDown;
    probeStartedAt = undefined;
    period++;
  };

  function permit(probe: boolean): BreakerPermit {
    const admittedIn = period;
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      return admittedIn === period;
    };
    return {
      probe,
      success() {
        if (!settle()) return;
        if (probe) close();
        else failures = 0;
      },
      failure() {
        if (!settle()) return;
        if (probe) open(Math.min(coolDown * 2, openMs));
        else if (++failures >= threshold) open(firstCoolDown);
      },
      release() {
        if (settle() && probe) probeStartedAt = undefined;
      },
    };
  }

  return {
    get state() {
      return state();
    },
    admit(tool) {
      const s = state();
      if (s === 'closed') return permit(false);
      // A probe that never reported back (lost) does not hold the breaker half-open for ever.
      const probeLost = probeStartedAt !== undefined && now() - probeStartedAt >= openMs;
      if (s === 'half_open' && (probeStartedAt === undefined || probeLost)) {
        if (probeLost) period++;
        probeStartedAt = now();
        return permit(true);
      }
      const wait = s === 'open' && openedAt !== undefined ? coolDown - (now() - openedAt) : firstCoolDown;
      // Not sent, so nothing acted: retrying after the pause is safe even for writes.
      throw new ToolCallError(
        'transient',
        `${tool}: circuit breaker open after repeated failures${s === 'half_open' ? ' (a probe call is in flight)' : ''}`,
        tool,
        { retryAfterMs: Math.max(0, wait), code: 'circuit_open' },
      );
    },
  };
}

/** Per-tool concurrency and rate limits (EX-4, `tool.limits`). */
export interface ToolLimiter {
  /** Waits for a concurrency slot and a rate token; throws `rate_limited` when none comes within `maxWaitMs`. */
  acquire(tool: string, maxWaitMs: number): Promise<() => void>;
}

/** Creates the limiter of one tool from its declared limits. */
export function createToolLimiter(limits: ToolLimits, now: () => number = Date.now): ToolLimiter {
  const maxConcurrent = limits.concurrency ?? Infinity;
  const rate = limits.rate_limit;
  let running = 0;
  const waiting: (() => void)[] = [];
  // Token bucket: `requests` tokens per `per_seconds`, refilled continuously.
  let tokens = rate?.requests ?? 0;
  let refilledAt = now();

  function refill(): void {
    if (!rate) return;
    const t = now();
    tokens = Math.min(rate.requests, tokens + ((t - refilledAt) / 1000) * (rate.requests / rate.per_seconds));
    refilledAt = t;
  }

  async function slot(tool: string, deadline: number): Promise<void> {
    if (running < maxConcurrent) {
      running++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        running++;
        resolve();
      };
      const timer = setTimeout(
        () => {
          const i = waiting.indexOf(wake);
          if (i >= 0) waiting.splice(i, 1);
          reject(
            new ToolCallError(
              'rate_limited',
              `${tool}: concurrency limit ${String(maxConcurrent)} reached`,
              tool,
              {
                code: 'concurrency_limit',
              },
            ),
          );
        },
        Math.max(0, deadline - now()),
      );
      waiting.push(wake);
    });
  }

  function release(): void {
    running--;
    const next = waiting.shift();
    if (next) next();
  }

  async function token(tool: string, deadline: number): Promise<void> {
    if (!rate) return;
    for (;;) {
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      const waitMs = Math.ceil(((1 - tokens) * rate.per_seconds * 1000) / rate.requests);
      if (now() + waitMs > deadline) {
        throw new ToolCallError(
          'rate_limited',
          `${tool}: rate limit ${String(rate.requests)}/${String(rate.per_seconds)}s reached`,
          tool,
          { retryAfterMs: waitMs, code: 'rate_limit' },
        );
      }
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  return {
    async acquire(tool, maxWaitMs) {
      const deadline = now() + maxWaitMs;
      await token(tool, deadline);
      await slot(tool, deadline);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}
