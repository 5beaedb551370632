/**
 * The republish-identity rule (EL-2): a decision published for the first time and the same decision published again
 * later (its input redelivered, the decision reused from the log) are the very same bytes. Consumers deduplicate by
 * `event_id`, the schema registry and the audit compare messages, and a replay must find what went out — so a
 * re-publish may not differ from the first publish even in the order of an object's keys.
 *
 * A re-publish is built from the log's row, and PostgreSQL's jsonb gives object keys back in its own order (shorter
 * UTF-8 keys first, then bytewise — {@link compareJsonbKeys}), not in the order they were written. So, once for all:
 *
 * 1. the stage runtime checks each decision in that order (`validateValue(topic, message, { keyOrder:
 *    compareJsonbKeys })` in `@signalbox/stage-kit`'s stage runtime), and the first publish sends exactly the text that
 *    check wrote — no second check, no read-back;
 * 2. the store gives a freshly appended payload back as a read would ({@link inJsonbKeyOrder} over the stored JSON
 *    text, made only when the payload is read), so a caller that does read it sees the log's bytes;
 * 3. a re-publish sends the stored row, whose keys jsonb has already ordered.
 *
 * This module is the only place the order is written; the bus only applies an order it is given, and the stage runtime
 * and the store import it from here. `republish-identity.test.ts` pins the order; the event-store contract suite checks
 * a fresh append's payload against a read of the real database, to the byte.
 */

// jsonb compares keys by byte length, then memcmp of their UTF-8 bytes; for ASCII keys that is length, then code units.
function isAscii(key: string): boolean {
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** The order jsonb keeps object keys in: a message sorted so serializes as the log gives it back. */
export function compareJsonbKeys(a: string, b: string): number {
  if (isAscii(a) && isAscii(b)) return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length - y.length || Buffer.compare(x, y);
}

/**
 * A parsed JSON value with every object's keys in {@link compareJsonbKeys} order, so it serializes to the same text as
 * the value read back from the log.
 */
export function inJsonbKeyOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbKeyOrder);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareJsonbKeys(a, b));
  return Object.fromEntries(entries.map(([key, v]) => [key, inJsonbKeyOrder(v)]));
}
