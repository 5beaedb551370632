import type { Names } from '../internal/names.js';
import type { Migration } from './migration.js';

/** How many months past the current one `migrate()` keeps partitions ready for, so appends never wait for DDL. */
export const PARTITION_MONTHS_AHEAD = 2;

/**
 * EL-4: `events` and `event_secrets` become tables partitioned by RANGE (recorded_at), one partition per calendar
 * month (UTC), so retention removes whole months by DETACH + DROP instead of deleting rows. PostgreSQL only enforces
 * a unique constraint on a partitioned table when it includes the partition key, so the global uniqueness of
 * `event_id` and of `(task_id, stream_version)` moves to `event_keys`, a small unpartitioned table `append` writes in
 * the same statement as the events. It is never pruned: a redelivery of a pruned decision is still recognised.
 *
 * The existing rows are copied into the new tables (copying is not editing; the old tables are then dropped whole).
 * Indexes and constraints are created after the copy, under the names 0001–0003 gave them where they still apply.
 */
export const monthlyPartitions: Migration = {
  id: '0004-monthly-partitions',
  sql: (n) => `
-- Names the partitioned table in the refusal, so the message stays "… on <schema>.events is refused" when a partition
-- (events_2026_11) is the table the statement hit.
CREATE OR REPLACE FUNCTION ${n.prefix}event_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  root regclass := pg_partition_root(TG_RELID);
BEGIN
  IF root IS NOT NULL AND root <> TG_RELID THEN
    RAISE EXCEPTION 'the event log is append-only: % on partition %.% of %.% is refused',
      TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_TABLE_SCHEMA,
      (SELECT relname FROM pg_class WHERE oid = root)
      USING ERRCODE = 'restrict_violation',
            HINT = 'Events are never edited or removed; old months are archived and pruned whole (signalbox retention).';
  END IF;
  RAISE EXCEPTION 'the event log is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation',
          HINT = 'Events are never edited or removed; append a new event instead.';
END;
$$;

-- Creates the monthly partitions of events and event_secrets holding instant \`at\` and the \`ahead\` months after it,
-- each with its TRUNCATE trigger (row triggers are cloned from the parent by PostgreSQL itself) and its grants.
-- Idempotent and safe from several sessions: serialised by an advisory lock, existing partitions are skipped.
-- Returns the events partitions it created.
CREATE FUNCTION ${n.prefix}event_log_ensure_partitions(at timestamptz, ahead integer DEFAULT 0) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  target text := ${schemaExpression(n)};
  first_month timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
  lower_bound timestamp;
  suffix text;
  parent text;
  part text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('signalbox.event-log.partitions'), hashtext(target));
  FOR i IN 0..greatest(ahead, 0) LOOP
    lower_bound := first_month + make_interval(months => i);
    suffix := to_char(lower_bound, 'YYYY_MM');
    FOREACH parent IN ARRAY ARRAY['events', 'event_secrets'] LOOP
      part := parent || '_' || suffix;
      CONTINUE WHEN to_regclass(format('%I.%I', target, part)) IS NOT NULL;
      EXECUTE format('CREATE TABLE %I.%I PARTITION OF %I.%I FOR VALUES FROM (%L) TO (%L)',
        target, part, target, parent,
        (lower_bound AT TIME ZONE 'UTC')::text, ((lower_bound + interval '1 month') AT TIME ZONE 'UTC')::text);
      -- Statement triggers are not cloned to partitions: TRUNCATE of the partition itself must be refused too.
      EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I.%I FOR EACH STATEMENT EXECUTE FUNCTION %I.event_log_refuse_change()',
        part || '_refuse_truncate', target, part, target);
      IF parent = 'event_secrets' THEN
        EXECUTE format('REVOKE ALL ON %I.%I FROM PUBLIC', target, part);
      ELSE
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I.%I FROM PUBLIC', target, part);
        RETURN NEXT part;
      END IF;
    END LOOP;
  END LOOP;
END;
$$;

ALTER TABLE ${n.events} RENAME TO events_unpartitioned;
ALTER TABLE ${n.eventSecrets} RENAME TO event_secrets_unpartitioned;

CREATE TABLE ${n.events} (
  global_position  bigint GENERATED ALWAYS AS IDENTITY (SEQUENCE NAME ${n.prefix}events_position_seq),
  event_id         text NOT NULL,
  task_id          text NOT NULL,
  stream_version   integer NOT NULL CHECK (stream_version >= 1),
  tenant_id        text NOT NULL,
  agent_id         text NOT NULL,
  stage            text NOT NULL,
  event_type       text NOT NULL,
  topic            text,
  decision_reason  text NOT NULL,
  revision_count   integer NOT NULL CHECK (revision_count >= 0),
  degraded_flag    boolean NOT NULL,
  input_source     text NOT NULL,
  causation_id     text,
  registry_version text,
  profiles_version text,
  policy_version   text,
  occurred_at      timestamptz NOT NULL,
  schema_version   integer NOT NULL,
  traceparent      text,
  payload          jsonb NOT NULL,
  payload_ref      text,
  recorded_at      timestamptz NOT NULL DEFAULT now(),
  finished_status  text,
  tools            text[]
) PARTITION BY RANGE (recorded_at);

CREATE TABLE ${n.eventSecrets} (
  event_id    text NOT NULL,
  path        text NOT NULL,
  value       jsonb NOT NULL,
  -- The recorded_at of the event: both default to now() of the one append statement, so an event and its secrets
  -- always share a month and are pruned together.
  recorded_at timestamptz NOT NULL DEFAULT now()
) PARTITION BY RANGE (recorded_at);

-- The global keys of every event ever appended, pruned or not (EL-2): append numbers and deduplicates against this.
CREATE TABLE ${n.eventKeys} (
  event_id        text NOT NULL,
  task_id         text NOT NULL,
  stream_version  integer NOT NULL,
  global_position bigint NOT NULL,
  recorded_at     timestamptz NOT NULL,
  CONSTRAINT event_keys_pkey PRIMARY KEY (event_id),
  CONSTRAINT event_keys_task_stream_version_key UNIQUE (task_id, stream_version)
);

SELECT ${n.prefix}event_log_ensure_partitions(m) FROM (
  SELECT DISTINCT date_trunc('month', recorded_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS m
  FROM ${n.prefix}events_unpartitioned
  UNION
  SELECT DISTINCT date_trunc('month', recorded_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  FROM ${n.prefix}event_secrets_unpartitioned
) months;
SELECT ${n.prefix}event_log_ensure_partitions(now(), ${PARTITION_MONTHS_AHEAD});

INSERT INTO ${n.events} (global_position, event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
  topic, decision_reason, revision_count, degraded_flag, input_source, causation_id, registry_version,
  profiles_version, policy_version, occurred_at, schema_version, traceparent, payload, payload_ref, recorded_at,
  finished_status, tools)
OVERRIDING SYSTEM VALUE
SELECT global_position, event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
  topic, decision_reason, revision_count, degraded_flag, input_source, causation_id, registry_version,
  profiles_version, policy_version, occurred_at, schema_version, traceparent, payload, payload_ref, recorded_at,
  finished_status, tools
FROM ${n.prefix}events_unpartitioned ORDER BY global_position;
INSERT INTO ${n.eventKeys} (event_id, task_id, stream_version, global_position, recorded_at)
SELECT event_id, task_id, stream_version, global_position, recorded_at FROM ${n.prefix}events_unpartitioned;
INSERT INTO ${n.eventSecrets} (event_id, path, value, recorded_at)
SELECT event_id, path, value, recorded_at FROM ${n.prefix}event_secrets_unpartitioned;
SELECT setval('${n.prefix}events_position_seq',
  coalesce((SELECT max(global_position) FROM ${n.prefix}events_unpartitioned), 0) + 1, false);

DROP TABLE ${n.prefix}events_unpartitioned;
DROP TABLE ${n.prefix}event_secrets_unpartitioned;

-- No global unique index is possible on a partitioned table without recorded_at; event_keys holds those. Reads by
-- id go through event_keys to this key, which names the one partition to look in; reads by task use
-- events_task_event_type_idx. (No separate event_id or (task_id, stream_version) index: each costs every append.)
ALTER TABLE ${n.events} ADD CONSTRAINT events_pkey PRIMARY KEY (global_position, recorded_at);
CREATE INDEX events_tenant_recorded_at_idx ON ${n.events} (tenant_id, recorded_at DESC);
CREATE INDEX events_agent_recorded_at_idx ON ${n.events} (agent_id, recorded_at DESC);
CREATE INDEX events_recorded_at_idx ON ${n.events} (recorded_at DESC);
CREATE INDEX events_degraded_idx ON ${n.events} (task_id) WHERE degraded_flag;
CREATE INDEX events_revision_count_idx ON ${n.events} (revision_count, task_id) WHERE revision_count > 0;
CREATE INDEX events_stage_event_type_idx ON ${n.events} (stage, event_type);
CREATE INDEX events_finished_status_idx ON ${n.events} (finished_status, task_id) WHERE finished_status IS NOT NULL;
CREATE INDEX events_tools_idx ON ${n.events} USING gin (tools);
CREATE INDEX events_tools_legacy_idx ON ${n.events} (task_id)
  WHERE tools IS NULL AND event_type IN ('step_prepared', 'step_executed', 'task_finished');
CREATE INDEX events_task_event_type_idx ON ${n.events} (task_id, event_type, stream_version DESC);
ALTER TABLE ${n.eventSecrets} ADD CONSTRAINT event_secrets_pkey PRIMARY KEY (event_id, path, recorded_at);

-- Row triggers on a partitioned table are cloned onto every partition, present and future; TRUNCATE triggers are
-- per table (the partitions get theirs from event_log_ensure_partitions).
CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.events}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON ${n.events}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER event_secrets_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.eventSecrets}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER event_secrets_refuse_truncate BEFORE TRUNCATE ON ${n.eventSecrets}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER event_keys_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.eventKeys}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER event_keys_refuse_truncate BEFORE TRUNCATE ON ${n.eventKeys}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();

REVOKE UPDATE, DELETE, TRUNCATE ON ${n.events} FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON ${n.eventKeys} FROM PUBLIC;
REVOKE ALL ON ${n.eventSecrets} FROM PUBLIC;
`,
};

/** The schema the partition function works in: the store's, or the connection's current schema (search_path). */
export function schemaExpression(n: Names): string {
  return n.schema === undefined ? 'current_schema()' : `'${n.schema}'`;
}
