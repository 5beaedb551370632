// A tool call an agent proposes (contract v5 `TaskSpec.proposed_call`, an MCP host's `tools/call`) as a one-step
// plan: the decider does not choose the tool, it resolves the proposed name to a visible tool (TD-3) and validates
// the step with the same TD-5 rules as its own plans — the intent against the conversation the host passed, when it
// passed one. The parameter injector then validates and coerces the proposed arguments (PI).
import type { Plan, PlanStep, ProposedCall } from '@signalbox/contracts';
import {
  PERMISSION_RANK,
  toolHash,
  toolsForAnyScenario,
  type Permission,
  type Registry,
  type ToolDefinition,
} from '@signalbox/registry';
import { readActs } from './acts.js';
import type { RequestIntent } from './intent.js';
import { validatePlan, type DraftStep, type ExecutedStep, type Violation } from './plan-validator.js';
import { planTools, type PlanOutcome, type PlannerOptions } from './planner.js';
import { resolveToolName } from './resolve-name.js';

/** Whom the proposed call is checked for. */
export interface ProposedCallRequest {
  call: ProposedCall;
  agent: string;
  tenant: string;
  /** The task's scenario: only that scenario's tools are visible; null: every scenario of the agent's. */
  scenario: string | null;
  /** The task's conversation turns, as text. */
  context: string;
  history: readonly ExecutedStep[];
}

/**
 * The tools an agent may be offered for proposing calls (RG-4: agent, scenario, tenant, permission): the visible set
 * of the scenario, or, without one, the union of the visible sets of every scenario — each capped by the registry's
 * `visibility_cap`, the bound of what a model is shown (IF-4). Ordered as `toolsFor` ranks them, first scenario first.
 * Throws the registry's UnknownVisibilitySubjectError for an agent or tenant it does not declare.
 */
export function proposableTools(
  registry: Registry,
  subject: { agent: string; tenant: string; scenario: string | null },
): ToolDefinition[] {
  return toolsForAnyScenario(registry, subject);
}

function maxPermission(registry: Registry, agent: string, tenant: string): Permission {
  const a = registry.agent(agent)?.max_permission ?? 'read_only';
  const tenants = registry.content.tenants;
  const t =
    tenants.find((x) => x.id === tenant)?.max_permission ??
    tenants.find((x) => x.id === 'default')?.max_permission ??
    'read_only';
  return PERMISSION_RANK[a] <= PERMISSION_RANK[t] ? a : t;
}

const WRITES = new Set(['write', 'append', 'delete']);

/**
 * TD-5 intent vs side effect for a proposed write: the conversation's acts must ask for it, judged exactly as the
 * decider judges its own plans (the planner run over the conversation with the call as the proposal). Returns the
 * violation, or undefined when the write is asked for.
 */
async function unaskedWrite(
  registry: Registry,
  tool: ToolDefinition,
  req: ProposedCallRequest,
  conversation: string,
  options: PlannerOptions,
): Promise<Violation | undefined> {
  const scenario =
    req.scenario ??
    tool.scenarios.find((s) =>
      proposableTools(registry, { ...req, scenario: s }).some((t) => t.name === tool.name),
    ) ??
    null;
  const outcome = await planTools(
    registry,
    {
      request: conversation,
      context: req.context,
      agent: req.agent,
      tenant: req.tenant,
      scenario,
      history: req.history,
      proposals: [{ name: tool.name, arguments: req.call.arguments }],
    },
    { ...options, maxValidationRounds: 0 },
  );
  return [...outcome.refused, ...outcome.violations].find(
    (v) => v.tool === tool.name && v.rule === 'intent_side_effect',
  );
}

/**
 * Decides a proposed call: the one-step plan of the resolved tool, or the violations that refuse it. A name that
 * resolves to no visible tool is refused (`visibility_permission`, with the TD-3 reason); a write the conversation
 * does not ask for is refused (`intent_side_effect`); every other TD-5 rule runs as for the decider's own plans.
 * Pure: same registry, request and model files → same outcome.
 */
export async function planProposedCall(
  registry: Registry,
  req: ProposedCallRequest,
  options: PlannerOptions = {},
): Promise<PlanOutcome> {
  const visibleTools = proposableTools(registry, req);
  const visible = new Map(visibleTools.map((t) => [t.name, t]));
  const conversation = req.call.conversation?.trim() ? req.call.conversation : null;
  const intent: RequestIntent = conversation
    ? readActs(conversation).some((a) => a.kind !== 'look_up')
      ? 'action'
      : 'question'
    : 'action';
  const basePlan: Plan = {
    scene: null,
    steps: [],
    visible_tools: visibleTools.map((t) => t.name),
    candidate_scores: [],
    rejected: [],
    semantic_model: { model: null, sha256: null },
    asked_acts: [],
  };
  const refuse = (violations: Violation[], reason: string): PlanOutcome => ({
    status: 'invalid',
    plan: {
      ...basePlan,
      rejected: violations.map((v) => ({ candidate: v.tool, reason: `${v.rule}: ${v.reason}` })),
    },
    intent,
    violations,
    refused: violations,
    routeHits: { exact: 0, total: 1 },
    decision_reason: reason,
  });

  const resolution = resolveToolName(req.call.tool, visibleTools);
  if (resolution.kind === 'rejected') {
    const violation: Violation = {
      rule: 'visibility_permission',
      step_index: 0,
      tool: req.call.tool,
      reason: `${req.call.tool} is not a tool agent ${req.agent} may call (TD-3: ${resolution.reason})`,
    };
    return refuse([violation], `proposed call refused: ${violation.reason}`);
  }
  const tool = resolution.tool;
  const resolved =
    resolution.kind === 'exact'
      ? tool.name
      : `${req.call.tool} resolved to ${tool.name} (TD-3 ${resolution.kind}, similarity ${resolution.similarity.toFixed(2)})`;

  let intentViolation: Violation | undefined;
  if (conversation !== null && WRITES.has(tool.action))
    intentViolation = await unaskedWrite(registry, tool, req, conversation, options);

  const step: DraftStep = {
    tool: tool.name,
    purpose: `the call agent ${req.agent} proposed: ${resolved}`,
    input_from: [],
    arguments: req.call.arguments,
  };
  const violations = validatePlan([step], {
    visible,
    maxPermission: maxPermission(registry, req.agent, req.tenant),
    writes: {
      // Without a conversation the agent's own call is its ask; with one, the conversation must ask for the write.
      allowed: intentViolation ? new Set() : new Set([tool.name]),
      unasked: () => intentViolation?.reason ?? `the conversation does not ask for ${tool.name}`,
    },
    // The proposed arguments are the caller's words (a URL the agent gives is given), with the conversation.
    requestText: [conversation ?? '', req.context, JSON.stringify(req.call.arguments)].join('\n'),
    needsFreshData: false,
    history: req.history,
    automatic: true,
  });
  if (violations.length > 0)
    return refuse(
      violations,
      `proposed call ${resolved} refused by validation: ${violations.map((v) => `${v.rule}: ${v.reason}`).join('; ')}`,
    );

  const planStep: PlanStep = {
    index: 0,
    tool: tool.name,
    tool_definition_hash: toolHash(tool),
    purpose: step.purpose.slice(0, 2000),
    input_from: [],
    expected_evidence: tool.evidence,
    // The agent chose this tool: no other is put in its place.
    fallback_tool: null,
  };
  return {
    status: 'planned',
    plan: {
      ...basePlan,
      steps: [planStep],
      rejected:
        resolution.kind === 'exact'
          ? []
          : [{ candidate: req.call.tool, reason: `proposed by the agent, ${resolved}` }],
    },
    intent,
    violations: [],
    refused: [],
    routeHits: { exact: resolution.kind === 'exact' ? 1 : 0, total: 1 },
    decision_reason:
      `proposed call (one-step plan): ${resolved}; ` +
      (conversation === null
        ? 'no conversation passed: intent taken from the call'
        : WRITES.has(tool.action)
          ? 'the conversation asks for the write'
          : 'a read'),
  };
}
