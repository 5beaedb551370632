import { schemaExpression } from './0004-monthly-partitions.js';
import type { Migration } from './migration.js';

/**
 * EL-7 / EL-9: the append-only side table of the model exchanges a decision used — request (JSON text, its sha256
 * over the canonical form), response, model, profile, tokens and latency — written by the append statement of the
 * decision itself, so a decision and the model answers it rests on are stored together or not at all. Re-decide
 * replays them instead of asking a live model.
 *
 * Like `event_secrets`: partitioned by month with the events (same `recorded_at`, pruned together, EL-4), refused
 * UPDATE/DELETE/TRUNCATE by trigger, and closed to PUBLIC entirely — prompts carry user text and, in the arguments a
 * model proposes or is shown, the very values PI-5 keeps out of payloads (see the README, "Model exchanges").
 */
export const modelExchanges: Migration = {
  id: '0005-model-exchanges',
  sql: (n) => `
-- 0004's function, now also making the model_exchanges partition of each month (closed to PUBLIC like secrets).
CREATE OR REPLACE FUNCTION ${n.prefix}event_log_ensure_partitions(at timestamptz, ahead integer DEFAULT 0) RETURNS SETOF text
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
    FOREACH parent IN ARRAY ARRAY['events', 'event_secrets', 'model_exchanges'] LOOP
      part := parent || '_' || suffix;
      CONTINUE WHEN to_regclass(format('%I.%I', target, part)) IS NOT NULL;
      EXECUTE format('CREATE TABLE %I.%I PARTITION OF %I.%I FOR VALUES FROM (%L) TO (%L)',
        target, part, target, parent,
        (lower_bound AT TIME ZONE 'UTC')::text, ((lower_bound + interval '1 month') AT TIME ZONE 'UTC')::text);
      -- Statement triggers are not cloned to partitions: TRUNCATE of the partition itself must be refused too.
      EXECUTE format('CREATE TRIGGER %I BEFORE TRUNCATE ON %I.%I FOR EACH STATEMENT EXECUTE FUNCTION %I.event_log_refuse_change()',
        part || '_refuse_truncate', target, part, target);
      IF parent = 'events' THEN
        EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %I.%I FROM PUBLIC', target, part);
        RETURN NEXT part;
      ELSE
        EXECUTE format('REVOKE ALL ON %I.%I FROM PUBLIC', target, part);
      END IF;
    END LOOP;
  END LOOP;
END;
$$;

CREATE TABLE ${n.modelExchanges} (
  -- No foreign key to events, as for event_secrets: the append statement writes an exchange only with its event.
  event_id      text NOT NULL,
  -- The order the decision asked in, 0, 1, 2…
  seq           integer NOT NULL CHECK (seq >= 0),
  -- The model profile (RG-7) whose provider answered, and the model the endpoint reported.
  profile_id    text NOT NULL,
  model         text NOT NULL,
  -- sha256 (hex) of the request's canonical JSON (sorted keys): what a replay looks the answer up by.
  request_hash  text NOT NULL CHECK (request_hash ~ '^[0-9a-f]{64}$'),
  -- JSON texts, not jsonb: kept exactly as given (jsonb refuses \\u0000, which user text may hold).
  request       text NOT NULL,
  response      text NOT NULL,
  input_tokens  integer NOT NULL CHECK (input_tokens >= 0),
  output_tokens integer NOT NULL CHECK (output_tokens >= 0),
  latency_ms    integer NOT NULL CHECK (latency_ms >= 0),
  -- The recorded_at of the event: both default to now() of the one append statement, so they share a month.
  recorded_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT model_exchanges_pkey PRIMARY KEY (event_id, seq, recorded_at)
) PARTITION BY RANGE (recorded_at);

CREATE TRIGGER model_exchanges_refuse_update_delete BEFORE UPDATE OR DELETE ON ${n.modelExchanges}
  FOR EACH ROW EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
CREATE TRIGGER model_exchanges_refuse_truncate BEFORE TRUNCATE ON ${n.modelExchanges}
  FOR EACH STATEMENT EXECUTE FUNCTION ${n.prefix}event_log_refuse_change();
REVOKE ALL ON ${n.modelExchanges} FROM PUBLIC;

-- Every month the log already has (old ones included, so archive and prune find a partition for each) gets its
-- model_exchanges partition; the function skips the events and secrets partitions that exist.
SELECT ${n.prefix}event_log_ensure_partitions(
  make_timestamptz(substr(c.relname, 8, 4)::integer, substr(c.relname, 13, 2)::integer, 1, 0, 0, 0, 'UTC'))
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = '${n.events}'::regclass AND c.relname ~ '^events_[0-9]{4}_[0-9]{2}$';
`,
};
