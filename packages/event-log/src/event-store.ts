import type { Envelope, EvaluationStatus, Stage } from '@signalbox/contracts';
import type { EventSecret } from './secrets.js';

// The EventStore port. The pg adapter (production) and the PGlite adapter (embedded run) implement it with the
// same migrations and pass the same test suite.

/**
 * One decision as it is appended: the envelope of the message it produced, the topic it goes to and its payload.
 * `event_id` is deterministic (EL-2), so appending it again is a no-op that returns the stored row.
 */
export interface NewEvent {
  envelope: Envelope;
  /** The topic the decision is published to; null for events that are not published (e.g. `failed`). */
  topic: string | null;
  payload: unknown;
  /**
   * `JSON.stringify(payload)`, when the caller has it already (a stage has the text it publishes): an event without
   * secrets is stored from it rather than stringified again. It must be that very text.
   * @default stringified at append
   */
  payloadJson?: string;
  /**
   * PI-5 / RS-6: sensitive values of the payload (e.g. `call.arguments.phone`). The payload is stored with each path
   * replaced by `"[REDACTED]"` and the values in the `event_secrets` side table, in the same statement; every read
   * shows the redacted payload unless it asks `withSecrets`. Build them with `secretsAt(payload, paths)`.
   * @default none
   */
  secrets?: readonly EventSecret[];
  /**
   * EL-7 / EL-9: the model exchanges this decision used, in the order it asked. Stored append-only in
   * `model_exchanges` by the same statement as the event (only when that statement inserts the event: a re-appended
   * id keeps its first exchanges). Read back only on request ({@link ExchangesOption}).
   * @default none
   */
  exchanges?: readonly ModelExchange[];
  /**
   * EL-6: the stage's own time on this decision in whole milliseconds — from the start of its decision function to
   * the decision, retries included (the stage runtime times it). Absent on reads when it was not recorded.
   * @default not recorded
   */
  work_ms?: number;
}

/** What every model call a decision made has, answered or failed. */
interface ModelExchangeBase {
  /** The model profile (RG-7) whose provider was asked. */
  profile_id: string;
  /** sha256 (hex) of the canonical JSON of `request` (sorted keys): the replay's lookup key. */
  request_hash: string;
  /** The request as sent (JSON; the providers package's `ModelRequest`). */
  request: unknown;
  /** Wall time of the call, until its answer or its failure, in whole milliseconds. */
  latency_ms: number;
}

/** A model call that was answered. */
export interface AnsweredModelExchange extends ModelExchangeBase {
  /** The model that answered, as the endpoint reported it. */
  model: string;
  /** The answer (JSON; the providers package's `ModelResponse`). */
  response: unknown;
  input_tokens: number;
  output_tokens: number;
  /** Absent: the call was answered. */
  error?: undefined;
}

/**
 * What the event log keeps of the error a failed model call rejected with (the providers package's
 * `RecordedModelError`): enough for a replay to reject with an equivalent error, and for an operator to see why.
 */
export interface ModelExchangeError {
  /** The error's class name (`ProviderTimeoutError`, `ProviderRequestError`…). */
  name: string;
  /** Its message, verbatim (secret values redacted on reads without `withSecrets`). */
  message: string;
  /** True when the call timed out. */
  timeout: boolean;
  /** Whether retrying could succeed, when the error said so. */
  retriable?: boolean;
  /** The HTTP status the endpoint answered with, when there was one. */
  status?: number;
  /** The endpoint's error code, when given. */
  code?: string;
  /** The endpoint's retry hint, in milliseconds, when given. */
  retryAfterMs?: number;
  /** The model the failing request was for, when known. */
  model?: string;
}

/**
 * A model call that failed (timeout, provider error, refusal…): the decision saw an error instead of an answer, and
 * a replay must show it the same error (EL-9). Nothing was answered, so there is no model, response or tokens.
 */
export interface FailedModelExchange extends ModelExchangeBase {
  model: null;
  response: null;
  input_tokens: null;
  output_tokens: null;
  error: ModelExchangeError;
}

/**
 * One model call a decision rests on (EL-7, EL-9): what was asked, and what came back — an answer and what it cost,
 * or the error the call failed with. Re-decide answers the same request (by `request_hash`) with the same `response`
 * (or the same error) instead of asking a live model.
 */
export type ModelExchange = AnsweredModelExchange | FailedModelExchange;

/** Options of the reads that may put a stage's own secrets back into its stored decision. */
export interface SecretsOption {
  /**
   * Return payloads with their stored secrets put back, exactly as the decision was appended (EL-2: a stage
   * re-publishes its stored decision unchanged). Only for the stages that publish decisions; operators' reads
   * (`readTask`, trace queries) never have this.
   * @default false
   */
  withSecrets?: boolean;
}

/** Options of the reads that may return each decision's model exchanges. */
export interface ExchangesOption {
  /**
   * Return each event's {@link StoredEvent.exchanges} (an empty list for an event that asked no model). Without
   * `withSecrets`, every occurrence of the event's secret values (PI-5) in them reads `"[REDACTED]"`, as the payload
   * does; with it (re-decide, a stage) they are exactly as recorded. A stage reusing its decision (EL-2) does not
   * need them.
   * @default false
   */
  withExchanges?: boolean;
}

/** Options of {@link EventStore.findByEventIds}. */
export type ReadOptions = SecretsOption & ExchangesOption;

/**
 * An event as stored (EL-1). The payload is always whole (claim-checked payloads are resolved on read), as jsonb
 * gives it back (object keys may be reordered), with secrets redacted unless read `withSecrets`; `envelope.occurred_at` comes back in UTC (`…Z`, milliseconds).
 */
export interface StoredEvent extends Omit<NewEvent, 'secrets' | 'exchanges'> {
  /** Position in the whole log, increasing with insertion order. */
  global_position: bigint;
  /** 1, 2, 3… per task. */
  stream_version: number;
  recorded_at: Date;
  /** The model exchanges the decision used, in order; present only when read `withExchanges`. */
  exchanges?: ModelExchange[];
}

/** The result of appending one event: the stored row, and whether this call inserted it. */
export interface AppendResult {
  event: StoredEvent;
  /** False when an event with the same `event_id` was already stored; `event` is then the stored one. */
  inserted: boolean;
  /**
   * EL-4: present (true) when the id was stored once but its month has since been archived and pruned. The id still
   * counts as decided (`inserted: false`, nothing stored again), but the stored decision is gone: `event` is then
   * the input event under the stream version, position and recorded_at the log kept for it. A stage should not
   * treat it as the original decision.
   */
  pruned?: true;
}

/**
 * EL-5 filters for trace queries. A task matches when one of its events meets every row condition (tenant, agent,
 * stage, event type, revision count, time range, `degraded: true`); `degraded: false` means no event of the task is
 * degraded; `status`, `tool` and `before_position` are conditions on the whole task.
 */
export interface TraceFilter {
  tenant_id?: string;
  agent_id?: string;
  stage?: Stage;
  event_type?: string;
  /** True: the task degraded at least once; false: it never did. */
  degraded?: boolean;
  /** An event of the task has `revision_count` greater than this. */
  revision_count_above?: number;
  /** An event was recorded at or after this instant. */
  from?: Date;
  /** An event was recorded before this instant. */
  to?: Date;
  /**
   * The task's current outcome: the status of its latest `task_finished` event, unless a later `task_submitted`
   * continued the task (an answered clarification runs again, so it matches no status until it finishes again).
   */
  status?: EvaluationStatus;
  /** A step of the task used this tool: a `step_prepared`/`step_executed` call or a step of `task_finished`. */
  tool?: string;
  /**
   * Keyset pagination: only tasks whose newest matching activity is below this `global_position` — pass the
   * `position` of the last {@link TraceSummary} of the previous page.
   */
  before_position?: bigint;
  /**
   * At most this many task ids, 1–1000.
   * @default 100
   */
  limit?: number;
}

/** One task of a trace listing (EL-5), summarised over all of its events. */
export interface TraceSummary {
  task_id: string;
  /** Tenant and agent of the task's first event. */
  tenant_id: string;
  agent_id: string;
  /** The newest `global_position` among the task's matching events: the listing's sort key and page cursor. */
  position: bigint;
  event_count: number;
  started_at: Date;
  last_activity_at: Date;
  /** Stage and event type of the task's latest event. */
  last_stage: Stage;
  last_event_type: string;
  /** The current outcome as {@link TraceFilter.status} defines it; null while the task runs. */
  status: EvaluationStatus | null;
  /** Some event of the task is degraded. */
  degraded: boolean;
  max_revision_count: number;
}

/** The append-only event log (EL-1…EL-5); adapters: createPgEventStore, createPgliteEventStore. */
export interface EventStore {
  /** Runs the migrations that have not run yet; safe to call from several processes at once. */
  migrate(): Promise<void>;
  /**
   * Appends a batch in one transaction and one round trip, idempotent on `event_id`. Results are in input order;
   * a conflicting `event_id` returns the stored decision (`inserted: false`), never a second row — and keeps the
   * secrets stored with it. Returned payloads are redacted unless `withSecrets`.
   */
  append(events: readonly NewEvent[], options?: SecretsOption): Promise<AppendResult[]>;
  /**
   * The stored events with these ids (EL-2: a stage reuses a stored decision instead of deciding again), redacted
   * unless `withSecrets`; with their model exchanges when `withExchanges` (EL-7 re-decide).
   */
  findByEventIds(eventIds: readonly string[], options?: ReadOptions): Promise<Map<string, StoredEvent>>;
  /** Every event of one task, in stream order, secrets redacted (also in its exchanges, when asked for). */
  readTask(taskId: string, options?: ExchangesOption): Promise<StoredEvent[]>;
  /** Task ids whose events match the filter, newest first. */
  findTasks(filter: TraceFilter): Promise<string[]>;
  /** The tasks {@link EventStore.findTasks} finds, each with a summary over all its events, newest first. */
  findTraces(filter: TraceFilter): Promise<TraceSummary[]>;
  /** A cheap round trip used by readiness checks and backpressure (RS-3). */
  ping(): Promise<void>;
  close(): Promise<void>;
}
