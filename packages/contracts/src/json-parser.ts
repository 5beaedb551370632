import { z } from 'zod';
import { Json } from './task.js';

// The bus validates every message twice per hop (the decision before its append, the input when consumed): with
// zod's runtime parser that was the largest part of a stage's CPU after Kafka itself (measured: 10–18 µs per
// message). `z.compile` turns a schema into generated code about ten times as fast, but refuses any schema that
// contains a reference cycle, and `z.json()` (tool arguments and outputs) is one.
//
// A value parsed from JSON text, or checked by a walk that only lets through what survives JSON (the bus does one
// of the two before validating), can hold nothing but JSON in those places: there `z.json()` accepts exactly what a
// one-level JSON union with unchecked members accepts, and returns an equal value. So the same schema with that
// non-recursive stand-in compiles, and agrees with the original on every JSON input — what `json-parser.test.ts`
// checks over the frozen fixtures and their mutations. Anything else (the JSON Schema, `topic.schema` itself) keeps
// `z.json()`.

/** `z.json()` for a value known to be JSON: its members are JSON too, so they are not walked again. */
const JsonMember = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.unknown()),
  z.record(z.string(), z.unknown()),
]);

type Schema = z.core.$ZodType;

/** The schema without `Json`'s cycle: the same tree with {@link JsonMember} in its place (unchanged nodes shared). */
function withJsonMember(schema: Schema): Schema {
  if (schema === Json) return JsonMember;
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const clone = (changes: Record<string, unknown>): Schema =>
    (schema as z.ZodType).clone({ ...def, ...changes });
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const next = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, withJsonMember(v)]));
      const changed = Object.keys(shape).some((k) => next[k] !== shape[k]);
      const catchall = def.catchall as Schema | undefined;
      const nextCatchall = catchall && withJsonMember(catchall);
      return changed || nextCatchall !== catchall ? clone({ shape: next, catchall: nextCatchall }) : schema;
    }
    case 'array':
    case 'set':
      return mapChild(def, 'element', clone) ?? schema;
    case 'record':
    case 'map': {
      const keyType = withJsonMember(def.keyType as Schema);
      const valueType = withJsonMember(def.valueType as Schema);
      return keyType !== def.keyType || valueType !== def.valueType ? clone({ keyType, valueType }) : schema;
    }
    case 'union': {
      const options = def.options as Schema[];
      const next = options.map(withJsonMember);
      return next.some((o, i) => o !== options[i]) ? clone({ options: next }) : schema;
    }
    case 'intersection': {
      const left = withJsonMember(def.left as Schema);
      const right = withJsonMember(def.right as Schema);
      return left !== def.left || right !== def.right ? clone({ left, right }) : schema;
    }
    case 'nullable':
    case 'optional':
    case 'nonoptional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return mapChild(def, 'innerType', clone) ?? schema;
    case 'pipe': {
      const input = withJsonMember(def.in as Schema);
      const output = withJsonMember(def.out as Schema);
      return input !== def.in || output !== def.out ? clone({ in: input, out: output }) : schema;
    }
    case 'lazy':
    case 'tuple':
      // Not in the contracts; a schema holding one keeps the runtime parser (see jsonParser).
      throw new UnsupportedSchemaError(def.type);
    default:
      return schema;
  }
}

/** A clone with `def[key]` rewritten, or undefined when the child is unchanged. */
function mapChild(
  def: Record<string, unknown>,
  key: string,
  clone: (changes: Record<string, unknown>) => Schema,
): Schema | undefined {
  const child = def[key] as Schema;
  const next = withJsonMember(child);
  return next !== child ? clone({ [key]: next }) : undefined;
}

class UnsupportedSchemaError extends Error {
  constructor(type: string) {
    super(`a ${type} schema cannot be rewritten`);
  }
}

const parsers = new WeakMap<Schema, Schema>();

/**
 * The compiled parser of `schema` for values known to be JSON (parsed from JSON text, or checked to survive a JSON
 * round trip): the same successes, outputs and issues as `schema.safeParse` on such values, several times faster.
 * A schema it cannot compile is returned as it is. Do not use it for values that may hold `undefined`, functions,
 * `Date`s or other non-JSON members: inside tool arguments and outputs they would pass.
 *
 * One difference: an object key `__proto__` two or more levels inside free-form JSON is kept as the key it is, where
 * zod's runtime parser copies the object by assignment and so makes the value the copy's prototype (the key is gone
 * from its JSON). Callers that must give the same bytes as the schema (the bus) parse such rare values with it.
 */
export function jsonParser<S extends z.ZodType>(schema: S): S {
  let parser = parsers.get(schema);
  if (parser === undefined) {
    parser = compileForJson(schema, false);
    parsers.set(schema, parser);
  }
  return parser as S;
}

/** With `strict`, throws when the schema cannot be compiled (tests assert every topic's can). */
export function compileForJson(schema: z.ZodType, strict: boolean): z.ZodType {
  let rewritten: Schema;
  try {
    rewritten = withJsonMember(schema);
  } catch (error) {
    if (strict || !(error instanceof UnsupportedSchemaError)) throw error;
    return schema;
  }
  return z.compile(rewritten as z.ZodType, { strict });
}
