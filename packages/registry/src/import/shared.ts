import { parseDescription } from '../description.js';
import type { Problem } from '../problem.js';
import { ToolDefinition, type ToolDefinitionInput } from '../tool-definition.js';

/** What an importer produced: valid definitions and, separately, every problem (nothing half-converted). */
export interface ImportResult {
  tools: ToolDefinition[];
  problems: Problem[];
  /** Notes about lossless-but-changed input (a BFCL type renamed, an unknown keyword dropped). */
  notes: string[];
}

/** Validates one converted definition; a failure becomes problems naming the tool and the field. */
export function validateImported(
  input: ToolDefinitionInput,
  where: { file?: string | undefined; index: number },
  result: ImportResult,
): void {
  const parsed = ToolDefinition.safeParse(input);
  if (parsed.success) {
    result.tools.push(parsed.data);
    return;
  }
  for (const issue of parsed.error.issues) {
    result.problems.push({
      code: 'schema',
      message: issue.message,
      location: where.file ? { file: where.file, line: where.index + 1, column: 1 } : undefined,
      kind: 'tool',
      item: typeof input.name === 'string' ? input.name : `#${where.index + 1}`,
      field: issue.path.map(String).join('.') || undefined,
    });
  }
}

/** A description string, structured again when it was exported from a registry (see `renderDescription`). */
export function importedDescription(text: unknown, fallbackName: string): ToolDefinitionInput['description'] {
  return typeof text === 'string' && text.trim()
    ? parseDescription(text)
    : `(no description) ${fallbackName}`;
}

/** What to assume about a tool whose format says nothing about its side effects. */
export type SideEffectAssumption = 'read' | 'write';

/** action / permission / idempotency fields for an assumption. */
export function assumedEffects(
  assume: SideEffectAssumption,
): Pick<ToolDefinitionInput, 'action' | 'permission' | 'side_effects' | 'idempotent' | 'evidence'> {
  return assume === 'read'
    ? { action: 'read', permission: 'read_only', side_effects: 'none', idempotent: true, evidence: 'source' }
    : {
        action: 'write',
        permission: 'write',
        side_effects: 'unknown (imported without side-effect information)',
        idempotent: false,
        evidence: 'action_receipt',
      };
}
