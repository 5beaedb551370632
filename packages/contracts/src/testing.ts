// Test-only exports: builders of valid envelopes and messages, so a test states only what it is about and the rest
// of a message is the contract's — one place to change when the contract grows a field, not every test file.
import { CONTRACT_VERSION, type Envelope } from './envelope.js';
import type {
  ModelSelection,
  Plan,
  PlanStep,
  PreparedCall,
  Progress,
  StepRecord,
  StepResult,
  TaskSpec,
} from './task.js';
import type { TopicKey, TopicMessage } from './topics.js';

/** A task as submitted: English, UTC, text only, at a fixed reference time. */
export function testTask(over: Partial<TaskSpec> = {}): TaskSpec {
  return {
    request: 'What is the weather in Paris today?',
    context: [],
    locale: 'en-US',
    time_zone: 'UTC',
    reference_time: '2026-11-30T09:00:00.000Z',
    cost_ceiling_usd: null,
    required_modalities: ['text'],
    attachments: [],
    scenario: null,
    needs_fresh_data: false,
    redrive_of: null,
    ...over,
  };
}

/** The counters of a task that has just started at `started_at`. */
export function testProgress(over: Partial<Progress> = {}): Progress {
  return {
    revisions: 0,
    replans: 0,
    degradations: 0,
    steps_executed: 0,
    cost_usd: 0,
    started_at: '2026-11-30T09:00:00.000Z',
    ...over,
  };
}

/** The envelope of a task's first message from the API, one second after the reference time. */
export function testEnvelope(over: Partial<Envelope> = {}): Envelope {
  return {
    event_id: 'ev_test_1',
    task_id: 'task-test-1',
    tenant_id: 'acme',
    agent_id: 'support',
    stage: 'api',
    event_type: 'task_submitted',
    causation_id: null,
    revision_count: 0,
    degraded_flag: false,
    decision_reason: 'submitted',
    input_source: 'user',
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: '2026-11-30T09:00:01.000Z',
    schema_version: CONTRACT_VERSION,
    traceparent: null,
    ...over,
  };
}

/**
 * A message of one kind of a catalog topic: `testEnvelope` with that kind, the given payload and envelope overrides.
 * Typed by topic and kind, so a test's payload is checked against the contract at compile time.
 */
export function testMessage<K extends TopicKey, E extends TopicMessage<K>['event_type']>(
  _topic: K,
  eventType: E,
  payload: Extract<TopicMessage<K>, { event_type: E }>['payload'],
  over: Partial<Envelope> = {},
): Extract<TopicMessage<K>, { event_type: E }> {
  return { ...testEnvelope(over), event_type: eventType, payload } as Extract<
    TopicMessage<K>,
    { event_type: E }
  >;
}

/** A call prepared for step `step_index` of `tool`, with no arguments. */
export function testPreparedCall(over: Partial<PreparedCall> = {}): PreparedCall {
  return { step_index: 0, tool: 'lookup', arguments: {}, provenance: {}, validation_log: [], ...over };
}

/** The successful result of a call: an inline `source` output, one attempt, nothing cached. */
export function testStepResult(over: Partial<StepResult> = {}): StepResult {
  return {
    step_index: 0,
    tool: 'lookup',
    ok: true,
    output: { found: true },
    output_ref: null,
    output_kind: 'source',
    error_class: null,
    error_message: null,
    duration_ms: 12,
    attempts: 1,
    cache_hit: false,
    fetched_at: '2026-11-30T09:00:02.000Z',
    idempotency_key: null,
    ...over,
  };
}

/** A successful step: `testPreparedCall` and `testStepResult` of step 0, no issues. */
export function testStepRecord(over: Partial<StepRecord> = {}): StepRecord {
  return { call: testPreparedCall(), result: testStepResult(), status: 'success', issues: [], ...over };
}

/** The model selector's choice of the deterministic profile `m`, nothing rejected. */
export function testSelection(over: Partial<ModelSelection> = {}): ModelSelection {
  return {
    primary: 'm',
    fallbacks: [],
    labels: [],
    token_estimate: 1,
    estimated_cost_usd: 0,
    rejected: [],
    degrade_level: 0,
    ...over,
  };
}

/** Step `index` of a plan: `tool` (its definition hash as given), taking nothing from elsewhere. */
export function testPlanStep(over: Partial<PlanStep> & Pick<PlanStep, 'tool'>): PlanStep {
  return {
    index: 0,
    tool_definition_hash: 'sha256:test',
    purpose: `call ${over.tool}`,
    input_from: [],
    expected_evidence: 'source',
    fallback_tool: null,
    ...over,
  };
}

/** A plan of the given steps, every step's tool visible, no scene. */
export function testPlan(steps: readonly PlanStep[], over: Partial<Plan> = {}): Plan {
  return {
    scene: null,
    steps: [...steps],
    visible_tools: [...new Set(steps.map((s) => s.tool))],
    candidate_scores: [],
    rejected: [],
    ...over,
  };
}
