import {
  AppendConflictError,
  EventLogError,
  EventStoreQueryError,
  EventStoreUnavailableError,
  InvalidEventError,
} from '../errors.js';

// Node socket errors and the SQLSTATEs that mean "the database is (temporarily) not there": class 08 connection
// exceptions, 57P01–57P03 (admin/crash shutdown, cannot connect now), 53300 too many connections.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
// pg reports a dropped socket without a code; these are its messages.
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  'Client was closed',
];

/** The SQLSTATE or Node error code of a driver error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/** The unique constraint a 23505 error names, if any. */
export function constraintName(error: unknown): string | undefined {
  if (
    typeof error === 'object' &&
    error !== null &&
    'constraint' in error &&
    typeof error.constraint === 'string'
  ) {
    return error.constraint;
  }
  return undefined;
}

/** Turns a raw pg/PGlite error into the event log's error taxonomy; event log errors pass through unchanged. */
export function classifyError(error: unknown, doing: string): EventLogError {
  if (error instanceof EventLogError) return error;
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  const sqlState = code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  if (
    (code && NETWORK_CODES.has(code)) ||
    (sqlState && (sqlState.startsWith('08') || UNAVAILABLE_STATES.has(sqlState))) ||
    UNAVAILABLE_MESSAGES.some((m) => message.includes(m))
  ) {
    return new EventStoreUnavailableError(`PostgreSQL is unavailable while ${doing}: ${message}`, {
      cause: error,
      sqlState,
    });
  }
  if (sqlState === '40001' || sqlState === '40P01') {
    return new AppendConflictError(`${doing} lost a concurrency race: ${message}`, {
      cause: error,
      sqlState,
      attempts: 1,
    });
  }
  // Class 22 (data exception): the input itself cannot be stored, e.g. a \u0000 inside a jsonb string.
  if (sqlState?.startsWith('22')) {
    return new InvalidEventError(`PostgreSQL rejected the data while ${doing}: ${message}`, {
      cause: error,
      sqlState,
    });
  }
  return new EventStoreQueryError(`PostgreSQL refused a statement while ${doing}: ${message}`, {
    cause: error,
    sqlState,
  });
}
