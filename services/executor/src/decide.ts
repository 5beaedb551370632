import { TOPICS, type ErrorClass, type StepResult, type TopicMessage } from '@signalbox/contracts';
import {
  sensitiveParameterPaths,
  stageBinding,
  type Registry,
  type ToolDefinition,
} from '@signalbox/registry';
import {
  DecisionDeferredError,
  defineStage,
  finishTask,
  type Decide,
  type Decision,
  type StageDefinition,
} from '@signalbox/stage-kit';
import { checkConfirmation } from './confirmation.js';
import { ERROR_CLASSES, eventErrorMessage } from './error-classes.js';
import { ExecutionAbortedError } from './errors.js';
import type { Executor } from './executor.js';
import { argumentHash, idempotencyKey } from './keys.js';
import { recheckVisibility } from './visibility-check.js';

/** Options of the executor's decision function. */
export interface ExecutorDecideOptions {
  registry: Registry;
  executor: Executor;
}

type Input = TopicMessage<'stepPrepared'>;

/**
 * The executor's decision (EX-1..EX-7): re-check visibility and permission, gate confirmations, run exactly the
 * prepared call through the gateway and emit `step_executed` — or end the task `need_clarification` when a
 * confirmation is missing or bound to other arguments. The decision is the execution result; it is effectively
 * once because the gateway never acts twice for one idempotency key (EX-3) and the stage runtime reuses the
 * appended decision on redelivery (EL-2).
 */
export function createExecutorDecide(options: ExecutorDecideOptions): Decide<'executor'> {
  const { registry, executor } = options;

  function stepExecuted(input: Input, result: StepResult, reason: string): Decision {
    const { task, progress, history, selection, plan, call } = input.payload;
    return {
      topic: TOPICS.stepExecuted,
      event_type: 'step_executed',
      payload: {
        task,
        // The executor counts what it ran; a refused call still used a step of the task's budget (FL-6).
        progress: { ...progress, steps_executed: progress.steps_executed + 1 },
        history,
        selection,
        plan,
        call,
        result,
      },
      decision_reason: reason,
      revision_count: input.revision_count,
      degraded_flag: input.degraded_flag,
    };
  }

  function refused(input: Input, errorClass: ErrorClass, message: string): Decision {
    const { call, plan } = input.payload;
    const key = idempotencyKey({
      tenant_id: input.tenant_id,
      task_id: input.task_id,
      step_index: call.step_index,
      tool: call.tool,
      arguments: call.arguments,
    });
    const step = plan.steps.find((s) => s.index === call.step_index);
    const result: StepResult = {
      step_index: call.step_index,
      tool: call.tool,
      ok: false,
      output: null,
      output_ref: null,
      output_kind: 'failure',
      error_class: errorClass,
      error_message: eventErrorMessage(errorClass, message),
      duration_ms: 0,
      attempts: 0,
      cache_hit: false,
      fetched_at: null,
      idempotency_key: key,
    };
    return stepExecuted(
      input,
      result,
      `not executed: ${message} (${errorClass} → ${ERROR_CLASSES[errorClass].next_action})${step ? '' : '; the step is not in the plan'}`,
    );
  }

  function needConfirmation(input: Input, tool: ToolDefinition, hash: string, issue: string): Decision {
    const { task, progress, history, call } = input.payload;
    // The question is stored in the clear (the finished task's payload), so a sensitive value (PI-5) reads as redacted
    // there; the hash still binds the confirmation to the real values.
    const shown = redactedArguments(call.arguments, sensitiveParameterPaths(tool));
    const question =
      `Confirm ${call.tool} with exactly these arguments (argument hash sha256:${hash}): ` +
      `${JSON.stringify(shown).slice(0, 1500)}. Reply with the line "confirm ${call.tool} sha256:${hash}".`;
    return finishTask(input, {
      task,
      status: 'need_clarification',
      progress,
      steps: history,
      questions: [question],
      issues: [issue],
      reason: `need_confirmation: ${issue}`,
    });
  }

  return async (input, ctx) => {
    const { task, plan, call } = input.payload;
    const tool = registry.tool(call.tool);
    if (!tool)
      return refused(
        input,
        'unknown_tool',
        `${call.tool} is not in registry ${registry.versions.registry_version}`,
      );

    const step = plan.steps.find((s) => s.index === call.step_index);
    const pinned = step?.tool === call.tool ? step.tool_definition_hash : undefined;
    const current = registry.versions.tool_hashes[tool.name];
    if (pinned !== undefined && pinned !== current)
      return refused(
        input,
        'capability_mismatch',
        `${tool.name}'s definition changed since it was planned (planned ${pinned}, now ${String(current)})`,
      );

    const scene = plan.scene ? registry.scene(plan.scene) : undefined;
    const visibility = recheckVisibility(registry, tool, {
      agent: input.agent_id,
      tenant: input.tenant_id,
      scenario: task.scenario ?? scene?.scenario ?? null,
      planVisible: plan.visible_tools,
    });
    if (!visibility.allowed) return refused(input, 'permission', visibility.reason);

    const hash = argumentHash(call.arguments);
    const gate = checkConfirmation(tool, hash, task.context);
    switch (gate.status) {
      case 'missing':
        return needConfirmation(
          input,
          tool,
          hash,
          `need_confirmation: ${tool.name} is ${tool.permission === 'sensitive' ? 'sensitive' : 'marked requires_confirmation'} and the task carries no confirmation for it`,
        );
      case 'mismatch':
        return needConfirmation(
          input,
          tool,
          hash,
          `need_confirmation: the confirmation for ${tool.name} was given for other arguments (sha256:${gate.confirmed_hashes.join(', sha256:')}) and is refused for sha256:${hash}`,
        );
      case 'confirmed':
      case 'not_needed':
        break;
    }

    let result: StepResult;
    try {
      result = await executor.execute(
        {
          tenant_id: input.tenant_id,
          task_id: input.task_id,
          step_index: call.step_index,
          tool,
          arguments: call.arguments,
          needs_fresh_data: task.needs_fresh_data,
        },
        { signal: ctx.signal },
      );
    } catch (err) {
      // The stage is stopping while the call waits out an outage: no decision now; the input stays uncommitted and
      // its next owner runs the call again under the same idempotency key (the executor left the key safe to).
      if (err instanceof ExecutionAbortedError)
        throw new DecisionDeferredError(`${tool.name}: ${err.message}`, { cause: err });
      throw err;
    }
    const what = result.ok
      ? `${tool.name} ran (${String(result.attempts)} attempt(s)${result.cache_hit ? ', cache hit' : ''}; ${result.output_kind})`
      : `${tool.name} failed: ${result.error_class ?? 'internal'} → ${ERROR_CLASSES[result.error_class ?? 'internal'].next_action}`;
    return stepExecuted(
      input,
      result,
      `${what}${gate.status === 'confirmed' ? `; confirmed for sha256:${hash}` : ''}; idempotency key ${String(result.idempotency_key)}`,
    );
  };
}

/** The executor as a stage: its input topic, its decision and the registry's versions. */
export function executorDefinition(options: ExecutorDecideOptions): StageDefinition<'executor'> {
  return defineStage('executor', createExecutorDecide(options), stageBinding(options.registry));
}

/** A copy of `args` with the value at each dotted path (when present) replaced by `[REDACTED]`. */
function redactedArguments(args: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const copy = structuredClone(args);
  for (const path of paths) {
    const segments = path.split('.');
    let node: unknown = copy;
    for (const [i, segment] of segments.entries()) {
      if (typeof node !== 'object' || node === null || !Object.hasOwn(node, segment)) break;
      const record = node as Record<string, unknown>;
      if (i === segments.length - 1) record[segment] = '[REDACTED]';
      else node = record[segment];
    }
  }
  return copy;
}
