// Errors of the parameter injector. Validation problems of arguments are data (field errors in the decision), never
// thrown; these classes are for configuration mistakes and for a model that cannot be reached.

/** Base of every error the parameter injector throws. */
export abstract class ParameterInjectorError extends Error {
  /** Whether trying the same work again later may succeed. */
  abstract readonly retriable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown at construction when the injector's options cannot work (bad bounds, a malformed field policy). */
export class InjectorConfigError extends ParameterInjectorError {
  readonly retriable = false;
}

/** Thrown when asking the model failed in a way worth retrying (the provider said so); the runtime retries, bounded. */
export class ModelUnavailableError extends ParameterInjectorError {
  readonly retriable = true;
}

/**
 * Thrown when a task's date context cannot be read: `time_zone` is not an IANA zone or `reference_time` is not an
 * ISO-8601 instant. The decision function checks first and ends such a task as failed with the same message.
 */
export class DateContextError extends ParameterInjectorError {
  readonly retriable = false;
}
