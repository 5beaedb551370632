import { renderDescription } from './description.js';
import { stripExtensions, type JsonSchema } from './json-schema.js';
import type { ToolDefinition } from './tool-definition.js';

/** One tool in OpenAI's function-calling format. */
export interface OpenAITool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

/** One tool of an MCP `tools/list` result. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };
}

/**
 * OpenAI tools for the given definitions (e.g. a visible set). Registry extension keywords are stripped;
 * names outside OpenAI's `[A-Za-z0-9_-]{1,64}` are refused rather than silently renamed, because the decider must
 * map the model's answer back to the exact tool.
 */
export function exportOpenAITools(tools: readonly ToolDefinition[]): OpenAITool[] {
  return tools.map((t) => {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(t.name)) {
      throw new RangeError(
        `tool "${t.name}" cannot be exported to OpenAI: names must match [A-Za-z0-9_-]{1,64}`,
      );
    }
    return {
      type: 'function',
      function: {
        name: t.name,
        description: renderDescription(t.description),
        parameters: stripExtensions(t.parameters),
      },
    };
  });
}

/** An MCP `tools/list` result for the given definitions; annotations per RG-6 (see `effectsFromAnnotations`). */
export function exportMcpTools(tools: readonly ToolDefinition[]): { tools: McpTool[] } {
  return {
    tools: tools.map((t) => {
      const returns = t.returns as JsonSchema;
      return {
        name: t.name,
        description: renderDescription(t.description),
        inputSchema: stripExtensions(t.parameters),
        ...(Object.keys(returns).length > 0 ? { outputSchema: stripExtensions(returns) } : {}),
        annotations: {
          readOnlyHint: t.action === 'read',
          destructiveHint: t.action === 'delete',
          idempotentHint: t.idempotent,
        },
      };
    }),
  };
}
