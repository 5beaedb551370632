import type { Migration } from './migration.js';

/**
 * EL-5 `status` and `tool` filters: two columns derived from the payload at append time, so the trace queries read
 * an index instead of digging through jsonb — and so claim-checked payloads (EL-3), whose row holds only a
 * reference, are still found. Rows appended before this migration keep NULL in both (the log is append-only, so
 * they are never back-filled); the queries fall back to the inline payload for them.
 */
export const traceColumns: Migration = {
  id: '0002-trace-columns',
  sql: (n) => `
-- The evaluation status of a task_finished event (EV-2); NULL for every other event.
ALTER TABLE ${n.events} ADD COLUMN finished_status text;
-- Tool names the event's step(s) used: the call of step_prepared/step_executed, the steps of task_finished.
-- '{}' when none; NULL only on rows appended before this migration.
ALTER TABLE ${n.events} ADD COLUMN tools text[];

CREATE INDEX events_finished_status_idx ON ${n.events} (finished_status, task_id) WHERE finished_status IS NOT NULL;
CREATE INDEX events_tools_idx ON ${n.events} USING gin (tools);
-- Small: only legacy rows of the kinds that can name a tool, which the tool filter reads through their payload.
CREATE INDEX events_tools_legacy_idx ON ${n.events} (task_id)
  WHERE tools IS NULL AND event_type IN ('step_prepared', 'step_executed', 'task_finished');
-- Per-task lookups of the latest terminal or submitted event (status of the current round, see findTraces).
CREATE INDEX events_task_event_type_idx ON ${n.events} (task_id, event_type, stream_version DESC);
`,
};
