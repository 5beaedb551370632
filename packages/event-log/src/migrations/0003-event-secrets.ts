import type { Migration } from './migration.js';

/**
 * PI-5 / RS-6: the append-only side table of sensitive values. An event whose decision carries secrets (e.g. a
 * contact phone in a prepared call's arguments) is stored with those payload paths replaced by `"[REDACTED]"`;
 * the values live here, keyed by event and path, so trace reads never see them and only a stage re-publishing
 * its own stored decision (EL-2) joins them back. Append-only like `events`, and closed to PUBLIC entirely.
 */
export const eventSecrets: Migration = {
  id: '0003-event-secrets',
  sql: (n) => `
CREATE TABLE ${n.eventSecrets} (
  -- No foreign key to events: it would make TRUNCATE on events fail before the append-only trigger speaks, and the
  -- append statement only ever writes a secret together with its event anyway.
  event_id    text NOT NULL,
  -- A dotted path into the event's payload (array elements by index): call.arguments.phone, history.0.call…
  path        text NOT NULL,
  value       jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT event_secrets_pkey PRIMARY KEY (event_id, path)
);

CREATE TRIGGER event_secrets_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.eventSecrets}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER event_secrets_refuse_truncate BEFORE TRUNCATE ON ${n.eventSecrets}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();

-- Unlike the events, secrets are not for every role that may read the log: PUBLIC gets nothing at all.
REVOKE ALL ON ${n.eventSecrets} FROM PUBLIC;
`,
};
