// Value comparison of the BFCL checker: strings are compared after lower-casing and removing spaces and `,./-_*^`
// (and, as BFCL does, with single quotes read as double quotes); lists element-wise; nested dict patterns key-wise.

const DROPPED = /[ ,./\-_*^]/g;

/** Normalises a string for comparison: drops spaces and `,./-_*^`, lower-cases, and turns `'` into `"`. */
export function normalizeString(text: string): string {
  return text.replace(DROPPED, '').toLowerCase().replaceAll("'", '"');
}

/** True for a non-null, non-array object. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `value` matches one of the acceptable values (`""` matches only a given empty string). */
export function matchesAcceptable(value: unknown, acceptable: readonly unknown[]): boolean {
  return acceptable.some((candidate) => matchesValue(value, candidate));
}

/**
 * True when `value` matches one acceptable `candidate`: strings after normalisation, numbers by value (so `7` and
 * `7.0` are equal), booleans and null exactly, arrays element-wise in order, and objects as nested patterns.
 */
export function matchesValue(value: unknown, candidate: unknown): boolean {
  if (typeof candidate === 'string') {
    return typeof value === 'string' && normalizeString(value) === normalizeString(candidate);
  }
  if (typeof candidate === 'number') return typeof value === 'number' && value === candidate;
  if (Array.isArray(candidate)) {
    return (
      Array.isArray(value) &&
      value.length === candidate.length &&
      candidate.every((item, index) => matchesValue(value[index], item))
    );
  }
  if (isPlainObject(candidate)) return matchesPattern(value, candidate);
  return value === candidate;
}

/**
 * Matches an object against a BFCL dict pattern `{ key: [acceptable…] }`: every given key must be in the pattern with
 * a matching value, and every pattern key that is not given must allow omission (`""`). A pattern member that is not
 * a list is compared as a literal.
 */
export function matchesPattern(value: unknown, pattern: Record<string, unknown>): boolean {
  if (!isPlainObject(value)) return false;
  for (const [key, given] of Object.entries(value)) {
    if (!Object.hasOwn(pattern, key)) return false;
    const allowed = pattern[key];
    if (!(Array.isArray(allowed) ? matchesAcceptable(given, allowed) : matchesValue(given, allowed)))
      return false;
  }
  for (const [key, allowed] of Object.entries(pattern)) {
    if (Object.hasOwn(value, key)) continue;
    if (!(Array.isArray(allowed) && allowed.includes(''))) return false;
  }
  return true;
}
