export {
  backoffCeiling,
  backoffDelay,
  resolveBackoff,
  type BackoffOptions,
  type ResolvedBackoff,
} from './backoff.js';
export { SOCKET_CONNECTION_ERRORS } from './connection-errors.js';
export { isProgrammerError, isRetriable, retriableFlag, retryAfterMsOf } from './retriable.js';
export { RetriesExhaustedError, retry, type RetryOptions } from './retry.js';
