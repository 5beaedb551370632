// The injector's validation and coercion of one call's arguments (PI-3, PI-5): what the stage runs on every prepared
// call, and what `signalbox eval repair` measures. Empty strings are missing values; undeclared and denied arguments
// are stripped with a reason; the rest is coerced toward the schema and validated. Nothing is ever filled in.
import { coerceValue } from './coerce.js';
import type { DateContext } from './dates.js';
import { shown } from './redaction.js';
import { validateArguments, type FieldError } from './validate.js';

type Schema = Record<string, unknown>;

/** What {@link repairArguments} needs besides the arguments. */
export interface RepairOptions {
  /** Sensitive parameter paths: their values never reach the log. @default none */
  sensitive?: ReadonlySet<string>;
  /** Parameters the caller may not set, with the reason (PI-5 field permissions). @default none */
  denied?: ReadonlyMap<string, string>;
  /** Reference time and zone for date values such as "tomorrow". @default dates are only reformatted, not resolved */
  dates?: DateContext;
}

/** An argument that was removed, and why. */
export interface StrippedField {
  field: string;
  reason: string;
}

/** The outcome: valid (ready to call) or the field errors to re-ask or clarify. */
export interface RepairResult {
  ok: boolean;
  /** The arguments after stripping and coercion (valid when `ok`). */
  arguments: Record<string, unknown>;
  /** Field errors left after coercion; empty when `ok`. */
  errors: FieldError[];
  /** Top-level arguments whose value coercion changed (provenance `coerced`). */
  coerced: string[];
  stripped: StrippedField[];
  /** Missing values: empty strings and nulls the schema does not allow. */
  emptied: string[];
  /** Human-readable lines for the validation log; sensitive values redacted. */
  log: string[];
}

function allowsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return true;
  const type = (schema as Schema).type;
  return type === undefined ? false : type === 'null' || (Array.isArray(type) && type.includes('null'));
}

function additionalAllowed(schema: Schema): boolean {
  // No `properties` at all: the schema says nothing about names, so every argument is allowed.
  if (typeof schema.properties !== 'object' || schema.properties === null) return true;
  const extra = schema.additionalProperties;
  return extra === true || (typeof extra === 'object' && extra !== null);
}

/**
 * Validates and coerces `args` against a tool's `parameters` schema. Throws only when the schema itself cannot be
 * compiled (a registry defect, caught at load for registry tools).
 */
export function repairArguments(
  schema: Schema,
  args: Record<string, unknown>,
  options: RepairOptions = {},
): RepairResult {
  const sensitive = options.sensitive ?? new Set<string>();
  const properties = (
    typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {}
  ) as Record<string, Schema>;
  const log: string[] = [];
  const stripped: StrippedField[] = [];
  const emptied: string[] = [];
  const coerced = new Set<string>();
  const out: Record<string, unknown> = {};

  for (const [field, value] of Object.entries(args)) {
    const denied = options.denied?.get(field);
    if (denied !== undefined) {
      stripped.push({ field, reason: denied });
      log.push(`stripped ${field}: ${denied}`);
      continue;
    }
    if (!Object.hasOwn(properties, field) && !additionalAllowed(schema)) {
      const reason = 'not a parameter of this tool';
      stripped.push({ field, reason });
      log.push(`stripped ${field}: ${reason}`);
      continue;
    }
    // PI-3: an empty string (or blank, or a null the schema does not allow) is a missing value, never a value.
    if (
      (typeof value === 'string' && value.trim() === '') ||
      (value === null && !allowsNull(properties[field]))
    ) {
      emptied.push(field);
      log.push(`${field}: ${value === null ? 'null' : 'empty string'} is a missing value`);
      continue;
    }
    const fieldSchema = properties[field];
    if (!fieldSchema || typeof fieldSchema !== 'object') {
      out[field] = value;
      continue;
    }
    const { value: next, changes } = coerceValue(
      fieldSchema,
      value,
      field,
      options.dates ? { dates: options.dates } : {},
    );
    for (const change of changes) {
      log.push(
        `coerced ${change.path}: ${shown(change.path, change.from, sensitive)} → ${shown(change.path, change.to, sensitive)} (${change.rule})`,
      );
    }
    if (changes.length > 0 && JSON.stringify(next) !== JSON.stringify(value)) coerced.add(field);
    out[field] = next;
  }

  const errors = validateArguments(schema, out);
  for (const e of errors) log.push(`invalid ${e.field}: ${e.reason}`);
  return { ok: errors.length === 0, arguments: out, errors, coerced: [...coerced], stripped, emptied, log };
}
