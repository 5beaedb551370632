import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with `module.exports = plugin; module.exports.default = plugin`; under NodeNext the
// default import is the module object, so take the plugin from `.default`.
const addFormats = addFormatsModule.default;

/**
 * Names of the value normalizers a parameter may declare (`normalizers: [trim, lowercase]`). The parameter
 * injector applies them, in order, before validation; a closed set so that a typo is a load error, not a no-op.
 */
export const NORMALIZER_NAMES = [
  'trim',
  'lowercase',
  'uppercase',
  'collapse_whitespace',
  'strip_punctuation',
  'digits_only',
  'phone_e164',
  'email',
  'url',
  'iso_date',
  'iso_datetime',
  'city_name',
  'currency_code',
] as const;

/** One of {@link NORMALIZER_NAMES}. */
export type NormalizerName = (typeof NORMALIZER_NAMES)[number];

/**
 * Which side of the reference day a date parameter's values lie on (`date_direction: past`): the dates of records
 * (minutes of meetings held, orders placed) are in the past, those of bookings and reminders in the future. A day the
 * request writes without all of its calendar ("27号", "the 27th", "Friday", "Nov 27") is then the nearest such day on
 * that side of the reference day, not the next one.
 */
export const DATE_DIRECTIONS = ['past', 'future'] as const;

/** One of {@link DATE_DIRECTIONS}. */
export type DateDirection = (typeof DATE_DIRECTIONS)[number];

/** A JSON Schema document, as plain data. */
export type JsonSchema = Record<string, unknown>;

/** A problem inside a JSON Schema: the path inside the schema (dotted) and what is wrong. */
export interface JsonSchemaIssue {
  path: string;
  message: string;
}

function addExtensionKeywords(ajv: Ajv | Ajv2020): void {
  // Registry extensions read by the parameter injector (PI-3). Declared as keywords so that strict mode still
  // rejects every other unknown keyword (a misspelt `requried` is a load error) while these pass.
  ajv.addKeyword({
    keyword: 'synonyms',
    metaSchema: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
  });
  ajv.addKeyword({
    keyword: 'normalizers',
    metaSchema: { type: 'array', items: { enum: [...NORMALIZER_NAMES] } },
  });
  ajv.addKeyword({ keyword: 'date_direction', metaSchema: { enum: [...DATE_DIRECTIONS] } });
  // Common annotation keywords of OpenAI / MCP / OpenAPI-flavoured schemas that carry no validation meaning.
  for (const keyword of ['example', 'x-sensitive']) ajv.addKeyword({ keyword });
}

function makeAjv<T extends Ajv | Ajv2020>(ajv: T): T {
  addFormats(ajv);
  addExtensionKeywords(ajv);
  return ajv;
}

// strictRequired is off: `required` naming a property that `properties` does not list is valid JSON Schema (BFCL does it).
const options = {
  strict: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allErrors: true,
} as const;
let draft2020: Ajv2020 | undefined;
let draft07: Ajv | undefined;

/** The validator for a schema: draft-07 when the schema says so in `$schema`, else draft 2020-12. */
function ajvFor(schema: JsonSchema): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[467]/.test(declared)) return (draft07 ??= makeAjv(new Ajv(options)));
  return (draft2020 ??= makeAjv(new Ajv2020(options)));
}

function issuePath(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.');
}

/**
 * Checks that `schema` is itself a valid JSON Schema: it must satisfy the meta-schema, compile (patterns,
 * `$ref`s, formats resolve) and use no unknown keyword. Returns every issue found; an empty list means valid.
 */
export function jsonSchemaIssues(schema: unknown): JsonSchemaIssue[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ path: '', message: 'a JSON Schema must be an object' }];
  }
  const ajv = ajvFor(schema as JsonSchema);
  const { $schema: _ignored, ...body } = schema as JsonSchema;
  if (!ajv.validateSchema(body)) {
    // The meta-schema's anyOf branches report one wrong value several times ("must be equal to one of the allowed
    // values", "must be array", "must match a schema in anyOf"); keep one issue per path, the most specific one.
    const byPath = new Map<string, ErrorObject>();
    for (const e of ajv.errors ?? []) {
      const current = byPath.get(e.instancePath);
      if (!current || (e.keyword === 'enum' && current.keyword !== 'enum')) byPath.set(e.instancePath, e);
    }
    return [...byPath.values()].map((e) => ({
      path: issuePath(e.instancePath),
      message: `${e.message ?? 'invalid'}${e.keyword === 'enum' ? ` ${JSON.stringify((e.params as { allowedValues: unknown }).allowedValues)}` : ''}`,
    }));
  }
  try {
    ajv.compile(body);
  } catch (error) {
    return [{ path: '', message: error instanceof Error ? error.message : String(error) }];
  }
  return [];
}

const validators = new WeakMap<object, ValidateFunction>();

/**
 * Validates `value` against `schema` (which must be valid, see {@link jsonSchemaIssues}); returns the issues,
 * each with the dotted path of the offending value. Compiled validators are cached per schema object.
 */
export function validateAgainstSchema(schema: JsonSchema, value: unknown): JsonSchemaIssue[] {
  let validate = validators.get(schema);
  if (!validate) {
    const { $schema: _ignored, ...body } = schema;
    validate = ajvFor(schema).compile(body);
    validators.set(schema, validate);
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => ({
    path: issuePath(e.instancePath),
    message: e.message ?? 'invalid',
  }));
}

/** What the registry declares about one parameter beyond plain JSON Schema. */
export interface ParameterHints {
  /** Dotted path of the parameter inside the arguments object (`status`, `filter.state`). */
  path: string;
  /** The parameter's own schema. */
  schema: JsonSchema;
  /** Whether the enclosing object lists it as required. */
  required: boolean;
  /** Closed set of values, when the schema has `enum`. */
  enum: readonly unknown[] | undefined;
  /** Synonym → canonical value (e.g. `completed` → `done`); keys are compared case-insensitively by the injector. */
  synonyms: Readonly<Record<string, string | number | boolean>>;
  /** Normalizers to apply in order. */
  normalizers: readonly NormalizerName[];
  /** The side of the reference day the parameter's dates lie on (`date_direction`), when declared. */
  dateDirection?: DateDirection;
}

/**
 * Every parameter of a `parameters` schema, depth-first through nested object properties, with its synonyms,
 * normalizers and date direction — what the parameter injector needs to coerce a value (PI-3).
 */
export function parameterHints(parameters: JsonSchema): ParameterHints[] {
  const out: ParameterHints[] = [];
  const walk = (schema: JsonSchema, prefix: string): void => {
    const properties = schema.properties;
    if (typeof properties !== 'object' || properties === null) return;
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    for (const [name, child] of Object.entries(properties as Record<string, unknown>)) {
      if (typeof child !== 'object' || child === null) continue;
      const childSchema = child as JsonSchema;
      const path = prefix ? `${prefix}.${name}` : name;
      const direction = DATE_DIRECTIONS.find((d) => d === childSchema.date_direction);
      out.push({
        path,
        schema: childSchema,
        required: required.has(name),
        enum: Array.isArray(childSchema.enum) ? childSchema.enum : undefined,
        synonyms: (childSchema.synonyms as Record<string, string | number | boolean> | undefined) ?? {},
        normalizers: (childSchema.normalizers as NormalizerName[] | undefined) ?? [],
        ...(direction ? { dateDirection: direction } : {}),
      });
      walk(childSchema, path);
    }
  };
  walk(parameters, '');
  return out;
}

const EXTENSION_KEYWORDS: ReadonlySet<string> = new Set([
  'synonyms',
  'normalizers',
  'date_direction',
  'x-sensitive',
]);

/**
 * A copy of `schema` without the registry's extension keywords (`synonyms`, `normalizers`, `date_direction`,
 * `x-sensitive`), for
 * export to model providers that reject unknown keywords.
 */
export function stripExtensions(schema: JsonSchema): JsonSchema {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      if (EXTENSION_KEYWORDS.has(key)) continue;
      // Inside `properties` the keys are parameter names, which may legitimately be called "synonyms".
      out[key] =
        key === 'properties' && typeof child === 'object' && child !== null
          ? Object.fromEntries(
              Object.entries(child as Record<string, unknown>).map(([k, v]) => [k, strip(v)]),
            )
          : strip(child);
    }
    return out;
  };
  return strip(schema) as JsonSchema;
}
