import type { BatchResult } from './consumer-runner.js';

// kafkajs fetches again only once every batch of its last fetch is handled, so a record that arrives while a stage
// is busy waits out the whole slowest batch, then a fetch round trip, before its own handling even starts — and a
// stage's append and publish never overlap with the next batch's. The Kafka adapter therefore takes each fetched
// batch off kafkajs's hands at once: the batch joins its partition's lane (batches of one partition run one after
// another, in offset order; partitions run side by side) and kafkajs fetches on. Offsets are committed only for what
// a lane finished. A batch fetched while its partition's previous batch still waits to run joins that batch (up to its
// bound): the partition's backlog is handled as one batch as soon as the running one is done, and kafkajs is not held
// up — a held-up fetch held up every partition's next records.

/** One fetched batch of one partition, as a lane runs it. */
export interface LaneBatch {
  partition: number;
  /** The first and last offset of the batch (decimal strings, as Kafka gives them); `absorb` moves the last. */
  readonly firstOffset: string;
  readonly lastOffset: string;
  /** Handles the batch; `isActive` turns false when it must give up (see {@link PartitionLanes}). */
  run(isActive: () => boolean): Promise<BatchResult>;
  /**
   * Takes `next` — the partition's batch fetched right after this one — into this batch, which has not started yet;
   * false when it will not (it would grow past its bound), and `next` then queues behind it. Without it, batches do
   * not merge.
   */
  absorb?(next: LaneBatch): boolean;
}

/** What the lanes need from the subscription. */
export interface PartitionLanesHooks {
  /** A batch was handled while its partition was still this member's: `nextOffset` may be committed. */
  onHandled(partition: number, nextOffset: string): Promise<void>;
  /**
   * A batch gave up while the partition is still this member's and nothing is stopping (its group heartbeat failed,
   * say): the batches fetched after it were dropped too, and fetching must go on from `offset`, or they would be
   * skipped.
   */
  seek(partition: number, offset: string): void;
  /** A batch threw instead of resolving (it is treated as given up). */
  onError(error: unknown, partition: number): void;
  /** False once the subscription failed: no batch starts or goes on. */
  isUsable(): boolean;
  /** Batches running at once, across partitions (first come, first served). @default 1 */
  concurrency?: number;
}

interface Lane {
  /** Settles when the lane's last queued batch is done (never rejects). */
  tail: Promise<void>;
  /** Bumped when a batch of the lane gives up: every batch queued behind it belongs to the dropped run. */
  epoch: number;
  /** The lane's last queued batch, while it may still absorb the next one. */
  last?: Queued;
}

/** A queued batch and the run it belongs to. */
interface Queued {
  batch: LaneBatch;
  generation: number;
  epoch: number;
  /** Set as the batch begins to run (or is dropped): from then on nothing joins it. */
  closed: boolean;
  /** Settles when the batch queued before it is done (never rejects). */
  after: Promise<void>;
}

const RESOLVED = Promise.resolve();

/**
 * Per-partition lanes of fetched batches. A batch runs only while it is {@link LaneBatch.run | active}: the
 * subscription is not stopping, no rebalance began since it was fetched ({@link newGeneration}), no earlier batch of
 * its partition gave up, and the subscription has not failed.
 */
export class PartitionLanes {
  private readonly lanes = new Map<number, Lane>();
  private generation = 0;
  private stopping = false;
  private readonly concurrency: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly hooks: PartitionLanesHooks) {
    this.concurrency = hooks.concurrency ?? 1;
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1) {
      throw new RangeError(
        `PartitionLanes: concurrency must be a positive integer, got ${String(this.concurrency)}`,
      );
    }
  }

  /**
   * Queues `batch` behind its partition's earlier batches, or merges it into the last of them when that one has not
   * started and {@link LaneBatch.absorb | absorbs} it (same run: no rebalance or give-up in between). Resolves at once,
   * unless a batch already waits that would not absorb this one: then once that batch starts — a caller that awaits
   * it keeps at most one batch per partition (grown to its bound) waiting behind the running one, and one more.
   */
  push(batch: LaneBatch): Promise<void> {
    let lane = this.lanes.get(batch.partition);
    if (!lane) {
      lane = { tail: Promise.resolve(), epoch: 0 };
      this.lanes.set(batch.partition, lane);
    }
    const generation = this.generation;
    const epoch = lane.epoch;
    const last = lane.last;
    if (
      last &&
      !last.closed &&
      !this.stopping &&
      last.generation === generation &&
      last.epoch === epoch &&
      last.batch.absorb?.(batch) === true
    ) {
      return Promise.resolve();
    }
    // A batch that waits (not started) and would not take this one in: the caller waits until it starts.
    const backpressure = last && !last.closed ? last.after : RESOLVED;
    const previous = lane.tail;
    const queued: Queued = { batch, generation, epoch, closed: false, after: previous };
    lane.last = queued;
    const isActive = () =>
      !this.stopping && this.generation === generation && lane.epoch === epoch && this.hooks.isUsable();
    // The tail never rejects: a later batch must still run (or be dropped) after whatever happened to this one.
    lane.tail = previous
      .then(() => this.runInLane(queued, lane, isActive, generation))
      .catch((error: unknown) => {
        try {
          this.hooks.onError(error, batch.partition);
        } catch {
          // Reporting failed too; nothing more to do for this batch.
        }
      });
    return backpressure;
  }

  private async runInLane(
    queued: Queued,
    lane: Lane,
    isActive: () => boolean,
    generation: number,
  ): Promise<void> {
    const { batch } = queued;
    if (!isActive()) {
      queued.closed = true;
      return;
    }
    if (this.running >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    // What was fetched until now has joined; what comes next queues behind.
    queued.closed = true;
    let result: BatchResult = 'aborted';
    try {
      // Still wanted after waiting for a slot?
      if (isActive()) result = await batch.run(isActive);
    } catch (error) {
      this.hooks.onError(error, batch.partition);
    } finally {
      // The slot passes straight to the next waiting batch, if any.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
    if (result === 'done') {
      if (this.generation !== generation) return;
      try {
        await this.hooks.onHandled(batch.partition, (BigInt(batch.lastOffset) + 1n).toString());
      } catch (error) {
        this.hooks.onError(error, batch.partition);
      }
      return;
    }
    // Given up. Stopping, failed or rebalancing: the next owner (or this member, after the rejoin) reads from the last
    // commit. Otherwise this member still owns the partition and kafkajs has already fetched past the batch.
    if (this.stopping || this.generation !== generation || !this.hooks.isUsable()) return;
    // One batch of a lane runs at a time, so this is the run's first give-up: drop what is queued behind it.
    lane.epoch++;
    this.hooks.seek(batch.partition, batch.firstOffset);
  }

  /**
   * A rebalance began or the assignment changed: every batch fetched so far stops at its next step, and none of them
   * reports `onHandled` any more (their partitions may be another member's now).
   */
  newGeneration(): void {
    this.generation++;
  }

  /** Stops every lane: queued batches are dropped, running ones stop at their next step. Resolves when all settled. */
  async drain(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.lanes.values()].map((lane) => lane.tail));
  }
}
