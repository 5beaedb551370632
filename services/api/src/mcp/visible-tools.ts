// The tools /mcp offers an agent: its visible tools (RG-4) in MCP's `tools/list` shape, with the registry's MCP
// export (JSON Schemas without the registry's extension keywords, RG-6 annotations from action and idempotency).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { exportMcpTools, toolsForAnyScenario, type Registry, type ToolDefinition } from '@signalbox/registry';

/** Whom a tool list is for: the connection's agent, the key's tenant, the connection's scenario (null: every one). */
export interface McpSubject {
  agent: string;
  tenant: string;
  scenario: string | null;
}

/**
 * The agent's visible tools: the scenario's visible set, or without one the union of every scenario's, each capped by
 * the registry's `visibility_cap` (what a model is shown, IF-4). The same set the tool decider resolves a proposed
 * call against (`proposableTools` in @signalbox/tool-decider): both are the registry's `toolsForAnyScenario`.
 */
export function visibleTools(registry: Registry, subject: McpSubject): ToolDefinition[] {
  return toolsForAnyScenario(registry, subject);
}

/**
 * The MCP tools of a visible set. An output schema is declared only for an object result: a client checks
 * `structuredContent` (always an object) against it, and the structured content of a call is the tool's own output.
 */
export function mcpTools(tools: readonly ToolDefinition[]): Tool[] {
  return exportMcpTools(tools).tools.map((t) => {
    const { outputSchema, ...rest } = t;
    const objectOutput = outputSchema !== undefined && outputSchema.type === 'object';
    const tool: Tool = {
      ...rest,
      inputSchema: { ...t.inputSchema, type: 'object' },
      ...(objectOutput ? { outputSchema: { ...outputSchema, type: 'object' } } : {}),
    };
    return tool;
  });
}
