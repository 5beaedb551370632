/** Base of every error the demo tool backends throw. */
export abstract class DemoToolsError extends Error {
  /** Whether trying the same work again later may succeed. */
  abstract readonly retriable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown at construction when options cannot work (a bad schema name, a bad fault timing), before any side effect. */
export class DemoToolsConfigError extends DemoToolsError {
  readonly retriable = false;
}

/** Thrown by `loadEnv` when the environment is missing or has a bad value; the message names every variable. */
export class DemoToolsEnvError extends DemoToolsError {
  readonly retriable = false;
  constructor(readonly problems: readonly string[]) {
    super(`demo-tools: bad environment:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * Thrown by a tool handler to answer with an error body `{ "error": { "code", "message" } }` and an HTTP status.
 * `code` is one of the tool's declared error codes or one of {@link GENERIC_ERROR_CODES}.
 */
export class ToolFailure extends DemoToolsError {
  readonly retriable: boolean;
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options: {
      retriable?: boolean;
      /** Extra fields for the error body (e.g. field `issues`). */
      details?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.retriable = options.retriable ?? (status === 429 || status >= 500);
    this.details = options.details;
  }
  readonly details: Record<string, unknown> | undefined;
}

/**
 * Error codes every tool route may answer besides the tool's declared ones: protocol-level refusals that are not
 * about one tool's domain. The executor classifies them by HTTP status (400/422 → parameter, 409 → transient…).
 */
export const GENERIC_ERROR_CODES = {
  /** 400: the body is not valid against the tool's `parameters` schema; `issues` lists the fields. */
  invalid_arguments: 400,
  /** 422: the Idempotency-Key was used before with different arguments for the same tool. */
  idempotency_key_reused: 422,
  /** 409: a request with the same Idempotency-Key is still being processed; retry shortly. */
  idempotency_in_progress: 409,
  /** 400: the `x-demo-fault` header has a value this server does not know. */
  invalid_fault: 400,
  /** 500: an injected fault for a tool that declares no transient error, or a bug. */
  internal_error: 500,
  /** 429: an injected rate limit for a tool that declares no rate_limited error. */
  rate_limited: 429,
  /** 403: an injected refusal for a tool that declares no permission error. */
  forbidden: 403,
  /** 504: an injected timeout for a tool that declares no transient error. */
  timeout: 504,
} as const;

/** One of {@link GENERIC_ERROR_CODES}. */
export type GenericErrorCode = keyof typeof GENERIC_ERROR_CODES;
