// PI-5: field permissions — which arguments an agent may set. A parameter the schema marks `readOnly: true` is set by
// the system, never by an agent; an operator may deny more per agent (`{ "<agent>": ["<tool>.<param>", "*.<param>"] }`,
// `*` as agent for everyone). A denied argument is stripped with its reason, whatever proposed it.
import type { ToolDefinition } from '@signalbox/registry';
import { InjectorConfigError } from './errors.js';

/** Per agent id (or `*`), the parameters it may not set: `<tool>.<param path>` or `*.<param path>`. */
export type FieldPolicy = Readonly<Record<string, readonly string[]>>;

/** Checks a field policy's shape at construction; throws naming the bad entry. */
export function checkFieldPolicy(policy: FieldPolicy): void {
  for (const [agent, entries] of Object.entries(policy)) {
    for (const entry of entries) {
      if (!/^(\*|[A-Za-z_][\w.-]*)\.[A-Za-z_][\w.]*$/.test(entry) || entry.endsWith('.')) {
        throw new InjectorConfigError(
          `field policy of ${agent}: "${entry}" is not <tool>.<param> or *.<param>`,
        );
      }
    }
  }
}

/** The parameters of `tool` that `agentId` may not set, each with the reason it is stripped. */
export function deniedFields(
  tool: Pick<ToolDefinition, 'name' | 'parameters'>,
  agentId: string,
  policy: FieldPolicy,
): Map<string, string> {
  const out = new Map<string, string>();
  const properties = (tool.parameters as { properties?: Record<string, unknown> }).properties ?? {};
  for (const [name, schema] of Object.entries(properties)) {
    if (
      typeof schema === 'object' &&
      schema !== null &&
      (schema as Record<string, unknown>).readOnly === true
    ) {
      out.set(name, 'read-only: set by the system, never by an agent');
    }
  }
  for (const who of [agentId, '*']) {
    for (const entry of policy[who] ?? []) {
      const dot = entry.indexOf('.');
      const toolPart = entry.slice(0, dot);
      const param = entry.slice(dot + 1);
      // A tool name may itself contain dots (imported `math.factorial`): match the longest tool prefix.
      if (toolPart === '*' || entry.startsWith(`${tool.name}.`)) {
        const field = toolPart === '*' ? param : entry.slice(tool.name.length + 1);
        if (!out.has(field))
          out.set(
            field,
            `agent ${agentId} may not set ${field} (field policy${who === '*' ? ' for every agent' : ''})`,
          );
      }
    }
  }
  return out;
}
