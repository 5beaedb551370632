import { randomUUID } from 'node:crypto';
import { deterministicEventId, type Envelope } from '@signalbox/contracts';
import type { EventStore, NewEvent } from './event-store.js';

/** Options of {@link benchAppend}. */
export interface BenchAppendOptions {
  /** How many `append` calls to make, one after another. */
  batches: number;
  /** Events per `append` call. */
  batchSize: number;
  /**
   * Distinct tasks each batch spreads its events over (a stage's batch holds several tasks' decisions).
   * @default min(batchSize, 8)
   */
  tasksPerBatch?: number;
  /**
   * Size of each event's payload in bytes of JSON, roughly.
   * @default 512
   */
  payloadBytes?: number;
}

/** What {@link benchAppend} measured. */
export interface BenchAppendResult {
  /** Events appended per second of wall time (the headline figure). */
  appendsPerSecond: number;
  /** `append` calls (batches) per second. */
  batchesPerSecond: number;
  events: number;
  batches: number;
  elapsedMs: number;
}

/**
 * Appends `batches × batchSize` fresh events, sequentially awaited like a stage does, and reports the rate. The
 * store must be migrated. Not a timed assertion: the backbone benchmark prints the figure.
 */
export async function benchAppend(
  store: EventStore,
  options: BenchAppendOptions,
): Promise<BenchAppendResult> {
  const { batches, batchSize } = options;
  const tasksPerBatch = options.tasksPerBatch ?? Math.min(batchSize, 8);
  const payloadBytes = options.payloadBytes ?? 512;
  for (const [name, value] of Object.entries({ batches, batchSize, tasksPerBatch })) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  }
  const run = randomUUID().slice(0, 8);
  const filler = 'x'.repeat(Math.max(0, payloadBytes - 40));
  const started = performance.now();
  for (let b = 0; b < batches; b++) {
    const events: NewEvent[] = [];
    for (let i = 0; i < batchSize; i++) {
      const taskId = `bench-${run}-${b}-${i % tasksPerBatch}`;
      const causationId = `cause-${run}-${b}-${i}`;
      const envelope: Envelope = {
        event_id: deterministicEventId({
          task_id: taskId,
          stage: 'tool_decider',
          causation_id: causationId,
          event_type: 'task.planned',
        }),
        task_id: taskId,
        tenant_id: 'bench',
        agent_id: 'bench-agent',
        stage: 'tool_decider',
        event_type: 'task.planned',
        causation_id: causationId,
        revision_count: 0,
        degraded_flag: false,
        decision_reason: 'benchmark',
        input_source: 'pipeline',
        registry_version: 'r1',
        profiles_version: 'p1',
        policy_version: 'pol1',
        occurred_at: new Date().toISOString(),
        schema_version: 1,
        traceparent: null,
      };
      events.push({ envelope, topic: 'signalbox.task.planned.v1', payload: { step: i, filler } });
    }
    await store.append(events);
  }
  const elapsedMs = performance.now() - started;
  const events = batches * batchSize;
  return {
    appendsPerSecond: (events * 1000) / elapsedMs,
    batchesPerSecond: (batches * 1000) / elapsedMs,
    events,
    batches,
    elapsedMs,
  };
}
