import type { JsonSchema } from '../json-schema.js';
import type { ToolDefinitionInput } from '../tool-definition.js';
import { importedDescription, validateImported, type ImportResult } from './shared.js';

/** Options of {@link importMcpTools}. */
export interface McpImportOptions {
  /** Reported in problems. */
  file?: string;
  /** The MCP server id the tools are bound to (transport `mcp`). */
  server?: string;
}

/** MCP tool annotations (hints; MCP defaults: not read-only, destructive, not idempotent, open world). */
interface McpAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * RG-6 annotation mapping. Read-only → `read`/`read_only`; otherwise destructive (MCP's default when unsaid) →
 * `delete`/`sensitive` with confirmation; non-destructive → `write`/`write`. `idempotentHint` → `idempotent`.
 */
export function effectsFromAnnotations(
  a: McpAnnotations,
): Pick<
  ToolDefinitionInput,
  'action' | 'permission' | 'side_effects' | 'idempotent' | 'requires_confirmation' | 'evidence'
> {
  if (a.readOnlyHint === true) {
    return {
      action: 'read',
      permission: 'read_only',
      side_effects: 'none',
      idempotent: true,
      requires_confirmation: false,
      evidence: 'source',
    };
  }
  if (a.destructiveHint !== false) {
    return {
      action: 'delete',
      permission: 'sensitive',
      side_effects: 'may destroy or overwrite data (MCP destructiveHint)',
      idempotent: a.idempotentHint === true,
      requires_confirmation: true,
      evidence: 'action_receipt',
    };
  }
  return {
    action: 'write',
    permission: 'write',
    side_effects: 'changes data without destroying it (MCP destructiveHint: false)',
    idempotent: a.idempotentHint === true,
    requires_confirmation: false,
    evidence: 'action_receipt',
  };
}

/** Imports an MCP `tools/list` result (`{ tools: [...] }`, a JSON-RPC response with `result.tools`, or a bare array). */
export function importMcpTools(input: unknown, options: McpImportOptions = {}): ImportResult {
  const result: ImportResult = { tools: [], problems: [], notes: [] };
  const root = (input ?? {}) as Record<string, unknown>;
  const container = (root.result && typeof root.result === 'object' ? root.result : root) as Record<
    string,
    unknown
  >;
  const list = Array.isArray(input) ? input : container.tools;
  if (!Array.isArray(list)) {
    result.problems.push({
      code: 'import-format',
      message: 'expected an MCP tools/list result: `{ tools: [...] }`',
      location: options.file ? { file: options.file, line: 1, column: 1 } : undefined,
    });
    return result;
  }
  list.forEach((entry: unknown, index) => {
    const t = (entry ?? {}) as Record<string, unknown>;
    const name = typeof t.name === 'string' ? t.name : '';
    const annotations = (t.annotations ?? {}) as McpAnnotations;
    validateImported(
      {
        name,
        description: importedDescription(t.description, name),
        parameters: (t.inputSchema as JsonSchema | undefined) ?? { type: 'object', properties: {} },
        ...(t.outputSchema ? { returns: t.outputSchema as JsonSchema } : {}),
        ...effectsFromAnnotations(annotations),
        tags: annotations.openWorldHint === false ? ['closed_world'] : [],
        ...(options.server
          ? { transport: { kind: 'mcp' as const, server: options.server, tool: name } }
          : {}),
        origin: { format: 'mcp' },
      },
      { file: options.file, index },
      result,
    );
  });
  return result;
}
