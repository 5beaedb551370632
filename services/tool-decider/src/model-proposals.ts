// TD-2 hybrid: when an LLM is configured, the model proposes an ordered chain by calling the visible tools; names
// are resolved (TD-3) and the rules validate (TD-5) — the rules have the last word.
import type { ModelProvider, ModelRequest } from '@signalbox/providers';
import { descriptionText, type ToolDefinition } from '@signalbox/registry';
import type { ProposedCall } from './planner.js';

/** The system prompt of a proposal request. */
export const PROPOSAL_SYSTEM_PROMPT =
  'You plan tool calls for an agent. Call the tools that the request needs, in the order they must run ' +
  '(lookups before changes). Call no tool when none fits the request. Never invent a tool.';

/** Builds the proposal request (exported so tests and replays see the exact request). */
export function proposalRequest(
  request: string,
  tools: readonly ToolDefinition[],
  feedback?: string,
): ModelRequest {
  return {
    messages: [
      { role: 'system', content: PROPOSAL_SYSTEM_PROMPT },
      {
        role: 'user',
        content: feedback ? `${request}\n\nA previous plan was refused: ${feedback}` : request,
      },
    ],
    tools: tools.map((t) => ({
      name: t.name,
      description: descriptionText(t),
      parameters: t.parameters,
    })),
    toolChoice: 'auto',
    temperature: 0,
  };
}

/** Asks the model for proposals; the calls come back in the model's order. */
export async function proposeTools(
  provider: ModelProvider,
  request: string,
  tools: readonly ToolDefinition[],
  feedback?: string,
): Promise<ProposedCall[]> {
  const response = await provider.complete(proposalRequest(request, tools, feedback));
  return response.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
}
