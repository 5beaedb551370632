import {
  toolsFor,
  UnknownVisibilitySubjectError,
  type Registry,
  type ToolDefinition,
} from '@signalbox/registry';

/** Whom and what a call is checked for. */
export interface VisibilitySubject {
  agent: string;
  tenant: string;
  /** The task's scenario hint, else the plan's scene's scenario; null when neither names one. */
  scenario: string | null;
  /** The tools the decider saw (the plan's `visible_tools`); empty when the plan recorded none. */
  planVisible: readonly string[];
}

/** The re-check's answer: allowed, or the reason it is not. */
export type VisibilityVerdict = { allowed: true } | { allowed: false; reason: string };

/**
 * EX-2 defence in depth: the tool must be visible to this agent for this scenario and tenant (RG-4, the
 * registry's `toolsFor`, including the tenant allow-list and both permission ceilings) and must have been in the
 * decider's visible set. The cap is lifted: it ranks what a model is shown, it grants nothing. With no scenario
 * known, any of the tool's own scenarios may grant it.
 */
export function recheckVisibility(
  registry: Registry,
  tool: ToolDefinition,
  subject: VisibilitySubject,
): VisibilityVerdict {
  if (subject.planVisible.length > 0 && !subject.planVisible.includes(tool.name))
    return { allowed: false, reason: `${tool.name} was not in the plan's visible tools` };
  const scenarios = subject.scenario !== null ? [subject.scenario] : tool.scenarios;
  if (scenarios.length === 0) return { allowed: false, reason: `${tool.name} belongs to no scenario` };
  const cap = Math.max(1, registry.content.tools.length);
  let lastReason = 'not visible';
  for (const scenario of scenarios) {
    try {
      const set = toolsFor(registry, { agent: subject.agent, tenant: subject.tenant, scenario, cap });
      if (set.tools.some((t) => t.name === tool.name)) return { allowed: true };
      const excluded = set.excluded.find((e) => e.tool === tool.name);
      lastReason = excluded ? excluded.reason : 'not visible';
    } catch (err) {
      if (err instanceof UnknownVisibilitySubjectError) return { allowed: false, reason: err.message };
      throw err;
    }
  }
  return {
    allowed: false,
    reason: `${tool.name} is not visible to agent ${subject.agent} for tenant ${subject.tenant} in ${scenarios.join('/')}: ${lastReason}`,
  };
}
