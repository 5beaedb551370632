import type { TraceFilter } from '../event-store.js';
import { TOOL_EVENT_TYPES } from './derived-columns.js';
import type { Names } from './names.js';

// The SQL both adapters run. Values that the two drivers parse differently (bigint: string in pg, number in PGlite;
// timestamptz and jsonb: driver-specific parsers) are turned into text here, so rows look the same everywhere.

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The columns of `events` a statement reads back, in table order (the payload is resolved separately). */
const EVENT_COLUMNS = [
  'global_position',
  'event_id',
  'task_id',
  'stream_version',
  'tenant_id',
  'agent_id',
  'stage',
  'event_type',
  'topic',
  'decision_reason',
  'revision_count',
  'degraded_flag',
  'input_source',
  'causation_id',
  'registry_version',
  'profiles_version',
  'policy_version',
  'occurred_at',
  'schema_version',
  'traceparent',
  'payload',
  'payload_ref',
  'recorded_at',
  'work_ms',
] as const;

/** The columns `append` supplies, in the order of its array parameters $1…$23. */
export const APPEND_COLUMNS = [
  ['event_id', 'text'],
  ['task_id', 'text'],
  ['tenant_id', 'text'],
  ['agent_id', 'text'],
  ['stage', 'text'],
  ['event_type', 'text'],
  ['topic', 'text'],
  ['decision_reason', 'text'],
  ['revision_count', 'integer'],
  ['degraded_flag', 'boolean'],
  ['input_source', 'text'],
  ['causation_id', 'text'],
  ['registry_version', 'text'],
  ['profiles_version', 'text'],
  ['policy_version', 'text'],
  ['occurred_at', 'timestamptz'],
  ['schema_version', 'integer'],
  ['traceparent', 'text'],
  ['payload', 'jsonb'],
  ['payload_ref', 'text'],
  // Derived at append time (migration 0002); `tools` arrives as a jsonb array because unnest flattens a 2-D array.
  ['finished_status', 'text'],
  ['tools', 'jsonb'],
  // Migration 0007: the stage's own time on the decision, when its runtime timed it.
  ['work_ms', 'integer'],
] as const;

/** The columns of `model_exchanges` `append` supplies after the event's input position `ord`, in parameter order. */
export const EXCHANGE_COLUMNS = [
  ['seq', 'integer'],
  ['profile_id', 'text'],
  ['model', 'text'],
  ['request_hash', 'text'],
  ['request', 'text'],
  ['response', 'text'],
  ['input_tokens', 'integer'],
  ['output_tokens', 'integer'],
  ['latency_ms', 'integer'],
  // Migration 0006: the error of a failed call (JSON text); null, with the four columns above it, when answered.
  ['error', 'text'],
] as const;

/** The expression that turns an append input column into the stored value. */
function insertExpression(column: (typeof APPEND_COLUMNS)[number][0]): string {
  return column === 'tools' ? 'ARRAY(SELECT jsonb_array_elements_text(tools))' : column;
}

/**
 * The parameter of one APPEND_COLUMNS column: the values as an array, or, for a jsonb column, their JSON texts
 * joined into one JSON array text.
 */
export function appendParam(type: (typeof APPEND_COLUMNS)[number][1], values: unknown[]): unknown {
  if (type !== 'jsonb') return values;
  if (!values.every((value) => typeof value === 'string'))
    throw new TypeError('a jsonb column takes JSON texts');
  return `[${values.join(',')}]`;
}

/** A stored event as every read statement returns it. */
export interface EventRow {
  global_position: string;
  event_id: string;
  task_id: string;
  stream_version: number;
  tenant_id: string;
  agent_id: string;
  stage: string;
  event_type: string;
  topic: string | null;
  decision_reason: string;
  revision_count: number;
  degraded_flag: boolean;
  input_source: string;
  causation_id: string | null;
  registry_version: string | null;
  profiles_version: string | null;
  policy_version: string | null;
  occurred_at: string;
  schema_version: number;
  traceparent: string | null;
  /** The full payload as JSON text (claim-checked payloads already resolved); null only if a blob is missing. */
  payload: string | null;
  payload_ref: string | null;
  recorded_at: string;
  /** Migration 0007; null when the decision was not timed. */
  work_ms: number | null;
}

/** A row of a read that may put secrets back: the event's secrets as a JSON array of `{path, value}`, or null. */
export interface EventRowWithSecrets extends EventRow {
  secrets: string | null;
}

/**
 * A row of a read with model exchanges: a JSON array of the event's `model_exchanges` rows in `seq` order (request,
 * response and error as JSON texts), or null when it has none; and its secrets, which redact or restore them.
 */
export interface EventRowWithExchanges extends EventRowWithSecrets {
  exchanges: string | null;
}

/**
 * An append result row: the stored event, its input position and whether this statement inserted it. When the
 * event id is known but its partition was pruned (EL-4), the event columns are null, `pruned` is true and the
 * `key_*` columns carry what `event_keys` kept.
 */
export interface AppendRow extends EventRowWithSecrets {
  ord: number;
  inserted: boolean;
  /**
   * True when this statement inserted the row (for this input or an earlier copy of its id, `first_ord`): `payload`
   * and `secrets` are then null, the caller has them.
   */
  fresh: boolean;
  first_ord: number;
  pruned: boolean;
  key_stream_version: number | null;
  key_global_position: string | null;
  key_recorded_at: string | null;
}

/** The select list that turns `events` alias `e` (+ resolved payload expression) into an EventRow. */
function eventSelectList(alias: string, payloadExpression: string): string {
  return EVENT_COLUMNS.map((column) => {
    switch (column) {
      case 'global_position':
        return `${alias}.global_position::text AS global_position`;
      case 'occurred_at':
      case 'recorded_at':
        return `${iso(`${alias}.${column}`)} AS ${column}`;
      case 'payload':
        return `${payloadExpression} AS payload`;
      default:
        return `${alias}.${column}`;
    }
  }).join(', ');
}

const resolvedPayload = (alias: string, blobs: string) =>
  `CASE WHEN ${alias}.payload_ref IS NULL THEN ${alias}.payload::text ELSE ${blobs}::text END`;

/**
 * Joins event_keys `k` to the event `e` it names by the partitioned table's primary key: the recorded_at picks the
 * one partition (run-time pruning), the position the row.
 */
const byKey = (k: string, e: string) =>
  `${e}.global_position = ${k}.global_position AND ${e}.recorded_at = ${k}.recorded_at`;

/** The SQL of every statement, for one schema. Built once per store. */
export interface Statements {
  lockMigrations: string;
  createSchema: string | undefined;
  createMigrationsTable: string;
  appliedMigrations: string;
  recordMigration: string;
  /**
   * $1…$23: one array per APPEND_COLUMNS entry (same length, one element per input event, input order); a jsonb
   * column's is one JSON array text (`appendParam`).
   * $24…$26: distinct claim-checked blobs (sha256 hex, size in bytes, payload jsonb).
   * $27…$29: secrets (input position `ord` of their event, path, value jsonb), one element per secret.
   * $30…$40: model exchanges (input position `ord` of their event, then EXCHANGE_COLUMNS), one element per exchange.
   */
  append: string;
  /** $1: text[] of event ids. */
  findByEventIds: string;
  /** $1: text[] of event ids; rows carry their secrets. */
  findByEventIdsWithSecrets: string;
  /** $1: text[] of event ids; rows carry their secrets and model exchanges. */
  findByEventIdsWithExchanges: string;
  /** $1: task id. */
  readTask: string;
  /** $1: task id; rows carry their secrets and model exchanges. */
  readTaskWithExchanges: string;
  /** $1: months ahead of the current one. Creates missing monthly partitions (EL-4); returns the created ones. */
  ensurePartitions: string;
  ping: string;
}

/** Builds the statements for the tables named by `n`. */
export function buildStatements(n: Names): Statements {
  const allColumns = EVENT_COLUMNS.join(', ');
  const inputColumns = APPEND_COLUMNS.map(([name]) => name);
  // A jsonb column arrives as one JSON array text (see appendParam) rather than a jsonb[] of texts, which the
  // driver would escape character by character: kilobytes of quotes per payload.
  const inputColumnsFrom = APPEND_COLUMNS.map(([, type], index) =>
    type === 'jsonb' ? `jsonb_array_elements($${index + 1}::jsonb)` : `unnest($${index + 1}::${type}[])`,
  ).join(', ');
  const blobBase = APPEND_COLUMNS.length;
  const secretBase = blobBase + 3;
  const secretsOf = (source: string, eventId: string) =>
    `(SELECT json_agg(json_build_object('path', x.path, 'value', x.value) ORDER BY x.path) FROM ${source} x WHERE x.event_id = ${eventId})::text`;
  const exchangeBase = secretBase + 3;
  const exchangeColumns = EXCHANGE_COLUMNS.map(([name]) => name);
  // recorded_at names the one partition to look in: an exchange shares its event's now().
  const exchangesOf = (e: string) =>
    `(SELECT json_agg(json_build_object(${exchangeColumns.map((c) => `'${c}', x.${c}`).join(', ')}) ORDER BY x.seq)
  FROM ${n.modelExchanges} x WHERE x.event_id = ${e}.event_id AND x.recorded_at = ${e}.recorded_at)::text`;

  // The look-ups of stored rows below are correlated subqueries (a scalar one, or LATERAL … OFFSET 0, which the
  // planner cannot flatten into a join): the statement is prepared once per connection with a generic plan, planned
  // when the log may be empty, and a hash join over event_keys chosen then would scan the whole table on every
  // append once it has grown (measured: 0.5 ms → 108 ms per one-row append at 200,000 events). Per-row index look-ups
  // cost the same at any size.
  const append = `
WITH input AS (
  SELECT * FROM ROWS FROM (${inputColumnsFrom}) WITH ORDINALITY AS i(${inputColumns.join(', ')}, ord)
),
blob_input AS (
  SELECT * FROM unnest($${blobBase + 1}::text[], $${blobBase + 2}::integer[], $${blobBase + 3}::jsonb[])
    AS b(sha256, size, payload)
),
secret_input AS (
  SELECT * FROM unnest($${secretBase + 1}::integer[], $${secretBase + 2}::text[], $${secretBase + 3}::jsonb[])
    AS s(ord, path, value)
),
exchange_input AS (
  SELECT * FROM unnest($${exchangeBase + 1}::integer[], ${EXCHANGE_COLUMNS.map(([, type], i) => `$${exchangeBase + 2 + i}::${type}[]`).join(', ')})
    AS x(ord, ${exchangeColumns.join(', ')})
),
-- The first occurrence of an event id wins: a batch that repeats an id stores one row.
first_seen AS (
  SELECT DISTINCT ON (event_id) * FROM input ORDER BY event_id, ord
),
-- Ids never stored (event_keys also holds the ids of pruned events, EL-4) get the next stream versions of their
-- task, in input order. A concurrent writer of the same task (or the same id) makes the event_keys INSERT below fail
-- on a unique constraint; the caller runs the statement again under a fresh snapshot.
fresh AS (
  SELECT f.*,
    coalesce((SELECT max(k.stream_version) FROM ${n.eventKeys} k WHERE k.task_id = f.task_id), 0)
      + row_number() OVER (PARTITION BY f.task_id ORDER BY f.ord) AS stream_version
  FROM first_seen f
  WHERE (SELECT true FROM ${n.eventKeys} k WHERE k.event_id = f.event_id) IS NULL
),
inserted AS (
  INSERT INTO ${n.events} (${inputColumns.join(', ')}, stream_version)
  SELECT ${APPEND_COLUMNS.map(([name]) => insertExpression(name)).join(', ')}, stream_version FROM fresh ORDER BY ord
  RETURNING ${allColumns}
),
-- The global uniqueness a partitioned table cannot enforce: one row per event id and per (task, stream_version).
stored_keys AS (
  INSERT INTO ${n.eventKeys} (event_id, task_id, stream_version, global_position, recorded_at)
  SELECT event_id, task_id, stream_version, global_position, recorded_at FROM inserted
),
stored_blobs AS (
  INSERT INTO ${n.payloadBlobs} (sha256, size, payload)
  SELECT b.sha256, b.size, b.payload FROM blob_input b WHERE b.sha256 IN (SELECT payload_ref FROM inserted)
  ON CONFLICT (sha256) DO NOTHING
),
-- Only the secrets of events this statement inserts: a stored event keeps the secrets it was first appended with.
stored_secrets AS (
  INSERT INTO ${n.eventSecrets} (event_id, path, value)
  SELECT f.event_id, s.path, s.value FROM secret_input s JOIN fresh f ON f.ord = s.ord
  RETURNING event_id, path, value
),
-- Likewise the model exchanges (EL-7): only with the event this statement inserts. Empty arrays for a decision that
-- asked no model, which is every decision of most stages.
stored_exchanges AS (
  INSERT INTO ${n.modelExchanges} (event_id, ${exchangeColumns.join(', ')})
  SELECT f.event_id, ${exchangeColumns.map((c) => `x.${c}`).join(', ')} FROM exchange_input x JOIN fresh f ON f.ord = x.ord
),
all_secrets AS (
  SELECT event_id, path, value FROM stored_secrets
  UNION ALL
  -- Read only for an id stored before (a redelivery), never on the usual path; kept a join: as a LATERAL look-up the
  -- plan made concurrent appends to one task lose their races far more often (measured, not understood).
  SELECT x.event_id, x.path, x.value FROM ${n.eventSecrets} x WHERE x.event_id IN (SELECT event_id FROM input)
),
stored AS (
  SELECT ${allColumns}, true AS fresh FROM inserted
  UNION ALL
  SELECT ${EVENT_COLUMNS.map((c) => `e.${c}`).join(', ')}, false AS fresh
  FROM first_seen f CROSS JOIN LATERAL (
    SELECT ${EVENT_COLUMNS.map((c) => `e.${c}`).join(', ')}
    FROM ${n.eventKeys} k JOIN ${n.events} e ON ${byKey('k', 'e')}
    WHERE k.event_id = f.event_id OFFSET 0
  ) e
)
SELECT i.ord::integer AS ord, coalesce(s.fresh AND f.ord = i.ord, false) AS inserted,
  coalesce(s.fresh, false) AS fresh, f.ord::integer AS first_ord,
  -- A row this statement inserted holds what the caller gave: its payload and secrets are not sent back.
  ${eventSelectList('s', `CASE WHEN s.fresh THEN NULL ELSE ${resolvedPayload('s', 'coalesce(bi.payload, bx.payload)')} END`)},
  CASE WHEN s.fresh THEN NULL ELSE ${secretsOf('all_secrets', 's.event_id')} END AS secrets,
  (s.event_id IS NULL AND k.event_id IS NOT NULL) AS pruned, k.stream_version AS key_stream_version,
  k.global_position::text AS key_global_position, ${iso('k.recorded_at')} AS key_recorded_at
FROM input i
JOIN first_seen f ON f.event_id = i.event_id
LEFT JOIN stored s ON s.event_id = i.event_id
-- A known id whose event is gone: its partition was archived and pruned (EL-4).
LEFT JOIN LATERAL (
  SELECT k.event_id, k.stream_version, k.global_position, k.recorded_at FROM ${n.eventKeys} k
  WHERE s.event_id IS NULL AND k.event_id = i.event_id OFFSET 0
) k ON true
LEFT JOIN blob_input bi ON bi.sha256 = s.payload_ref
LEFT JOIN LATERAL (SELECT bx.payload FROM ${n.payloadBlobs} bx WHERE bx.sha256 = s.payload_ref OFFSET 0) bx ON true
ORDER BY i.ord`;

  const readFrom = `${n.events} e LEFT JOIN ${n.payloadBlobs} b ON b.sha256 = e.payload_ref`;
  // By id: one index look-up per id, whatever the tables' sizes were when the statement was planned (see append).
  const readByIdFrom = `unnest($1::text[]) AS ids(event_id) CROSS JOIN LATERAL (
  SELECT e.* FROM ${n.eventKeys} k JOIN ${n.events} e ON ${byKey('k', 'e')} WHERE k.event_id = ids.event_id OFFSET 0
) e
LEFT JOIN LATERAL (SELECT b.payload FROM ${n.payloadBlobs} b WHERE b.sha256 = e.payload_ref OFFSET 0) b ON true`;
  const readList = eventSelectList('e', resolvedPayload('e', 'b.payload'));

  return {
    // Two keys: a constant for "event log migrations" and the target schema, so stores in different schemas
    // (one per test) do not wait for each other.
    lockMigrations: `SELECT pg_advisory_xact_lock(hashtext('signalbox.event-log.migrate'), hashtext(coalesce($1::text, current_schema())))`,
    createSchema: n.schema === undefined ? undefined : `CREATE SCHEMA IF NOT EXISTS "${n.schema}"`,
    createMigrationsTable: `CREATE TABLE IF NOT EXISTS ${n.migrations} (
  id text PRIMARY KEY,
  applied_at timestamptz NOT NULL DEFAULT now()
)`,
    appliedMigrations: `SELECT id FROM ${n.migrations}`,
    recordMigration: `INSERT INTO ${n.migrations} (id) VALUES ($1)`,
    append,
    findByEventIds: `SELECT ${readList} FROM ${readByIdFrom}`,
    findByEventIdsWithSecrets: `SELECT ${readList}, ${secretsOf(n.eventSecrets, 'e.event_id')} AS secrets
FROM ${readByIdFrom}`,
    findByEventIdsWithExchanges: `SELECT ${readList}, ${secretsOf(n.eventSecrets, 'e.event_id')} AS secrets,
  ${exchangesOf('e')} AS exchanges
FROM ${readByIdFrom}`,
    readTask: `SELECT ${readList} FROM ${readFrom} WHERE e.task_id = $1 ORDER BY e.stream_version`,
    readTaskWithExchanges: `SELECT ${readList}, ${secretsOf(n.eventSecrets, 'e.event_id')} AS secrets,
  ${exchangesOf('e')} AS exchanges
FROM ${readFrom} WHERE e.task_id = $1 ORDER BY e.stream_version`,
    ensurePartitions: `SELECT ${n.prefix}event_log_ensure_partitions(now(), $1::integer) AS name`,
    ping: 'SELECT 1 AS ok',
  };
}

/** Default and ceiling of `TraceFilter.limit`. */
export const DEFAULT_TRACE_LIMIT = 100;
export const MAX_TRACE_LIMIT = 1000;

/** The trace filter as SQL: the grouped task selection shared by findTasks and findTraces. */
function matchedTasks(n: Names, filter: TraceFilter, params: unknown[]): string {
  const where: string[] = [];
  const having: string[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const add = (condition: (placeholder: string) => string, value: unknown) => {
    where.push(condition(param(value)));
  };
  if (filter.tenant_id !== undefined) add((p) => `e.tenant_id = ${p}`, filter.tenant_id);
  if (filter.agent_id !== undefined) add((p) => `e.agent_id = ${p}`, filter.agent_id);
  if (filter.stage !== undefined) add((p) => `e.stage = ${p}`, filter.stage);
  if (filter.event_type !== undefined) add((p) => `e.event_type = ${p}`, filter.event_type);
  if (filter.revision_count_above !== undefined) {
    add((p) => `e.revision_count > ${p}::integer`, filter.revision_count_above);
  }
  if (filter.from !== undefined) add((p) => `e.recorded_at >= ${p}::timestamptz`, filter.from.toISOString());
  if (filter.to !== undefined) add((p) => `e.recorded_at < ${p}::timestamptz`, filter.to.toISOString());
  if (filter.degraded === true) where.push('e.degraded_flag');
  if (filter.degraded === false) {
    where.push(`NOT EXISTS (SELECT 1 FROM ${n.events} d WHERE d.task_id = e.task_id AND d.degraded_flag)`);
  }
  // Rows appended before migration 0002 have `tools IS NULL` and no derived columns; each filter reads their inline
  // payload in a second OR arm, which the small partial index events_tools_legacy_idx serves.
  if (filter.status !== undefined) {
    add(
      (p) => `e.task_id IN (
  SELECT f.task_id FROM ${n.events} f
  WHERE f.event_type = 'task_finished'
    AND (f.finished_status = ${p}
      OR (f.tools IS NULL AND f.event_type = 'task_finished' AND f.payload_ref IS NULL AND f.payload->>'status' = ${p}))
    -- the task's current round: no later submission continued it, no later finish superseded it
    AND NOT EXISTS (SELECT 1 FROM ${n.events} g WHERE g.task_id = f.task_id AND g.stream_version > f.stream_version
      AND g.event_type IN ('task_finished', 'task_submitted')))`,
      filter.status,
    );
  }
  if (filter.tool !== undefined) {
    add(
      (p) => `e.task_id IN (
  SELECT t.task_id FROM ${n.events} t
  WHERE t.tools @> ARRAY[${p}::text]
    OR (t.tools IS NULL AND t.event_type IN (${TOOL_EVENT_TYPES.map((x) => `'${x}'`).join(', ')})
      AND t.payload_ref IS NULL
      AND jsonb_path_exists(t.payload,
        '$ ? (@.call.tool == $t || @.result.tool == $t || @.steps[*].call.tool == $t)',
        jsonb_build_object('t', ${p}::text))))`,
      filter.tool,
    );
  }
  if (filter.before_position !== undefined) {
    having.push(`max(e.global_position) < ${param(filter.before_position.toString())}::bigint`);
  }
  const limit = param(filter.limit ?? DEFAULT_TRACE_LIMIT);
  return `SELECT e.task_id, max(e.global_position) AS position FROM ${n.events} e
${where.length > 0 ? `WHERE ${where.join('\n  AND ')}` : ''}
GROUP BY e.task_id
${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
ORDER BY max(e.global_position) DESC
LIMIT ${limit}::integer`;
}

/**
 * EL-5: task ids with at least one event matching every row-level condition, newest activity first. `degraded:
 * false`, `status`, `tool` and `before_position` are conditions on the whole task rather than on one row.
 */
export function buildFindTasks(n: Names, filter: TraceFilter): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const text = `SELECT m.task_id FROM (${matchedTasks(n, filter, params)}) m ORDER BY m.position DESC`;
  return { text, params };
}

/** A row of findTraces. */
export interface TraceSummaryRow {
  task_id: string;
  position: string;
  event_count: number;
  started_at: string;
  last_activity_at: string;
  degraded: boolean;
  max_revision_count: number;
  tenant_id: string;
  agent_id: string;
  last_stage: string;
  last_event_type: string;
  status: string | null;
}

/** EL-5: the tasks of {@link buildFindTasks}, each summarised over all of its events (not only the matching ones). */
export function buildFindTraces(n: Names, filter: TraceFilter): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const text = `WITH matched AS (${matchedTasks(n, filter, params)})
SELECT m.task_id, m.position::text AS position, s.event_count, ${iso('s.started_at')} AS started_at,
  ${iso('s.last_activity_at')} AS last_activity_at, s.degraded, s.max_revision_count,
  f.tenant_id, f.agent_id, l.stage AS last_stage, l.event_type AS last_event_type,
  CASE WHEN r.event_type = 'task_finished' THEN r.status END AS status
FROM matched m
CROSS JOIN LATERAL (
  SELECT count(*)::integer AS event_count, min(a.recorded_at) AS started_at, max(a.recorded_at) AS last_activity_at,
    bool_or(a.degraded_flag) AS degraded, max(a.revision_count) AS max_revision_count
  FROM ${n.events} a WHERE a.task_id = m.task_id
) s
CROSS JOIN LATERAL (
  SELECT a.tenant_id, a.agent_id FROM ${n.events} a WHERE a.task_id = m.task_id ORDER BY a.stream_version LIMIT 1
) f
CROSS JOIN LATERAL (
  SELECT a.stage, a.event_type FROM ${n.events} a WHERE a.task_id = m.task_id ORDER BY a.stream_version DESC LIMIT 1
) l
-- The current round: the latest finish or submission; a finish there is the task's outcome.
LEFT JOIN LATERAL (
  SELECT a.event_type,
    coalesce(a.finished_status, CASE WHEN a.payload_ref IS NULL THEN a.payload->>'status' END) AS status
  FROM ${n.events} a
  WHERE a.task_id = m.task_id AND a.event_type IN ('task_finished', 'task_submitted')
  ORDER BY a.stream_version DESC LIMIT 1
) r ON true
ORDER BY m.position DESC`;
  return { text, params };
}
