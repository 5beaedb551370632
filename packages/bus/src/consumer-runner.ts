import type { TopicSpec } from '@signalbox/contracts';
import type { EachBatchHandler, EachBatchPayload, IHeaders } from 'kafkajs';
import {
  REPUBLISHED_HEADER,
  type BatchHandler,
  type DeadLetter,
  type IncomingMessage,
  type PoisonMessage,
  type PoisonReason,
} from './bus.js';
import type { DecodeResult } from './codec.js';
import { SubscriptionFailedError } from './errors.js';
import type { BusLogger } from './logger.js';
import type { LaneBatch, PartitionLanes } from './partition-lanes.js';
import { backoffDelay, isRetriable, type ResolvedBackoff } from '@signalbox/retry';

// What happens to one fetched batch of one partition, shared by the Kafka and the in-memory adapter so both keep
// the same contract: decode → dead-letter poison → handler (valid messages, offset order) → dead-letter what the
// handler gave up on → the caller commits. A failing step is retried with jittered, capped backoff, without
// committing anything; a programmer error stops the subscription.

/** Error headers on every dead-lettered message (RS-2); the value and key are the original bytes. */
export const DEAD_LETTER_HEADERS = {
  reason: 'x-signalbox-error-reason',
  detail: 'x-signalbox-error-detail',
  sourceTopic: 'x-signalbox-source-topic',
  sourcePartition: 'x-signalbox-source-partition',
  sourceOffset: 'x-signalbox-source-offset',
  sourceGroup: 'x-signalbox-source-group',
} as const;

// Header values stay small; the detail names a field path, never the payload.
const MAX_DETAIL_LENGTH = 1000;

/** A consumed record before decoding. */
export interface RawRecord {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
  /** The adapter's {@link DeliveryFrontier} judged the offset new to the group; see `IncomingMessage.firstDelivery`. */
  fresh?: boolean;
}

/**
 * Tells, per partition, which offsets no member of the group can have been handed before. When a member is given a
 * partition, every record the partition already holds may have reached the previous owner (it may have handled
 * them without committing), so the first batch's high watermark — the log end when this member first fetched —
 * is where first deliveries start; after that, each batch moves the frontier past its last offset, so a batch
 * fetched again (its handling aborted) is not new either. `reset()` on every new assignment.
 */
export class DeliveryFrontier {
  private readonly next = new Map<number, bigint>();

  reset(): void {
    this.next.clear();
  }

  /**
   * Call once per fetched batch, before handling it: returns the first offset of the batch that is new. A record
   * beyond a zombie's reach is all this vouches for: a previous owner that lost the partition without noticing may
   * still finish a batch it fetched earlier, which is below the high watermark this member saw.
   */
  take(partition: number, lastOffset: bigint, highWatermark: bigint): bigint {
    const freshFrom = this.next.get(partition) ?? highWatermark;
    this.next.set(partition, freshFrom > lastOffset ? freshFrom : lastOffset + 1n);
    return freshFrom;
  }
}

/** A record as the dead-letter topic receives it. */
export interface DeadLetterRecord {
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** What the batch runner needs from an adapter and from the subscription's options. */
export interface BatchRunnerDeps {
  topic: TopicSpec;
  groupId: string;
  deadLetterTopic: string;
  decode(topic: TopicSpec, bytes: Buffer | null): Promise<DecodeResult>;
  /** Writes records to the dead-letter topic, durably. */
  sendDeadLetters(topic: string, records: DeadLetterRecord[]): Promise<void>;
  handler: BatchHandler;
  onDeadLetter?: ((poison: PoisonMessage) => Promise<void>) | undefined;
  backoff: ResolvedBackoff;
  logger: BusLogger;
}

/** How the caller lets the runner keep its group membership alive and learn that it must stop. */
export interface BatchControl {
  heartbeat(): Promise<void>;
  /** False once the subscription is stopping or the partition was revoked: the runner gives up without committing. */
  isActive(): boolean;
}

/** `done`: every record is handled or dead-lettered, commit them; `aborted`: commit nothing. */
export type BatchResult = 'done' | 'aborted';

/** The dead-letter record of a poison message: original key, value and headers plus the error headers. */
export function deadLetterRecord(poison: PoisonMessage, groupId: string): DeadLetterRecord {
  return {
    key: poison.key,
    value: poison.raw,
    headers: {
      ...poison.headers,
      [DEAD_LETTER_HEADERS.reason]: poison.reason,
      [DEAD_LETTER_HEADERS.detail]: poison.detail.slice(0, MAX_DETAIL_LENGTH),
      [DEAD_LETTER_HEADERS.sourceTopic]: poison.topic,
      [DEAD_LETTER_HEADERS.sourcePartition]: String(poison.partition),
      [DEAD_LETTER_HEADERS.sourceOffset]: poison.offset,
      [DEAD_LETTER_HEADERS.sourceGroup]: groupId,
    },
  };
}

const ABORTED = Symbol('aborted');
// Backoff sleeps in slices so a stop or a revoked partition is noticed quickly and the heartbeat keeps going.
const WAIT_SLICE_MS = 200;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one batch of one partition (records in offset order). Throws {@link SubscriptionFailedError} when a step
 * fails with an error retrying cannot fix; errors of `control.heartbeat()` (a rebalance) propagate as they are.
 */
export async function runBatch(
  deps: BatchRunnerDeps,
  records: readonly RawRecord[],
  control: BatchControl,
): Promise<BatchResult> {
  const { topic, groupId, logger } = deps;
  const ids = (record?: RawRecord) => ({
    topic: topic.name,
    groupId,
    partition: record?.partition,
    offset: record?.offset,
  });

  const step = async <T>(what: string, fn: () => Promise<T>): Promise<T | typeof ABORTED> => {
    for (let attempt = 1; ; attempt++) {
      if (!control.isActive()) return ABORTED;
      try {
        return await fn();
      } catch (error) {
        if (!isRetriable(error)) {
          logger.error(
            { ...ids(records[0]), err: error },
            `${what} failed with an error retrying cannot fix`,
          );
          throw new SubscriptionFailedError(topic.name, groupId, { cause: error });
        }
        const delay = backoffDelay(attempt, deps.backoff);
        logger.warn(
          { ...ids(records[0]), attempt, delayMs: delay, err: error },
          `${what} failed; retrying the batch after backoff`,
        );
        for (let waited = 0; waited < delay; waited += WAIT_SLICE_MS) {
          await sleep(Math.min(WAIT_SLICE_MS, delay - waited));
          if (!control.isActive()) return ABORTED;
          await control.heartbeat();
        }
      }
    }
  };

  const deadLetter = async (what: string, poison: PoisonMessage[]): Promise<boolean> => {
    if (poison.length === 0) return true;
    const sent = await step(`dead-lettering (${what})`, () =>
      deps.sendDeadLetters(
        deps.deadLetterTopic,
        poison.map((p) => deadLetterRecord(p, groupId)),
      ),
    );
    if (sent === ABORTED) return false;
    for (const p of poison) {
      logger.warn(
        {
          topic: p.topic,
          groupId,
          partition: p.partition,
          offset: p.offset,
          key: p.key,
          reason: p.reason,
          detail: p.detail,
        },
        'message dead-lettered',
      );
    }
    const { onDeadLetter } = deps;
    if (!onDeadLetter) return true;
    const notified = await step('onDeadLetter', async () => {
      for (const p of poison) await onDeadLetter(p);
    });
    return notified !== ABORTED;
  };

  // 1. Decode. Only a registry outage throws here (retried); bad bytes become poison.
  const decoded = await step('decoding', () =>
    Promise.all(records.map(async (record) => ({ record, result: await deps.decode(topic, record.value) }))),
  );
  if (decoded === ABORTED) return 'aborted';
  const valid: IncomingMessage[] = [];
  const rawByOffset = new Map<string, RawRecord>();
  const poison: PoisonMessage[] = [];
  const toPoison = (record: RawRecord, reason: PoisonReason, detail: string): PoisonMessage => ({
    topic: topic.name,
    partition: record.partition,
    offset: record.offset,
    key: record.key,
    raw: record.value ?? Buffer.alloc(0),
    headers: record.headers,
    reason,
    detail,
  });
  for (const { record, result } of decoded) {
    if (!result.ok) poison.push(toPoison(record, result.reason, result.detail));
    else if (record.key === null || record.key === '') {
      poison.push(toPoison(record, 'invalid_payload', 'message has no key (FL-1: the key is the task id)'));
    } else {
      rawByOffset.set(record.offset, record);
      valid.push({
        topic: topic.name,
        partition: record.partition,
        offset: record.offset,
        key: record.key,
        value: result.value,
        headers: record.headers,
        firstDelivery: record.fresh === true && record.headers[REPUBLISHED_HEADER] !== 'true',
      });
    }
  }

  // 2. Poison first: the valid messages behind it must not wait for it.
  if (!(await deadLetter('poison', poison))) return 'aborted';
  await control.heartbeat();

  // 3. The handler, retried as a whole until it resolves. A retry may follow a partial success (decisions appended,
  // the publish failed), so from the second attempt on nothing counts as a first delivery.
  if (valid.length > 0) {
    let attempts = 0;
    const outcome = await step('batch handler', () =>
      deps.handler(attempts++ === 0 ? valid : valid.map((m) => ({ ...m, firstDelivery: false }))),
    );
    if (outcome === ABORTED) return 'aborted';
    await control.heartbeat();
    const given = outcome.deadLetters.map((letter: DeadLetter) => {
      const record = rawByOffset.get(letter.message.offset);
      if (!record || letter.message.partition !== record.partition) {
        throw new SubscriptionFailedError(topic.name, groupId, {
          cause: new RangeError(
            `the handler dead-lettered offset ${letter.message.offset}, which is not in this batch`,
          ),
        });
      }
      return toPoison(record, letter.reason, letter.detail);
    });
    // 4. What the handler gave up on.
    if (!(await deadLetter('handler', given))) return 'aborted';
  }
  return 'done';
}

/** kafkajs headers as strings (a repeated header keeps its last value). */
export function headersToStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const last = Array.isArray(value) ? value[value.length - 1] : value;
    if (last !== undefined) out[name] = Buffer.isBuffer(last) ? last.toString('utf8') : last;
  }
  return out;
}

/** What the kafkajs `eachBatch` needs beyond {@link BatchRunnerDeps}. */
export interface KafkaBatchRunnerOptions {
  /** False once the subscription failed: further batches are skipped (not resolved) until the consumer stops. */
  isUsable(): boolean;
  /** The partitions' lanes the batches are handed to; they report what is handled (to commit) and what gave up. */
  lanes: PartitionLanes;
  /** Which records are first deliveries; reset by the adapter on every (re)join. Without it none is. */
  frontier?: DeliveryFrontier;
}

/** Records of one partition merged into one waiting batch at most; a fetch brings up to 1 MiB per partition too. */
const MAX_MERGED_BYTES = 1024 * 1024;

/** One or more consecutive fetched batches of one partition, as a lane runs them (see {@link PartitionLanes}). */
class FetchedBatch implements LaneBatch {
  readonly firstOffset: string;
  private bytes: number;

  constructor(
    readonly partition: number,
    private readonly records: RawRecord[],
    public lastOffset: string,
    private readonly runRecords: (records: RawRecord[], isActive: () => boolean) => Promise<BatchResult>,
  ) {
    this.firstOffset = records[0]?.offset ?? lastOffset;
    this.bytes = valueBytes(records);
  }

  run(isActive: () => boolean): Promise<BatchResult> {
    return this.runRecords(this.records, isActive);
  }

  absorb(next: LaneBatch): boolean {
    if (!(next instanceof FetchedBatch) || next.partition !== this.partition) return false;
    if (this.bytes + next.bytes > MAX_MERGED_BYTES) return false;
    for (const record of next.records) this.records.push(record);
    this.bytes += next.bytes;
    this.lastOffset = next.lastOffset;
    return true;
  }
}

function valueBytes(records: readonly RawRecord[]): number {
  let bytes = 0;
  for (const record of records) bytes += record.value?.length ?? 0;
  return bytes;
}

/**
 * The kafkajs `eachBatch` (run with `eachBatchAutoResolve: false` and `autoCommit: false`): hands the batch to its
 * partition's lane ({@link PartitionLanes}) to be run by {@link runBatch}, and resolves its offsets at once, so kafkajs
 * fetches the next batches while this one is handled. A batch joins the partition's batch that waits to run, if any
 * (up to 1 MiB of values); else it returns when the partition's previous batch is done: at most one batch per
 * partition waits behind the running one. Nothing is committed here; the lanes report handled batches.
 */
export function kafkaEachBatch(deps: BatchRunnerDeps, options: KafkaBatchRunnerOptions): EachBatchHandler {
  return async (payload: EachBatchPayload) => {
    const { batch } = payload;
    // Stale: a lane gave up and moved the partition back (seek); what was fetched before that comes again.
    if (!options.isUsable() || batch.messages.length === 0 || payload.isStale()) return;
    const freshFrom =
      options.frontier?.take(batch.partition, BigInt(batch.lastOffset()), BigInt(batch.highWatermark)) ??
      null;
    const records: RawRecord[] = batch.messages.map((m) => ({
      partition: batch.partition,
      offset: m.offset,
      key: m.key === null ? null : m.key.toString('utf8'),
      value: m.value,
      headers: headersToStrings(m.headers),
      fresh: freshFrom !== null && BigInt(m.offset) >= freshFrom,
    }));
    const previous = options.lanes.push(
      new FetchedBatch(batch.partition, records, batch.lastOffset(), (merged, isActive) =>
        runBatch(deps, merged, { heartbeat: () => payload.heartbeat(), isActive }),
      ),
    );
    payload.resolveOffset(batch.lastOffset());
    await previous;
  };
}
