// A failed model call as data (EL-9): what a recording keeps of the error a call rejected with, and the error a
// replay rejects with in its place. A decision that took its fallback path because a call failed (a judge recorded
// as unavailable, a retriable failure the runtime retried) must take the same path when it is re-taken, so the
// replayed error has the recorded class where this package can rebuild it, the same message, and the same
// `retriable` / `retryAfterMs` data the callers decide with.
import { z } from 'zod';
import {
  InvalidModelRequestError,
  ProviderError,
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from './errors.js';

/** What a recording keeps of the error a model call rejected with. */
export const RecordedModelError = z.object({
  /** The error's class name (`ProviderTimeoutError`, `TypeError`…). */
  name: z.string().min(1),
  /** Its message, verbatim: a decision may quote it (e.g. "model judge unavailable (…)"). */
  message: z.string(),
  /** True when the call timed out (`ProviderTimeoutError`, or a `TimeoutError` such as `AbortSignal.timeout`'s). */
  timeout: z.boolean(),
  /** Whether retrying could succeed, when the error said so (`ProviderError.retriable`, or a `retriable` flag). */
  retriable: z.boolean().optional(),
  /** The HTTP status the endpoint answered with, when there was one. */
  status: z.number().int().optional(),
  /** The endpoint's error code (`ProviderRequestError.code`), when given. */
  code: z.string().optional(),
  /** The endpoint's retry hint (`ProviderRateLimitedError.retryAfterMs`), when given. */
  retryAfterMs: z.number().nonnegative().optional(),
  /** The model the failing request was for, when the error knew it. */
  model: z.string().optional(),
});
export type RecordedModelError = z.infer<typeof RecordedModelError>;

/** The built-in classes a recorded error is rebuilt as by name (programmer errors stay programmer errors). */
const BUILT_IN: Record<string, new (message: string) => Error> = {
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
};

/** What `error` says of itself, as a recording keeps it; never its cause or stack. */
export function recordModelError(error: unknown): RecordedModelError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), timeout: false };
  const record: RecordedModelError = {
    name: error.name || 'Error',
    message: error.message,
    timeout: error instanceof ProviderTimeoutError || error.name === 'TimeoutError',
  };
  const flag = (error as { retriable?: unknown }).retriable;
  if (typeof flag === 'boolean') record.retriable = flag;
  if (error instanceof ProviderError) {
    if (error.status !== undefined) record.status = error.status;
    if (error.model !== undefined) record.model = error.model;
  }
  if (error instanceof ProviderRequestError && error.code !== undefined) record.code = error.code;
  if (error instanceof ProviderRateLimitedError && error.retryAfterMs !== undefined) {
    record.retryAfterMs = error.retryAfterMs;
  }
  return record;
}

/**
 * The error a replay rejects with in place of the recorded one: the same class for this package's errors that a
 * provider throws (timeout, rate limit, unavailable, request, response, invalid request) and for the built-in
 * ones, with the same message, model, status, code and retry hint; any other class comes back as an `Error` with
 * the recorded `name` (so `${err.name}: ${err.message}` reads the same) and its `retriable` flag, if it had one.
 */
export function modelErrorFromRecord(record: RecordedModelError): Error {
  const options = {
    ...(record.model === undefined ? {} : { model: record.model }),
    ...(record.status === undefined ? {} : { status: record.status }),
  };
  switch (record.name) {
    case ProviderTimeoutError.name:
      return new ProviderTimeoutError(record.message, options);
    case ProviderRateLimitedError.name:
      return new ProviderRateLimitedError(record.message, {
        ...options,
        ...(record.retryAfterMs === undefined ? {} : { retryAfterMs: record.retryAfterMs }),
      });
    case ProviderUnavailableError.name:
      return new ProviderUnavailableError(record.message, options);
    case ProviderRequestError.name:
      return new ProviderRequestError(record.message, {
        ...options,
        ...(record.code === undefined ? {} : { code: record.code }),
      });
    case ProviderResponseError.name:
      return new ProviderResponseError(record.message, options);
    case InvalidModelRequestError.name:
      return new InvalidModelRequestError(record.message, options);
  }
  const BuiltIn = Object.hasOwn(BUILT_IN, record.name) ? BUILT_IN[record.name] : undefined;
  const error = BuiltIn ? new BuiltIn(record.message) : new Error(record.message);
  if (!BuiltIn) error.name = record.name;
  if (record.retriable !== undefined) Object.assign(error, { retriable: record.retriable });
  return error;
}
