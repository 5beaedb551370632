import { canonicalHash } from '@signalbox/contracts';

/**
 * sha256 hex of the canonical JSON (RFC 8785, @signalbox/contracts) of `value`: equal arguments always hash alike,
 * whatever their key order. An `undefined` request hashes as `null`.
 */
export function requestHash(value: unknown): string {
  return canonicalHash(value ?? null);
}
