import { deterministicEventId, type Envelope } from '@signalbox/contracts';
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from './event-store.js';
import { traceTimeline } from './trace-timeline.js';

const T0 = Date.parse('2026-11-30T09:00:00.000Z');
let position = 0n;

/** A stored event of task-1 recorded `atMs` after T0. */
function stored(
  streamVersion: number,
  atMs: number,
  envelope: Partial<Envelope> & Pick<Envelope, 'stage' | 'event_type'>,
  payload: unknown = {},
): StoredEvent {
  const causation = envelope.causation_id === undefined ? `c${streamVersion}` : envelope.causation_id;
  position += 1n;
  return {
    envelope: {
      event_id: deterministicEventId({
        task_id: 'task-1',
        stage: envelope.stage,
        causation_id: causation,
        event_type: envelope.event_type,
      }),
      task_id: 'task-1',
      tenant_id: 'tenant-a',
      agent_id: 'refund_agent',
      causation_id: causation,
      revision_count: 0,
      degraded_flag: false,
      decision_reason: `reason ${streamVersion}`,
      input_source: 'pipeline',
      registry_version: 'reg-1',
      profiles_version: 'prof-1',
      policy_version: 'pol-1',
      occurred_at: new Date(T0 + atMs - 1).toISOString(),
      schema_version: 1,
      traceparent: null,
      ...envelope,
    },
    topic: null,
    payload,
    global_position: position,
    stream_version: streamVersion,
    recorded_at: new Date(T0 + atMs),
  };
}

const plan = { steps: [{ tool: 'order_status_query' }, { tool: 'refund_create' }] };

// A refund task that needed a re-inject, a re-plan, a degradation and a next step, then asked the user and
// continued after the answer.
const events: StoredEvent[] = [
  stored(1, 0, { stage: 'api', event_type: 'task_submitted', causation_id: null, input_source: 'user' }),
  stored(2, 40, { stage: 'model_selector', event_type: 'model_selected' }),
  stored(3, 100, { stage: 'tool_decider', event_type: 'task_planned' }, { plan, step_index: 0 }),
  stored(
    4,
    130,
    { stage: 'parameter_injector', event_type: 'step_prepared' },
    { call: { tool: 'order_status_query' } },
  ),
  stored(
    5,
    330,
    { stage: 'executor', event_type: 'step_executed' },
    { call: { tool: 'order_status_query' } },
  ),
  stored(
    6,
    350,
    { stage: 'result_evaluator', event_type: 'reinject_requested', revision_count: 1 },
    { plan, step_index: 0 },
  ),
  stored(7, 360, { stage: 'result_evaluator', event_type: 'replan_requested', revision_count: 2 }),
  stored(8, 380, {
    stage: 'result_evaluator',
    event_type: 'degrade_requested',
    revision_count: 3,
    degraded_flag: true,
  }),
  stored(9, 400, { stage: 'result_evaluator', event_type: 'next_step_requested' }, { plan, step_index: 1 }),
  stored(
    10,
    500,
    { stage: 'result_evaluator', event_type: 'task_finished' },
    { status: 'need_clarification' },
  ),
  stored(11, 9_500, {
    stage: 'api',
    event_type: 'task_submitted',
    causation_id: 'answer',
    input_source: 'user',
  }),
];

describe('traceTimeline (EL-6)', () => {
  it('gives each event its durations since the previous event and since the start, on the database clock', () => {
    const t = traceTimeline(events);
    expect(t.events.map((e) => e.since_previous_ms)).toEqual([
      0, 40, 60, 30, 200, 20, 10, 20, 20, 100, 9_000,
    ]);
    expect(t.events.map((e) => e.since_start_ms)).toEqual([
      0, 40, 100, 130, 330, 350, 360, 380, 400, 500, 9_500,
    ]);
    expect(t.duration_ms).toBe(9_500);
    expect(t.started_at).toBe('2026-11-30T09:00:00.000Z');
    expect(t.last_activity_at).toBe('2026-11-30T09:00:09.500Z');
  });

  it('gives each decision the stage’s own work time when it was recorded, null when not', () => {
    const timed = events.map((e, i) => (i === 2 ? { ...e, work_ms: 12 } : e));
    const t = traceTimeline(timed);
    expect(t.events[2]?.work_ms).toBe(12);
    // The gap since the previous decision is not the work: it also holds the bus and the queue.
    expect(t.events[2]?.since_previous_ms).toBe(60);
    expect(t.events.filter((e) => e.work_ms === null)).toHaveLength(events.length - 1);
  });

  it('counts the loops taken and marks the event that opened each', () => {
    const t = traceTimeline(events);
    expect(t.loops).toEqual({ replan: 1, reinject: 1, degrade: 1, next_step: 1, continuation: 1 });
    expect(t.events.map((e) => e.loop)).toEqual([
      null,
      null,
      null,
      null,
      null,
      'reinject',
      'replan',
      'degrade',
      'next_step',
      null,
      'continuation',
    ]);
  });

  it('carries reason, revision, degraded flag, versions and the step tool of each decision', () => {
    const t = traceTimeline(events);
    const degrade = t.events[7];
    expect(degrade).toMatchObject({
      stage: 'result_evaluator',
      event_type: 'degrade_requested',
      decision_reason: 'reason 8',
      revision_count: 3,
      degraded_flag: true,
      versions: { registry_version: 'reg-1', profiles_version: 'prof-1', policy_version: 'pol-1' },
    });
    expect(t.events.map((e) => e.tool)).toEqual([
      null,
      null,
      'order_status_query',
      'order_status_query',
      'order_status_query',
      'order_status_query',
      null,
      null,
      'refund_create',
      null,
      null,
    ]);
    expect(t.max_revision_count).toBe(3);
    expect(t.degraded).toBe(true);
  });

  it('reads the state from the latest event: running after a continuation, finished with its status, failed', () => {
    expect(traceTimeline(events)).toMatchObject({ state: 'running', status: null });
    expect(traceTimeline(events.slice(0, 10))).toMatchObject({
      state: 'finished',
      status: 'need_clarification',
    });
    const deadLettered = stored(11, 600, { stage: 'executor', event_type: 'failed' });
    expect(traceTimeline([...events.slice(0, 10), deadLettered])).toMatchObject({
      state: 'failed',
      status: null,
    });
  });

  it('marks failed decisions: a failed call, a failed task, a dead-lettered input', () => {
    const t = traceTimeline([
      ...events.slice(0, 4),
      stored(
        5,
        330,
        { stage: 'executor', event_type: 'step_executed' },
        { call: { tool: 'order_status_query' }, result: { ok: false } },
      ),
      stored(
        6,
        340,
        { stage: 'executor', event_type: 'step_executed' },
        { call: { tool: 'order_status_query' }, result: { ok: true } },
      ),
      stored(7, 350, { stage: 'result_evaluator', event_type: 'task_finished' }, { status: 'failed' }),
      stored(8, 360, { stage: 'result_evaluator', event_type: 'task_finished' }, { status: 'success' }),
      stored(9, 370, { stage: 'executor', event_type: 'failed' }, null),
    ]);
    expect(t.events.map((e) => e.failed)).toEqual([
      false,
      false,
      false,
      false,
      true,
      false,
      true,
      false,
      true,
    ]);
  });

  it('orders by stream version whatever the input order, and refuses empty or mixed input', () => {
    const t = traceTimeline([...events].reverse());
    expect(t.events.map((e) => e.stream_version)).toEqual(events.map((e) => e.stream_version));
    expect(() => traceTimeline([])).toThrow(RangeError);
    const other = stored(12, 9_600, { stage: 'api', event_type: 'task_submitted', task_id: 'task-2' });
    expect(() => traceTimeline([...events, other])).toThrow(/two tasks/);
  });
});
