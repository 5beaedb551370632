// Contract v5: the arguments of a call an agent proposed (`TaskSpec.proposed_call`, an MCP host's `tools/call`). The
// agent chose them, so they are taken as given — not re-extracted from the request, not grounded against it — and
// then validated, coerced and stripped like every other argument set (PI-3..PI-5): a value the schema refuses ends
// the task with `need_clarification` naming the field, never a silent fix.
import type { ArgumentProvenance, PlanStep, TaskSpec } from '@signalbox/contracts';
import type { ToolDefinition } from '@signalbox/registry';
import type { BuiltArguments } from './build.js';
import { shown } from './redaction.js';

/**
 * The proposed call's arguments as the step's starting arguments, when the step is the proposed call's (the decider's
 * one-step plan of the resolved tool); undefined for every other step.
 */
export function proposedArguments(
  tool: ToolDefinition,
  step: PlanStep,
  task: TaskSpec,
  sensitive: ReadonlySet<string>,
): BuiltArguments | undefined {
  const call = task.proposed_call;
  if (!call || step.index !== 0 || step.tool !== tool.name) return undefined;
  const args: Record<string, unknown> = { ...call.arguments };
  const provenance: Record<string, ArgumentProvenance> = {};
  const log: string[] = [];
  for (const [field, value] of Object.entries(args)) {
    // The agent's model wrote them: provenance `model` (validation marks a coerced one `coerced`).
    provenance[field] = 'model';
    log.push(`${field} = ${shown(field, value, sensitive)} from the proposed call`);
  }
  return {
    arguments: args,
    provenance,
    log,
    notes: [`the arguments of the call agent proposed${call.tool === tool.name ? '' : ` as ${call.tool}`}`],
  };
}
