import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiConfigError, UnauthorizedError } from './errors.js';

/** The configured API keys: sha256 hex digest of each key → its tenant. Keys themselves are never stored. */
export type ApiKeys = ReadonlyMap<string, string>;

const SHA256_HEX = /^[0-9a-f]{64}$/;
const TENANT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The sha256 hex digest of an API key, as `SIGNALBOX_API_KEYS` lists it. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * Parses `SIGNALBOX_API_KEYS` (`{ "<sha256 hex>": "<tenant>" }`). Throws ApiConfigError naming the bad entry —
 * never echoing a value that could be a key pasted by mistake instead of its hash.
 */
export function parseApiKeys(json: string | Record<string, string>): ApiKeys {
  let parsed: unknown = json;
  if (typeof json === 'string') {
    try {
      parsed = JSON.parse(json);
    } catch {
      throw new ApiConfigError('SIGNALBOX_API_KEYS is not valid JSON');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiConfigError(
      'SIGNALBOX_API_KEYS must be a JSON object { "<sha256 hex of key>": "<tenant>" }',
    );
  }
  const keys = new Map<string, string>();
  Object.entries(parsed).forEach(([hash, tenant], index) => {
    if (!SHA256_HEX.test(hash)) {
      throw new ApiConfigError(
        `SIGNALBOX_API_KEYS entry ${index + 1}: the name must be the lower-case sha256 hex of the key (64 characters), not the key`,
      );
    }
    if (typeof tenant !== 'string' || !TENANT.test(tenant)) {
      throw new ApiConfigError(
        `SIGNALBOX_API_KEYS entry ${index + 1}: the tenant must be a short identifier`,
      );
    }
    keys.set(hash, tenant);
  });
  if (keys.size === 0)
    throw new ApiConfigError('SIGNALBOX_API_KEYS lists no key; every request would be refused');
  return keys;
}

/**
 * Resolves an `Authorization` header to its tenant. The presented key is hashed and compared with every
 * configured hash in constant time, without stopping at a match, so timing reveals neither which hash matched nor
 * how many bytes did. Throws UnauthorizedError when the header is missing, malformed or unknown.
 */
export function authenticate(keys: ApiKeys, authorization: string | undefined): string {
  const match = authorization === undefined ? null : /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(authorization);
  const key = match?.[1];
  if (key === undefined) throw new UnauthorizedError('send an API key as "Authorization: Bearer <key>"');
  const presented = Buffer.from(hashApiKey(key), 'hex');
  let tenant: string | undefined;
  for (const [hash, owner] of keys) {
    if (timingSafeEqual(presented, Buffer.from(hash, 'hex')) && tenant === undefined) tenant = owner;
  }
  if (tenant === undefined) throw new UnauthorizedError('the API key is not valid');
  return tenant;
}
