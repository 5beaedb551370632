// Lenient coercion (PI-3), driven only by the parameter's schema: numeric strings to numbers, "a, b, c" to arrays,
// boolean words, enum case and synonyms, date notations to the declared format, normalizers. A value is only ever
// rewritten into an equivalent one; nothing is filled in — a missing value stays missing.
import { dateFormatOf, formatDate, isInDateFormat, parseDateString, type DateContext } from './dates.js';
import { enumKey } from './extractors.js';
import { applyNormalizers } from './normalizers.js';

type Schema = Record<string, unknown>;

/** One change coercion made, for the validation log. */
export interface Coercion {
  /** Dotted path of the value (`items.0`, `filter.state`). */
  path: string;
  from: unknown;
  to: unknown;
  /** What kind of change (`numeric string`, `enum synonym`, `date format`, …). */
  rule: string;
}

const TRUE_WORDS = new Set(['true', 'yes', 'y', 'on', '1', 'enabled', 'enable', '是', '对', '开']);
const FALSE_WORDS = new Set(['false', 'no', 'n', 'off', '0', 'disabled', 'disable', '否', '不', '关']);

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  if (Array.isArray(schema.type)) return schema.type.filter((t): t is string => typeof t === 'string');
  return [];
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function fitsType(value: unknown, types: readonly string[]): boolean {
  if (types.length === 0) return true;
  const kind = kindOf(value);
  return types.some((t) => t === kind || (t === 'number' && kind === 'integer'));
}

/** A numeric string as a number: `" 12 "`, `"1,234.5"`, `"+3"`, `"5.0"`; undefined for anything else. */
export function parseNumeric(value: string): number | undefined {
  const t = value.trim();
  if (!/^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/.test(t) || !/\d/.test(t)) return undefined;
  const n = Number(t.replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

/** A boolean word as a boolean (`yes`/`no`, `on`/`off`, `true`/`false`, `1`/`0`, 是/否); undefined otherwise. */
export function parseBooleanWord(value: string): boolean | undefined {
  const t = value.trim().toLowerCase();
  if (TRUE_WORDS.has(t)) return true;
  if (FALSE_WORDS.has(t)) return false;
  return undefined;
}

/** `"a, b, c"` (or `"a; b; c"`, or a JSON array text) as a list of trimmed, non-empty parts. */
export function splitList(value: string): unknown[] {
  const t = value.trim();
  if (t.startsWith('[') && t.endsWith(']')) {
    try {
      const parsed: unknown = JSON.parse(t);
      if (Array.isArray(parsed)) return parsed;
    } catch {
      // Not JSON: fall through to splitting on separators.
    }
  }
  const separator = t.includes(',')
    ? ','
    : t.includes(';')
      ? ';'
      : t.includes('、')
        ? '、'
        : t.includes('，')
          ? '，'
          : null;
  const parts = separator ? t.split(separator) : [t];
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function matchEnum(value: unknown, schema: Schema): { value: unknown; rule: string } | undefined {
  const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  if (!values || values.some((v) => v === value)) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return undefined;
  const key = enumKey(String(value));
  // Case and separator differences (`Completed`, `in-transit` for `in_transit`): only when exactly one value matches.
  const byCase = values.filter(
    (v) => (typeof v === 'string' || typeof v === 'number') && enumKey(String(v)) === key,
  );
  if (byCase.length === 1) return { value: byCase[0], rule: 'enum case' };
  if (byCase.length > 1) return undefined;
  const synonyms = (schema.synonyms ?? {}) as Record<string, unknown>;
  for (const [word, canonical] of Object.entries(synonyms)) {
    if (enumKey(word) === key && values.includes(canonical))
      return { value: canonical, rule: 'enum synonym' };
  }
  return undefined;
}

/** Options of {@link coerceValue}. */
export interface CoerceOptions {
  /** Reference time and zone for relative dates ("tomorrow") given as a value. */
  dates?: DateContext;
}

/**
 * True when `value`, coerced as an argument would be, is of the schema's declared type and among its `enum` values
 * when it lists any. A tool's schema `default` that is not ("default": "dontcare" for an integer `year`) is a note
 * for people, not a value the schema accepts.
 */
export function fitsDeclaredType(schema: Schema, value: unknown, path: string): boolean {
  const { value: coerced } = coerceValue(schema, value, path);
  if (!fitsType(coerced, typesOf(schema))) return false;
  return !Array.isArray(schema.enum) || schema.enum.some((v) => v === coerced);
}

/**
 * Coerces `value` toward `schema`, recursively through arrays and object properties. Returns the new value and every
 * change made; a value that cannot be coerced is returned unchanged for validation to report.
 */
export function coerceValue(
  schema: Schema,
  value: unknown,
  path: string,
  options: CoerceOptions = {},
  changes: Coercion[] = [],
): { value: unknown; changes: Coercion[] } {
  const record = (to: unknown, rule: string) => {
    changes.push({ path, from: value, to, rule });
    return to;
  };
  const types = typesOf(schema);
  let out = value;

  const normalizers = Array.isArray(schema.normalizers) ? (schema.normalizers as string[]) : [];
  if (normalizers.length > 0 && typeof out === 'string') {
    const normalized = applyNormalizers(out, normalizers);
    if (normalized !== out) out = record(normalized, `normalizers ${normalizers.join(', ')}`);
  }

  if (!fitsType(out, types)) {
    if (typeof out === 'string') {
      if (types.includes('integer') || types.includes('number')) {
        const n = parseNumeric(out);
        if (n !== undefined && (types.includes('number') || Number.isInteger(n)))
          out = record(n, 'numeric string');
      }
      if (typeof out === 'string' && types.includes('boolean')) {
        const b = parseBooleanWord(out);
        if (b !== undefined) out = record(b, 'boolean word');
      }
      if (typeof out === 'string' && types.includes('array')) out = record(splitList(out), 'list string');
      if (typeof out === 'string' && types.includes('object') && /^\s*\{/.test(out)) {
        try {
          const parsed: unknown = JSON.parse(out);
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            out = record(parsed, 'JSON object string');
        } catch {
          // Left as it is; validation names the field.
        }
      }
    } else if (typeof out === 'number') {
      if (types.includes('integer') && Number.isInteger(out)) {
        // fits already (5.0 is 5 in JSON)
      } else if (types.includes('string')) out = record(String(out), 'number as string');
      else if (types.includes('boolean') && (out === 0 || out === 1))
        out = record(out === 1, 'boolean number');
      else if (types.includes('array')) out = record([out], 'single value as list');
    } else if (typeof out === 'boolean') {
      if (types.includes('string') && !Array.isArray(schema.enum))
        out = record(String(out), 'boolean as string');
      else if (types.includes('array')) out = record([out], 'single value as list');
    } else if (out !== null && typeof out === 'object' && !Array.isArray(out) && types.includes('array')) {
      out = record([out], 'single value as list');
    }
  }

  const enumMatch = matchEnum(out, schema);
  if (enumMatch) {
    changes.push({ path, from: out, to: enumMatch.value, rule: enumMatch.rule });
    out = enumMatch.value;
  }

  if (typeof out === 'string' && options.dates) {
    const format = dateFormatOf(schema, path);
    if (format && !isInDateFormat(out, format)) {
      const parts = parseDateString(out, options.dates);
      if (parts) {
        const formatted = formatDate(parts, format, options.dates.timeZone);
        changes.push({ path, from: out, to: formatted, rule: `date format ${format}` });
        out = formatted;
      }
    }
  }

  if (
    Array.isArray(out) &&
    typeof schema.items === 'object' &&
    schema.items !== null &&
    !Array.isArray(schema.items)
  ) {
    const items = schema.items as Schema;
    out = out.map(
      (item, index) =>
        coerceValue(items, item, path ? `${path}.${String(index)}` : String(index), options, changes).value,
    );
  }
  if (
    out !== null &&
    typeof out === 'object' &&
    !Array.isArray(out) &&
    typeof schema.properties === 'object' &&
    schema.properties !== null
  ) {
    const properties = schema.properties as Record<string, Schema>;
    const obj: Record<string, unknown> = { ...(out as Record<string, unknown>) };
    for (const [key, child] of Object.entries(obj)) {
      const childSchema = properties[key];
      if (childSchema && typeof childSchema === 'object') {
        obj[key] = coerceValue(childSchema, child, path ? `${path}.${key}` : key, options, changes).value;
      }
    }
    out = obj;
  }
  return { value: out, changes };
}
