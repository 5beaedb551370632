import type { TopicSpec } from '@signalbox/contracts';

// The Bus port. Stages and tools depend on this interface only; the Kafka adapter (kafkajs + schema registry)
// and the in-memory adapter implement it and pass the same contract suite (src/bus-contract.ts).

/** A message to publish. `value` is validated against the topic's zod schema before it is encoded. */
export interface OutgoingMessage {
  topic: TopicSpec;
  /** Always the task id (FL-1). */
  key: string;
  /** Checked against the topic's schema on publish, unless it is what `validateValue` returned for this topic. */
  value: unknown;
  /** Extra headers; the adapter adds `traceparent` from the active OpenTelemetry context when absent. */
  headers?: Record<string, string>;
}

/** A consumed message that decoded and validated against its topic's schema. */
export interface IncomingMessage<T = unknown> {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: T;
  headers: Record<string, string>;
  /**
   * True only when the bus can vouch that no consumer of this group was handed this record before and that the
   * record is not a re-publication of an earlier message: its offset lies beyond everything the partition held when
   * this member got it (and beyond what this member already took), the handler is on its first attempt, and the
   * record does not carry {@link REPUBLISHED_HEADER}. A handler may then skip looking for an earlier result (the
   * stage runtime skips its event-log lookup, EL-2); when false or absent it must look.
   */
  firstDelivery?: boolean;
}

/**
 * Set (`true`) by a publisher on a message it may have published before — a stored decision sent again after a
 * crash, a retried submission — so that consumers do not take it for a first delivery.
 */
export const REPUBLISHED_HEADER = 'x-signalbox-republished';

/** A consumed message that could not be turned into a valid value (RS-2). */
export interface PoisonMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  /** The original bytes, forwarded unchanged to the dead-letter topic. */
  raw: Buffer;
  headers: Record<string, string>;
  reason: PoisonReason;
  /** One line naming what is wrong (e.g. the invalid field path); never the payload. */
  detail: string;
}

/** Why a message is poison. */
export type PoisonReason = 'undecodable' | 'unknown_schema' | 'invalid_payload' | 'handler_failed';

/** A message the batch handler gives up on: it goes to the dead-letter topic, the rest of the batch proceeds. */
export interface DeadLetter {
  message: IncomingMessage;
  /** Stable short code, e.g. `handler_failed`. */
  reason: PoisonReason;
  detail: string;
}

/** What the batch handler returns: messages to dead-letter (empty when all succeeded). */
export interface BatchOutcome {
  deadLetters: DeadLetter[];
}

/**
 * Handles one batch of valid messages of one partition, in offset order. Messages with the same key must be
 * handled in order; different keys may run concurrently. Resolving means every message is done (published or
 * dead-lettered): the runner then commits the offsets. Throwing means "retry this whole batch" (after a jittered,
 * capped backoff); nothing of it is committed.
 */
export type BatchHandler = (batch: IncomingMessage[]) => Promise<BatchOutcome>;

export interface ConsumeOptions {
  /** One consumer group per stage (OP-3). */
  groupId: string;
  topic: TopicSpec;
  /** Where poison messages go (RS-2); defaults to `topic.deadLetterTopic`. */
  deadLetterTopic?: string;
  handler: BatchHandler;
  /** Called for each message that is dead-lettered, after it reached the dead-letter topic. */
  onDeadLetter?: (poison: PoisonMessage) => Promise<void>;
  /** Partitions handled concurrently. @default 1 */
  partitionsConcurrently?: number;
  /** Read from the start of the topic when the group has no committed offset. @default true */
  fromBeginning?: boolean;
  /**
   * Called once when the subscription fails for good: the handler threw a programmer error (TypeError, RangeError…)
   * or an error marked `retriable: false`. The subscription then stops without committing the batch, so its
   * messages come again after a restart. Without it the failure is only logged.
   */
  onError?: (error: Error) => void;
}

/** A running subscription. */
export interface Subscription {
  /** Pauses fetching (backpressure, RS-3); in-flight batches finish. */
  pause(): void;
  resume(): void;
  /** Stops fetching, waits for in-flight batches, commits, leaves the group. */
  stop(): Promise<void>;
}

export interface Bus {
  /** Creates the topics (and dead-letter topics) that do not exist yet; idempotent. */
  ensureTopics(topics: readonly { name: string; partitions: number }[]): Promise<void>;
  /** Publishes a batch: acks from all in-sync replicas, idempotent producer; resolves when durable. */
  publish(messages: readonly OutgoingMessage[]): Promise<void>;
  consume(options: ConsumeOptions): Promise<Subscription>;
  /** Stops every subscription and the producer. */
  close(): Promise<void>;
}
