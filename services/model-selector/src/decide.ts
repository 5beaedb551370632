import {
  TOPICS,
  type ModelSelection,
  type Progress,
  type Rejection,
  type TaskSpec,
  type TopicMessage,
} from '@signalbox/contracts';
import { stageBinding, type ModelProfile, type Registry, type RoutingPolicy } from '@signalbox/registry';
import {
  decideByKind,
  defineStage,
  finishTask,
  resolveCeilings,
  type Ceilings,
  type Decide,
  type Decision,
  type StageDefinition,
} from '@signalbox/stage-kit';
import { estimateCost, roundCost } from './cost.js';
import { applyHardFilters, type TenantModelPolicy } from './hard-filters.js';
import { analyseTask, type TaskAnalysis } from './task-analysis.js';

/** Options of the model selector's decision function. Resolved once; bad combinations throw at construction. */
export interface ModelSelectorOptions {
  registry: Registry;
  /** The routing policy to apply. @default the registry's only policy (throws if there are several) */
  policyId?: string;
  /** Model constraints per tenant id; `default` applies to tenants without an entry. */
  tenants?: Readonly<Record<string, TenantModelPolicy>>;
  /** FL-6: the task ceilings; the model selector enforces `maxDegradations`. @default DEFAULT_CEILINGS */
  ceilings?: Partial<Ceilings>;
}

type Input = TopicMessage<'taskSubmitted'>;
type Submitted = Extract<Input, { event_type: 'task_submitted' }>;
type DegradeRequested = Extract<Input, { event_type: 'degrade_requested' }>;

/** Thrown at construction when the options cannot work. */
export class ModelSelectorConfigError extends Error {
  readonly retriable = false;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

function resolvePolicy(registry: Registry, policyId: string | undefined): RoutingPolicy {
  const policies = registry.content.policies;
  const policy = policyId ? registry.policy(policyId) : policies.length === 1 ? policies[0] : undefined;
  if (!policy) {
    throw new ModelSelectorConfigError(
      policyId
        ? `routing policy "${policyId}" is not in the registry (has: ${policies.map((p) => p.id).join(', ') || 'none'})`
        : `the registry has ${String(policies.length)} routing policies; choose one with policyId`,
    );
  }
  for (const id of [...policy.default, ...policy.degrade_order, ...policy.rules.flatMap((r) => r.prefer)]) {
    if (!registry.profile(id))
      throw new ModelSelectorConfigError(`policy ${policy.id} names unknown profile "${id}"`);
  }
  return policy;
}

/** The order the policy prefers profiles in for these labels: the first matching rule, then the default. */
function preference(policy: RoutingPolicy, analysis: TaskAnalysis): { order: string[]; because: string } {
  const rule = policy.rules.find((r) => r.labels.some((l) => analysis.labels.includes(l)));
  const order = [...new Set([...(rule?.prefer ?? []), ...policy.default, ...policy.degrade_order])];
  return {
    order,
    because: rule
      ? `policy ${policy.id} rule [${rule.labels.join(', ')}]: ${rule.reason}`
      : `policy ${policy.id} default order`,
  };
}

function initialProgress(startedAt: string): Progress {
  return { revisions: 0, replans: 0, degradations: 0, steps_executed: 0, cost_usd: 0, started_at: startedAt };
}

/**
 * The model selector's pure decision (MS-1..MS-7): analyse, filter, choose by policy, guard cost; on a degrade
 * request choose the next simpler profile. Same input and registry → same decision.
 */
export function createModelSelectorDecide(options: ModelSelectorOptions): Decide<'model_selector'> {
  const { registry } = options;
  const policy = resolvePolicy(registry, options.policyId);
  const { maxDegradations } = resolveCeilings(options.ceilings);
  const profiles = registry.content.profiles;
  const tenantPolicy = (tenantId: string): TenantModelPolicy =>
    options.tenants?.[tenantId] ?? options.tenants?.default ?? {};

  function select(
    task: TaskSpec,
    tenantId: string,
    candidates: readonly ModelProfile[],
    extraRejected: Rejection[],
    /** Ranks candidates by this order instead of the policy's rules (degradation walks the degrade order). */
    orderOverride?: { order: string[]; because: string },
  ):
    | { ok: true; selection: ModelSelection; reason: string; guardrail: boolean }
    | { ok: false; rejected: Rejection[]; analysis: TaskAnalysis } {
    const analysis = analyseTask(task);
    const tenant = tenantPolicy(tenantId);
    const { survivors, rejected } = applyHardFilters(candidates, analysis, tenant);
    const allRejected = [...extraRejected, ...rejected];
    if (survivors.length === 0) return { ok: false, rejected: allRejected, analysis };
    const { order, because } = orderOverride ?? preference(policy, analysis);
    const rank = (p: ModelProfile) => {
      const i = order.indexOf(p.id);
      return i === -1 ? order.length : i;
    };
    const ranked = [...survivors].sort((a, b) => rank(a) - rank(b) || a.id.localeCompare(b.id));
    const first = ranked[0];
    if (!first) return { ok: false, rejected: allRejected, analysis };
    let chosen = first;
    const chosenCost = estimateCost(chosen, analysis);
    const ceiling =
      task.cost_ceiling_usd ?? tenant.max_task_cost ?? policy.cost_guardrail?.max_task_cost ?? null;
    const parts = [
      `labels [${analysis.labels.join(', ')}] (${analysis.evidence.join('; ')}), ~${String(analysis.token_estimate)} tokens`,
      because,
      `chose ${chosen.id} (est. cost ${String(chosenCost)})`,
    ];
    let guardrail = false;
    if (ceiling !== null && chosenCost > ceiling) {
      // MS-5: only extremes are bent — the cheapest compliant profile in degrade order, else the cheapest survivor.
      const byDegradeOrder = [...ranked].sort((a, b) => {
        const da = policy.degrade_order.indexOf(a.id);
        const db = policy.degrade_order.indexOf(b.id);
        return (da === -1 ? Infinity : da) - (db === -1 ? Infinity : db);
      });
      const fitting = byDegradeOrder.find((p) => estimateCost(p, analysis) <= ceiling);
      const cheapest =
        [...ranked].sort((a, b) => estimateCost(a, analysis) - estimateCost(b, analysis))[0] ?? chosen;
      const fallback = fitting ?? cheapest;
      if (fallback.id !== chosen.id) {
        const newCost = estimateCost(fallback, analysis);
        parts.push(
          `cost guardrail: ${String(chosenCost)} > ceiling ${String(ceiling)}; downgraded to ${fallback.id} ` +
            `(est. ${String(newCost)}, delta -${String(roundCost(chosenCost - newCost))})` +
            (fitting ? '' : '; no profile fits the ceiling, took the cheapest'),
        );
        chosen = fallback;
        guardrail = true;
      }
    }
    const fallbacks = ranked.filter((p) => p.id !== chosen.id).map((p) => p.id);
    return {
      ok: true,
      guardrail,
      reason: parts.join('; '),
      selection: {
        primary: chosen.id,
        fallbacks,
        labels: analysis.labels,
        token_estimate: analysis.token_estimate,
        estimated_cost_usd: estimateCost(chosen, analysis),
        rejected: allRejected,
        degrade_level: 0,
      },
    };
  }

  function onSubmitted(input: Submitted): Decision {
    const { task } = input.payload;
    const result = select(task, input.tenant_id, profiles, []);
    if (!result.ok) {
      return finishTask(input, {
        task,
        status: 'failed',
        progress: { cost_usd: 0, started_at: input.occurred_at },
        issues: result.rejected.map((r) => `${r.candidate}: ${r.reason}`),
        reason: `no model profile passes the hard filters for labels [${result.analysis.labels.join(', ')}]`,
      });
    }
    return {
      topic: TOPICS.modelSelected,
      event_type: 'model_selected',
      payload: {
        task,
        progress: initialProgress(input.occurred_at),
        history: [],
        selection: result.selection,
      },
      decision_reason: result.reason,
      revision_count: input.revision_count,
      degraded_flag: input.degraded_flag || result.guardrail,
      input_source: 'user',
    };
  }

  function onDegrade(input: DegradeRequested): Decision {
    const { task, progress, history, selection: previous, feedback } = input.payload;
    if (progress.degradations >= maxDegradations) {
      return finishTask(input, {
        task,
        status: 'failed',
        progress,
        steps: history,
        issues: [feedback.reason, ...feedback.issues],
        reason: `degradation ceiling reached (${String(progress.degradations)} of ${String(maxDegradations)}); ${feedback.reason}`,
      });
    }
    // MS-6: the next simpler profiles in the policy's degrade order, after the one that failed.
    const position = policy.degrade_order.indexOf(previous.primary);
    const simpler = policy.degrade_order.slice(position + 1).flatMap((id) => {
      const p = registry.profile(id);
      return p ? [p] : [];
    });
    const skipped: Rejection[] = profiles
      .filter((p) => !simpler.includes(p))
      .map((p) => ({
        candidate: p.id,
        reason: `degrade: not simpler than ${previous.primary} in ${policy.id}`,
      }));
    const result = select(task, input.tenant_id, simpler, skipped, {
      order: policy.degrade_order,
      because: `policy ${policy.id} degrade order`,
    });
    if (!result.ok) {
      return finishTask(input, {
        task,
        status: 'failed',
        progress,
        steps: history,
        issues: [feedback.reason, ...result.rejected.map((r) => `${r.candidate}: ${r.reason}`)],
        reason: `no simpler profile than ${previous.primary} passes the hard filters; ${feedback.reason}`,
      });
    }
    return {
      topic: TOPICS.modelSelected,
      event_type: 'model_selected',
      payload: {
        task,
        progress: { ...progress, degradations: progress.degradations + 1, revisions: progress.revisions + 1 },
        history,
        selection: { ...result.selection, degrade_level: previous.degrade_level + 1 },
      },
      decision_reason: `degraded from ${previous.primary} to ${result.selection.primary} after: ${feedback.reason}; ${result.reason}`,
      revision_count: input.revision_count + 1,
      degraded_flag: true,
      input_source: 'feedback',
    };
  }

  return decideByKind<'model_selector'>({ task_submitted: onSubmitted, degrade_requested: onDegrade });
}

/** The model selector as a stage: its input topic, its decision and the registry's versions. */
export function modelSelectorDefinition(options: ModelSelectorOptions): StageDefinition<'model_selector'> {
  return defineStage('model_selector', createModelSelectorDecide(options), stageBinding(options.registry));
}
