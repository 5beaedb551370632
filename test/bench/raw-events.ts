// The raw side of the benchmarks' comparisons: a four-column table and one multi-row insert, what a client that
// stores messages without the event log would do. The backbone ceiling and bench:append both use it.
import type pg from 'pg';

/** A row of the raw table: an id, its task and the JSON text of the payload. */
export interface RawEvent {
  id: string;
  task: string;
  payload: string;
}

/** Creates the raw table in `schema`. */
export async function createRawEventsTable(pool: pg.Pool, schema: string): Promise<void> {
  await pool.query(
    `CREATE TABLE "${schema}".raw_events (pos bigint GENERATED ALWAYS AS IDENTITY, event_id text UNIQUE, task_id text, payload jsonb)`,
  );
}

/**
 * Inserts `rows` in one statement. The payloads go as one JSON array text, as the event log sends them: a jsonb[]
 * parameter would have the driver escape every quote of every payload.
 */
export async function insertRawEvents(
  pool: pg.Pool,
  schema: string,
  rows: readonly RawEvent[],
): Promise<void> {
  await pool.query(
    `INSERT INTO "${schema}".raw_events (event_id, task_id, payload)
     SELECT * FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), jsonb_array_elements($3::jsonb))
     ON CONFLICT (event_id) DO NOTHING`,
    [rows.map((r) => r.id), rows.map((r) => r.task), `[${rows.map((r) => r.payload).join(',')}]`],
  );
}
