// Errors of the event log. Retriability is data on the error: a stage that gets a retriable error pauses and
// tries the same append again (RS-3); a non-retriable one is a defect or bad input and must not be retried.

/** Base of every error the event log throws. */
export abstract class EventLogError extends Error {
  /** True when the same call may succeed if tried again later (the database was unreachable, a race was lost). */
  abstract readonly retriable: boolean;
  /** The PostgreSQL SQLSTATE, when the database reported one. */
  readonly sqlState: string | undefined;

  constructor(message: string, options: { cause?: unknown; sqlState?: string | undefined } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.sqlState = options.sqlState;
  }
}

/** Thrown when PostgreSQL cannot be reached or dropped the connection (refused, reset, shutting down, too many clients). */
export class EventStoreUnavailableError extends EventLogError {
  readonly retriable = true;
}

/**
 * Thrown when an append kept losing races against concurrent writers of the same task (or serialization failures)
 * after its bounded retries; nothing of the batch was stored.
 */
export class AppendConflictError extends EventLogError {
  readonly retriable = true;
  /** How many times the statement ran. */
  readonly attempts: number;

  constructor(
    message: string,
    options: { cause?: unknown; sqlState?: string | undefined; attempts: number },
  ) {
    super(message, options);
    this.attempts = options.attempts;
  }
}

/** Thrown when an event handed to `append` is invalid (bad envelope, a payload that is not JSON); nothing was stored. */
export class InvalidEventError extends EventLogError {
  readonly retriable = false;
  /** The index of the offending event in the batch, when one event is to blame. */
  readonly index: number | undefined;

  constructor(
    message: string,
    options: { cause?: unknown; sqlState?: string | undefined; index?: number } = {},
  ) {
    super(message, options);
    this.index = options.index;
  }
}

/** Thrown when PostgreSQL rejected a statement for a reason retrying cannot fix (a constraint, a missing table, a bug). */
export class EventStoreQueryError extends EventLogError {
  readonly retriable = false;
}

/** Thrown when the store is used after `close()`. */
export class EventStoreClosedError extends EventLogError {
  readonly retriable = false;
}
