// Every error the bus throws. Retriability is data on the error: the consumer runner and callers decide with
// `retriable`, never by parsing messages.

/** Base of every bus error: carries whether retrying the same operation can succeed, and the topic involved. */
export abstract class BusError extends Error {
  /** True when the same operation may succeed later (a broker or registry outage); false for bad input. */
  abstract readonly retriable: boolean;
  /** The topic the failing operation was about, when there is one. */
  readonly topic: string | undefined;

  constructor(message: string, options: { cause?: unknown; topic?: string } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.topic = options.topic;
  }
}

/** Thrown when a value to publish does not match its topic's zod schema (or does not survive JSON encoding). */
export class InvalidMessageError extends BusError {
  readonly retriable = false;
  /** The first invalid field path, dotted (`payload.task.locale`); empty for the value itself. */
  readonly path: string;
  /** What is wrong there, without the topic and path. */
  readonly detail: string;

  constructor(topic: string, path: string, detail: string, options: { cause?: unknown } = {}) {
    super(`invalid message for topic ${topic} at ${path || '(root)'}: ${detail}`, { ...options, topic });
    this.path = path;
    this.detail = detail;
  }
}

/** Thrown when a topic's schema is not registered under its subject and the codec may not register it. */
export class SchemaNotRegisteredError extends BusError {
  readonly retriable = false;
  readonly subject: string;

  constructor(topic: string, subject: string, options: { cause?: unknown } = {}) {
    super(
      `the schema of topic ${topic} is not registered under subject ${subject}: run registerTopicSchemas at deploy time ` +
        `(or create the bus with autoRegisterSchemas)`,
      { ...options, topic },
    );
    this.subject = subject;
  }
}

/** Thrown when the schema registry refuses a schema: an incompatible change under the subject's BACKWARD rule. */
export class IncompatibleSchemaError extends BusError {
  readonly retriable = false;
  readonly subject: string;

  constructor(topic: string, subject: string, detail: string, options: { cause?: unknown } = {}) {
    super(`the schema registry refused the schema of topic ${topic} (subject ${subject}): ${detail}`, {
      ...options,
      topic,
    });
    this.subject = subject;
  }
}

/** Thrown when the schema registry cannot be reached or answers with a server error; retrying may succeed. */
export class SchemaRegistryUnavailableError extends BusError {
  readonly retriable = true;
}

/** Thrown when Kafka refuses or fails an operation (publish, topic creation, dead-lettering). */
export class BrokerError extends BusError {
  readonly retriable: boolean;

  constructor(message: string, options: { cause?: unknown; topic?: string; retriable?: boolean } = {}) {
    super(message, options);
    this.retriable = options.retriable ?? true;
  }
}

/** Thrown when an operation is attempted on a bus that was closed, or a topic that does not exist (in-memory bus). */
export class BusStateError extends BusError {
  readonly retriable = false;
}

/** Thrown when bytes are not in the Confluent wire format (magic byte 0 + 4-byte schema id + payload). */
export class WireFormatError extends BusError {
  readonly retriable = false;
}

/**
 * Thrown (and reported through `onError`) when a batch handler fails with an error retrying cannot fix — a
 * programmer error (TypeError, RangeError…) or one marked `retriable: false`. The subscription stops; nothing of the
 * batch is committed, so the messages are delivered again once the code is fixed.
 */
export class SubscriptionFailedError extends BusError {
  readonly retriable = false;
  readonly groupId: string;

  constructor(topic: string, groupId: string, options: { cause?: unknown } = {}) {
    const reason =
      options.cause instanceof Error ? `${options.cause.name}: ${options.cause.message}` : 'unknown error';
    super(`subscription of group ${groupId} to ${topic} failed and stopped: ${reason}`, {
      ...options,
      topic,
    });
    this.groupId = groupId;
  }
}
