// Every error the providers package throws. Retriability is data on the error: callers decide with `isRetriable` and
// `retryAfterMsOf` of @signalbox/retry (the one meaning of retriable), never by parsing messages. Messages never carry the
// API key: the OpenAI adapter redacts it before an error is built.

/** Base of every provider error: whether retrying the same request can succeed, and the model it was about. */
export abstract class ProviderError extends Error {
  /** True when the same request may succeed later (timeout, rate limit, server error); false for bad input. */
  abstract readonly retriable: boolean;
  /** The model the failing request was for, when known. */
  readonly model: string | undefined;
  /** The HTTP status the endpoint answered with, when there was an answer. */
  readonly status: number | undefined;

  constructor(message: string, options: { cause?: unknown; model?: string; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.model = options.model;
    this.status = options.status;
  }
}

/** Thrown when the endpoint did not answer within the timeout (or answered 408). */
export class ProviderTimeoutError extends ProviderError {
  readonly retriable = true;
}

/** Thrown when the endpoint answered 429; `retryAfterMs` carries its `Retry-After` (or `retry-after-ms`) hint. */
export class ProviderRateLimitedError extends ProviderError {
  readonly retriable = true;
  /** How long the endpoint asked us to wait, in milliseconds; undefined when it gave no usable hint. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    options: { cause?: unknown; model?: string; status?: number; retryAfterMs?: number } = {},
  ) {
    super(message, options);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** Thrown when the endpoint cannot be reached or answers with a 5xx status; retrying may succeed. */
export class ProviderUnavailableError extends ProviderError {
  readonly retriable = true;
}

/** Thrown when the endpoint refuses the request with a 4xx status (bad request, auth, unknown model…). */
export class ProviderRequestError extends ProviderError {
  readonly retriable = false;
  /** The error code from the endpoint's body (`invalid_api_key`, `model_not_found`…), when given. */
  readonly code: string | undefined;

  constructor(
    message: string,
    options: { cause?: unknown; model?: string; status?: number; code?: string } = {},
  ) {
    super(message, options);
    this.code = options.code;
  }
}

/** Thrown when the endpoint answers 2xx with a body that is not a usable chat completion (no choices…). */
export class ProviderResponseError extends ProviderError {
  readonly retriable = false;
}

/** Thrown when a request or recorded exchange does not match the package's zod schemas. */
export class InvalidModelRequestError extends ProviderError {
  readonly retriable = false;
}

/** Thrown by the replay provider when a request was never recorded, so re-decide never reaches a live model. */
export class UnrecordedRequestError extends ProviderError {
  readonly retriable = false;
  /** The sha256 of the canonical JSON of the request that has no recorded response. */
  readonly requestHash: string;

  constructor(requestHash: string, options: { known: number }) {
    super(
      `no recorded model response for request ${requestHash} (${options.known} recorded request(s)); ` +
        `a replay never calls a live model`,
    );
    this.requestHash = requestHash;
  }
}

/** Thrown by the scripted fake when a call does not match the step it expected, or arrives after the script ended. */
export class UnexpectedModelCallError extends ProviderError {
  readonly retriable = false;
  /** Zero-based index of the call that was unexpected. */
  readonly callIndex: number;

  constructor(callIndex: number, detail: string) {
    super(`scripted provider: unexpected call #${callIndex + 1}: ${detail}`);
    this.callIndex = callIndex;
  }
}

/** Thrown by `assertConsumed()` of the scripted fake when steps of its script were never called. */
export class ScriptNotConsumedError extends ProviderError {
  readonly retriable = false;
  /** How many steps were left. */
  readonly remaining: number;

  constructor(remaining: number, total: number, labels: readonly string[]) {
    super(
      `scripted provider: ${remaining} of ${total} step(s) never called` +
        (labels.length > 0 ? `: ${labels.join(', ')}` : ''),
    );
    this.remaining = remaining;
  }
}
