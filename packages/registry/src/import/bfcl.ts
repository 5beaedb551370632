import type { JsonSchema } from '../json-schema.js';
import { assumedEffects, importedDescription, validateImported, type ImportResult } from './shared.js';

/** BFCL type names → JSON Schema types (RG-6); `any` (and an empty type) means no type constraint. */
export const BFCL_TYPE_MAP: Readonly<Record<string, string | null>> = {
  dict: 'object',
  float: 'number',
  tuple: 'array',
  any: null,
  '': null,
  // simple_javascript writes some types capitalised.
  String: 'string',
  Boolean: 'boolean',
  Array: 'array',
  Object: 'object',
  Number: 'number',
  integer: 'integer',
  string: 'string',
  boolean: 'boolean',
  array: 'array',
  object: 'object',
  number: 'number',
  null: 'null',
};

/** One BFCL test case with its functions imported. */
export interface BfclCase {
  id: string;
  /** The conversation turns (`[[{ role, content }]]`). */
  question: unknown;
  /** The names of the case's tools, in the order given. */
  tools: string[];
}

/** What {@link importBfcl} returns: per case, and the tool definitions (per case, since BFCL reuses names). */
export interface BfclImportResult extends ImportResult {
  cases: (BfclCase & { definitions: ImportResult['tools'] })[];
  /** Function documents read (a document repeated across cases counts each time). */
  functions: number;
}

/** Converts a BFCL parameter schema to JSON Schema; notes every rename or dropped keyword. */
export function bfclSchemaToJsonSchema(schema: unknown, notes: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => bfclSchemaToJsonSchema(s, notes));
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === 'type' && typeof value === 'string') {
      if (!(value in BFCL_TYPE_MAP)) {
        out.type = value; // left for JSON Schema validation to report
        continue;
      }
      const mapped = BFCL_TYPE_MAP[value];
      if (mapped !== value) notes.add(`type "${value}" → ${mapped ?? '(any)'}`);
      if (mapped) out.type = mapped;
      continue;
    }
    if (key === 'optional') {
      // BFCL's own marker; optionality is already expressed by `required`.
      notes.add('dropped BFCL keyword "optional"');
      continue;
    }
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          bfclSchemaToJsonSchema(v, notes),
        ]),
      );
      continue;
    }
    out[key] =
      key === 'items' || key === 'additionalProperties' ? bfclSchemaToJsonSchema(value, notes) : value;
  }
  return out;
}

/** Options of {@link importBfcl}. */
export interface BfclImportOptions {
  /** Reported in problems. */
  file?: string;
}

/**
 * Imports a BFCL data file (JSON lines: `{ id, question, function: [docs] }`). BFCL functions are evaluation
 * fixtures that are never executed, so they are imported as reads: the decider's intent-vs-side-effect check
 * (TD-5) must not refuse them for a question.
 */
export function importBfcl(text: string, options: BfclImportOptions = {}): BfclImportResult {
  const result: BfclImportResult = { tools: [], problems: [], notes: [], cases: [], functions: 0 };
  const notes = new Set<string>();
  text.split('\n').forEach((line, lineIndex) => {
    if (!line.trim()) return;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch (error) {
      result.problems.push({
        code: 'import-format',
        message: `line is not JSON: ${(error as Error).message}`,
        location: options.file ? { file: options.file, line: lineIndex + 1, column: 1 } : undefined,
      });
      return;
    }
    const docs = record.function;
    const id = typeof record.id === 'string' ? record.id : `line-${lineIndex + 1}`;
    if (!Array.isArray(docs)) {
      result.problems.push({
        code: 'import-format',
        message: `case ${id} has no "function" list`,
        location: options.file ? { file: options.file, line: lineIndex + 1, column: 1 } : undefined,
      });
      return;
    }
    const caseResult: ImportResult = { tools: [], problems: [], notes: [] };
    for (const doc of docs as Record<string, unknown>[]) {
      result.functions++;
      const name = typeof doc.name === 'string' ? doc.name : '';
      validateImported(
        {
          name,
          description: importedDescription(doc.description, name),
          parameters: bfclSchemaToJsonSchema(
            doc.parameters ?? { type: 'dict', properties: {} },
            notes,
          ) as JsonSchema,
          ...assumedEffects('read'),
          origin: { format: 'bfcl', effects: 'assumed' },
        },
        { file: options.file, index: lineIndex },
        caseResult,
      );
    }
    for (const p of caseResult.problems) result.problems.push({ ...p, message: `case ${id}: ${p.message}` });
    result.tools.push(...caseResult.tools);
    result.cases.push({
      id,
      question: record.question,
      tools: caseResult.tools.map((t) => t.name),
      definitions: caseResult.tools,
    });
  });
  result.notes.push(...[...notes].sort());
  return result;
}
