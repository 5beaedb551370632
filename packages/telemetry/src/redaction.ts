// OB-1: one central list of what never reaches a log line. Every service's logger gets it; a service can add
// paths but not remove these. Keys are matched at the top level and under up to REDACT_DEPTH levels of nesting
// (arrays count as a level), because pino's redaction wildcards match exactly one level each.

/** Keys whose values are credentials. Matched case-sensitively, so common spellings are listed. */
export const SECRET_KEYS: readonly string[] = [
  'authorization',
  'Authorization',
  'proxy-authorization',
  'cookie',
  'Cookie',
  'cookies',
  'set-cookie',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'client_secret',
  'clientSecret',
  'token',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'id_token',
  'api_token',
  'apiToken',
  'api_key',
  'apiKey',
  'apikey',
  'x-api-key',
  'X-Api-Key',
  'private_key',
  'privateKey',
  'credentials',
  'connection_string',
  'connectionString',
  'database_url',
  'DATABASE_URL',
];

/**
 * Keys whose values are message or tool payloads (user text, tool arguments and outputs). They may hold personal
 * data, and identifiers are enough to find the full record in the event log, so they are not logged by default.
 */
export const PAYLOAD_KEYS: readonly string[] = [
  'payload',
  'arguments',
  'output',
  'previous_call',
  'request',
  'content',
];

/** How many levels below the top a listed key is still found: `a.b.c.password` is redacted, one deeper is not. */
export const REDACT_DEPTH = 3;

/** What a redacted value is replaced with. */
export const REDACTED = '[Redacted]';

function segment(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/** pino redaction paths for `key` at the top level and under 1…`depth` levels of any keys. */
export function pathsForKey(key: string, depth = REDACT_DEPTH): string[] {
  const paths: string[] = [];
  for (let level = 0; level <= depth; level += 1) {
    const prefix = Array.from({ length: level }, () => '*').join('.');
    const tail = segment(key);
    paths.push(prefix ? `${prefix}${tail}` : tail.startsWith('.') ? tail.slice(1) : tail);
  }
  return paths;
}

/** The central redaction list as pino paths: secrets always, payloads unless `includePayloads` is false. */
export function redactionPaths(
  options: { includePayloads?: boolean; extra?: readonly string[] } = {},
): string[] {
  const keys = options.includePayloads === false ? SECRET_KEYS : [...SECRET_KEYS, ...PAYLOAD_KEYS];
  return [...new Set([...keys.flatMap((key) => pathsForKey(key)), ...(options.extra ?? [])])];
}
