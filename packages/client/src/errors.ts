import type { FieldError } from '@signalbox/contracts';

/** Base of every error the client throws. */
export abstract class SignalboxClientError extends Error {
  /** Whether the same call may succeed when made again unchanged. */
  abstract readonly retriable: boolean;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
  }
}

/**
 * Thrown when the API answers with an error (`{ error: { code, message, fields? } }`): `code` is the API's stable code
 * to switch on (`invalid_request`, `unauthorized`, `not_found`, `idempotency_conflict`, `not_awaiting_answer`,
 * `already_answered`, `unprocessable`, `payload_too_large`, `unsupported_media_type`, `unavailable`, `internal`).
 */
export class SignalboxApiError extends SignalboxClientError {
  readonly retriable: boolean;

  constructor(
    /** The HTTP status. */
    readonly status: number,
    /** The API's error code. */
    readonly code: string,
    /** The API's message. */
    readonly apiMessage: string,
    /** For `invalid_request`: each invalid field (`agent_id`, `headers.idempotency-key`) and what is wrong. */
    readonly fields: readonly FieldError[] = [],
    /** The method and path of the request (`POST /v1/tasks`). */
    readonly request: string = '',
    /** Milliseconds the API asked to wait (`Retry-After`), when it did. */
    readonly retryAfterMs?: number,
  ) {
    const detail =
      fields.length > 0 ? `: ${fields.map((f) => `${f.path || '(body)'}: ${f.message}`).join('; ')}` : '';
    super(`${request ? `${request}: ` : ''}HTTP ${String(status)} ${code}: ${apiMessage}${detail}`);
    // `unavailable` also arrives as an `error` event of an event stream whose HTTP status was 200.
    this.retriable = status === 503 || code === 'unavailable';
  }
}

/** Thrown when the API cannot be reached (connection refused, reset, DNS) or does not answer in time. */
export class SignalboxConnectionError extends SignalboxClientError {
  readonly retriable = true;
}

/** Thrown when a task is still running after `waitForTask`'s timeout. */
export class SignalboxTimeoutError extends SignalboxClientError {
  readonly retriable = true;

  constructor(
    readonly taskId: string,
    readonly timeoutMs: number,
  ) {
    super(`task ${taskId} is still running after ${String(timeoutMs)} ms`);
  }
}
