// Canonical JSON for request hashes: object keys sorted, `undefined` members dropped (as JSON.stringify does), no
// whitespace. Two requests that differ only in key order or absent optional fields hash the same.
import { createHash } from 'node:crypto';
import type { ModelRequest } from './model-types.js';

/** Serializes a JSON-compatible value with sorted object keys; throws a TypeError on values JSON cannot hold. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value, new Set()));
}

function sortKeys(value: unknown, seen: Set<object>): unknown {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`canonicalJson: ${value} is not representable in JSON`);
  }
  if (typeof value === 'bigint' || typeof value === 'function' || typeof value === 'symbol') {
    throw new TypeError(`canonicalJson: a ${typeof value} is not representable in JSON`);
  }
  if (typeof value !== 'object' || value === null) return value;
  if (seen.has(value)) throw new TypeError('canonicalJson: circular structure');
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : sortKeys(item, seen)));
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) sorted[key] = sortKeys(member, seen);
    }
    return sorted;
  } finally {
    seen.delete(value);
  }
}

/** The stable identity of a model request: sha256 (hex) of its canonical JSON. */
export function hashModelRequest(request: ModelRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}
