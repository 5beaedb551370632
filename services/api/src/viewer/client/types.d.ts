// The shapes the viewer reads from the API (type-checking only; the browser never loads this file). The timeline
// is the event log's own type, so a change there fails the viewer's type check instead of its users.
import type { ModelExchange, TimelineEntry, TraceTimeline } from '@signalbox/event-log';

export type { ModelExchange, TimelineEntry, TraceTimeline };

/** What one decision's model calls took (`GET /v1/traces/:taskId`, each event's `model_calls`). */
export interface ModelCallsSummary {
  count: number;
  failed: number;
  input_tokens: number;
  output_tokens: number;
  latency_ms: number;
  /** Null when the price of a profile used is not known to the API. */
  cost_usd: number | null;
}

/** A decision of `GET /v1/traces/:taskId`. */
export interface TraceEntry extends TimelineEntry {
  model_calls?: ModelCallsSummary;
}

/** `GET /v1/traces/:taskId`: the timeline with each decision's model calls summed. */
export interface TraceView extends TraceTimeline {
  events: TraceEntry[];
}

/** EX-2: the call waiting for a confirmation (`GET /v1/tasks/:id`, `pending_confirmation`). */
export interface PendingConfirmation {
  tool: string;
  step_index: number;
  arguments: unknown;
  arguments_hash: string;
}

/** `GET /v1/tasks/:id`: where the task stands and, once finished, its result. */
export interface TaskView {
  task_id: string;
  agent_id: string;
  request: string | null;
  state: 'running' | 'finished' | 'failed';
  submitted_at: string;
  last_event: {
    event_id: string;
    stage: string;
    event_type: string;
    decision_reason: string;
    revision_count: number;
    degraded_flag: boolean;
    occurred_at: string;
  };
  awaiting_answer: boolean;
  result: {
    status: string;
    steps: unknown[];
    evidence: unknown[];
    questions: string[];
    issues: string[];
    total_cost_usd: number | null;
    duration_ms: number | null;
  } | null;
  answer: { tool: string; step_index: number; output: unknown } | null;
  pending_confirmation: PendingConfirmation | null;
}

/** `POST /v1/tasks` (202). */
export interface SubmitAccepted {
  task_id: string;
  state: string;
}

/** One row of `GET /v1/traces`. */
export interface TraceListItem {
  task_id: string;
  agent_id: string;
  status: string | null;
  last_stage: string;
  last_event_type: string;
  event_count: number;
  degraded: boolean;
  max_revision_count: number;
  started_at: string;
  last_activity_at: string;
}

/** `GET /v1/traces`. */
export interface TraceListPage {
  traces: TraceListItem[];
  next_cursor: string | null;
}

/** `GET /v1/traces/:taskId/events/:eventId`: one decision with its payload and the model calls it rests on. */
export interface TimelineEventDetail extends TimelineEntry {
  task_id: string;
  topic: string | null;
  payload: unknown;
  model_exchanges: ModelExchange[];
}

/** The API's error body. */
export interface ApiErrorBody {
  error?: { code?: string; message?: string; fields?: { path: string; message: string }[] };
}

/** One `signalbox dev --registry` folder in the dev server's `GET /dev/status` (packages/cli/src/dev/registry-watch.ts). */
export interface DevRegistryStatus {
  dir: string;
  state: 'serving' | 'stale' | 'failed';
  registry_version: string | null;
  /** Why the latest content did not load (`file:line:col message`). */
  problems: string[];
  /** The RG-2 findings of the latest content. */
  lint: string[];
}
