import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Registry } from '@signalbox/registry';
import {
  CONTRACT_VERSION,
  argumentsHash,
  EvaluationStatus,
  TOPICS,
  TaskSpec,
  Traceparent,
  deterministicEventId,
  type ContextMessage,
  type Envelope,
  type TaskSubmitted,
} from '@signalbox/contracts';
import {
  traceTimeline,
  type ModelExchange,
  type NewEvent,
  type StoredEvent,
  type TraceTimeline,
} from '@signalbox/event-log';
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

/**
 * EX-2: the call the executor's confirmation gate stopped, as data — what `POST /v1/tasks/:id/answers` takes as
 * `confirmation` (`tool`, `arguments_hash`), with the arguments to show the user (sensitive values redacted).
 */
export interface PendingConfirmation {
  tool: string;
  /** The step of the plan the call is for. */
  step_index: number;
  /** The call's arguments as the event log shows them: values of sensitive fields (PI-5) read `"[REDACTED]"`. */
  arguments: unknown;
  /** sha256 hex of the canonical JSON (RFC 8785) of the call's real arguments: the hash the gate checks. */
  arguments_hash: string;
}

/**
 * `sha256(canonical JSON of the arguments)` in hex, as the executor binds a confirmation to a call (EX-2): the one
 * function of @signalbox/contracts, which the executor and `@signalbox/client` use too.
 */
export { argumentsHash };

/**
 * The executor's `need_confirmation`, when it is what the task waits on: the latest event is a `task_finished` of the
 * executor (its only terminal decision is the confirmation gate's) and its cause is the `step_prepared` whose call was
 * stopped. `app.ts` reads that event again with its secrets to hash the real arguments.
 */
export function confirmationAsked(
  events: readonly StoredEvent[],
): { finished: StoredEvent; prepared: StoredEvent } | undefined {
  const latest = events.reduce((a, b) => (b.stream_version > a.stream_version ? b : a));
  const { stage, event_type, causation_id } = latest.envelope;
  if (stage !== 'executor' || event_type !== 'task_finished' || causation_id === null) return undefined;
  if (resultOf(latest.payload)?.status !== 'need_clarification') return undefined;
  const prepared = events.find((e) => e.envelope.event_id === causation_id);
  if (prepared?.envelope.event_type !== 'step_prepared') return undefined;
  return { finished: latest, prepared };
}

/**
 * The pending confirmation of {@link confirmationAsked}: the shown arguments from `prepared` (as read, redacted), the
 * hash from `withSecrets` (the same event read with its secrets; the hash is of what the executor saw).
 */
export function pendingConfirmation(
  prepared: StoredEvent,
  withSecrets: StoredEvent,
): PendingConfirmation | null {
  const callOf = (payload: unknown) =>
    (payload as { call?: { tool?: unknown; step_index?: unknown; arguments?: unknown } } | null)?.call;
  const shown = callOf(prepared.payload);
  const real = callOf(withSecrets.payload);
  if (typeof shown?.tool !== 'string' || typeof shown.step_index !== 'number' || real === undefined)
    return null;
  return {
    tool: shown.tool,
    step_index: shown.step_index,
    arguments: shown.arguments ?? {},
    arguments_hash: argumentsHash(real.arguments ?? {}),
  };
}

/** The evidence a finished task ended on: the last step that succeeded, its tool and what it returned. */
export interface TaskAnswer {
  tool: string;
  step_index: number;
  output: unknown;
}

function answerOf(result: TaskResult | null): TaskAnswer | null {
  if (result === null) return null;
  for (let i = result.steps.length - 1; i >= 0; i--) {
    const step = result.steps[i] as {
      call?: { tool?: unknown };
      result?: { ok?: unknown; output?: unknown; step_index?: unknown };
    };
    if (step.result?.ok !== true || typeof step.call?.tool !== 'string') continue;
    return {
      tool: step.call.tool,
      step_index: typeof step.result.step_index === 'number' ? step.result.step_index : i,
      output: step.result.output ?? null,
    };
  }
  return null;
}

/**
 * `GET /v1/tasks/:id`: where the task stands and, once finished, its result. `confirmation` is the pending
 * confirmation when the task waits on one (see {@link confirmationAsked}); null otherwise.
 */
export function taskView(events: readonly StoredEvent[], confirmation: PendingConfirmation | null = null) {
  const timeline = traceTimeline(events);
  const latest = events.reduce((a, b) => (b.stream_version > a.stream_version ? b : a));
  const first = events.reduce((a, b) => (b.stream_version < a.stream_version ? b : a));
  const result = timeline.state === 'finished' ? resultOf(latest.payload) : null;
  const request = (first.payload as { task?: { request?: unknown } } | null)?.task?.request;
  return {
    task_id: timeline.task_id,
    agent_id: first.envelope.agent_id,
    /** The user's request, as first submitted. */
    request: typeof request === 'string' ? request : null,
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
    /** What the task answered: the last step that succeeded (null until finished, or when no step succeeded). */
    answer: answerOf(result),
    /** EX-2: the call waiting for a confirmation, as `POST …/answers` takes it; null when none is asked for. */
    pending_confirmation: result?.status === 'need_clarification' ? confirmation : null,
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

/** What a decision's model calls took (EL-7), summed: one row of the viewer's decision table. */
export interface ModelCallsSummary {
  /** Calls made, answered or failed. */
  count: number;
  failed: number;
  /** Tokens of the answered calls. */
  input_tokens: number;
  output_tokens: number;
  /** Wall time of all calls, in milliseconds. */
  latency_ms: number;
  /**
   * What the answered calls cost at their profiles' `cost_per_1k_tokens`; 0 without calls. Null when a profile's price
   * is not known for the decision: the API has no registry, or the decision was taken under other profiles than the
   * loaded registry's (its price then may not be the one paid).
   */
  cost_usd: number | null;
}

/** Sums the model calls of one decision, priced by `registry` when it holds the profiles the decision used. */
export function modelCallsSummary(
  exchanges: readonly ModelExchange[],
  profilesVersion: string | null,
  registry: Registry | undefined,
): ModelCallsSummary {
  const summary: ModelCallsSummary = {
    count: exchanges.length,
    failed: 0,
    input_tokens: 0,
    output_tokens: 0,
    latency_ms: 0,
    cost_usd: 0,
  };
  const priced = registry !== undefined && registry.versions.profiles_version === profilesVersion;
  for (const x of exchanges) {
    summary.latency_ms += x.latency_ms;
    if (x.error) {
      summary.failed += 1;
      continue;
    }
    summary.input_tokens += x.input_tokens;
    summary.output_tokens += x.output_tokens;
    const price = priced ? registry.profile(x.profile_id)?.cost_per_1k_tokens : undefined;
    summary.cost_usd =
      price === undefined || summary.cost_usd === null
        ? null
        : summary.cost_usd + (x.input_tokens / 1000) * price.input + (x.output_tokens / 1000) * price.output;
  }
  return summary;
}

/**
 * `GET /v1/traces/:taskId`: the timeline (EL-6) with, on each decision, the summary of its model calls, priced by the
 * first of `registries` whose profiles the decision was taken under. Needs the events read `withExchanges`.
 */
export function traceView(
  events: readonly StoredEvent[],
  registries: Registry | readonly Registry[] | undefined,
): Omit<TraceTimeline, 'events'> & {
  events: (TraceTimeline['events'][number] & { model_calls: ModelCallsSummary })[];
} {
  const timeline = traceTimeline(events);
  const candidates: readonly Registry[] =
    registries === undefined ? [] : Array.isArray(registries) ? registries : [registries as Registry];
  const pricing = (profilesVersion: string | null) =>
    candidates.find((r) => r.versions.profiles_version === profilesVersion);
  const exchanges = new Map(events.map((e) => [e.envelope.event_id, e.exchanges ?? []]));
  return {
    ...timeline,
    events: timeline.events.map((entry) => ({
      ...entry,
      model_calls: modelCallsSummary(
        exchanges.get(entry.event_id) ?? [],
        entry.versions.profiles_version,
        pricing(entry.versions.profiles_version),
      ),
    })),
  };
}
