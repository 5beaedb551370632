// Every error the eval package throws. Nothing here is retriable: a missing or malformed dataset does not heal.

/** Base of every eval error: whether retrying can succeed, and the file involved when there is one. */
export abstract class EvalError extends Error {
  /** True when the same operation may succeed later. */
  abstract readonly retriable: boolean;
  /** The dataset file the error is about, when there is one. */
  readonly file: string | undefined;

  constructor(message: string, options: { cause?: unknown; file?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.file = options.file;
  }
}

/** Thrown when the BFCL folder (SIGNALBOX_BFCL_DIR or its default) or one of its files does not exist. */
export class DatasetNotFoundError extends EvalError {
  readonly retriable = false;
}

/** Thrown when a dataset line is not valid JSON, does not match its schema, or has no gold answer. */
export class DatasetFormatError extends EvalError {
  readonly retriable = false;
  /** One-based line number in `file`. */
  readonly line: number | undefined;

  constructor(message: string, options: { cause?: unknown; file: string; line?: number }) {
    super(
      options.line === undefined
        ? `${options.file}: ${message}`
        : `${options.file}:${options.line}: ${message}`,
      options,
    );
    this.line = options.line;
  }
}
