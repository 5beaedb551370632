import type { ToolLimits } from '@signalbox/registry';
import { ToolCallError } from './errors.js';

/** Options of the per-tool circuit breaker (EX-4). */
export interface BreakerOptions {
  /** Consecutive failed calls (after retries) that open the breaker. @default 5 */
  failureThreshold?: number;
  /** How long an open breaker refuses calls before one probe is let through. @default 30000 */
  openMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** State of one tool's breaker. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/** A circuit breaker for one tool: closed → open after N consecutive failures → one probe after a pause. */
export interface CircuitBreaker {
  readonly state: BreakerState;
  /** Throws a `transient` {@link ToolCallError} while open; otherwise admits the call. */
  admit(tool: string): void;
  success(): void;
  failure(): void;
}

/** Creates one tool's breaker. */
export function createCircuitBreaker(options: BreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? 5;
  const openMs = options.openMs ?? 30_000;
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | undefined;
  let probing = false;
  const state = (): BreakerState => {
    if (openedAt === undefined) return 'closed';
    return now() - openedAt >= openMs ? 'half_open' : 'open';
  };
  return {
    get state() {
      return state();
    },
    admit(tool) {
      const s = state();
      if (s === 'closed') return;
      if (s === 'half_open' && !probing) {
        probing = true;
        return;
      }
      const wait = openedAt === undefined ? openMs : Math.max(0, openMs - (now() - openedAt));
      // Not sent, so nothing acted: retrying after the pause is safe even for writes.
      throw new ToolCallError('transient', `${tool}: circuit breaker open after repeated failures`, tool, {
        retryAfterMs: wait,
        code: 'circuit_open',
      });
    },
    success() {
      failures = 0;
      openedAt = undefined;
      probing = false;
    },
    failure() {
      probing = false;
      failures++;
      if (openedAt !== undefined || failures >= threshold) openedAt = now();
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
