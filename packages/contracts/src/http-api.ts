import { z } from 'zod';
import { Stage } from './stage.js';
import { AttachmentMeta, ContextMessage, EvaluationStatus, TaskSpec } from './task.js';

// The wire shapes of the HTTP API (IF-1, services/api): the request bodies its routes validate with and the responses
// they send. One source for three users: the API validates requests with these schemas, its OpenAPI document
// (`GET /v1/openapi.json`) is generated from them, and `@signalbox/client` takes its types from them — so the
// document, the server and the client cannot drift apart. Requests are strict (an unknown field is an error, so a typo
// never falls back to a default); responses are documented as exact, and clients should still ignore fields they do
// not know, since a later version may add some.

const isTimeZone = (tz: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};
const isLocale = (locale: string) => {
  try {
    return Intl.getCanonicalLocales(locale).length === 1;
  } catch {
    return false;
  }
};

/** `POST /v1/tasks`: the task as a caller submits it (MS-1). Omitted fields take the documented defaults. */
export const SubmitTaskRequest = z
  .strictObject({
    request: z.string().trim().min(1).max(100_000).describe("The user's request."),
    agent_id: z.string().min(1).max(128).describe('The agent the task runs as (RG-4 visibility).'),
    context: z.array(ContextMessage).max(200).default([]).describe('Conversation turns before the request.'),
    locale: z
      .string()
      .min(2)
      .max(35)
      .refine(isLocale, 'not a BCP 47 locale')
      .default('en')
      .describe('BCP 47 locale of the request.'),
    time_zone: z
      .string()
      .min(1)
      .max(64)
      .refine(isTimeZone, 'not an IANA time zone')
      .default('UTC')
      .describe('IANA time zone for relative dates.'),
    reference_time: z.iso
      .datetime({ offset: true })
      .optional()
      .describe(
        '"Now" for relative dates, ISO-8601 with offset; default: the time the API received the task.',
      ),
    cost_ceiling_usd: z
      .number()
      .min(0)
      .max(1_000_000)
      .nullable()
      .default(null)
      .describe("Cost ceiling of the task; null: the tenant's ceiling applies."),
    required_modalities: TaskSpec.shape.required_modalities.default([]),
    attachments: z
      .array(AttachmentMeta)
      .max(50)
      .default([])
      .describe('Attachment metadata only; the bytes never travel on the bus.'),
    scenario: z
      .string()
      .min(1)
      .max(128)
      .nullable()
      .default(null)
      .describe("A scenario hint (e.g. `after-sales`); null: the decider's router picks one."),
    needs_fresh_data: z.boolean().default(false).describe('Bypass read caches (EX-6).'),
  })
  .meta({ id: 'SubmitTaskRequest' });
export type SubmitTaskRequest = z.input<typeof SubmitTaskRequest>;

/** EX-2: a confirmation bound to one exact call: the tool and the sha256 hex of its canonical JSON arguments. */
export const Confirmation = z
  .strictObject({
    tool: z.string().min(1).max(128),
    arguments_hash: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'expected the 64-character lower-case sha256 hex')
      .describe('sha256 hex of the RFC 8785 canonical JSON of the call arguments (`argumentsHash`).'),
  })
  .meta({ id: 'Confirmation' });
export type Confirmation = z.infer<typeof Confirmation>;

/** `POST /v1/tasks/:id/answers`: an answer to `need_clarification`, a confirmation, or both. */
export const AnswerRequest = z
  .strictObject({
    answer: z
      .string()
      .trim()
      .min(1)
      .max(100_000)
      .optional()
      .describe("The user's answer to the questions of the task's `task_finished`."),
    confirmation: Confirmation.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.answer === undefined && body.confirmation === undefined) {
      ctx.addIssue({ code: 'custom', path: ['answer'], message: 'give an answer, a confirmation, or both' });
    }
  })
  .meta({ id: 'AnswerRequest', description: 'An answer, a confirmation, or both (at least one).' });
export type AnswerRequest = z.input<typeof AnswerRequest>;

/** One invalid field of a request: a dotted path (`task.context.0.role`) and what is wrong with it. */
export const FieldError = z.object({ path: z.string(), message: z.string() }).meta({ id: 'FieldError' });
export type FieldError = z.infer<typeof FieldError>;

/** Every error answer: a stable `code` to switch on, a message, and for `invalid_request` the field errors. */
export const ErrorResponse = z
  .object({
    error: z.object({
      code: z
        .string()
        .describe(
          'invalid_request, unauthorized, not_found, idempotency_conflict, not_awaiting_answer, already_answered, ' +
            'unprocessable, payload_too_large, unsupported_media_type, unavailable, internal',
        ),
      message: z.string(),
      fields: z.array(FieldError).optional(),
    }),
  })
  .meta({ id: 'ErrorResponse' });
export type ErrorResponse = z.infer<typeof ErrorResponse>;

/** Where a task's resources are. */
export const TaskLinks = z
  .object({ task: z.string(), answers: z.string(), events: z.string(), trace: z.string() })
  .meta({ id: 'TaskLinks' });
export type TaskLinks = z.infer<typeof TaskLinks>;

/** `202` to `POST /v1/tasks`. */
export const TaskAccepted = z
  .object({ task_id: z.string(), state: z.literal('running'), links: TaskLinks })
  .meta({ id: 'TaskAccepted' });
export type TaskAccepted = z.infer<typeof TaskAccepted>;

/** `202` to `POST /v1/tasks/:id/answers`. */
export const AnswerAccepted = z
  .object({
    task_id: z.string(),
    state: z.literal('running'),
    continuation_event_id: z.string().describe('The task_submitted event that continues the task.'),
    answers_event_id: z.string().describe('The task_finished event the answer answers.'),
    links: TaskLinks,
  })
  .meta({ id: 'AnswerAccepted' });
export type AnswerAccepted = z.infer<typeof AnswerAccepted>;

/** Where a task stands: work in flight, finished (latest event `task_finished`), or failed (dead-lettered). */
export const TaskState = z.enum(['running', 'finished', 'failed']).meta({ id: 'TaskState' });
export type TaskState = z.infer<typeof TaskState>;

/** The outcome part of a `task_finished` payload. */
export const TaskResult = z
  .object({
    status: EvaluationStatus,
    steps: z.array(z.unknown()),
    evidence: z.array(z.unknown()),
    questions: z.array(z.string()),
    issues: z.array(z.string()),
    total_cost_usd: z.number().nullable(),
    duration_ms: z.number().nullable(),
  })
  .meta({ id: 'TaskResult' });
export type TaskResult = z.infer<typeof TaskResult>;

/** EX-2: the call the executor's confirmation gate stopped, as `POST …/answers` takes it as `confirmation`. */
export const PendingConfirmation = z
  .object({
    tool: z.string(),
    step_index: z.number().int(),
    arguments: z.unknown().describe('The arguments as the event log shows them (sensitive values redacted).'),
    arguments_hash: z.string().describe('sha256 hex of the canonical JSON of the real arguments.'),
  })
  .meta({ id: 'PendingConfirmation' });
export type PendingConfirmation = z.infer<typeof PendingConfirmation>;

/** What a finished task answered: the last step that succeeded. */
export const TaskAnswer = z
  .object({ tool: z.string(), step_index: z.number().int(), output: z.unknown() })
  .meta({ id: 'TaskAnswer' });
export type TaskAnswer = z.infer<typeof TaskAnswer>;

/** How many times each feedback loop was taken. */
export const TimelineLoops = z
  .object({
    replan: z.number().int(),
    reinject: z.number().int(),
    degrade: z.number().int(),
    next_step: z.number().int(),
    continuation: z.number().int(),
  })
  .meta({ id: 'TimelineLoops' });

/** `GET /v1/tasks/:id` (and each server-sent event of `GET /v1/tasks/:id/events`). */
export const TaskStatus = z
  .object({
    task_id: z.string(),
    agent_id: z.string(),
    request: z.string().nullable().describe("The user's request, as first submitted."),
    state: TaskState,
    submitted_at: z.string(),
    last_event: z.object({
      event_id: z.string(),
      stage: Stage,
      event_type: z.string(),
      decision_reason: z.string(),
      revision_count: z.number().int(),
      degraded_flag: z.boolean(),
      occurred_at: z.string(),
    }),
    awaiting_answer: z.boolean().describe('True when `POST /v1/tasks/:id/answers` would continue the task.'),
    result: TaskResult.nullable(),
    answer: TaskAnswer.nullable().describe(
      'What the task answered: the last step that succeeded; null until then.',
    ),
    pending_confirmation: PendingConfirmation.nullable().describe(
      'EX-2: the call waiting for a confirmation, as `POST …/answers` takes it; null when none is asked for.',
    ),
    loops: TimelineLoops,
    links: TaskLinks,
  })
  .meta({ id: 'TaskStatus' });
export type TaskStatus = z.infer<typeof TaskStatus>;

/** One task of `GET /v1/traces`. */
export const TraceListItem = z
  .object({
    task_id: z.string(),
    agent_id: z.string(),
    status: EvaluationStatus.nullable(),
    last_stage: Stage,
    last_event_type: z.string(),
    event_count: z.number().int(),
    degraded: z.boolean(),
    max_revision_count: z.number().int(),
    started_at: z.string(),
    last_activity_at: z.string(),
    links: TaskLinks,
  })
  .meta({ id: 'TraceListItem' });
export type TraceListItem = z.infer<typeof TraceListItem>;

/** `GET /v1/traces`: newest first; `next_cursor` fetches the next page (null on the last). */
export const TraceList = z
  .object({ traces: z.array(TraceListItem), next_cursor: z.string().nullable() })
  .meta({ id: 'TraceList' });
export type TraceList = z.infer<typeof TraceList>;

/** What a decision's model calls took (EL-7), summed. */
export const ModelCallsSummary = z
  .object({
    count: z.number().int(),
    failed: z.number().int(),
    input_tokens: z.number().int(),
    output_tokens: z.number().int(),
    latency_ms: z.number(),
    cost_usd: z.number().nullable(),
  })
  .meta({ id: 'ModelCallsSummary' });

/** One decision of a trace (EL-6). */
export const TimelineEntry = z
  .object({
    stream_version: z.number().int(),
    event_id: z.string(),
    causation_id: z.string().nullable(),
    stage: Stage,
    event_type: z.string(),
    decision_reason: z.string(),
    revision_count: z.number().int(),
    degraded_flag: z.boolean(),
    input_source: z.string(),
    versions: z.object({
      registry_version: z.string().nullable(),
      profiles_version: z.string().nullable(),
      policy_version: z.string().nullable(),
    }),
    occurred_at: z.string(),
    recorded_at: z.string(),
    since_previous_ms: z.number(),
    since_start_ms: z.number(),
    work_ms: z
      .number()
      .nullable()
      .describe(
        "The stage's own time on the decision (ms, retries included); null when it was not recorded.",
      ),
    loop: z.enum(['replan', 'reinject', 'degrade', 'next_step', 'continuation']).nullable(),
    tool: z.string().nullable(),
    failed: z.boolean(),
    model_calls: ModelCallsSummary.optional(),
  })
  .meta({ id: 'TimelineEntry' });
export type TimelineEntry = z.infer<typeof TimelineEntry>;

/** `GET /v1/traces/:taskId`: one task's timeline with its loops (EL-6). */
export const TraceTimeline = z
  .object({
    task_id: z.string(),
    tenant_id: z.string(),
    agent_id: z.string(),
    state: TaskState,
    status: EvaluationStatus.nullable(),
    started_at: z.string(),
    last_activity_at: z.string(),
    duration_ms: z.number(),
    loops: TimelineLoops,
    max_revision_count: z.number().int(),
    degraded: z.boolean(),
    events: z.array(TimelineEntry),
  })
  .meta({ id: 'TraceTimeline' });
export type TraceTimeline = z.infer<typeof TraceTimeline>;

/** `GET /v1/traces/:taskId/events/:eventId`: one decision with its payload and model exchanges (secrets redacted). */
export const TraceEventDetail = TimelineEntry.extend({
  task_id: z.string(),
  topic: z
    .string()
    .nullable()
    .describe('The topic the decision was published to; null for one never published.'),
  payload: z.unknown(),
  model_exchanges: z.array(z.unknown()),
}).meta({ id: 'TraceEventDetail' });
export type TraceEventDetail = z.infer<typeof TraceEventDetail>;

/** `GET /v1/registry/versions`. */
export const RegistryVersionsResponse = z
  .object({
    loaded: z
      .object({
        registry_version: z.string(),
        profiles_version: z.string(),
        policy_version: z.string(),
        tool_hashes: z.record(z.string(), z.string()),
      })
      .nullable(),
    published: z.array(
      z.object({
        registry: z.string(),
        registry_version: z.string(),
        profiles_version: z.string(),
        policy_version: z.string(),
        label: z.string().nullable(),
        published_at: z.string(),
        seq: z.number().int(),
        publications: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'RegistryVersionsResponse' });
export type RegistryVersionsResponse = z.infer<typeof RegistryVersionsResponse>;

/** `GET /livez`. */
export const Liveness = z.object({ live: z.literal(true) }).meta({ id: 'Liveness' });
/** `GET /readyz` (200 when ready, 503 otherwise). */
export const Readiness = z
  .object({ ready: z.boolean(), event_log: z.boolean(), broker: z.boolean() })
  .meta({ id: 'Readiness' });

/**
 * The server-sent events of `GET /v1/tasks/:id/events`: `status` each time the task's latest decision changes (the
 * first one at once), then `end` with the final status once the task is finished or failed; the stream then closes.
 * Each event's `id` is the latest decision's event id, its `data` a {@link TaskStatus}.
 */
export const TASK_EVENT_TYPES = ['status', 'end'] as const;
export type TaskEventType = (typeof TASK_EVENT_TYPES)[number];
