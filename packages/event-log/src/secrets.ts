// PI-5 / RS-6: sensitive values of a payload. `append` stores a payload with each secret path replaced by
// SECRET_REDACTED and the values in the `event_secrets` side table; reads show the redacted payload unless a stage
// asks for its own decision back `withSecrets` (EL-2 re-publish). Paths are dotted, array elements by index:
// `call.arguments.phone`, `history.0.call.arguments.phone`.
//
// RS-6: a sensitive value written as free text (a phone number in the request, an e-mail address in a tool's output)
// is a secret too: `withFreeTextSecrets` makes each string holding one a secret whose stored form is the string with
// the value masked (`"Call me on [phone#1]"`, the detector of `@signalbox/telemetry/sensitive-text`), the clear string
// kept in event_secrets like any other.
import { findSensitive, maskSensitiveText, maskSensitiveValues } from '@signalbox/telemetry/sensitive-text';

/** What a sensitive value reads as in a stored payload. */
export const SECRET_REDACTED = '[REDACTED]';

/** One sensitive value of a payload: where it is and what it is. */
export interface EventSecret {
  /** Dotted path into the payload; array elements by index (`history.0.call.arguments.phone`). */
  path: string;
  /** The value at that path (any JSON). */
  value: unknown;
  /**
   * What the stored payload holds at the path instead of the value; {@link SECRET_REDACTED} when absent. Set for a
   * free-text secret (the text with its sensitive values masked, see {@link withFreeTextSecrets}); not stored in
   * event_secrets, which keeps the value only.
   */
  shown?: string;
}

const INDEX = /^(0|[1-9][0-9]*)$/;

type Container = Record<string, unknown> | unknown[];

const isContainer = (value: unknown): value is Container => typeof value === 'object' && value !== null;

/** The segments of a path, or a reason it is malformed. */
function segmentsOf(path: unknown): string[] | string {
  if (typeof path !== 'string' || path.length === 0) return 'a secret path must be a non-empty string';
  const segments = path.split('.');
  if (segments.some((s) => s.length === 0)) return `secret path ${JSON.stringify(path)} has an empty segment`;
  return segments;
}

/** The container holding the last segment of `segments` in `root`, and that key; undefined when absent. */
function parentOf(
  root: unknown,
  segments: readonly string[],
): { parent: Container; key: string } | undefined {
  let node: unknown = root;
  for (const [i, segment] of segments.entries()) {
    if (!isContainer(node)) return undefined;
    if (
      Array.isArray(node)
        ? !INDEX.test(segment) || Number(segment) >= node.length
        : !Object.hasOwn(node, segment)
    )
      return undefined;
    if (i === segments.length - 1) return { parent: node, key: segment };
    node = (node as Record<string, unknown>)[segment];
  }
  return undefined;
}

function put(target: { parent: Container; key: string }, value: unknown): void {
  if (Array.isArray(target.parent)) target.parent[Number(target.key)] = value;
  else target.parent[target.key] = value;
}

function readAt(target: { parent: Container; key: string }): unknown {
  return Array.isArray(target.parent) ? target.parent[Number(target.key)] : target.parent[target.key];
}

/**
 * The secrets of `payload` at `paths` (values taken from the payload), ready for `NewEvent.secrets`. Throws a
 * RangeError for a malformed path or one the payload does not have — a stage that names a secret it did not emit
 * has a bug, and failing is safer than storing the value in the clear.
 */
export function secretsAt(payload: unknown, paths: readonly string[]): EventSecret[] {
  return paths.map((path) => {
    const segments = segmentsOf(path);
    if (typeof segments === 'string') throw new RangeError(segments);
    const target = parentOf(payload, segments);
    if (!target) throw new RangeError(`secret path ${path} is not in the payload`);
    return { path, value: readAt(target) };
  });
}

/**
 * A copy of `payload` with every secret path replaced by {@link SECRET_REDACTED}, and the secrets as JSON text.
 * Returns a reason instead when a secret is malformed, missing from the payload, not JSON, repeated, or nested in
 * another secret (restoring such a pair would depend on order).
 */
export function redactSecrets(
  payload: unknown,
  secrets: readonly EventSecret[],
): { payload: unknown; secrets: { path: string; json: string }[] } | string {
  if (secrets.length === 0) return { payload, secrets: [] };
  const parsed: { path: string; segments: string[]; json: string; shown: string }[] = [];
  for (const secret of secrets) {
    const segments = segmentsOf(secret.path);
    if (typeof segments === 'string') return segments;
    if (!parentOf(payload, segments)) return `secret path ${secret.path} is not in the payload`;
    let json: unknown;
    try {
      json = JSON.stringify(secret.value);
    } catch {
      json = undefined;
    }
    if (typeof json !== 'string') return `the secret at ${secret.path} is not JSON`;
    if (secret.shown !== undefined && typeof secret.shown !== 'string')
      return `the secret at ${secret.path} has a shown form that is not a string`;
    parsed.push({ path: secret.path, segments, json, shown: secret.shown ?? SECRET_REDACTED });
  }
  for (const a of parsed) {
    for (const b of parsed) {
      if (a === b) continue;
      if (a.path === b.path) return `secret path ${a.path} is given twice`;
      if (b.path.startsWith(`${a.path}.`)) return `secret path ${b.path} lies inside secret path ${a.path}`;
    }
  }
  const copy = structuredClone(payload);
  for (const { segments, shown } of parsed) {
    const target = parentOf(copy, segments);
    if (target) put(target, shown);
  }
  return { payload: copy, secrets: parsed.map(({ path, json }) => ({ path, json })) };
}

/**
 * A copy of `payload` with the values at `paths` replaced by {@link SECRET_REDACTED} and sensitive values in its
 * other strings masked as the append masks them, for showing a payload that was never stored (a re-taken decision in
 * a diff). A path the payload lacks, or a malformed one, is skipped.
 */
export function redactPaths(payload: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0 && !holdsSensitive(payload)) return payload;
  const copy = maskSensitiveValues(structuredClone(payload));
  for (const path of paths) {
    const segments = segmentsOf(path);
    const target = typeof segments === 'string' ? undefined : parentOf(copy, segments);
    if (target) put(target, SECRET_REDACTED);
  }
  return copy;
}

/** Puts stored secrets back into a (redacted) payload read from the log, in place; returns the payload. */
export function restoreSecrets(payload: unknown, secrets: readonly EventSecret[]): unknown {
  for (const { path, value } of secrets) {
    const segments = segmentsOf(path);
    const target = typeof segments === 'string' ? undefined : parentOf(payload, segments);
    // Written in the same statement as the payload they were cut from, so a missing path is corruption.
    if (!target) throw new RangeError(`stored secret path ${path} is not in its event's payload`);
    put(target, value);
  }
  return payload;
}

/**
 * A copy of `value` (any JSON, e.g. a model exchange) with the secret values of its event made unreadable: every
 * string or number equal to a secret's value (or to a string or number inside one) becomes {@link SECRET_REDACTED},
 * and every occurrence of such a value's text inside a longer string — a prompt quoting the user, a tool call's raw
 * JSON arguments — is replaced by it. Errs on the side of hiding: a secret may hide equal text elsewhere too; only
 * texts shorter than {@link MIN_REDACTED_TEXT} characters are hidden where they are a whole value but not inside
 * longer strings, which they would shred.
 */
export function redactSecretValues<T>(value: T, secrets: readonly EventSecret[]): T {
  const redact = secretValueRedactor(secrets);
  return redact ? (redact(value) as T) : value;
}

/** The walk of {@link redactSecretValues} for these secrets, or undefined when they hold no string or number. */
function secretValueRedactor(secrets: readonly EventSecret[]): ((value: unknown) => unknown) | undefined {
  const strings = new Set<string>();
  const numbers = new Set<number>();
  const needles = new Set<string>();
  const collect = (v: unknown) => {
    if (typeof v === 'string') {
      if (v.length === 0) return;
      strings.add(v);
      // A free-text secret (a request quoting a phone number): the values in it are what must not be read elsewhere.
      for (const text of [v, ...findSensitive(v).map((span) => span.text)]) {
        needles.add(text);
        // How the value reads inside JSON text (a tool call's raw arguments): quotes, backslashes, controls escaped.
        needles.add(JSON.stringify(text).slice(1, -1));
      }
    } else if (typeof v === 'number' && Number.isFinite(v)) {
      numbers.add(v);
      needles.add(String(v));
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (isContainer(v)) Object.values(v).forEach(collect);
  };
  for (const secret of secrets) collect(secret.value);
  if (strings.size === 0 && numbers.size === 0) return undefined;
  // Longest first, so a secret that contains another is hidden whole.
  const ordered = [...needles]
    .filter((n) => n.length >= MIN_REDACTED_TEXT)
    .sort((a, b) => b.length - a.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      if (strings.has(v)) return SECRET_REDACTED;
      let out = v;
      for (const needle of ordered) if (out.includes(needle)) out = out.split(needle).join(SECRET_REDACTED);
      return out;
    }
    if (typeof v === 'number') return numbers.has(v) ? SECRET_REDACTED : v;
    if (Array.isArray(v)) return v.map(walk);
    if (isContainer(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

/**
 * `secrets` plus a secret for every other place in `payload` that holds one of their values — a tool's output
 * echoing the phone number it was given, a text quoting it (matched as {@link redactSecretValues} matches) — so that
 * the stored payload hides every copy, and restoring the secrets still gives the payload back exactly (EL-2). An
 * echo sits at the deepest path the dotted grammar can name (a key holding a dot or an empty key cannot be named:
 * its container is taken whole); a secret inside a taken container is dropped, the container's value holding it.
 * Secrets `redactSecrets` would refuse (malformed, missing) are returned unchanged, for it to say why.
 */
export function withEchoedSecrets(payload: unknown, secrets: readonly EventSecret[]): readonly EventSecret[] {
  // Most events have no secrets: nothing to look for, nothing built (this runs for every appended event).
  if (secrets.length === 0) return secrets;
  const redact = secretValueRedactor(secrets);
  if (!redact) return secrets;
  const secretPaths = new Set(secrets.map((s) => s.path));
  const echoes = new Map<string, unknown>();
  const walk = (value: unknown, path: string[]): void => {
    const here = path.join('.');
    if (secretPaths.has(here)) return;
    if (isContainer(value)) {
      const entries = Array.isArray(value)
        ? value.map((v, i) => [String(i), v] as const)
        : Object.entries(value);
      for (const [key, child] of entries) {
        if (key.length === 0 || key.includes('.')) {
          // A key the grammar cannot name: should anything under it echo a secret, this container is the echo (the
          // payload itself cannot be one; its top-level keys are the contracts').
          if (path.length > 0 && echoesIn(child, redact)) {
            echoes.set(here, value);
            return;
          }
          continue;
        }
        walk(child, [...path, key]);
      }
      return;
    }
    if (path.length > 0 && redact(value) !== value) echoes.set(here, value);
  };
  walk(payload, []);
  if (echoes.size === 0) return secrets;
  // A container taken whole swallows the secrets and echoes inside it. (Given secrets nested in one another are left
  // as they are, for redactSecrets to refuse.)
  const inside = (path: string) => [...echoes.keys()].some((outer) => path.startsWith(`${outer}.`));
  return [
    ...secrets.filter((s) => !inside(s.path)),
    ...[...echoes].filter(([path]) => !inside(path)).map(([path, value]) => ({ path, value })),
  ];
}

/** Whether `value` holds a secret's value anywhere (see {@link withEchoedSecrets}). */
function echoesIn(value: unknown, redact: (value: unknown) => unknown): boolean {
  if (isContainer(value)) return Object.values(value).some((v) => echoesIn(v, redact));
  return redact(value) !== value;
}

/** Secret texts shorter than this are redacted where they are a whole value only, never inside longer strings. */
export const MIN_REDACTED_TEXT = 3;

/**
 * `secrets` plus a secret for every string of `payload` that holds a sensitive value in free text (a phone number,
 * an e-mail address, an id or bank card number: `findSensitive` of `@signalbox/telemetry/sensitive-text`, the rule
 * the parameter injector extracts phone numbers and e-mail addresses by). Each such secret keeps the clear string as
 * its value and shows the string with the values masked (`"Call me on [phone#1]"`), so the stored row stays readable
 * and restoring gives the payload back exactly (EL-2). Strings at or inside a given secret's path are that secret's
 * already. A string under a key the dotted grammar cannot name makes its nearest nameable container the secret
 * (shown as {@link SECRET_REDACTED}), as {@link withEchoedSecrets} does.
 */
export function withFreeTextSecrets(
  payload: unknown,
  secrets: readonly EventSecret[],
): readonly EventSecret[] {
  const found: EventSecret[] = [];
  collectFreeText(
    payload,
    [],
    secrets.map((s) => s.path),
    found,
  );
  return found.length === 0 ? secrets : [...secrets, ...found];
}

/**
 * The walk of {@link withFreeTextSecrets} at `segments` (the path of `value`, one entry per key or index). It runs on
 * every append, so a path's text is made only where it is needed (a find, or a given secret to stay out of), and the
 * walk is one function made once rather than closures made for each payload.
 */
function collectFreeText(
  value: unknown,
  segments: string[],
  taken: readonly string[],
  found: EventSecret[],
): void {
  if (taken.length > 0 && segments.length > 0 && isCovered(segments.join('.'), taken)) return;
  if (typeof value === 'string') {
    if (segments.length === 0) return;
    const shown = maskSensitiveText(value);
    if (shown !== value) found.push({ path: segments.join('.'), value, shown });
    return;
  }
  if (!isContainer(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      segments.push(String(i));
      collectFreeText(value[i], segments, taken, found);
      segments.pop();
    }
    return;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = value[key];
    if (key.length > 0 && !key.includes('.')) {
      segments.push(key);
      collectFreeText(child, segments, taken, found);
      segments.pop();
    } else if (segments.length > 0 && holdsSensitive(child)) {
      // Drop what was found under this container: it is taken whole.
      const here = segments.join('.');
      const prefix = `${here}.`;
      for (let i = found.length - 1; i >= 0; i -= 1)
        if (found[i]?.path.startsWith(prefix)) found.splice(i, 1);
      found.push({ path: here, value });
      return;
    }
  }
}

/** Whether `path` is one of `taken` or inside one. */
function isCovered(path: string, taken: readonly string[]): boolean {
  return taken.some((t) => path === t || path.startsWith(`${t}.`));
}

/** Whether any string in `value` holds a sensitive value in free text. */
function holdsSensitive(value: unknown): boolean {
  return typeof value === 'string'
    ? findSensitive(value).length > 0
    : isContainer(value) && Object.values(value).some(holdsSensitive);
}
