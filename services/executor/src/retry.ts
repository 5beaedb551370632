import type { RetryPolicy } from '@signalbox/registry';
import { ToolCallError } from './errors.js';

/** How the retry loop waits and draws jitter; replaced in unit tests only. */
export interface RetryClock {
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
}

/** The default clock: real timers, Math.random. */
export const realClock: RetryClock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** The outcome of a retried call: its value, or the last error, and how many attempts were made. */
export type RetryOutcome<T> =
  { ok: true; value: T; attempts: number } | { ok: false; error: unknown; attempts: number };

// A server's Retry-After is honoured, but never beyond this: a step must not hold its partition for minutes.
const MAX_RETRY_AFTER_MS = 30_000;

/** The wait before attempt `attempt + 1`: full jitter on a capped exponential, at least the server's Retry-After. */
export function backoffMs(
  policy: RetryPolicy,
  attempt: number,
  random: number,
  retryAfterMs?: number,
): number {
  const cap = Math.min(policy.max_backoff_ms, policy.initial_backoff_ms * 2 ** (attempt - 1));
  const jittered = Math.floor(random * cap);
  return retryAfterMs === undefined
    ? jittered
    : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/**
 * EX-4: runs `call` up to `policy.max_attempts` times, retrying only {@link ToolCallError}s that are retriable and
 * whose class is in `policy.retry_on`, with bounded, jittered exponential backoff that honours `Retry-After`.
 * Programmer errors and every other class end the loop at once.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  call: (attempt: number) => Promise<T>,
  clock: RetryClock = realClock,
): Promise<RetryOutcome<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await call(attempt), attempts: attempt };
    } catch (error) {
      const retriable =
        error instanceof ToolCallError &&
        error.retriable &&
        (error.errorClass === 'transient' || error.errorClass === 'rate_limited') &&
        policy.retry_on.includes(error.errorClass);
      if (!retriable || attempt >= policy.max_attempts) return { ok: false, error, attempts: attempt };
      await clock.sleep(backoffMs(policy, attempt, clock.random(), error.retryAfterMs));
    }
  }
}
