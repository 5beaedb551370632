import {
  TOPICS,
  type ArgumentProvenance,
  type Plan,
  type PlanStep,
  type PreparedCall,
  type Progress,
  type TopicMessage,
} from '@signalbox/contracts';
import type { ModelProvider } from '@signalbox/providers';
import { parameterHints, stageBinding, type Registry, type ToolDefinition } from '@signalbox/registry';
import {
  defineStage,
  finishTask,
  resolveCeilings,
  type Ceilings,
  type Decide,
  type Decision,
  type StageDefinition,
} from '@signalbox/stage-kit';
import { buildArguments, dateContextOf, isGrounded } from './build.js';
import { dateContextProblem } from './calendar.js';
import { InjectorConfigError } from './errors.js';
import { checkFieldPolicy, deniedFields, type FieldPolicy } from './field-policy.js';
import { askToFix, proposeArguments } from './model.js';
import { proposedArguments } from './proposed-arguments.js';
import { sensitiveFieldsOf, shown } from './redaction.js';
import { repairArguments, type RepairResult } from './repair.js';
import type { FieldError } from './validate.js';

/** Options of the parameter injector's decision function. Resolved once; bad values throw at construction. */
export interface ParameterInjectorOptions {
  registry: Registry;
  /** PI-4: re-asks per decision before `need_clarification`. @default 3 */
  maxRevisions?: number;
  /**
   * FL-6: the task ceilings; the parameter injector enforces `maxTaskRevisions` (a re-injection is refused, →
   * `need_clarification`, once `progress.revisions` reaches it). @default DEFAULT_CEILINGS
   */
  ceilings?: Partial<Ceilings>;
  /** PI-5: parameters agents may not set, per agent id (`*` = every agent). @default {} */
  fieldPolicy?: FieldPolicy;
}

/** Options of the parameter injector as a stage: its decision's, and the model it may ask. */
export interface ParameterInjectorDefinitionOptions extends ParameterInjectorOptions {
  /**
   * The model that proposes arguments (PI-2) and is re-asked to fix fields (PI-4): one provider, or a lookup by the
   * model profile the selector chose (`selection.primary`; undefined = that profile is deterministic). Without one,
   * only the deterministic paths run and a validation failure goes straight to `need_clarification`. The stage
   * runtime hands it to the decision through `DecisionContext.models`, recording every exchange (EL-7).
   * @default none
   */
  model?: ModelProvider | ((profileId: string) => ModelProvider | undefined);
}

type Input = TopicMessage<'taskPlanned'>;
type Reinject = Extract<Input, { event_type: 'reinject_requested' }>;

/** Longest line kept in the validation log; the contract caps lines at 2000 characters and the log at 100 lines. */
const MAX_LOG_LINE = 500;
const MAX_LOG_LINES = 100;

function capLog(lines: readonly string[]): string[] {
  const capped = lines.map((l) => (l.length > MAX_LOG_LINE ? `${l.slice(0, MAX_LOG_LINE - 3)}...` : l));
  if (capped.length <= MAX_LOG_LINES) return capped;
  return [...capped.slice(0, MAX_LOG_LINES - 1), `… ${String(capped.length - MAX_LOG_LINES + 1)} more lines`];
}

/** The question a user is asked about one field (PI-4): it names the field, the tool, and what is wrong. */
export function clarificationQuestion(tool: ToolDefinition, error: FieldError): string {
  const top = error.field.split('.')[0] ?? error.field;
  const schema = parameterHints(tool.parameters).find(
    (h) => h.path === error.field || h.path === top,
  )?.schema;
  const description = typeof schema?.description === 'string' ? ` (${schema.description.trim()})` : '';
  const choices = Array.isArray(schema?.enum) ? ` Choose one of: ${schema.enum.map(String).join(', ')}.` : '';
  return error.kind === 'missing'
    ? `What ${error.field} should I use for ${tool.name}?${description} It is required and was not given.${choices}`
    : `The ${error.field} for ${tool.name}${description} ${error.reason}; what should it be?${choices}`;
}

/**
 * What a look-up step is for, when it only finds a later step's input (contact_lookup finds message_send's
 * chat_ids): the user is asked for the look-up's value, but knows the thing as the later step's — so the question
 * names both (" It is needed to find message_send's chat_ids (…)."). Empty when no later step reads its output.
 */
function whatItFinds(registry: Registry, plan: Plan, stepIndex: number, tool: ToolDefinition): string {
  for (const later of plan.steps.slice(stepIndex + 1)) {
    const consumer = registry.tool(later.tool);
    const dep = consumer?.depends_on.find((d) => d.tool === tool.name);
    if (!consumer || !dep) continue;
    const schema = parameterHints(consumer.parameters).find((h) => h.path === dep.parameter)?.schema;
    const about = typeof schema?.description === 'string' ? ` (${schema.description.trim()})` : '';
    return ` It is needed to find ${consumer.name}'s ${dep.parameter}${about}.`;
  }
  return '';
}

/**
 * The parameter injector's decision (PI-1..PI-7): build the step's arguments, coerce and validate them, re-ask the
 * model for failing fields (bounded), and emit the prepared call — or end the task with `need_clarification`
 * naming the fields. It never calls a tool (PI-7): its only output is a message.
 */
export function createParameterInjectorDecide(
  options: ParameterInjectorOptions,
): Decide<'parameter_injector'> {
  const { registry } = options;
  const maxRevisions = options.maxRevisions ?? 3;
  const { maxTaskRevisions } = resolveCeilings(options.ceilings);
  if (!Number.isInteger(maxRevisions) || maxRevisions < 0 || maxRevisions > 20) {
    throw new InjectorConfigError(
      `maxRevisions must be an integer from 0 to 20, got ${String(maxRevisions)}`,
    );
  }
  const fieldPolicy = options.fieldPolicy ?? {};
  checkFieldPolicy(fieldPolicy);

  function finish(
    input: Input,
    status: 'need_clarification' | 'failed',
    questions: string[],
    issues: string[],
    reason: string,
    revisions: number,
    /** The task's counters as they end; @default the input's */
    progress: Progress = input.payload.progress,
  ): Decision {
    const { task, history } = input.payload;
    return finishTask(input, {
      task,
      status,
      progress,
      steps: history,
      questions,
      issues: capLog(issues),
      reason,
      revision_count: input.revision_count + revisions,
      input_source: input.event_type === 'reinject_requested' ? 'feedback' : 'pipeline',
    });
  }

  /**
   * Validates `args`; while fields fail and a model is configured, re-asks it for exactly those fields (at most
   * `budget` times). Each re-ask is one revision.
   */
  async function validateWithReask(
    input: Input,
    tool: ToolDefinition,
    start: Record<string, unknown>,
    provenance: Record<string, ArgumentProvenance>,
    log: string[],
    budget: number,
    model: ModelProvider | undefined,
  ): Promise<{ result: RepairResult; revisions: number }> {
    const { task, history } = input.payload;
    const sensitive = sensitiveFieldsOf(tool);
    const denied = deniedFields(tool, input.agent_id, fieldPolicy);
    const dates = dateContextOf(task);
    const corpus = [
      task.request,
      ...task.context.map((m) => m.content),
      ...history.map((h) => JSON.stringify(h.result.output)),
    ].join('\n');
    const hints = parameterHints(tool.parameters);
    let result = repairArguments(tool.parameters, start, { sensitive, denied, dates });
    log.push(...result.log);
    let revisions = 0;
    while (!result.ok && model && revisions < budget) {
      // Only fields the model may fix: a field the agent may not set is not re-asked.
      const errors = result.errors.filter((e) => !denied.has(e.field.split('.')[0] ?? e.field));
      if (errors.length === 0) break;
      revisions += 1;
      log.push(
        `revision ${String(revisions)}: asked the model to fix ${errors.map((e) => `${e.field} (${e.reason})`).join('; ')}`,
      );
      const fixes = await askToFix(model, tool, task, history, result.arguments, errors, sensitive);
      const next = { ...result.arguments };
      for (const [field, value] of Object.entries(fixes)) {
        const error = errors.find((e) => (e.field.split('.')[0] ?? e.field) === field);
        const fieldHints = hints.find((h) => h.path === field);
        // A value the model supplies for a *missing* field must be found in the user's words: never invent one.
        if (error?.kind === 'missing' && fieldHints && !isGrounded(value, fieldHints, corpus, dates)) {
          log.push(
            `revision ${String(revisions)}: the model's ${field} ${shown(field, value, sensitive)} is not in the request; not used`,
          );
          continue;
        }
        next[field] = value;
        provenance[field] = 'model';
        log.push(`revision ${String(revisions)}: ${field} = ${shown(field, value, sensitive)} from model`);
      }
      if (Object.keys(fixes).length === 0) log.push(`revision ${String(revisions)}: the model gave no value`);
      result = repairArguments(tool.parameters, next, { sensitive, denied, dates });
      log.push(...result.log);
    }
    return { result, revisions };
  }

  function outcome(
    input: Input,
    tool: ToolDefinition,
    stepIndex: number,
    result: RepairResult,
    provenance: Record<string, ArgumentProvenance>,
    log: string[],
    revisions: number,
    because: string,
    model: ModelProvider | undefined,
  ): Decision {
    const { task, progress, history, selection, plan } = input.payload;
    if (!result.ok) {
      const reask =
        revisions > 0
          ? ` after ${String(revisions)} re-ask(s)`
          : model
            ? ''
            : ' (no model configured to re-ask)';
      return finish(
        input,
        'need_clarification',
        result.errors.map(
          (e) => `${clarificationQuestion(tool, e)}${whatItFinds(registry, plan, stepIndex, tool)}`,
        ),
        [...result.errors.map((e) => `${tool.name}.${e.field} ${e.reason}`), ...log],
        `need clarification for ${tool.name} step ${String(stepIndex)}: ${result.errors.map((e) => `${e.field} ${e.reason}`).join('; ')}${reask}; ${because}`,
        revisions,
        { ...progress, revisions: progress.revisions + revisions },
      );
    }
    const finalProvenance: Record<string, ArgumentProvenance> = {};
    for (const field of Object.keys(result.arguments)) {
      finalProvenance[field] = result.coerced.includes(field) ? 'coerced' : (provenance[field] ?? 'model');
    }
    const call: PreparedCall = {
      step_index: stepIndex,
      tool: tool.name,
      arguments: result.arguments as PreparedCall['arguments'],
      provenance: finalProvenance,
      validation_log: capLog(log),
    };
    const summary = Object.entries(finalProvenance)
      .map(([f, p]) => `${f}←${p}`)
      .join(', ');
    return {
      topic: TOPICS.stepPrepared,
      event_type: 'step_prepared',
      payload: {
        task,
        progress: { ...progress, revisions: progress.revisions + revisions },
        history,
        selection,
        plan,
        call,
      },
      decision_reason:
        `prepared ${tool.name} step ${String(stepIndex)}: ${summary || 'no arguments'}` +
        (result.stripped.length > 0
          ? `; stripped ${result.stripped.map((s) => `${s.field} (${s.reason})`).join(', ')}`
          : '') +
        (revisions > 0 ? `; fixed after ${String(revisions)} re-ask(s)` : '') +
        `; ${because}`,
      revision_count: input.revision_count + revisions,
      degraded_flag: input.degraded_flag,
      input_source: input.event_type === 'reinject_requested' ? 'feedback' : 'pipeline',
    };
  }

  function stepOf(
    input: Input,
  ): { error: string } | { error?: undefined; step: PlanStep; tool: ToolDefinition; hashNote: string[] } {
    const { plan, step_index } = input.payload;
    const step = plan.steps.find((s) => s.index === step_index);
    if (!step) {
      return { error: `the plan has no step ${String(step_index)} (it has ${String(plan.steps.length)})` };
    }
    const tool = registry.tool(step.tool);
    if (!tool)
      return { error: `step ${String(step_index)} names tool "${step.tool}", which is not in the registry` };
    const hashNote =
      registry.versions.tool_hashes[tool.name] !== step.tool_definition_hash
        ? [
            `warning: ${tool.name}'s definition changed since the plan was made (planned ${step.tool_definition_hash}, now ${registry.versions.tool_hashes[tool.name] ?? '?'})`,
          ]
        : [];
    return { step, tool, hashNote };
  }

  async function onPrepare(input: Input, model: ModelProvider | undefined): Promise<Decision> {
    const found = stepOf(input);
    if (found.error !== undefined) return finish(input, 'failed', [], [found.error], found.error, 0);
    const { step, tool, hashNote } = found;
    const { task, history } = input.payload;
    const sensitive = sensitiveFieldsOf(tool);
    // An agent's proposed call brings its own arguments: validated as given, never re-asked of a model.
    const given = proposedArguments(tool, step, task, sensitive);
    const proposals =
      model && !given ? await proposeArguments(model, tool, task, history, step.purpose) : null;
    const built = given ?? buildArguments({ tool, step, task, history, proposals, sensitive });
    const log = [...hashNote, ...built.log];
    const { result, revisions } = await validateWithReask(
      input,
      tool,
      built.arguments,
      built.provenance,
      log,
      given ? 0 : maxRevisions,
      model,
    );
    return outcome(
      input,
      tool,
      step.index,
      result,
      built.provenance,
      log,
      revisions,
      [
        ...built.notes,
        model ? 'model proposals + deterministic extraction' : 'deterministic extraction',
      ].join('; '),
      model,
    );
  }

  async function onReinject(input: Reinject, model: ModelProvider | undefined): Promise<Decision> {
    const { previous_call, feedback, progress } = input.payload;
    const found = stepOf(input);
    if (found.error !== undefined) return finish(input, 'failed', [], [found.error], found.error, 1);
    const { tool, step } = found;
    const fields = [
      ...new Set(
        (feedback.fields.length > 0 ? feedback.fields : Object.keys(previous_call.arguments)).map(
          (f) => f.split('.')[0] ?? f,
        ),
      ),
    ];
    const errors: FieldError[] = fields.map((field) => ({
      field,
      kind: 'invalid',
      reason: `was refused: ${feedback.reason}`,
    }));
    if (progress.revisions >= maxTaskRevisions) {
      return finish(
        input,
        'need_clarification',
        errors.map((e) => clarificationQuestion(tool, e)),
        [feedback.reason, ...feedback.issues],
        `revision ceiling reached (${String(progress.revisions)} of ${String(maxTaskRevisions)}); need clarification for ${tool.name}: ${fields.join(', ')}`,
        0,
      );
    }
    const sensitive = sensitiveFieldsOf(tool);
    const log = [`re-inject: ${fields.join(', ')} refused: ${feedback.reason}`];
    const provenance: Record<string, ArgumentProvenance> = { ...previous_call.provenance };
    if (!model) {
      // Nothing deterministic can produce a better value than the one just refused: ask the user.
      const result: RepairResult = {
        ok: false,
        arguments: previous_call.arguments,
        errors,
        coerced: [],
        stripped: [],
        emptied: [],
        log: [],
      };
      return outcome(
        input,
        tool,
        step.index,
        result,
        provenance,
        log,
        1,
        'no model configured to re-ask',
        model,
      );
    }
    const fixes = await askToFix(
      model,
      tool,
      input.payload.task,
      input.payload.history,
      previous_call.arguments,
      errors,
      sensitive,
    );
    const next: Record<string, unknown> = { ...previous_call.arguments };
    const unresolved: string[] = [];
    for (const field of fields) {
      const fix = fixes[field];
      if (fix === undefined || JSON.stringify(fix) === JSON.stringify(previous_call.arguments[field])) {
        // The refused value is not offered again; a field without a new value is missing.
        Reflect.deleteProperty(next, field);
        unresolved.push(field);
        log.push(`re-inject: the model gave no new ${field}`);
      } else {
        next[field] = fix;
        provenance[field] = 'model';
        log.push(`re-inject: ${field} = ${shown(field, fix, sensitive)} from model`);
      }
    }
    // A refused field given a value the request asked for ("pick it up this Sunday") and no new one is the user's to
    // give: leaving it out — an optional field left to the backend's default — would do something else than was
    // asked (a pickup on a day nobody chose). Ask, as without a model.
    if (unresolved.length > 0)
      return outcome(
        input,
        tool,
        step.index,
        {
          ok: false,
          arguments: previous_call.arguments,
          errors: errors.filter((e) => unresolved.includes(e.field)),
          coerced: [],
          stripped: [],
          emptied: [],
          log: [],
        },
        provenance,
        log,
        1,
        'the model gave no new value for a refused field',
        model,
      );
    const { result, revisions } = await validateWithReask(
      input,
      tool,
      next,
      provenance,
      log,
      Math.max(0, maxRevisions - 1),
      model,
    );
    return outcome(
      input,
      tool,
      step.index,
      result,
      provenance,
      log,
      1 + revisions,
      'model re-asked on feedback',
      model,
    );
  }

  return async (input, ctx) => {
    // The model of the profile the selector chose (PI-2, PI-4), from the context: recorded by the runtime,
    // answered from the recording by re-decide (EL-7, EL-9).
    const model = ctx.models?.(input.payload.selection.primary);
    // A task whose time zone or reference time cannot be read has no "today" to read its dates against: it ends
    // here, saying which field is wrong, instead of failing somewhere inside extraction.
    const badDates = dateContextProblem(dateContextOf(input.payload.task));
    if (badDates !== undefined)
      return finish(
        input,
        'failed',
        [],
        [badDates],
        badDates,
        input.event_type === 'reinject_requested' ? 1 : 0,
      );
    switch (input.event_type) {
      case 'task_planned':
      case 'next_step_requested':
        return onPrepare(input, model);
      case 'reinject_requested':
        return onReinject(input, model);
    }
  };
}

/** The parameter injector as a stage: its input topic, its decision, the registry's versions and its model. */
export function parameterInjectorDefinition(
  options: ParameterInjectorDefinitionOptions,
): StageDefinition<'parameter_injector'> {
  const { model } = options;
  return defineStage(
    'parameter_injector',
    createParameterInjectorDecide(options),
    stageBinding(options.registry),
    model === undefined ? undefined : typeof model === 'function' ? model : () => model,
  );
}
