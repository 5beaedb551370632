import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  CONTRACT_VERSION,
  EvaluationStatus,
  TOPICS,
  TaskSpec,
  Traceparent,
  deterministicEventId,
  type ContextMessage,
  type Envelope,
  type TaskSubmitted,
} from '@signalbox/contracts';
import { traceTimeline, type NewEvent, type StoredEvent } from '@signalbox/event-log';
import type { AnswerBody, SubmitTaskBody } from './requests.js';

// What the API writes and reads about a task: ids, the task_submitted message (first submission and answer
// continuations), ownership and the status view. Pure functions; app.ts does the I/O.

/** The `Idempotency-Key` header: printable ASCII, 1–255 characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * The task id. With an Idempotency-Key it is derived from (tenant, key), so the same key of the same tenant always
 * names the same task and two tenants using one key never meet; without one it is random.
 */
export function taskIdFor(tenant: string, idempotencyKey: string | undefined): string {
  if (idempotencyKey === undefined) return `task_${randomUUID().replaceAll('-', '')}`;
  const digest = createHash('sha256').update(`${tenant}\u001f${idempotencyKey}`, 'utf8').digest('hex');
  return `task_${digest.slice(0, 32)}`;
}

/** A W3C traceparent: the caller's when it sent a valid one, else a fresh trace (OB-2). */
export function traceparentFor(header: string | undefined): string {
  if (header !== undefined && Traceparent.safeParse(header).success && !/^00-0{32}-/.test(header))
    return header;
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

/** Turns a validated submit body into the TaskSpec that travels with the task. */
export function taskSpecOf(body: SubmitTaskBody, now: Date): TaskSpec {
  return {
    request: body.request,
    context: body.context,
    locale: body.locale,
    time_zone: body.time_zone,
    reference_time: body.reference_time ?? now.toISOString(),
    cost_ceiling_usd: body.cost_ceiling_usd,
    required_modalities: body.required_modalities,
    attachments: body.attachments,
    scenario: body.scenario,
    needs_fresh_data: body.needs_fresh_data,
    redrive_of: null,
  };
}

/** What {@link submittedMessage} needs. */
export interface SubmissionParts {
  task_id: string;
  tenant_id: string;
  agent_id: string;
  task: TaskSpec;
  /** Null for the first submission; the answered `task_finished` event for a continuation. */
  causation_id: string | null;
  decision_reason: string;
  occurred_at: Date;
  traceparent: string;
}

/**
 * The `task_submitted` message and the event-log row of the same event. The event id is deterministic in (task,
 * `api`, causation): a retried submission or a concurrent second answer to one question maps to the same row.
 */
export function submittedMessage(parts: SubmissionParts): { message: TaskSubmitted; event: NewEvent } {
  const envelope: Envelope = {
    event_id: deterministicEventId({
      task_id: parts.task_id,
      stage: 'api',
      causation_id: parts.causation_id,
      event_type: 'task_submitted',
    }),
    task_id: parts.task_id,
    tenant_id: parts.tenant_id,
    agent_id: parts.agent_id,
    stage: 'api',
    event_type: 'task_submitted',
    causation_id: parts.causation_id,
    revision_count: 0,
    degraded_flag: false,
    decision_reason: parts.decision_reason,
    input_source: 'user',
    // The API decides nothing under a registry or policy; the stages record the versions they decide under.
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: parts.occurred_at.toISOString(),
    schema_version: CONTRACT_VERSION,
    traceparent: parts.traceparent,
  };
  const payload = { task: parts.task };
  // Validated here so that the event log never holds a submission the bus would refuse.
  const message = TOPICS.taskSubmitted.schema.parse({ ...envelope, payload }) as TaskSubmitted;
  return { message, event: { envelope, topic: TOPICS.taskSubmitted.name, payload } };
}

/** The message a stored `task_submitted` row was published as (to publish it again). */
export function messageOf(event: StoredEvent): TaskSubmitted {
  return TOPICS.taskSubmitted.schema.parse({ ...event.envelope, payload: event.payload }) as TaskSubmitted;
}

// Poison events that reached the log without a readable envelope carry this tenant (stage-kit); they never own a task.
const UNKNOWN_TENANT = 'unknown';

/** The tenant that owns a task: the tenant of its first event with a known tenant. */
export function ownerOf(events: readonly StoredEvent[]): string | undefined {
  return events.find((e) => e.envelope.tenant_id !== UNKNOWN_TENANT)?.envelope.tenant_id;
}

/** The outcome part of a `task_finished` payload, as `GET /v1/tasks/:id` returns it. */
export interface TaskResult {
  status: EvaluationStatus;
  steps: unknown[];
  evidence: unknown[];
  questions: string[];
  issues: string[];
  total_cost_usd: number | null;
  duration_ms: number | null;
}

function resultOf(payload: unknown): TaskResult | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const p = payload as Record<string, unknown>;
  const status = EvaluationStatus.safeParse(p.status);
  if (!status.success) return null;
  const list = <T>(value: unknown) => (Array.isArray(value) ? (value as T[]) : []);
  return {
    status: status.data,
    steps: list(p.steps),
    evidence: list(p.evidence),
    questions: list<string>(p.questions),
    issues: list<string>(p.issues),
    total_cost_usd: typeof p.total_cost_usd === 'number' ? p.total_cost_usd : null,
    duration_ms: typeof p.duration_ms === 'number' ? p.duration_ms : null,
  };
}

/** `GET /v1/tasks/:id`: where the task stands and, once finished, its result. */
export function taskView(events: readonly StoredEvent[]) {
  const timeline = traceTimeline(events);
  const latest = events.reduce((a, b) => (b.stream_version > a.stream_version ? b : a));
  const first = events.reduce((a, b) => (b.stream_version < a.stream_version ? b : a));
  const result = timeline.state === 'finished' ? resultOf(latest.payload) : null;
  return {
    task_id: timeline.task_id,
    agent_id: first.envelope.agent_id,
    state: timeline.state,
    submitted_at: first.envelope.occurred_at,
    last_event: {
      event_id: latest.envelope.event_id,
      stage: latest.envelope.stage,
      event_type: latest.envelope.event_type,
      decision_reason: latest.envelope.decision_reason,
      revision_count: latest.envelope.revision_count,
      degraded_flag: latest.envelope.degraded_flag,
      occurred_at: latest.envelope.occurred_at,
    },
    /** True when `POST /v1/tasks/:id/answers` would continue the task. */
    awaiting_answer: result?.status === 'need_clarification',
    result,
    loops: timeline.loops,
  };
}

/** The latest event if it is a `task_finished` asking for clarification (the only state an answer continues). */
export function awaitingAnswer(
  events: readonly StoredEvent[],
): { finished: StoredEvent; task: TaskSpec; questions: string[] } | undefined {
  const latest = events.reduce((a, b) => (b.stream_version > a.stream_version ? b : a));
  if (latest.envelope.event_type !== 'task_finished') return undefined;
  const result = resultOf(latest.payload);
  if (result?.status !== 'need_clarification') return undefined;
  const task = TaskSpec.safeParse((latest.payload as { task?: unknown }).task);
  if (!task.success) return undefined;
  return { finished: latest, task: task.data, questions: result.questions };
}

/**
 * The clarification an answer continues: the one the task is waiting on, or — while nothing has reacted to it yet — the
 * one whose answer is the latest event (its publish may have failed with a 503: the same answer sent again publishes
 * it; another answer is refused as `already_answered`).
 */
export function answerableClarification(events: readonly StoredEvent[]): ReturnType<typeof awaitingAnswer> {
  const waiting = awaitingAnswer(events);
  if (waiting) return waiting;
  const latest = events.reduce((a, b) => (b.stream_version > a.stream_version ? b : a));
  const { stage, event_type, causation_id } = latest.envelope;
  if (stage !== 'api' || event_type !== 'task_submitted' || causation_id === null) return undefined;
  const earlier = events.filter((e) => e !== latest);
  if (earlier.length === 0) return undefined;
  const answered = awaitingAnswer(earlier);
  return answered?.finished.envelope.event_id === causation_id ? answered : undefined;
}

/**
 * The task of an answer continuation: the finished task's spec with the exchange appended to its context — the
 * questions asked (assistant), the answer (user) and a confirmation as a user message
 * `confirm <tool> sha256:<arguments hash>`, the line the executor's confirmation gate reads (EX-2). The request, reference time and everything else stay as
 * submitted, so the re-run reads relative dates against the same "now".
 */
export function continuationTask(task: TaskSpec, questions: readonly string[], answer: AnswerBody): TaskSpec {
  const added: ContextMessage[] = [];
  if (questions.length > 0) added.push({ role: 'assistant', content: questions.join('\n') });
  if (answer.answer !== undefined) added.push({ role: 'user', content: answer.answer });
  if (answer.confirmation !== undefined) {
    added.push({
      role: 'user',
      // The executor's confirmation gate (EX-2) reads exactly this line from user turns.
      content: `confirm ${answer.confirmation.tool} sha256:${answer.confirmation.arguments_hash}`,
    });
  }
  return { ...task, context: [...task.context, ...added], redrive_of: null };
}
