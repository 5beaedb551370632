// JSON Schema validation of prepared arguments (PI-3) through ajv, reported per field in words a model or a user can
// act on. Lenient about schema keywords (imported tools carry annotations ajv does not know); strict about values.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS (`module.exports = plugin; module.exports.default = plugin`); under NodeNext the default
// import is the module object.
const addFormats = addFormatsModule.default;

type Schema = Record<string, unknown>;

/** One problem with one argument: which field, whether it is missing or invalid, and why. */
export interface FieldError {
  /** Dotted path of the argument (`city`, `filter.state`, `items.0`). */
  field: string;
  kind: 'missing' | 'invalid';
  /** The exact reason, e.g. `must be integer`, `must be one of: low, medium, high`. */
  reason: string;
}

// strict: false — a tool imported from OpenAI, MCP or BFCL may carry keywords ajv does not know; they mean nothing
// for validation and must not make the tool unusable.
const options = { strict: false, allErrors: true, validateFormats: true } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: Schema): Ajv | Ajv2020 {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[467]/.test(declared)) {
    if (!draft07) {
      draft07 = new Ajv(options);
      addFormats(draft07);
    }
    return draft07;
  }
  if (!draft2020) {
    draft2020 = new Ajv2020(options);
    addFormats(draft2020);
  }
  return draft2020;
}

const cache = new WeakMap<object, ValidateFunction>();

/** The compiled validator of a schema (cached per schema object). Throws when the schema itself is invalid. */
export function compileSchema(schema: Schema): ValidateFunction {
  let validate = cache.get(schema);
  if (!validate) {
    const { $schema: _ignored, ...body } = schema;
    validate = ajvFor(schema).compile(body);
    cache.set(schema, validate);
  }
  return validate;
}

function pathOf(instancePath: string): string {
  return instancePath.replace(/^\//, '').replace(/\//g, '.').replace(/~1/g, '/').replace(/~0/g, '~');
}

function reasonOf(e: ErrorObject): string {
  switch (e.keyword) {
    case 'enum':
      return `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join(', ')}`;
    case 'format':
      return `must be a ${(e.params as { format: string }).format}`;
    case 'pattern':
      return `must match the pattern ${(e.params as { pattern: string }).pattern}`;
    default:
      return e.message ?? 'is invalid';
  }
}

/**
 * Whether a `then` requirement applies only because the values its `if` tests are all absent: JSON Schema reads
 * `if: { properties: { invoice_type: { const: company } } }` as true when `invoice_type` is not given, but a tax id
 * "needed for company invoices" is not missing while nobody has said the invoice is a company's — the value the
 * condition tests is what is missing, and it is asked for on its own.
 */
function holdsOnlyByAbsence(schema: Schema, schemaPath: string, args: Record<string, unknown>): boolean {
  if (!schemaPath.startsWith('#/then/')) return false;
  const condition = (schema as { if?: { properties?: Record<string, unknown>; required?: string[] } }).if;
  const tested = Object.keys(condition?.properties ?? {});
  if (tested.length === 0 || (condition?.required ?? []).length > 0) return false;
  return tested.every((name) => args[name] === undefined);
}

/**
 * Validates `args` against a tool's `parameters` schema. Returns one error per field (the most specific reason
 * first); an empty list means valid.
 */
export function validateArguments(schema: Schema, args: Record<string, unknown>): FieldError[] {
  const validate = compileSchema(schema);
  if (validate(args)) return [];
  const byField = new Map<string, FieldError>();
  for (const e of validate.errors ?? []) {
    // anyOf/oneOf wrappers repeat what their branches said; the branch errors are the useful ones.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const base = pathOf(e.instancePath);
    if (e.keyword === 'required' && base === '' && holdsOnlyByAbsence(schema, e.schemaPath, args)) continue;
    let error: FieldError;
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty: string }).missingProperty;
      error = {
        field: base ? `${base}.${missing}` : missing,
        kind: 'missing',
        reason: 'is required but missing',
      };
    } else if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty: string }).additionalProperty;
      error = {
        field: base ? `${base}.${extra}` : extra,
        kind: 'invalid',
        reason: 'is not a parameter of this tool',
      };
    } else {
      error = { field: base || '(arguments)', kind: 'invalid', reason: reasonOf(e) };
    }
    if (!byField.has(error.field)) byField.set(error.field, error);
  }
  return [...byField.values()];
}
