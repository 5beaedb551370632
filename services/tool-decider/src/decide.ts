// The tool decider's pure decision (TD-1..TD-8) as a stage: `model_selected` → plan; `replan_requested` → re-plan
// without what failed (TD-7). Output `task_planned` (step_index at the first step to run) on TOPICS.taskPlanned, or
// `task_finished` on TOPICS.taskFinished for a zero-step plan and for ceiling / validation failures.
//
// Zero-step plans (TD-6): the task finishes as `need_clarification` with a question. The pipeline cannot act, so the
// calling agent answers directly or asks the user — the question says which tools were considered and why none
// fits. No tool is ever forced.
import { actLabel, WRITE_ACT_KINDS } from './acts.js';
import {
  TOPICS,
  type Feedback,
  type Plan,
  type Progress,
  type StepRecord,
  type TaskSpec,
  type TopicMessage,
} from '@signalbox/contracts';
import type { ModelProvider } from '@signalbox/providers';
import type { Registry } from '@signalbox/registry';
import {
  decideByKind,
  defineStage,
  finishTask,
  resolveCeilings,
  type Ceilings,
  type Decide,
  type Decision,
  type DecisionContext,
  type StageDefinition,
  type StageInput,
} from '@signalbox/stage-kit';
import { proposeTools } from './model-proposals.js';
import { planProposedCall } from './proposed-call.js';
import type { DraftStep, ExecutedStep } from './plan-validator.js';
import { planTools, shortlistFor, type PlanOutcome, type PlanRequest } from './planner.js';
import type { SemanticScorer } from './semantic.js';
import { stageBinding } from '@signalbox/registry';

/** Options of the tool decider's decision function. Resolved once; bad values throw at construction. */
export interface ToolDeciderOptions {
  registry: Registry;
  /**
   * The semantic model's scorer (TD-2, TD-6), or null to decide by lexical fit alone. Required: running without the
   * model is the operator's explicit choice (SIGNALBOX_EMBEDDINGS=off), recorded on every plan, never a fallback.
   */
  semantic: SemanticScorer | null;
  /**
   * FL-6: the task ceilings; the decider enforces `maxReplans` (re-plans per task) and `maxPlanSteps` (steps in one
   * plan). @default DEFAULT_CEILINGS
   */
  ceilings?: Partial<Ceilings>;
  /** TD-5: repair rounds after a validation failure. @default 3 */
  maxValidationRounds?: number;
}

/** Options of the tool decider as a stage: its decision's, and the models it may ask. */
export interface ToolDeciderDefinitionOptions extends ToolDeciderOptions {
  /**
   * The provider of a model profile, when an LLM is configured for it; undefined → deterministic path. The stage
   * runtime hands it to the decision through `DecisionContext.models`, recording every exchange (EL-7).
   * @default none
   */
  providerFor?: (profileId: string) => ModelProvider | undefined;
}

type Input = TopicMessage<'modelSelected'>;
type ModelSelectedInput = Extract<Input, { event_type: 'model_selected' }>;
type ReplanInput = Extract<Input, { event_type: 'replan_requested' }>;

function executed(history: readonly StepRecord[]): ExecutedStep[] {
  return history.map((h) => ({ tool: h.call.tool, arguments: h.call.arguments, ok: h.result.ok }));
}

function contextText(task: TaskSpec): string {
  return task.context.map((m) => m.content).join('\n');
}

function finish(
  input: StageInput,
  task: TaskSpec,
  progress: Progress,
  history: StepRecord[],
  status: 'failed' | 'need_clarification' | 'partial_success',
  questions: string[],
  issues: string[],
  reason: string,
  revisionCount: number,
): Decision {
  return finishTask(input, {
    task,
    status,
    progress,
    steps: history,
    evidence: history
      .filter((s) => s.result.ok && s.status === 'success')
      .map((s) => ({ step_index: s.call.step_index, kind: s.result.output_kind })),
    questions,
    issues,
    reason,
    revision_count: revisionCount,
  });
}

/**
 * Creates the decider's decision function. Same input, registry and model answers → same decision. The model of the
 * task's selected profile comes from `ctx.models` (TD-2 proposals); without one the plan is the rules' alone.
 */
export function createToolDeciderDecide(options: ToolDeciderOptions): Decide<'tool_decider'> {
  const { registry } = options;
  const { maxReplans, maxPlanSteps } = resolveCeilings(options.ceilings);
  const plannerOptions = {
    maxValidationRounds: options.maxValidationRounds ?? 3,
    maxSteps: maxPlanSteps,
    semantic: options.semantic,
  };

  async function plan(req: PlanRequest, provider: ModelProvider | undefined): Promise<PlanOutcome> {
    const ranked = await planTools(registry, req, plannerOptions);
    if (!provider) return ranked;
    // IF-4: the model is shown the top of the decider's own ranking (at the visibility cap), never a random slice.
    const shown = shortlistFor(
      registry,
      ranked.plan.candidate_scores.map((c) => c.tool),
    ).flatMap((name) => registry.tool(name) ?? []);
    const proposals = await proposeTools(provider, req.request, shown);
    let outcome = await planTools(registry, { ...req, proposals }, plannerOptions);
    if (outcome.refused.length > 0) {
      // TD-5: violations fed back to the model once; the rules still have the last word.
      const feedback = outcome.refused.map((r) => `${r.tool}: ${r.rule} (${r.reason})`).join('; ');
      const again = await proposeTools(provider, req.request, shown, feedback);
      outcome = await planTools(registry, { ...req, proposals: again }, plannerOptions);
      outcome.decision_reason = `re-proposed after violations [${feedback}]; ${outcome.decision_reason}`;
    }
    return outcome;
  }

  function emit(
    input: StageInput,
    carried: {
      task: TaskSpec;
      progress: Progress;
      history: StepRecord[];
      selection: ModelSelectedInput['payload']['selection'];
    },
    outcome: PlanOutcome,
    stepIndex: number,
    revisionCount: number,
    prefix: string,
    inputSource: 'pipeline' | 'feedback',
    /** On a re-plan: what failed. When nothing else can do its part, the task ends stating that gap. */
    gap?: Feedback,
    /** On a re-plan: the plan that failed, whose asked acts say which done steps answered the request. */
    previous?: Plan,
  ): Decision {
    const reason = `${prefix}${outcome.decision_reason}`;
    if (outcome.status === 'planned') {
      return {
        topic: TOPICS.taskPlanned,
        event_type: 'task_planned',
        payload: { ...carried, plan: outcome.plan, step_index: stepIndex },
        decision_reason: reason.slice(0, 4000),
        revision_count: revisionCount,
        degraded_flag: input.degraded_flag,
        input_source: inputSource,
      };
    }
    if (outcome.status === 'no_tool_fits' && gap) {
      // Nothing else can do what the failed step was for (SP-3: a forbidden page, no other reader). The task ends
      // with what it has — partial when earlier steps gave evidence — and says what is missing and why, instead of
      // asking the user to rephrase a request that was clear.
      const others = outcome.plan.visible_tools.filter((t) => t !== gap.failed_tool).join(', ') || 'none';
      const statement =
        `gap: ${gap.failed_tool ?? 'a step'} could not do its part (${gap.reason.slice(0, 600)}) and no other ` +
        `visible tool can (considered: ${others})`;
      // Partial means part of what was asked was done: a look-up that only fed the failed write ("is the order
      // paid?" before an invoice) answered nothing the user asked, so the task failed.
      const succeeded = (tool: string | undefined) =>
        carried.history.some((h) => h.call.tool === tool && h.result.ok && h.status === 'success');
      const asked = previous?.asked_acts ?? [];
      const evidence =
        asked.length > 0
          ? asked.some((a) => a.step_index !== null && succeeded(previous?.steps[a.step_index]?.tool))
          : carried.history.some((h) => h.result.ok && h.status === 'success');
      return finish(
        input,
        carried.task,
        carried.progress,
        carried.history,
        evidence ? 'partial_success' : 'failed',
        [],
        [statement, ...gap.issues],
        `re-plan found no other way (TD-7); ${statement}; ${reason}`,
        revisionCount,
      );
    }
    if (outcome.status === 'no_tool_fits') {
      const considered = outcome.plan.visible_tools.join(', ') || 'none';
      const refusedForClarity = outcome.refused.filter(
        (r) => r.rule === 'preconditions' || r.rule === 'intent_side_effect',
      );
      // TD-5: a change the request asks for that no visible tool makes is refused in so many words ("delete all
      // tickets" with only create_ticket: no ticket is created instead).
      const unservedChanges = (outcome.plan.asked_acts ?? []).filter(
        (a) => a.step_index === null && WRITE_ACT_KINDS.has(a.kind),
      );
      const question = unservedChanges.length
        ? `I cannot ${unservedChanges.map(actLabel).join(' or ')}: none of the available tools (${considered}) does that, ` +
          'and I will not do something else in its place. Tell me if you want something else done.'
        : refusedForClarity.length
          ? `Before I can act I need more from you: ${refusedForClarity.map((r) => r.reason).join('; ')}.`
          : `None of the available tools (${considered}) fits this request. Answer it directly, or tell me more about what you need.`;
      return finish(
        input,
        carried.task,
        carried.progress,
        carried.history,
        'need_clarification',
        [question.slice(0, 2000)],
        ['no_tool_fits', ...outcome.plan.rejected.slice(0, 20).map((r) => `${r.candidate}: ${r.reason}`)],
        `zero-step plan (TD-6): ${reason}`,
        revisionCount,
      );
    }
    const clarifiable = outcome.violations.every(
      (v) => v.rule === 'preconditions' || v.rule === 'intent_side_effect',
    );
    return finish(
      input,
      carried.task,
      carried.progress,
      carried.history,
      clarifiable ? 'need_clarification' : 'failed',
      clarifiable ? outcome.violations.map((v) => v.reason) : [],
      outcome.violations.map((v) => `${v.rule}: ${v.reason}`),
      `plan refused by validation (TD-5): ${reason}`,
      revisionCount,
    );
  }

  async function onModelSelected(input: ModelSelectedInput, ctx: DecisionContext): Promise<Decision> {
    const { task, progress, history, selection } = input.payload;
    const proposed = task.proposed_call;
    const outcome = proposed
      ? await planProposedCall(
          registry,
          {
            call: proposed,
            agent: input.agent_id,
            tenant: input.tenant_id,
            scenario: task.scenario,
            context: contextText(task),
            history: executed(history),
          },
          plannerOptions,
        )
      : await plan(
          {
            request: task.request,
            context: contextText(task),
            agent: input.agent_id,
            tenant: input.tenant_id,
            scenario: task.scenario,
            needsFreshData: task.needs_fresh_data,
            history: executed(history),
          },
          ctx.models?.(selection.primary),
        );
    return emit(
      input,
      { task, progress, history, selection },
      outcome,
      0,
      input.revision_count,
      '',
      'pipeline',
    );
  }

  async function onReplan(input: ReplanInput, ctx: DecisionContext): Promise<Decision> {
    const { task, progress, history, selection, plan: previous, feedback } = input.payload;
    const revision = input.revision_count + 1;
    // Not re-planned: the agent chose the tool of a proposed call (no other is planned in its place), or the re-plan
    // ceiling is reached. The task fails and the agent hears why.
    const notReplanned = task.proposed_call
      ? `the proposed call failed and is not re-planned: ${feedback.reason}`
      : progress.replans >= maxReplans
        ? `re-plan ceiling reached (${String(progress.replans)} of ${String(maxReplans)}); ${feedback.reason}`
        : null;
    if (notReplanned !== null) {
      return finish(
        input,
        task,
        progress,
        history,
        'failed',
        [],
        [feedback.reason, ...feedback.issues],
        notReplanned,
        input.revision_count,
      );
    }
    // TD-7: keep as done only the steps that succeeded — a partial step (an empty list, a report with no items) is
    // run again, because new arguments (the injector's weekend rule, another query) may find what it missed.
    const done: DraftStep[] = [];
    for (const step of previous.steps) {
      const record = history.findLast((h) => h.call.step_index === step.index);
      if (!record || !record.result.ok || record.status !== 'success') break;
      done.push({ tool: step.tool, purpose: step.purpose, input_from: step.input_from });
    }
    // Exclude only what the evaluator excluded: it leaves an empty result's tool in on purpose (other arguments may
    // find data), and excludes a broken or forbidden one.
    const exclude = [...new Set(feedback.excluded_tools)];
    const failed = feedback.failed_tool;
    const failedStep = previous.steps.find((s) => s.tool === failed);
    // The declared alternative replaces an excluded tool; a tool still allowed is simply asked again.
    const alternative =
      failed && exclude.includes(failed)
        ? ((failedStep?.fallback_tool && !exclude.includes(failedStep.fallback_tool)
            ? failedStep.fallback_tool
            : undefined) ??
          registry.tool(failed)?.alternatives.find((a) => !exclude.includes(a)) ??
          null)
        : null;
    const remaining = previous.steps.slice(done.length).filter((s) => !exclude.includes(s.tool));
    const req: PlanRequest = {
      request: task.request,
      context: contextText(task),
      agent: input.agent_id,
      tenant: input.tenant_id,
      scenario: task.scenario,
      needsFreshData: task.needs_fresh_data,
      history: executed(history),
      exclude,
      keep: done,
    };
    let outcome: PlanOutcome;
    const declared = [
      ...(alternative && !exclude.includes(alternative) ? [alternative] : []),
      ...remaining.map((s) => s.tool),
    ];
    if (declared.length > 0) {
      outcome = await planTools(
        registry,
        { ...req, proposals: [...new Set(declared)].map((name) => ({ name, arguments: null })) },
        plannerOptions,
      );
      outcome.routeHits = null;
      if (outcome.status !== 'planned') outcome = await plan(req, ctx.models?.(selection.primary));
    } else outcome = await plan(req, ctx.models?.(selection.primary));
    const nextProgress: Progress = {
      ...progress,
      replans: progress.replans + 1,
      revisions: progress.revisions + 1,
    };
    const prefix =
      `re-plan ${String(progress.replans + 1)} of ${String(maxReplans)} after: ${feedback.reason}; ` +
      `excluded [${exclude.join(', ')}]${alternative ? `; declared alternative ${alternative}` : ''}; kept ${String(done.length)} done step(s); `;
    return emit(
      input,
      { task, progress: nextProgress, history, selection },
      outcome,
      done.length,
      revision,
      prefix,
      'feedback',
      feedback,
      previous,
    );
  }

  return decideByKind<'tool_decider'>({ model_selected: onModelSelected, replan_requested: onReplan });
}

/** The tool decider as a stage: its input topic, its decision, the registry's versions and its models. */
export function toolDeciderDefinition(
  options: ToolDeciderDefinitionOptions,
): StageDefinition<'tool_decider'> {
  return defineStage(
    'tool_decider',
    createToolDeciderDecide(options),
    stageBinding(options.registry),
    options.providerFor,
  );
}
