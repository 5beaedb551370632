// What "retriable" means, once for the whole repository (kafkajs's src/retry is the model): an error says it as data
// (`retriable: boolean`, and `retryAfterMs` when it knows how long); one that does not say is retriable unless it is a
// programmer error, which no retry can fix.

const PROGRAMMER_ERRORS = [TypeError, RangeError, ReferenceError, SyntaxError, EvalError, URIError];

/**
 * True for errors that a retry cannot fix because the code is wrong (TypeError, RangeError…). Node's `fetch`
 * reports network failures as `TypeError('fetch failed')` with a system-error cause; those are not programmer errors.
 */
export function isProgrammerError(error: unknown): boolean {
  if (!PROGRAMMER_ERRORS.some((type) => error instanceof type)) return false;
  const { cause } = error as Error;
  const networkCause = typeof cause === 'object' && cause !== null && 'code' in cause;
  return !networkCause;
}

/** The error's own word on retrying: its `retriable` flag, or undefined when it carries none. */
export function retriableFlag(error: unknown): boolean | undefined {
  if (typeof error !== 'object' || error === null || !('retriable' in error)) return undefined;
  return typeof error.retriable === 'boolean' ? error.retriable : undefined;
}

/** True when retrying may help: not a programmer error, and not marked `retriable: false`. */
export function isRetriable(error: unknown): boolean {
  if (isProgrammerError(error)) return false;
  return retriableFlag(error) !== false;
}

/** The wait the error asks for before a retry (`retryAfterMs`: a server's Retry-After, a breaker's cool-down). */
export function retryAfterMsOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('retryAfterMs' in error)) return undefined;
  const ms = error.retryAfterMs;
  return typeof ms === 'number' && Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
