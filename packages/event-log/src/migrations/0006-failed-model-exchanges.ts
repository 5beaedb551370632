import type { Migration } from './migration.js';

/**
 * EL-9: a model call that failed (timeout, provider error, refusal…) is recorded too, as an exchange with its
 * request, hash, profile, latency and the error — and no model, response or tokens, since nothing was answered. A
 * decision that took its fallback path because a call failed is then re-taken on the same failure, instead of on a
 * "not recorded" answer that may send it down another path.
 *
 * `error` is JSON text like `request` and `response` (jsonb refuses \\u0000, which an error quoting user text may
 * hold). The CHECK keeps each row one or the other: an answer with its model and tokens, or an error without them.
 * ALTER on the partitioned parent reaches every month's partition, existing and future (`event_log_ensure_partitions`
 * creates them as `PARTITION OF` it); the append-only triggers and the grants are left as they are.
 */
export const failedModelExchanges: Migration = {
  id: '0006-failed-model-exchanges',
  sql: (n) => `
ALTER TABLE ${n.modelExchanges}
  ALTER COLUMN model DROP NOT NULL,
  ALTER COLUMN response DROP NOT NULL,
  ALTER COLUMN input_tokens DROP NOT NULL,
  ALTER COLUMN output_tokens DROP NOT NULL,
  -- The error a failed call rejected with, as JSON text: name, message, timeout, retriable… (null when answered).
  ADD COLUMN error text;

-- NOT VALID: checked for every row from now on, but the rows already there are not scanned — each is an answered call
-- (these columns were NOT NULL and there was no error column), so the check holds for them by construction, and a
-- scan of a large log would hold the table's exclusive lock, stopping appends, for its whole length.
ALTER TABLE ${n.modelExchanges} ADD CONSTRAINT model_exchanges_answered_or_failed CHECK (
  (error IS NULL AND model IS NOT NULL AND response IS NOT NULL
    AND input_tokens IS NOT NULL AND output_tokens IS NOT NULL)
  OR (error IS NOT NULL AND model IS NULL AND response IS NULL
    AND input_tokens IS NULL AND output_tokens IS NULL)) NOT VALID;
`,
};
