// The API's errors. Every one maps to an HTTP status and a stable `code` clients can switch on; the JSON body is
// always `{ error: { code, message, fields? } }`.

/** One invalid field of a request: a dotted path (`task.context.0.role`) and what is wrong with it. */
export interface FieldError {
  path: string;
  message: string;
}

/** Base of every error the API answers with. */
export abstract class ApiError extends Error {
  /** The HTTP status it is answered with. */
  abstract readonly statusCode: number;
  /** Stable machine-readable code. */
  abstract readonly code: string;
  /** Whether the same request may succeed when sent again unchanged. */
  readonly retriable: boolean;

  constructor(message: string, options: { cause?: unknown; retriable?: boolean } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.retriable = options.retriable ?? false;
  }
}

/** Thrown when a body, query or header fails validation (400), with field-level details. */
export class InvalidRequestError extends ApiError {
  readonly statusCode = 400;
  readonly code = 'invalid_request';
  constructor(
    message: string,
    readonly fields: readonly FieldError[],
  ) {
    super(message);
  }
}

/** Thrown when the `Authorization: Bearer` key is missing or unknown (401). */
export class UnauthorizedError extends ApiError {
  readonly statusCode = 401;
  readonly code = 'unauthorized';
}

/** Thrown when a task or trace does not exist for the caller's tenant (404 — also for other tenants' ids). */
export class NotFoundError extends ApiError {
  readonly statusCode = 404;
  readonly code = 'not_found';
}

/** Thrown when the request conflicts with the task's state or an earlier request (409). */
export class ConflictError extends ApiError {
  readonly statusCode = 409;
  constructor(
    readonly code: 'idempotency_conflict' | 'not_awaiting_answer' | 'already_answered',
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when a valid request cannot be turned into a valid continuation (e.g. the context is full) (422). */
export class UnprocessableError extends ApiError {
  readonly statusCode = 422;
  readonly code = 'unprocessable';
}

/** Thrown when the event log or the bus is unreachable (503); the request can be sent again. */
export class UnavailableError extends ApiError {
  readonly statusCode = 503;
  readonly code = 'unavailable';
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, retriable: true });
  }
}

/** Thrown when the configuration is unusable (bad API keys JSON, bad options); raised at start. */
export class ApiConfigError extends ApiError {
  readonly statusCode = 500;
  readonly code = 'config';
}
