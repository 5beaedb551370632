import { describe, expect, it } from 'vitest';
import type { BatchResult } from './consumer-runner.js';
import { PartitionLanes, type LaneBatch, type PartitionLanesHooks } from './partition-lanes.js';

interface Gate {
  open(result?: BatchResult): void;
  fail(error: unknown): void;
}

/** A lane batch that runs until its gate is opened, recording what happened. */
function gated(partition: number, first: number, last: number, log: string[]): LaneBatch & Gate {
  let settle: ((result: BatchResult) => void) | undefined;
  let reject: ((error: unknown) => void) | undefined;
  const done = new Promise<BatchResult>((resolve, rej) => {
    settle = resolve;
    reject = rej;
  });
  return {
    partition,
    firstOffset: String(first),
    lastOffset: String(last),
    async run(isActive) {
      log.push(`run p${String(partition)}@${String(first)}`);
      const result = await done;
      // As runBatch: a step after the wait gives up when the batch is no longer active.
      return isActive() ? result : 'aborted';
    },
    open: (result: BatchResult = 'done') => settle?.(result),
    fail: (error: unknown) => reject?.(error),
  };
}

/** A gated batch that takes in the batches pushed after it (up to `maxRecords` first offsets), logging them. */
function mergeable(
  partition: number,
  first: number,
  last: number,
  log: string[],
  maxRecords = Number.POSITIVE_INFINITY,
): LaneBatch & Gate & { offsets: number[] } {
  // Its own log line (with the merged offsets) rather than the gate's.
  const gate = gated(partition, first, last, []);
  const offsets = [first];
  let lastOffset = String(last);
  return {
    partition,
    firstOffset: String(first),
    get lastOffset() {
      return lastOffset;
    },
    offsets,
    run(isActive) {
      log.push(`run p${String(partition)}@${String(first)} [${offsets.join(',')}]`);
      return gate.run(() => isActive());
    },
    absorb(next) {
      if (offsets.length >= maxRecords) return false;
      offsets.push(Number(next.firstOffset));
      lastOffset = next.lastOffset;
      return true;
    },
    open: (result?: BatchResult) => {
      gate.open(result);
    },
    fail: (error: unknown) => {
      gate.fail(error);
    },
  };
}

function lanesWithLog(concurrency = 8, overrides: Partial<PartitionLanesHooks> = {}) {
  const log: string[] = [];
  let usable = true;
  const lanes = new PartitionLanes({
    concurrency,
    onHandled: (partition, next) => {
      log.push(`handled p${String(partition)} next ${next}`);
      return Promise.resolve();
    },
    seek: (partition, offset) => log.push(`seek p${String(partition)} ${offset}`),
    onError: (error, partition) => log.push(`error p${String(partition)} ${String(error)}`),
    isUsable: () => usable,
    ...overrides,
  });
  return { lanes, log, fail: () => (usable = false) };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('PartitionLanes', () => {
  it("runs a partition's batches in order, partitions side by side, and reports each handled batch", async () => {
    const { lanes, log } = lanesWithLog();
    const a1 = gated(0, 0, 9, log);
    const a2 = gated(0, 10, 19, log);
    const b1 = gated(1, 0, 4, log);
    void lanes.push(a1);
    void lanes.push(a2);
    void lanes.push(b1);
    await tick();
    expect(log).toEqual(['run p0@0', 'run p1@0']);
    b1.open();
    await tick();
    expect(log).toContain('handled p1 next 5');
    a2.open(); // done early, but it waits for a1
    await tick();
    expect(log).not.toContain('run p0@10');
    a1.open();
    await tick();
    await tick();
    expect(log.filter((l) => l.includes('p0'))).toEqual([
      'run p0@0',
      'handled p0 next 10',
      'run p0@10',
      'handled p0 next 20',
    ]);
  });

  it('lets push resolve at once, unless a batch already waits that did not take it in: then once that one starts', async () => {
    const { lanes, log } = lanesWithLog();
    const first = gated(0, 0, 0, log);
    const second = gated(0, 1, 1, log);
    const third = gated(0, 2, 2, log);
    const returned: string[] = [];
    void lanes.push(first).then(() => returned.push('first'));
    void lanes.push(second).then(() => returned.push('second'));
    void lanes.push(third).then(() => returned.push('third'));
    await tick();
    // `second` waits behind the running `first` (kafkajs may fetch on); `third` found `second` waiting, unmergeable.
    expect(returned).toEqual(['first', 'second']);
    first.open();
    await tick();
    expect(log).toContain('run p0@1');
    expect(returned).toEqual(['first', 'second', 'third']);
  });

  it('merges a batch into the one that waits to run: one run, pushed at once, handled up to the last offset', async () => {
    const { lanes, log } = lanesWithLog();
    const running = gated(0, 0, 0, log);
    const waiting = mergeable(0, 1, 1, log);
    void lanes.push(running);
    void lanes.push(waiting);
    let returned = 0;
    for (const offset of [2, 3, 4]) void lanes.push(mergeable(0, offset, offset, log)).then(() => returned++);
    await tick();
    expect(returned).toBe(3);
    // Merged into a running batch: never. The next batch waits, and takes in what is fetched meanwhile.
    expect(waiting.offsets).toEqual([1, 2, 3, 4]);
    running.open();
    await tick();
    waiting.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p0@0', 'handled p0 next 1', 'run p0@1 [1,2,3,4]', 'handled p0 next 5']);
  });

  it('merges nothing into a batch that runs, one of an old generation or past its bound', async () => {
    const { lanes, log } = lanesWithLog();
    const running = mergeable(0, 0, 0, log);
    void lanes.push(running);
    await tick();
    const next = mergeable(0, 1, 1, log, 2);
    void lanes.push(next);
    expect(running.offsets).toEqual([0]);
    // A rebalance between two fetches: the batch fetched before it is not joined by the one fetched after.
    lanes.newGeneration();
    const afterRebalance = mergeable(0, 2, 2, log, 2);
    void lanes.push(afterRebalance);
    expect(next.offsets).toEqual([1]);
    void lanes.push(mergeable(0, 3, 3, log));
    let boundReturned = false;
    // `afterRebalance` holds two records now, its bound: the next queues behind it and its push waits.
    void lanes.push(mergeable(0, 4, 4, log)).then(() => (boundReturned = true));
    expect(afterRebalance.offsets).toEqual([2, 3]);
    await tick();
    expect(boundReturned).toBe(false);
  });

  it('seeks back to the first offset of a merged batch that gives up', async () => {
    const { lanes, log } = lanesWithLog();
    const running = gated(1, 0, 0, log);
    const waiting = mergeable(1, 1, 1, log);
    void lanes.push(running);
    void lanes.push(waiting);
    void lanes.push(mergeable(1, 2, 5, log));
    running.open();
    await tick();
    waiting.open('aborted');
    await tick();
    await tick();
    expect(log).toEqual(['run p1@0', 'handled p1 next 1', 'run p1@1 [1,2]', 'seek p1 1']);
  });

  it('drops what is queued behind a batch that gave up and fetches again from it', async () => {
    const { lanes, log } = lanesWithLog();
    const first = gated(2, 100, 109, log);
    const second = gated(2, 110, 119, log);
    void lanes.push(first);
    void lanes.push(second);
    first.open('aborted');
    await tick();
    await tick();
    expect(log).toEqual(['run p2@100', 'seek p2 100']);
    // Fetched again after the seek: runs in the lane as usual.
    const again = gated(2, 100, 119, log);
    void lanes.push(again);
    again.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p2@100', 'seek p2 100', 'run p2@100', 'handled p2 next 120']);
  });

  it('treats a batch that throws as given up, and reports the error', async () => {
    const { lanes, log } = lanesWithLog();
    const batch = gated(0, 5, 6, log);
    void lanes.push(batch);
    batch.fail(new Error('heartbeat: rebalance in progress'));
    await tick();
    await tick();
    expect(log).toEqual(['run p0@5', 'error p0 Error: heartbeat: rebalance in progress', 'seek p0 5']);
  });

  it('stops every batch of an old generation: none reports handled, none seeks, queued ones never run', async () => {
    const { lanes, log } = lanesWithLog();
    const running = gated(0, 0, 0, log);
    const queued = gated(0, 1, 1, log);
    void lanes.push(running);
    void lanes.push(queued);
    await tick();
    lanes.newGeneration();
    running.open();
    queued.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p0@0']);
    // A batch of the new generation runs after the old one settled.
    const fresh = gated(0, 0, 1, log);
    void lanes.push(fresh);
    fresh.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p0@0', 'run p0@0', 'handled p0 next 2']);
  });

  it('drain lets the running batch finish, drops the queued ones and resolves when all settled', async () => {
    const { lanes, log } = lanesWithLog();
    const running = gated(0, 0, 0, log);
    const queued = gated(0, 1, 1, log);
    void lanes.push(running);
    void lanes.push(queued);
    await tick();
    let drained = false;
    const draining = lanes.drain().then(() => (drained = true));
    await tick();
    expect(drained).toBe(false);
    running.open();
    await draining;
    // The running batch saw the stop at its next step (given up, no seek: the next owner reads it again); the queued
    // one never ran.
    expect(log).toEqual(['run p0@0']);
  });

  it('stops when the subscription fails: no seek, nothing queued runs', async () => {
    const { lanes, log, fail } = lanesWithLog();
    const running = gated(3, 0, 0, log);
    const queued = gated(3, 1, 1, log);
    void lanes.push(running);
    void lanes.push(queued);
    await tick();
    fail();
    running.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p3@0']);
  });

  it('runs at most `concurrency` batches at once, handing a freed slot to the batch that waited longest', async () => {
    const { lanes, log } = lanesWithLog(2);
    const batches = [0, 1, 2, 3].map((partition) => gated(partition, 0, 0, log));
    for (const batch of batches) void lanes.push(batch);
    await tick();
    expect(log).toEqual(['run p0@0', 'run p1@0']);
    batches[1]!.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p0@0', 'run p1@0', 'handled p1 next 1', 'run p2@0']);
    batches[0]!.open();
    batches[2]!.open();
    batches[3]!.open();
    await tick();
    await tick();
    await tick();
    expect(log.filter((l) => l.startsWith('run'))).toEqual(['run p0@0', 'run p1@0', 'run p2@0', 'run p3@0']);
    expect(log.filter((l) => l.startsWith('handled'))).toHaveLength(4);
    expect(() => lanesWithLog(0)).toThrow(/concurrency/);
  });
});

describe('PartitionLanes when a hook throws', () => {
  it('reports the error and keeps the lane going', async () => {
    const { lanes, log } = lanesWithLog(8, {
      seek: () => {
        throw new Error('seek refused');
      },
    });
    const gaveUp = gated(0, 0, 0, log);
    void lanes.push(gaveUp);
    gaveUp.open('aborted');
    await tick();
    const next = gated(0, 0, 0, log);
    void lanes.push(next);
    next.open();
    await tick();
    await tick();
    expect(log).toEqual(['run p0@0', 'error p0 Error: seek refused', 'run p0@0', 'handled p0 next 1']);
  });
});
