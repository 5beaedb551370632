import type { JsonSchema } from '../json-schema.js';
import {
  assumedEffects,
  importedDescription,
  validateImported,
  type ImportResult,
  type SideEffectAssumption,
} from './shared.js';

/** Options of {@link importOpenAITools}. */
export interface OpenAIImportOptions {
  /** Reported in problems. */
  file?: string;
  /**
   * OpenAI function definitions say nothing about side effects; assume writes unless told otherwise, so an
   * imported tool is never treated as safe by accident. @default 'write'
   */
  assume?: SideEffectAssumption;
}

/**
 * Imports OpenAI function-calling definitions: `[{ type: 'function', function: {...} }]`, `{ tools: [...] }`, or
 * bare (legacy `functions`) `{ name, description, parameters }` objects.
 */
export function importOpenAITools(input: unknown, options: OpenAIImportOptions = {}): ImportResult {
  const result: ImportResult = { tools: [], problems: [], notes: [] };
  const list: unknown =
    input && typeof input === 'object' && !Array.isArray(input)
      ? ((input as Record<string, unknown>).tools ?? (input as Record<string, unknown>).functions)
      : input;
  if (!Array.isArray(list)) {
    result.problems.push({
      code: 'import-format',
      message: 'expected an array of OpenAI tools, or an object with a `tools` (or `functions`) array',
      location: options.file ? { file: options.file, line: 1, column: 1 } : undefined,
    });
    return result;
  }
  list.forEach((entry: unknown, index) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    const fn = (
      e.type === 'function' && e.function && typeof e.function === 'object' ? e.function : e
    ) as Record<string, unknown>;
    const name = typeof fn.name === 'string' ? fn.name : '';
    validateImported(
      {
        name,
        description: importedDescription(fn.description, name),
        parameters: (fn.parameters as JsonSchema | undefined) ?? { type: 'object', properties: {} },
        ...assumedEffects(options.assume ?? 'write'),
        origin: { format: 'openai', effects: 'assumed' },
      },
      { file: options.file, index },
      result,
    );
  });
  return result;
}
