import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, resolveBackoff, type BackoffOptions } from './backoff.js';
import { isRetriable, retryAfterMsOf } from './retriable.js';

/** Thrown by {@link retry} when it gives up: the last error is its `cause`, the attempts made are counted. */
export class RetriesExhaustedError extends Error {
  /** Giving up is final: retrying the whole again is the caller's decision, not this error's. */
  readonly retriable = false;
  constructor(
    readonly attempts: number,
    options: { cause: unknown },
  ) {
    const cause = options.cause;
    super(
      `gave up after ${String(attempts)} attempt${attempts === 1 ? '' : 's'}: ${cause instanceof Error ? cause.message : String(cause)}`,
      options,
    );
    this.name = new.target.name;
  }
}

export interface RetryOptions extends BackoffOptions {
  /** Attempts in all, the first included. @default 3 */
  attempts?: number;
  /** Which errors are tried again. @default {@link isRetriable} */
  retriable?: (error: unknown) => boolean;
  /** Called before each wait: the error, the attempt that failed (1-based) and the wait. */
  onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
  /** Stops the waiting: the last error is thrown as it is. */
  signal?: AbortSignal;
  /** @default Math.random */
  random?: () => number;
}

/**
 * Runs `fn` until it succeeds, an error is not retriable, or `attempts` are spent, waiting a jittered, capped,
 * exponential backoff in between (at least an error's `retryAfterMs`). An error that is not retriable is thrown as it
 * is, on the first attempt; when the attempts are spent the {@link RetriesExhaustedError} keeps the last as its cause.
 */
export async function retry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = options.attempts ?? 3;
  if (!Number.isInteger(attempts) || attempts < 1) {
    throw new RangeError(`retry: attempts must be a positive integer, got ${String(attempts)}`);
  }
  const backoff = resolveBackoff(options);
  const retriable = options.retriable ?? isRetriable;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!retriable(error) || options.signal?.aborted) throw error;
      if (attempt >= attempts) throw new RetriesExhaustedError(attempt, { cause: error });
      const delay = Math.max(backoffDelay(attempt, backoff, options.random), retryAfterMsOf(error) ?? 0);
      options.onRetry?.(error, attempt, delay);
      try {
        await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined);
      } catch {
        // Aborted while waiting: the caller hears the error that was being retried.
        throw error;
      }
    }
  }
}
