// Errors of the CLI. A usage error is the user's to fix (exit code 2); everything else a command reports is data
// in its result, so `--json` can always print exactly one object.

/** Base of every error the CLI throws. */
export abstract class CliError extends Error {
  /** The process exit code this error ends the command with. */
  abstract readonly exitCode: number;

  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
  }
}

/** Thrown when arguments or options are missing, unknown or malformed. */
export class UsageError extends CliError {
  readonly exitCode = 2;
}
