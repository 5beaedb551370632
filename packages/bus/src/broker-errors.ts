import { SOCKET_CONNECTION_ERRORS } from '@signalbox/retry';
import { BrokerError } from './errors.js';

// How a kafkajs failure becomes a BrokerError, and whether it is worth retrying. kafkajs flags its own errors, but
// the flag on the error that reaches the caller is not about the failure: once its own retries ran out, kafkajs
// throws `KafkaJSNumberOfRetriesExceeded` (or a `KafkaJSNonRetriableError` around it), both `retriable: false`,
// around what was a connection error all along — the broker was down for longer than kafkajs waited. Such a
// failure heals when the broker is back, so it is retriable whatever the wrapper says. Decided on error names and
// system error codes along the cause chain, never on messages.

/** kafkajs errors that mean the broker could not be reached or did not answer in time. */
const CONNECTION_ERROR_NAMES = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  // A lock held by a request or connection attempt to a broker that does not answer (connecting, refreshing the
  // metadata of the producer's target topics).
  'KafkaJSLockTimeout',
  'KafkaJSNoBrokerAvailableError',
]);

/** System error codes of a connection that failed or could not be made (DNS included: a broker pod restarting). */
const CONNECTION_ERROR_CODES: ReadonlySet<string> = new Set([
  ...SOCKET_CONNECTION_ERRORS,
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** How deep the cause chain is followed (kafkajs nests two or three levels; a cycle must not loop). */
const MAX_CAUSE_DEPTH = 8;

/**
 * True when `error`, or any error in its `cause` chain, says the broker could not be reached or did not answer:
 * a kafkajs connection, connection-closed, request-timeout, lock-timeout or no-broker error, or a system error
 * code of a failed connection (ECONNREFUSED, ECONNRESET, ETIMEDOUT…). kafkajs's `retriable` flags are ignored.
 */
export function isBrokerConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    const { name, code, cause } = current as { name?: unknown; code?: unknown; cause?: unknown };
    if (typeof name === 'string' && CONNECTION_ERROR_NAMES.has(name)) return true;
    if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return true;
    if (cause === current) return false;
    current = cause;
  }
  return false;
}

/**
 * A kafkajs failure as a {@link BrokerError}: retriable when it is connection-class ({@link isBrokerConnectionError})
 * or kafkajs did not mark it `retriable: false`; otherwise (a refused record, an authorization failure) not.
 */
export function wrapBrokerError(what: string, error: unknown, topic?: string): BrokerError {
  const flagged =
    typeof error === 'object' && error !== null && 'retriable' in error ? Boolean(error.retriable) : true;
  const retriable = flagged || isBrokerConnectionError(error);
  const reason = error instanceof Error ? error.message : String(error);
  return new BrokerError(`${what}: ${reason}`, { cause: error, retriable, ...(topic ? { topic } : {}) });
}
