import type { Migration } from './migration.js';

/**
 * EL-1 and EL-3: the append-only `events` table, the content-addressed `payload_blobs` table of the claim check,
 * the indexes behind the EL-5 trace queries, and the triggers that make PostgreSQL itself refuse UPDATE, DELETE and
 * TRUNCATE on both.
 */
export const createEvents: Migration = {
  id: '0001-events',
  sql: (n) => `
CREATE TABLE ${n.events} (
  global_position  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
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
  -- The sha256 of a claim-checked payload (then payload holds {"$ref": "sha256:<hex>", "size": n}); a column of its
  -- own so that a user payload that happens to contain "$ref" is never mistaken for a reference.
  payload_ref      text,
  recorded_at      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT events_event_id_key UNIQUE (event_id),
  CONSTRAINT events_task_stream_version_key UNIQUE (task_id, stream_version)
);

-- By task: served by events_task_stream_version_key. The rest back the EL-5 filters of findTasks.
CREATE INDEX events_tenant_recorded_at_idx ON ${n.events} (tenant_id, recorded_at DESC);
CREATE INDEX events_agent_recorded_at_idx ON ${n.events} (agent_id, recorded_at DESC);
CREATE INDEX events_recorded_at_idx ON ${n.events} (recorded_at DESC);
CREATE INDEX events_degraded_idx ON ${n.events} (task_id) WHERE degraded_flag;
CREATE INDEX events_revision_count_idx ON ${n.events} (revision_count, task_id) WHERE revision_count > 0;
CREATE INDEX events_stage_event_type_idx ON ${n.events} (stage, event_type);

CREATE TABLE ${n.payloadBlobs} (
  sha256      text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size        integer NOT NULL,
  payload     jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION ${n.prefix}event_log_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the event log is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation',
          HINT = 'Events are never edited or removed; append a new event instead.';
END;
$$;

CREATE TRIGGER events_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.events}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER events_refuse_truncate BEFORE TRUNCATE ON ${n.events}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER payload_blobs_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.payloadBlobs}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER payload_blobs_refuse_truncate BEFORE TRUNCATE ON ${n.payloadBlobs}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();

-- Belt and braces: the triggers stop everyone (superusers included); the grants stop ordinary roles earlier.
REVOKE UPDATE, DELETE, TRUNCATE ON ${n.events} FROM PUBLIC;
REVOKE UPDATE, DELETE, TRUNCATE ON ${n.payloadBlobs} FROM PUBLIC;
`,
};
