import {
  TOPICS,
  type EvaluationStatus,
  type Feedback,
  type PreparedCall,
  type Plan,
  type StepRecord,
  type TopicMessage,
} from '@signalbox/contracts';
import { requiredParameters, stageBinding, type Registry, type ToolDefinition } from '@signalbox/registry';
import type { ModelProvider } from '@signalbox/providers';
import {
  defineStage,
  finishTask,
  resolveCeilings,
  type Ceilings,
  type Decide,
  type Decision,
  type StageDefinition,
} from '@signalbox/stage-kit';
import { runChecks, type Finding } from './checks.js';
import { asksWhetherAnyExists } from './existence-question.js';
import { isInconclusive, judgeStep } from './judge.js';

/** EV-3: failed steps of a task before the model selector is asked to degrade. */
export const DEFAULT_FAILURES_BEFORE_DEGRADE = 2;

/** Options of the result evaluator's decision function. */
export interface ResultEvaluatorOptions {
  registry: Registry;
  /**
   * FL-6: the task ceilings; the evaluator enforces executed steps, re-plans, re-injections, degradations, cost and
   * wall time. @default DEFAULT_CEILINGS
   */
  ceilings?: Partial<Ceilings>;
  /** EV-3: failed steps before the model selector is asked to degrade. @default 2 */
  failuresBeforeDegrade?: number;
}

/** Options of the result evaluator as a stage: its decision's, and the judge it may ask. */
export interface ResultEvaluatorDefinitionOptions extends ResultEvaluatorOptions {
  /**
   * EV-1 layer 3: the provider of the task's model profile (`selection.primary`) when a model is configured for it;
   * asked only when the checks are inconclusive. Undefined (or undefined for that profile) → no judge. The stage
   * runtime hands it to the decision through `DecisionContext.models`, recording every exchange (EL-7).
   * @default none
   */
  judge?: (profileId: string) => ModelProvider | undefined;
}

type Input = TopicMessage<'stepExecuted'>;

const STATUS_OF: Record<Finding['severity'], EvaluationStatus> = {
  fail: 'failed',
  partial: 'partial_success',
  note: 'success',
};

/** The step's status (EV-2): any failing finding fails it; any partial one makes it partial; notes do not count. */
export function stepStatus(findings: readonly Finding[]): EvaluationStatus {
  if (findings.some((f) => f.severity === 'fail')) return STATUS_OF.fail;
  if (findings.some((f) => f.severity === 'partial')) return STATUS_OF.partial;
  return 'success';
}

// The fields to fix, by how surely the message names them: as identifiers (`order_id: must match …`, `tax_id is
// invalid`); else by quoting a value the call gave ("no pickup slot on 2026-12-06": the date's parameter) — a
// parameter whose name is a plain word may be named in prose only by chance ("pickup"); else by such a plain word;
// else — a declared error such as `order_not_found` names none — the tool's required parameters, which are what the
// user supplied.
function fieldsToFix(
  message: string | null,
  tool: ToolDefinition | undefined,
  args: Readonly<Record<string, unknown>>,
): string[] {
  if (!message) return tool ? requiredParameters(tool) : [];
  const properties = (tool?.parameters as { properties?: object } | undefined)?.properties ?? {};
  const known = [...new Set([...Object.keys(args), ...Object.keys(properties)])];
  const named = known.filter((name) => new RegExp(`\\b${escapeRegExp(name)}\\b`).test(message));
  const asIdentifiers = named.filter(
    (name) => /[_.]/.test(name) || new RegExp(`\\b${escapeRegExp(name)}\\s*[:=]`).test(message),
  );
  if (asIdentifiers.length > 0) return asIdentifiers;
  const echoed = Object.entries(args)
    .filter(([, value]) => quotesValue(message, value))
    .map(([name]) => name);
  if (echoed.length > 0) return echoed;
  return named.length > 0 ? named : tool ? requiredParameters(tool) : [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Whether the message quotes a string or number argument as a whole token (not inside a longer word or number).
 * Values of one character (a flag, a digit) are too common to identify an argument; booleans say nothing.
 */
function quotesValue(message: string, value: unknown): boolean {
  if (typeof value !== 'string' && typeof value !== 'number') return false;
  const text = String(value).trim();
  if (text.length < 2) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(text)}(?![\\p{L}\\p{N}])`, 'iu').test(message);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Why an empty answer is unsurprising, when the call asked about one weekend day (SP-2: "yesterday" said on a
 * Monday): "no minutes on Sunday 2026-11-29; the last working day before it is Friday 2026-11-27". Null otherwise.
 */
export function emptyDayReason(call: PreparedCall): string | null {
  const days = [
    ...new Set(
      Object.values(call.arguments).filter((v): v is string => typeof v === 'string' && ISO_DAY.test(v)),
    ),
  ];
  const only = days.length === 1 ? days[0] : undefined;
  const m = only ? ISO_DAY.exec(only) : null;
  if (!only || !m) return null;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const weekday = new Date(at).getUTCDay();
  if (weekday !== 0 && weekday !== 6) return null;
  const friday = new Date(at - (weekday === 0 ? 2 : 1) * 86_400_000).toISOString().slice(0, 10);
  const what = call.tool.replace(/_(list|search|query|lookup|get)$/, '').replace(/_/g, ' ');
  return `no ${what} on ${WEEKDAYS[weekday]} ${only}; the last working day before it is Friday ${friday}`;
}

/**
 * TD-5: the acts of the plan (`asked_acts`, contract v4) that no step succeeded at: an act no step serves, or one
 * whose step has no successful record. Plans recorded before v4 name no acts, and nothing is undone.
 */
function actsUndone(plan: Plan, steps: readonly StepRecord[]): string[] {
  return (plan.asked_acts ?? []).flatMap((act) => {
    const what = `${act.kind.replace('_', ' ')} "${(act.object || act.phrase).slice(0, 80)}"`;
    if (act.step_index === null) return [`${what} (${act.unserved ?? 'no step serves it'})`];
    const done = steps.some(
      (s) => s.call.step_index === act.step_index && s.result.ok && s.status === 'success',
    );
    return done ? [] : [`${what} (step ${String(act.step_index)} did not succeed)`];
  });
}

/**
 * The result evaluator's pure decision (EV-1..EV-4): check the step (hard checks, then heuristics), give it a status
 * with reasons, and route: next step, re-inject, re-plan, degrade, or finish — every FL-6 ceiling enforced.
 */
export function createResultEvaluatorDecide(options: ResultEvaluatorOptions): Decide<'result_evaluator'> {
  const ceilings = resolveCeilings(options.ceilings);
  const failuresBeforeDegrade = options.failuresBeforeDegrade ?? DEFAULT_FAILURES_BEFORE_DEGRADE;
  if (!Number.isInteger(failuresBeforeDegrade) || failuresBeforeDegrade < 1) {
    throw new RangeError(
      `failuresBeforeDegrade must be a positive integer, got ${String(failuresBeforeDegrade)}`,
    );
  }
  const { registry } = options;

  return (input, ctx) => {
    const { task, history, selection, plan, call, result } = input.payload;
    const tool = registry.tool(call.tool);
    const findings = runChecks({ tool, call, result, history });
    // The judge is the model of the task's profile, from the context (recorded by the runtime, replayed by re-decide).
    const judge = isInconclusive(findings) ? ctx.models?.(selection.primary) : undefined;
    if (!judge) return route(input, findings);
    const judged = judgeStep(judge, {
      task,
      purpose: plan.steps[call.step_index]?.purpose ?? call.tool,
      tool,
      call,
      result,
      notes: findings.map((f) => `${f.check}: ${f.message}`),
    });
    return judged.then((verdict) => route(input, [...findings, verdict]));
  };

  /** EV-2/EV-3: the step's status from its findings, then the route with every FL-6 ceiling. */
  function route(input: Input, findings: Finding[]): Decision {
    const { task, progress, history, selection, plan, call, result } = input.payload;
    const tool = registry.tool(call.tool);
    const status = stepStatus(findings);
    const issues = findings.map((f) => `${f.check}: ${f.message}`);
    const record: StepRecord = { call, result, status, issues };
    const steps = [...history, record];
    // The executor counted the step it ran (steps_executed); the evaluator only reads the counters.
    const advanced = progress;
    const elapsedMs = Math.max(0, Date.parse(input.occurred_at) - Date.parse(progress.started_at));
    const keep = { revision_count: input.revision_count, degraded_flag: input.degraded_flag };

    const finish = (
      final: EvaluationStatus,
      reason: string,
      questions: string[] = [],
      done: StepRecord[] = steps,
    ): Decision =>
      finishTask(input, {
        task,
        status: final,
        progress: advanced,
        steps: done,
        evidence: done
          .filter((s) => s.result.ok && s.status !== 'failed')
          .map((s) => ({ step_index: s.call.step_index, kind: s.result.output_kind })),
        questions,
        issues: [...done.flatMap((s) => s.issues), ...(final === 'success' ? [] : [reason])],
        reason,
      });
    const anyEvidence = steps.some((s) => s.status === 'success');
    const stepLabel = `step ${String(call.step_index)} (${call.tool}) ${status}${issues.length ? `: ${issues.join('; ')}` : ''}`;

    // FL-6: the ceilings that end a task whatever the step's outcome.
    if (elapsedMs > ceilings.maxWallTimeMs) {
      return finish(
        anyEvidence ? 'partial_success' : 'failed',
        `${stepLabel}; wall-time ceiling reached (${String(elapsedMs)} ms > ${String(ceilings.maxWallTimeMs)} ms)`,
      );
    }
    if (ceilings.maxCostUsd !== null && advanced.cost_usd > ceilings.maxCostUsd) {
      return finish(
        anyEvidence ? 'partial_success' : 'failed',
        `${stepLabel}; cost ceiling reached (${String(advanced.cost_usd)} > ${String(ceilings.maxCostUsd)})`,
      );
    }

    if (status === 'success') {
      const next = call.step_index + 1;
      if (next >= plan.steps.length) {
        // TD-5: success means every act the request asked for has a step that succeeded.
        const undone = actsUndone(plan, steps);
        return undone.length === 0
          ? finish('success', `${stepLabel}; the plan is complete`)
          : finish(
              'partial_success',
              `${stepLabel}; the plan is complete, but an asked act is undone: ${undone.join('; ')}`,
            );
      }
      if (advanced.steps_executed >= ceilings.maxExecutedSteps) {
        return finish(
          'partial_success',
          `${stepLabel}; step ceiling reached (${String(advanced.steps_executed)} of ${String(ceilings.maxExecutedSteps)} executed)`,
        );
      }
      return {
        topic: TOPICS.taskPlanned,
        event_type: 'next_step_requested',
        payload: { task, progress: advanced, history: steps, selection, plan, step_index: next },
        decision_reason: `${stepLabel}; next: step ${String(next)} (${plan.steps[next]?.tool ?? '?'})`,
        ...keep,
      };
    }

    const primary =
      findings.find((f) => f.severity === 'fail') ?? findings.find((f) => f.severity === 'partial');
    const kind = primary?.kind ?? 'tool';
    const feedbackBase: Omit<Feedback, 'excluded_tools' | 'fields'> = {
      reason: primary ? `${primary.check}: ${primary.message}` : stepLabel,
      issues,
      failed_tool: call.tool,
      error_class: result.error_class,
    };

    if (kind === 'parameter') {
      const fields = fieldsToFix(result.error_message, tool, call.arguments);
      // Compared with the task's own count of re-injections (contract v6; absent is 0), which this stage raises as
      // it sends one: re-plans, degradations and the injector's re-asks do not use it up.
      const reinjections = progress.reinjections ?? 0;
      if (reinjections >= ceilings.maxReinjections) {
        const named = fields.length ? fields.join(', ') : 'the arguments';
        return finish(
          'need_clarification',
          `${stepLabel}; re-injection ceiling reached (${String(reinjections)} of ${String(ceilings.maxReinjections)})`,
          [`Please provide a valid value for ${named} of ${call.tool}.`],
        );
      }
      return {
        topic: TOPICS.taskPlanned,
        event_type: 'reinject_requested',
        payload: {
          task,
          progress: { ...advanced, reinjections: reinjections + 1 },
          history: steps,
          selection,
          plan,
          step_index: call.step_index,
          previous_call: call,
          feedback: { ...feedbackBase, excluded_tools: [], fields },
        },
        decision_reason: `${stepLabel}; parameter problem → re-inject${fields.length ? ` (fix ${fields.join(', ')})` : ''}`,
        ...keep,
      };
    }

    const failures = steps.filter((s) => s.status === 'failed').length;
    if (status === 'failed' && failures >= failuresBeforeDegrade) {
      if (progress.degradations >= ceilings.maxDegradations) {
        return finish(
          anyEvidence ? 'partial_success' : 'failed',
          `${stepLabel}; ${String(failures)} failures and the degradation ceiling is reached`,
        );
      }
      return {
        topic: TOPICS.taskSubmitted,
        event_type: 'degrade_requested',
        payload: {
          task,
          progress: advanced,
          history: steps,
          selection,
          plan,
          feedback: {
            ...feedbackBase,
            reason: `${String(failures)} failed steps; last: ${feedbackBase.reason}`,
            excluded_tools: [call.tool],
            fields: [],
          },
        },
        decision_reason: `${stepLabel}; ${String(failures)} failures on this task → degrade the model`,
        ...keep,
      };
    }

    // A look-up that answered "nothing has these values" (a 404 for an order or refund that does not exist, or an
    // empty list of meetings for a date range) answered the question: asking the same call again finds the same
    // nothing (TD-7). The task ends asking whether the value is right, naming the values and the answer.
    // An empty body, or a judge's "partial", is no answer: only a list that came back with zero items says "none".
    const foundNothing =
      (!result.ok && result.error_class === 'empty') || (result.ok && primary?.check === 'zero_rows');
    // To a question whether any exists ("did we meet last Tuesday?", "上周二有没有开过会？") "none" is the answer: the
    // look-up did its job and the task ends with it — unless a write is still to come (one the request may not have
    // made conditional on the answer: "is there a ticket? if not, open one"), which is for the user to confirm.
    const writeAhead = plan.steps
      .slice(call.step_index + 1)
      .some((s) => registry.tool(s.tool)?.action !== 'read');
    if (foundNothing && tool?.action === 'read' && asksWhetherAnyExists(task.request) && !writeAhead) {
      return finish(
        'success',
        `${stepLabel}; the request asks whether any exists, and the look-up found none: that is the answer`,
        [],
        [...history, { ...record, status: 'success' }],
      );
    }
    if (foundNothing && tool?.action === 'read' && !emptyDayReason(call)) {
      const values = Object.entries(call.arguments)
        .flatMap(([k, v]) => (typeof v === 'string' || typeof v === 'number' ? [`${k} ${String(v)}`] : []))
        .join(', ');
      const answer = (result.error_message ?? primary?.message ?? 'nothing found').slice(0, 400);
      return finish(
        'need_clarification',
        `${stepLabel}; the look-up found nothing for ${values || 'these values'}: the answer, not a reason to re-plan`,
        [
          `${call.tool} found nothing for ${values || 'the values given'} (${answer}). Is that value right? If not, ` +
            'please give the correct one.',
        ],
      );
    }
    // A refusal of the page at a URL the user gave answers what was asked: the user chose that source, and another
    // tool finding "the same" elsewhere would route around the refusal with a source nobody chose. The task ends asking for another source. A refused source that an earlier step found (a search result)
    // is the system's choice, so the decider may try another (the tool's own advice: "try another source").
    const refusedNamed = kind === 'permission' ? namedResource(call, tool, task.request) : undefined;
    if (refusedNamed) {
      const answer = (result.error_message ?? primary?.message ?? 'access refused').slice(0, 400);
      return finish(
        'need_clarification',
        `${stepLabel}; access to ${refusedNamed} that the request names is refused: the answer, not a reason to re-plan`,
        [
          `${call.tool} was refused access to ${refusedNamed} (${answer}). I cannot read it; is there another ` +
            'source you want me to use?',
        ],
      );
    }
    if (progress.replans >= ceilings.maxReplans) {
      return finish(
        anyEvidence ? 'partial_success' : 'failed',
        `${stepLabel}; re-plan ceiling reached (${String(ceilings.maxReplans)})`,
      );
    }
    // An empty result does not condemn the tool (other arguments may find data); a broken or forbidden one does.
    const excluded = kind === 'empty' ? [] : [call.tool];
    const why = kind === 'empty' ? emptyDayReason(call) : null;
    if (why) feedbackBase.reason = `${why} (${feedbackBase.reason})`;
    return {
      topic: TOPICS.modelSelected,
      event_type: 'replan_requested',
      payload: {
        task,
        progress: advanced,
        history: steps,
        selection,
        plan,
        feedback: { ...feedbackBase, excluded_tools: excluded, fields: [] },
      },
      decision_reason: `${stepLabel}; ${kind === 'empty' ? (why ?? 'empty result') : kind === 'permission' ? 'permission refused' : 'tool problem'} → re-plan${excluded.length ? ` without ${call.tool}` : ''}`,
      ...keep,
    };
  }
}

/** The result evaluator as a stage, with its judge when one is configured. */
export function resultEvaluatorDefinition(
  options: ResultEvaluatorDefinitionOptions,
): StageDefinition<'result_evaluator'> {
  return defineStage(
    'result_evaluator',
    createResultEvaluatorDecide(options),
    stageBinding(options.registry),
    options.judge,
  );
}

/**
 * The URL of a refused call that the user gave: an argument the injector took from the request (provenance
 * `user_text`) of a parameter that takes a URL (`format: uri`), written in the request as it is. A re-plan after its
 * refusal could only read another source in its place — unlike a refused identifier (an order id), which another tool
 * may still serve as the same thing. Undefined when the refused page came from an earlier step (a search result).
 */
export function namedResource(
  call: PreparedCall,
  tool: ToolDefinition | undefined,
  request: string,
): string | undefined {
  const properties = (tool?.parameters as { properties?: Record<string, { format?: unknown }> } | undefined)
    ?.properties;
  for (const [name, value] of Object.entries(call.arguments)) {
    if (call.provenance[name] !== 'user_text' || typeof value !== 'string' || value === '') continue;
    const format = properties?.[name]?.format;
    if ((format === 'uri' || format === 'uri-reference') && request.includes(value.replace(/\/$/u, '')))
      return value;
  }
  return undefined;
}
