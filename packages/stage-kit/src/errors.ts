/** Base of every error the stage runtime throws. */
export abstract class StageKitError extends Error {
  /** Whether trying the same work again later may succeed. */
  abstract readonly retriable: boolean;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Thrown when environment variables are missing or invalid; names every bad variable. */
export class EnvError extends StageKitError {
  readonly retriable = false;
  constructor(
    readonly problems: readonly string[],
    readonly service: string,
  ) {
    super(`${service}: invalid environment:\n  - ${problems.join('\n  - ')}`);
  }
}

/** Thrown when a stage's decide function produced a message its output topic's schema refuses. */
export class InvalidDecisionError extends StageKitError {
  readonly retriable = false;
  constructor(
    message: string,
    readonly topic: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Thrown when the event log cannot be reached; consumption pauses until it answers again (RS-3). */
export class EventLogUnavailableError extends StageKitError {
  readonly retriable = true;
}

/**
 * Thrown by a decide function that gives up because the stage is stopping (`ctx.signal` aborted) while it waits on
 * something outside (a tool's outage): the input is not decided now — nothing is appended or dead-lettered, its
 * offset is not committed — and it is delivered again, to the stage's next owner. Throw it only when running the
 * same decision again later is safe (whatever the abandoned attempt set in motion is idempotent).
 */
export class DecisionDeferredError extends StageKitError {
  readonly retriable = true;
}

/** Thrown by `createStageRuntime` options validation before anything starts. */
export class StageConfigError extends StageKitError {
  readonly retriable = false;
}
