import type { ErrorClass } from '@signalbox/contracts';

/** Base of every error the executor throws. */
export abstract class ExecutorError extends Error {
  /** Whether trying the same work again later may succeed. */
  abstract readonly retriable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown at construction when options or configuration cannot work (before any side effect). */
export class ExecutorConfigError extends ExecutorError {
  readonly retriable = false;
}

/**
 * Thrown by a transport adapter when one call failed; carries its EX-5 class. Retriability follows the class
 * (`transient`, `rate_limited`) unless the tool declared the error code otherwise.
 */
export class ToolCallError extends ExecutorError {
  readonly retriable: boolean;
  constructor(
    readonly errorClass: ErrorClass,
    message: string,
    readonly toolName: string,
    options: {
      cause?: unknown;
      retriable?: boolean;
      /** The server's `Retry-After`, in milliseconds. */
      retryAfterMs?: number;
      /** The tool's declared error code, when it reported one. */
      code?: string;
      /** True when the call may have reached the tool (it may have acted). */
      mayHaveActed?: boolean;
      /**
       * True when the connection itself failed (refused, reset, socket hang up, broken pipe…): the tool went away,
       * so this is not its answer, even when the request had been sent (issue 21).
       */
      connectionFailed?: boolean;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retriable = options.retriable ?? (errorClass === 'transient' || errorClass === 'rate_limited');
    this.retryAfterMs = options.retryAfterMs;
    this.code = options.code;
    this.mayHaveActed = options.mayHaveActed ?? false;
    this.connectionFailed = options.connectionFailed ?? false;
  }
  readonly retryAfterMs: number | undefined;
  readonly code: string | undefined;
  readonly mayHaveActed: boolean;
  readonly connectionFailed: boolean;
}

/** Thrown when the SSRF guard refuses a target (RS-6): private, loopback or link-local and not allow-listed. */
export class SsrfRefusedError extends ExecutorError {
  readonly retriable = false;
  constructor(
    message: string,
    readonly host: string,
  ) {
    super(message);
  }
}

/** Thrown when the executor's own PostgreSQL tables (idempotency, cache, claim check) cannot be reached. */
export class ExecutorStoreError extends ExecutorError {
  readonly retriable = true;
}

/**
 * Thrown by `execute` when the caller's signal aborted it while it waited for a tool (an outage, a backoff): the
 * call neither succeeded nor failed for good, so there is no result to report. What it did is in the executor's
 * store as if it had failed (a write's key released when the tool was certainly not reached, else recorded as
 * failed, to be re-sent with the same key only to a tool that dedupes by it): running the same request again later
 * is safe.
 */
export class ExecutionAbortedError extends ExecutorError {
  readonly retriable = true;
  constructor(
    readonly toolName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `${toolName}: the call was abandoned while it waited for the tool (the caller stopped it)`,
      options,
    );
  }
}
