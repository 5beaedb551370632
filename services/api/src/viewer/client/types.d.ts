// The shapes the viewer reads from the API (type-checking only; the browser never loads this file). The timeline
// is the event log's own type, so a change there fails the viewer's type check instead of its users.
import type { ModelExchange, TimelineEntry, TimelineLoop, TraceTimeline } from '@signalbox/event-log';

export type { ModelExchange, TimelineEntry, TimelineLoop, TraceTimeline };

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
