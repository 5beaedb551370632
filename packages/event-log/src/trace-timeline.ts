import { EvaluationStatus, type InputSource, type Stage } from '@signalbox/contracts';
import type { StoredEvent } from './event-store.js';

// EL-6: the timeline of one task, as a pure function over `readTask` rows, so the API, the CLI's `trace` command
// and the web viewer all show the same durations and loops.

/** A feedback loop an event opens (SPEC §1 routing), or the continuation of an answered clarification. */
export type TimelineLoop = 'replan' | 'reinject' | 'degrade' | 'next_step' | 'continuation';

/** The message kind that opens each loop. */
export const LOOP_OF_EVENT_TYPE: Readonly<Record<string, TimelineLoop>> = {
  replan_requested: 'replan',
  reinject_requested: 'reinject',
  degrade_requested: 'degrade',
  next_step_requested: 'next_step',
};

/** One decision on the timeline. */
export interface TimelineEntry {
  stream_version: number;
  event_id: string;
  causation_id: string | null;
  stage: Stage;
  event_type: string;
  decision_reason: string;
  revision_count: number;
  degraded_flag: boolean;
  input_source: InputSource;
  versions: {
    registry_version: string | null;
    profiles_version: string | null;
    policy_version: string | null;
  };
  /** When the stage decided (its own clock). */
  occurred_at: string;
  /** When the event log stored it (the database clock; durations use this one clock). */
  recorded_at: string;
  /** Milliseconds since the previous event of the task was recorded; 0 for the first. */
  since_previous_ms: number;
  /** Milliseconds since the task's first event was recorded. */
  since_start_ms: number;
  /**
   * The stage's own time on this decision (its decision function, retries included), when the stage runtime recorded
   * it; null for the API's submissions and for events recorded before it was. `since_previous_ms` also holds the bus,
   * the queue and the append.
   */
  work_ms: number | null;
  /** The loop this event opens, if any. */
  loop: TimelineLoop | null;
  /** The tool of the step this event is about (prepared, executed, or planned next), when there is one. */
  tool: string | null;
  /**
   * The decision records a failure: a stage's `failed` event (its input was dead-lettered), a step whose call
   * failed (`step_executed` with `result.ok` false) or a `task_finished` with status `failed`.
   */
  failed: boolean;
}

/** Where a task stands, from its latest event. */
export type TaskState =
  /** Work is in flight (or waiting in a topic). */
  | 'running'
  /** The latest event is `task_finished`. */
  | 'finished'
  /** The latest event is a stage's `failed` event: its input was dead-lettered and nothing more will happen. */
  | 'failed';

/** EL-6: one task's timeline with its loops. */
export interface TraceTimeline {
  task_id: string;
  /** Tenant and agent of the task's first event. */
  tenant_id: string;
  agent_id: string;
  state: TaskState;
  /** The latest `task_finished` status when `state` is `finished`; null otherwise. */
  status: EvaluationStatus | null;
  started_at: string;
  last_activity_at: string;
  /** From the first to the latest recorded event. */
  duration_ms: number;
  /** How many times each loop was taken. */
  loops: Record<TimelineLoop, number>;
  max_revision_count: number;
  degraded: boolean;
  events: TimelineEntry[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function stringAt(value: unknown, key: string): string | null {
  return isRecord(value) && typeof value[key] === 'string' ? value[key] : null;
}

/** The tool a step event is about: its call, or the planned step it asks to prepare. */
function toolOf(payload: unknown): string | null {
  if (!isRecord(payload)) return null;
  const called = stringAt(payload.call, 'tool');
  if (called !== null) return called;
  const plan = payload.plan;
  const index = payload.step_index;
  if (isRecord(plan) && Array.isArray(plan.steps) && typeof index === 'number') {
    return stringAt(plan.steps[index], 'tool');
  }
  return null;
}

/** See {@link TimelineEntry.failed}. */
function isFailure(eventType: string, payload: unknown): boolean {
  if (eventType === 'failed') return true;
  if (!isRecord(payload)) return false;
  if (eventType === 'step_executed') return isRecord(payload.result) && payload.result.ok === false;
  return eventType === 'task_finished' && payload.status === 'failed';
}

/**
 * Builds the timeline of one task from its events in stream order (as `EventStore.readTask` returns them).
 * Throws RangeError for no events or events of several tasks — both are caller bugs.
 */
export function traceTimeline(events: readonly StoredEvent[]): TraceTimeline {
  const ordered = [...events].sort((a, b) => a.stream_version - b.stream_version);
  const first = ordered[0];
  const latest = ordered[ordered.length - 1];
  if (first === undefined || latest === undefined)
    throw new RangeError('traceTimeline needs at least one event');
  const taskId = first.envelope.task_id;
  const start = first.recorded_at.getTime();
  const loops: Record<TimelineLoop, number> = {
    replan: 0,
    reinject: 0,
    degrade: 0,
    next_step: 0,
    continuation: 0,
  };
  let previous = start;
  const entries = ordered.map((event): TimelineEntry => {
    const e = event.envelope;
    if (e.task_id !== taskId) {
      throw new RangeError(`traceTimeline got events of two tasks: ${taskId} and ${e.task_id}`);
    }
    const at = event.recorded_at.getTime();
    // A task_submitted that reacts to something is an answer continuing the task (the API links it to the
    // task_finished it answers); the first submission has no cause.
    const loop =
      LOOP_OF_EVENT_TYPE[e.event_type] ??
      (e.event_type === 'task_submitted' && e.causation_id !== null ? 'continuation' : null);
    if (loop !== null) loops[loop] += 1;
    const entry: TimelineEntry = {
      stream_version: event.stream_version,
      event_id: e.event_id,
      causation_id: e.causation_id,
      stage: e.stage,
      event_type: e.event_type,
      decision_reason: e.decision_reason,
      revision_count: e.revision_count,
      degraded_flag: e.degraded_flag,
      input_source: e.input_source,
      versions: {
        registry_version: e.registry_version,
        profiles_version: e.profiles_version,
        policy_version: e.policy_version,
      },
      occurred_at: e.occurred_at,
      recorded_at: event.recorded_at.toISOString(),
      since_previous_ms: at - previous,
      since_start_ms: at - start,
      work_ms: event.work_ms ?? null,
      loop,
      tool: toolOf(event.payload),
      failed: isFailure(e.event_type, event.payload),
    };
    previous = at;
    return entry;
  });
  const state: TaskState =
    latest.envelope.event_type === 'task_finished'
      ? 'finished'
      : latest.envelope.event_type === 'failed'
        ? 'failed'
        : 'running';
  const status = state === 'finished' ? EvaluationStatus.safeParse(stringAt(latest.payload, 'status')) : null;
  const end = latest.recorded_at.getTime();
  return {
    task_id: taskId,
    tenant_id: first.envelope.tenant_id,
    agent_id: first.envelope.agent_id,
    state,
    status: status?.success ? status.data : null,
    started_at: new Date(start).toISOString(),
    last_activity_at: latest.recorded_at.toISOString(),
    duration_ms: end - start,
    loops,
    max_revision_count: Math.max(...ordered.map((e) => e.envelope.revision_count)),
    degraded: ordered.some((e) => e.envelope.degraded_flag),
    events: entries,
  };
}
