import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

// The one canonical JSON of Signalbox: every hash that a client, a replay or another process must reproduce is taken
// over it — a confirmation's `arguments_hash` (EX-2), the executor's idempotency and cache keys (EX-3, EX-6), tool
// definition and registry versions (RG-3), model request hashes (EL-7).
//
// It is RFC 8785 (JSON Canonicalization Scheme), through the `canonicalize` package: object members sorted by the
// UTF-16 code units of their names at every depth, no whitespace, strings escaped as ECMAScript's JSON.stringify
// does, numbers in ECMAScript's shortest round-trip form (so `1.0` and `1` are one number and `-0` is `0`). Hashing
// it is stable because the output depends only on the JSON data model of the value — never on key insertion order,
// on how a file spelt a number, or on the platform — and any other RFC 8785 implementation (Go, Python, Java) yields
// the same bytes, so a client in another language can compute the same hash.
//
// Values JSON cannot hold are refused with a TypeError rather than silently mapped: NaN, ±Infinity, bigint, a
// function or symbol member, a top-level `undefined`, a circular structure, a string holding a lone UTF-16
// surrogate (which has no UTF-8 encoding). Two points follow JSON.stringify, because values parsed from JSON never
// meet them and TypeScript objects with optional fields do: an `undefined` object member is left out (as if absent),
// an `undefined` array item is `null`. Objects with `toJSON` (a Date) are serialised through it.

/** The RFC 8785 canonical JSON text of `value`; throws a TypeError when `value` is not JSON data (see above). */
export function canonicalJson(value: unknown): string {
  checkJsonData(value, '$', new Set());
  let text: string | undefined;
  try {
    text = canonicalize(value);
  } catch (error) {
    const message = (error as Error).message.replace(/^[A-Z](?=[a-z]+\b)/, (c) => c.toLowerCase());
    throw new TypeError(`canonicalJson: ${message}`, { cause: error });
  }
  // checkJsonData refused every value canonicalize answers `undefined` for; this is a guard, not a path.
  if (text === undefined) throw new TypeError('canonicalJson: the value has no JSON text');
  return text;
}

/** sha256 (lower-case hex) of the UTF-8 bytes of {@link canonicalJson}(value). */
export function canonicalHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}

/**
 * EX-2: the hash a confirmation is bound to — sha256 hex of the canonical JSON of one call's arguments. The executor
 * asks for a confirmation of exactly this hash; a client answering `POST /v1/tasks/:id/answers` computes it the same way.
 */
export function argumentsHash(args: unknown): string {
  return canonicalHash(args);
}

// canonicalize turns a function or symbol member into `"key":undefined` (not JSON) and a nested bigint into a bare
// TypeError without a path; this walk refuses them first, naming where they are. NaN, Infinity, lone surrogates and
// cycles are left to canonicalize, whose messages say what is wrong.
function checkJsonData(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'undefined':
      if (path === '$') throw new TypeError('canonicalJson: undefined is not JSON');
      return;
    case 'bigint':
    case 'function':
    case 'symbol':
      throw new TypeError(`canonicalJson: a ${typeof value} at ${path} is not JSON`);
    case 'object': {
      if (value === null || seen.has(value)) return;
      seen.add(value);
      if (Array.isArray(value)) {
        value.forEach((item, index) => {
          checkJsonData(item, `${path}[${String(index)}]`, seen);
        });
      } else if (typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
        for (const [key, member] of Object.entries(value)) checkJsonData(member, `${path}.${key}`, seen);
      }
      seen.delete(value);
      return;
    }
    default:
      return;
  }
}
