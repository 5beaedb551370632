/** Base of the tool decider's errors. */
export abstract class ToolDeciderError extends Error {
  abstract readonly retriable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown at construction when the decider's options cannot work. */
export class ToolDeciderConfigError extends ToolDeciderError {
  readonly retriable = false;
}
