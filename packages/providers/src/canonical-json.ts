// The identity of a model request (EL-7: a replay looks its recorded answer up by it), over the one canonical JSON of
// @signalbox/contracts (RFC 8785): two requests that differ only in key order or absent optional fields hash the same.
import { canonicalHash } from '@signalbox/contracts';
import type { ModelRequest } from './model-types.js';

/** The stable identity of a model request: sha256 (hex) of its canonical JSON. */
export function hashModelRequest(request: ModelRequest): string {
  return canonicalHash(request);
}
