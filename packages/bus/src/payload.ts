import { randomUUID } from 'node:crypto';
import { jsonParser, type TopicSpec } from '@signalbox/contracts';
import type { z } from 'zod';
import { InvalidMessageError } from './errors.js';
import type { PoisonReason } from './bus.js';

// The JSON round trip both adapters share: a value is validated in the shape a consumer will see after JSON
// encoding (a Date becomes a string, NaN becomes null, undefined properties disappear), so the in-memory bus
// refuses exactly what Kafka would.

/** Result of turning payload bytes into a valid value. */
export type ParsedPayload =
  | { ok: true; value: unknown }
  | { ok: false; reason: Extract<PoisonReason, 'undecodable' | 'invalid_payload'>; detail: string };

// undefined, a function or a symbol stringify to undefined despite the declared return type.
const stringifyJson = (value: unknown): string | undefined => JSON.stringify(value);

/** One line naming the first invalid field of a zod error (never the value). */
export function describeIssues(error: z.ZodError): { path: string; detail: string } {
  const issue = error.issues[0];
  if (!issue) return { path: '', detail: 'invalid value' };
  const path = issue.path.map(String).join('.');
  const more = error.issues.length > 1 ? ` (+${String(error.issues.length - 1)} more issues)` : '';
  return { path, detail: `${issue.message}${more}` };
}

// Values that passed the check `publish` makes, with the JSON text `publish` would write for them (see validateValue)
// and that of their `payload` member, which the text holds as it is (see validatedPayloadJson).
const validatedJson = new WeakMap<
  object,
  { schema: TopicSpec['schema']; json: string; payloadJson: string | undefined }
>();

/** Options of {@link validateValue}. */
export interface ValidateValueOptions {
  /**
   * Puts every object's keys in this order before the check, so that members the schema keeps as they come (records,
   * free-form values) serialize in it — e.g. the order a store gives them back in, for a message that must be sent
   * again byte for byte from that store.
   */
  keyOrder?: (a: string, b: string) => number;
}

/**
 * Validates `value` for `topic` exactly as `publish` does (JSON round trip, then the topic's zod schema) and returns
 * the value as a consumer will see it, frozen. Publishing that very object writes the bytes checked here without a
 * second check: a stage validates each decision before appending it, and used to pay for the same check twice.
 * Throws {@link InvalidMessageError} like `publish`.
 */
export function validateValue(topic: TopicSpec, value: unknown, options: ValidateValueOptions = {}): unknown {
  const { data, json, payloadJson } = validate(topic, value, options.keyOrder);
  if (typeof data === 'object' && data !== null) {
    validatedJson.set(Object.freeze(data), { schema: topic.schema, json, payloadJson });
  }
  return data;
}

/**
 * The JSON text of the `payload` member of a value {@link validateValue} returned — the very characters its published
 * text holds for it, i.e. `JSON.stringify(value.payload)` — or undefined for any other value. A stage stores the
 * payload it publishes, and this spares it stringifying that payload a second time.
 */
export function validatedPayloadJson(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? validatedJson.get(value)?.payloadJson : undefined;
}

/** The JSON text to publish: that checked by {@link validateValue} for this topic's schema, else checked now. */
export function encodeValueText(topic: TopicSpec, value: unknown): string {
  const validated = typeof value === 'object' && value !== null ? validatedJson.get(value) : undefined;
  return validated?.schema === topic.schema ? validated.json : validate(topic, value).json;
}

/** The bytes to publish (UTF-8 of {@link encodeValueText}). */
export function encodeValue(topic: TopicSpec, value: unknown): Buffer {
  return Buffer.from(encodeValueText(topic, value), 'utf8');
}

function validate(
  topic: TopicSpec,
  value: unknown,
  keyOrder?: (a: string, b: string) => number,
): { data: unknown; json: string; payloadJson: string | undefined } {
  let plain: unknown;
  if (keyOrder) {
    // One walk both checks the value survives JSON and makes the ordered copy; else the round trip, then order.
    plain = orderedCopy(value, 0, keyOrder);
    if (plain === NOT_PLAIN) plain = orderedCopy(jsonRoundTrip(topic, value), 0, keyOrder);
  } else {
    plain = survivesJson(value, 0) ? value : jsonRoundTrip(topic, value);
  }
  // `plain` survives JSON (checked by the walk, or made by the round trip): the compiled parser applies.
  let result = jsonParser(topic.schema).safeParse(plain);
  if (!result.success) {
    const { path, detail } = describeIssues(result.error);
    throw new InvalidMessageError(topic.name, path, detail, { cause: result.error });
  }
  let text = stringifyMessage(result.data);
  // The compiled parser keeps a `__proto__` key deep inside free-form JSON where zod's own parser does not (see
  // jsonParser): such a rare message is parsed by the schema itself, so both give the same bytes.
  if (text.json.includes(PROTO_KEY)) {
    result = topic.schema.safeParse(plain);
    if (!result.success)
      throw new Error(`${topic.name}: the schema refuses what its compiled parser accepted`);
    text = stringifyMessage(result.data);
  }
  return { data: result.data, ...text };
}

// Stands for the payload while the rest of a message is stringified: random per process, so no value holds it by
// chance, and found exactly once or not used (see stringifyMessage).
const PAYLOAD_MARK = `\u0000payload-${randomUUID()}`;
const PAYLOAD_MARK_JSON = JSON.stringify(PAYLOAD_MARK);

/**
 * `JSON.stringify(data)`, and that of its object `payload` member (an envelope's), stringified once: the message's
 * text is the rest of it stringified around a mark, with the payload's text put in the mark's place — the same
 * characters, as JSON.stringify writes a member's value the same wherever it stands.
 */
function stringifyMessage(data: unknown): { json: string; payloadJson: string | undefined } {
  const payload =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as { payload?: unknown }).payload
      : undefined;
  if (typeof payload !== 'object' || payload === null)
    return { json: JSON.stringify(data), payloadJson: undefined };
  const payloadJson = JSON.stringify(payload);
  // A spread keeps the members' order, the payload's included.
  const around = JSON.stringify({ ...(data as object), payload: PAYLOAD_MARK });
  const at = around.indexOf(PAYLOAD_MARK_JSON);
  if (at < 0 || around.includes(PAYLOAD_MARK_JSON, at + 1))
    return { json: JSON.stringify(data), payloadJson };
  return {
    json: around.slice(0, at) + payloadJson + around.slice(at + PAYLOAD_MARK_JSON.length),
    payloadJson,
  };
}

/** How a `__proto__` key (or the string) reads in JSON text. */
const PROTO_KEY = '"__proto__"';

/** `value` as a consumer sees it after JSON encoding (a Date becomes a string, NaN null, undefined members go). */
function jsonRoundTrip(topic: TopicSpec, value: unknown): unknown {
  let json: string | undefined;
  try {
    json = stringifyJson(value);
  } catch (error) {
    throw new InvalidMessageError(
      topic.name,
      '',
      `value is not JSON-serializable (${(error as Error).message})`,
      {
        cause: error,
      },
    );
  }
  if (json === undefined) throw new InvalidMessageError(topic.name, '', 'value is not JSON-serializable');
  return JSON.parse(json);
}

// Deeper than any message; a deeper value (or a cycle) takes the round trip, which reports it.
const MAX_PLAIN_DEPTH = 64;

/**
 * True when a JSON round trip would give back an equal value — null, booleans, strings, finite numbers, arrays
 * without holes and plain objects of those — so it is validated as it is: the walk costs a fraction of encoding and
 * parsing 3–4 KB of JSON again, for what stages publish almost always.
 */
function survivesJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (depth >= MAX_PLAIN_DEPTH) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!(i in value) || !survivesJson(value[i], depth + 1)) return false;
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key of Object.keys(value)) {
        if (!survivesJson((value as Record<string, unknown>)[key], depth + 1)) return false;
      }
      return true;
    }
    default:
      // undefined, functions, symbols and bigints do not survive (or do not encode at all).
      return false;
  }
}

const NOT_PLAIN = Symbol('does not survive JSON');

// Messages repeat a few key lists (the envelope's, each payload object's): their sorted order is kept per comparator
// rather than sorted again for every object. Found by first key and length, then compared key by key — no string
// is built to look one up. Bounded, as free-form members (tool arguments) bring any keys.
const SORTED_KEYS_CACHE_SIZE = 2048;
const LISTS_PER_FIRST_KEY = 16;

interface SortedKeysCache {
  byFirstKey: Map<string, { keys: readonly string[]; sorted: readonly string[] }[]>;
  size: number;
}

const sortedKeysCaches = new WeakMap<(a: string, b: string) => number, SortedKeysCache>();

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sortedKeys(keys: string[], keyOrder: (a: string, b: string) => number): readonly string[] {
  if (keys.length < 2) return keys;
  let cache = sortedKeysCaches.get(keyOrder);
  if (!cache) sortedKeysCaches.set(keyOrder, (cache = { byFirstKey: new Map(), size: 0 }));
  const first = keys[0] as string;
  let lists = cache.byFirstKey.get(first);
  if (lists) {
    for (const list of lists) if (sameKeys(list.keys, keys)) return list.sorted;
  }
  const sorted = [...keys].sort(keyOrder);
  if (cache.size >= SORTED_KEYS_CACHE_SIZE) {
    cache.byFirstKey.clear();
    cache.size = 0;
    lists = undefined;
  }
  if (!lists) cache.byFirstKey.set(first, (lists = []));
  // Few lists share a first key; should many (free-form keys), the newest are not kept, so a look-up stays short.
  if (lists.length < LISTS_PER_FIRST_KEY) {
    lists.push({ keys, sorted });
    cache.size++;
  }
  return sorted;
}

/** A copy of `value` with object keys in `keyOrder`, or NOT_PLAIN when it would not survive JSON (see survivesJson). */
function orderedCopy(value: unknown, depth: number, keyOrder: (a: string, b: string) => number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : NOT_PLAIN;
    case 'object': {
      if (value === null) return null;
      if (depth >= MAX_PLAIN_DEPTH) return NOT_PLAIN;
      if (Array.isArray(value)) {
        const out = new Array<unknown>(value.length);
        for (let i = 0; i < value.length; i++) {
          if (!(i in value)) return NOT_PLAIN;
          const item = orderedCopy(value[i], depth + 1, keyOrder);
          if (item === NOT_PLAIN) return NOT_PLAIN;
          out[i] = item;
        }
        return out;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) return NOT_PLAIN;
      const out: Record<string, unknown> = {};
      for (const key of sortedKeys(Object.keys(value), keyOrder)) {
        const item = orderedCopy((value as Record<string, unknown>)[key], depth + 1, keyOrder);
        if (item === NOT_PLAIN) return NOT_PLAIN;
        out[key] = item;
      }
      return out;
    }
    default:
      return NOT_PLAIN;
  }
}

/** Parses JSON payload bytes and validates them against the topic's schema; never throws. */
export function parsePayload(topic: TopicSpec, payload: Buffer): ParsedPayload {
  let parsed: unknown;
  const text = payload.toString('utf8');
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: 'undecodable', detail: `payload is not JSON: ${(error as Error).message}` };
  }
  // Parsed from JSON text: the compiled parser applies — unless a `__proto__` key may be in it (see validate).
  const result = (text.includes(PROTO_KEY) ? topic.schema : jsonParser(topic.schema)).safeParse(parsed);
  if (!result.success) {
    const { path, detail } = describeIssues(result.error);
    return { ok: false, reason: 'invalid_payload', detail: `${path || '(root)'}: ${detail}` };
  }
  return { ok: true, value: result.data };
}
