import type { ContextMessage } from '@signalbox/contracts';
import type { ToolDefinition } from '@signalbox/registry';

/** One confirmation a user gave: this tool, with arguments whose canonical JSON hashes to this. */
export interface Confirmation {
  tool: string;
  /** `sha256(canonical JSON of the arguments)`, lower-case hex. */
  arguments_sha256: string;
}

// `confirm <tool> sha256:<64 hex>` on a line of its own.
const CONFIRM_LINE = /^\s*confirm\s+([A-Za-z_][A-Za-z0-9_.-]{0,127})\s+sha256:([0-9a-fA-F]{64})\s*$/gm;

/**
 * EX-2: the confirmations carried by the task. Until the API has its own endpoint, a confirmation is a
 * `user` message in `TaskSpec.context` holding a line `confirm <tool> sha256:<argument hash>` (the hash the
 * `need_clarification` question names). Only `user` turns count: a tool's output or the assistant cannot confirm.
 */
export function confirmationsIn(context: readonly ContextMessage[]): Confirmation[] {
  const found: Confirmation[] = [];
  for (const message of context) {
    if (message.role !== 'user') continue;
    for (const match of message.content.matchAll(CONFIRM_LINE)) {
      const [, tool, hash] = match;
      if (tool && hash) found.push({ tool, arguments_sha256: hash.toLowerCase() });
    }
  }
  return found;
}

/** True when the tool needs a confirmation bound to the exact call (EX-2). */
export function needsConfirmation(tool: ToolDefinition): boolean {
  return tool.requires_confirmation || tool.permission === 'sensitive';
}

/** The outcome of the confirmation gate for one call. */
export type ConfirmationCheck =
  | { status: 'not_needed' }
  | { status: 'confirmed' }
  | { status: 'missing' }
  /** Confirmations for this tool exist, but none for these arguments: refused. */
  | { status: 'mismatch'; confirmed_hashes: string[] };

/** Checks the gate: a confirmation counts only for the same tool and the same argument hash. */
export function checkConfirmation(
  tool: ToolDefinition,
  argumentsSha256: string,
  context: readonly ContextMessage[],
): ConfirmationCheck {
  if (!needsConfirmation(tool)) return { status: 'not_needed' };
  const forTool = confirmationsIn(context).filter((c) => c.tool === tool.name);
  if (forTool.some((c) => c.arguments_sha256 === argumentsSha256)) return { status: 'confirmed' };
  if (forTool.length === 0) return { status: 'missing' };
  return { status: 'mismatch', confirmed_hashes: forTool.map((c) => c.arguments_sha256) };
}
