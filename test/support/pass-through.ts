// A pass-through pipeline: five stage definitions whose decide functions do no real work but emit a valid
// message of the next kind. Used by the backbone benchmark and the crash/rebalance tests, so that what is measured
// and crashed is the backbone (bus, event log, stage runtime), not stage logic.
import {
  INPUT_TOPIC_OF,
  TOPICS,
  type ModelSelection,
  type Plan,
  type PreparedCall,
  type Progress,
  type StepResult,
  type TaskSpec,
  type Envelope,
  type PipelineStage,
  type StageMessage,
  type TopicMessage,
} from '@signalbox/contracts';
import { testMessage, testTask } from '@signalbox/contracts/testing';
import {
  decisionEnvelope,
  type Decision,
  type DecisionVersions,
  type StageDefinition,
  type StageInput,
} from '@signalbox/stage-kit';

export const PASS_THROUGH_VERSIONS: DecisionVersions = {
  registry_version: 'bench-registry-1',
  profiles_version: 'bench-profiles-1',
  policy_version: 'bench-policy-1',
};

const selection: ModelSelection = {
  primary: 'bench-model',
  fallbacks: [],
  labels: ['tool_use'],
  token_estimate: 100,
  estimated_cost_usd: 0,
  rejected: [],
  degrade_level: 0,
};

function plan(): Plan {
  return {
    scene: 'bench',
    steps: [
      {
        index: 0,
        tool: 'echo',
        tool_definition_hash: 'sha256:bench',
        purpose: 'echo the request',
        input_from: [{ parameter: 'text', source: 'user_text', step_index: null, path: null }],
        expected_evidence: 'derived',
        fallback_tool: null,
      },
    ],
    visible_tools: ['echo'],
    candidate_scores: [{ tool: 'echo', score: 1 }],
    rejected: [],
  };
}

function call(task: TaskSpec): PreparedCall {
  return {
    step_index: 0,
    tool: 'echo',
    arguments: { text: task.request },
    provenance: { text: 'user_text' },
    validation_log: [],
  };
}

function result(task: TaskSpec): StepResult {
  return {
    step_index: 0,
    tool: 'echo',
    ok: true,
    output: { text: task.request },
    output_ref: null,
    output_kind: 'derived',
    error_class: null,
    error_message: null,
    duration_ms: 0,
    attempts: 1,
    cache_hit: false,
    fetched_at: null,
    idempotency_key: null,
  };
}

function pass(
  input: StageInput,
  topic: Decision['topic'],
  event_type: string,
  payload: unknown,
  reason: string,
): Decision {
  return {
    topic,
    event_type,
    payload,
    decision_reason: reason,
    revision_count: input.revision_count,
    degraded_flag: input.degraded_flag,
  };
}

type In<K extends keyof typeof TOPICS> = TopicMessage<K>;

/** The five pass-through stages, keyed by stage name. */
export const PASS_THROUGH_STAGES = {
  model_selector: {
    stage: 'model_selector',
    input: INPUT_TOPIC_OF.model_selector,
    versions: () => PASS_THROUGH_VERSIONS,
    decide: (input) => {
      if (input.event_type !== 'task_submitted') throw new TypeError(`unexpected ${input.event_type}`);
      const progress: Progress = {
        revisions: 0,
        replans: 0,
        degradations: 0,
        steps_executed: 0,
        cost_usd: 0,
        started_at: input.occurred_at,
      };
      return pass(
        input,
        TOPICS.modelSelected,
        'model_selected',
        { task: input.payload.task, progress, history: [], selection },
        'pass-through: bench model',
      );
    },
  },
  tool_decider: {
    stage: 'tool_decider',
    input: INPUT_TOPIC_OF.tool_decider,
    versions: () => PASS_THROUGH_VERSIONS,
    decide: (input) => {
      const { task, progress, history, selection: sel } = input.payload;
      return pass(
        input,
        TOPICS.taskPlanned,
        'task_planned',
        { task, progress, history, selection: sel, plan: plan(), step_index: 0 },
        'pass-through: one echo step',
      );
    },
  },
  parameter_injector: {
    stage: 'parameter_injector',
    input: INPUT_TOPIC_OF.parameter_injector,
    versions: () => PASS_THROUGH_VERSIONS,
    decide: (input) => {
      const { task, progress, history, selection: sel, plan: p } = input.payload;
      return pass(
        input,
        TOPICS.stepPrepared,
        'step_prepared',
        { task, progress, history, selection: sel, plan: p, call: call(task) },
        'pass-through: request text as argument',
      );
    },
  },
  executor: {
    stage: 'executor',
    input: INPUT_TOPIC_OF.executor,
    versions: () => PASS_THROUGH_VERSIONS,
    decide: (input) => {
      const { task, progress, history, selection: sel, plan: p, call: c } = input.payload;
      return pass(
        input,
        TOPICS.stepExecuted,
        'step_executed',
        { task, progress, history, selection: sel, plan: p, call: c, result: result(task) },
        'pass-through: echoed',
      );
    },
  },
  result_evaluator: {
    stage: 'result_evaluator',
    input: INPUT_TOPIC_OF.result_evaluator,
    versions: () => PASS_THROUGH_VERSIONS,
    decide: (input) => {
      const { task, progress, call: c, result: r } = input.payload;
      const duration = Date.parse(input.occurred_at) - Date.parse(progress.started_at);
      return pass(
        input,
        TOPICS.taskFinished,
        'task_finished',
        {
          task,
          status: 'success',
          steps: [{ call: c, result: r, status: 'success', issues: [] }],
          evidence: [{ step_index: 0, kind: r.output_kind }],
          questions: [],
          issues: [],
          total_cost_usd: 0,
          duration_ms: Math.max(0, duration),
        },
        'pass-through: success',
      );
    },
  },
} satisfies { [S in PipelineStage]: StageDefinition<S> };

/** A submitted-task message for the pipeline's entry topic. */
export function submittedTask(
  taskId: string,
  occurredAt: Date,
  request = `bench request ${taskId}`,
): In<'taskSubmitted'> {
  const at = occurredAt.toISOString();
  return testMessage(
    'taskSubmitted',
    'task_submitted',
    { task: testTask({ request, reference_time: at }) },
    {
      event_id: `ev_submitted_${taskId}`,
      task_id: taskId,
      tenant_id: 'bench-tenant',
      agent_id: 'bench-agent',
      occurred_at: at,
      schema_version: 1,
    },
  );
}

/** One decision of the pass-through pipeline: its envelope, payload and topic, as a stage appends and publishes it. */
export interface PassThroughDecision {
  envelope: Envelope;
  payload: unknown;
  topic: string;
}

/**
 * What the five pass-through stages decide for one task, in order (each stage's own decide function and envelope):
 * the messages a task's hops carry, 1.1–1.9 KB of JSON each, for benchmarks that send or store them without the
 * stages.
 */
export async function passThroughDecisions(taskId: string, occurredAt: Date): Promise<PassThroughDecision[]> {
  let message: StageMessage = submittedTask(taskId, occurredAt);
  const decisions: PassThroughDecision[] = [];
  for (const definition of Object.values(PASS_THROUGH_STAGES) as StageDefinition[]) {
    const versions = definition.versions();
    const decision = await definition.decide(message, { stage: definition.stage, versions });
    const envelope = decisionEnvelope(definition.stage, message, decision, versions, occurredAt, null);
    decisions.push({ envelope, payload: decision.payload, topic: decision.topic.name });
    // Each decision is the next stage's input, as the bus would deliver it.
    message = { ...envelope, payload: decision.payload } as StageMessage;
  }
  return decisions;
}
