// Writes the frozen fixture corpus of the contracts: one realistic message per message kind of every topic, plus
// the JSON Schema of every topic as published for the current version. It only ever ADDS files: a fixture that
// exists is a frozen record of what was once on the wire, so it is never rewritten — a changed contract gets a new
// fixture version (fixtures/<topic>/v2/…) next to the old one, and the old ones must keep parsing or the change is
// incompatible. Run: `pnpm exec tsx packages/contracts/scripts/write-fixtures.ts`, then
// `pnpm exec prettier --write packages/contracts/fixtures` (the format check covers the new files).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  CONTRACT_VERSION,
  deterministicEventId,
  TOPICS,
  type Envelope,
  type Stage,
  type TopicMessage,
} from '../src/index.js';
import { topicJsonSchema } from '../src/json-schema.js';

// The version being frozen: the contract version producers stamp (raise CONTRACT_VERSION for a compatible change).
const FIXTURE_VERSION = CONTRACT_VERSION;
const root = join(import.meta.dirname, '..', 'fixtures');

const TASK_ID = 'tsk_01JD3Q8Z5V7RKM2X4N6P9T0B1C';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

function envelope(
  stage: Stage,
  eventType: string,
  causation: string | null,
  spanId: string,
  occurredAt: string,
  extra: Partial<Envelope> = {},
): Envelope {
  return {
    event_id: deterministicEventId({
      task_id: TASK_ID,
      stage,
      causation_id: causation,
      event_type: eventType,
    }),
    task_id: TASK_ID,
    tenant_id: 'acme-retail',
    agent_id: 'after-sales-refund',
    stage,
    event_type: eventType,
    causation_id: causation,
    revision_count: 0,
    degraded_flag: false,
    decision_reason: '',
    input_source: 'pipeline',
    registry_version: 'reg-2024-11-28.3',
    profiles_version: 'profiles-7',
    policy_version: 'policy-12',
    occurred_at: occurredAt,
    schema_version: FIXTURE_VERSION,
    traceparent: `00-${TRACE_ID}-${spanId}-01`,
    ...extra,
  };
}

const task = {
  request: 'My order 20241127-8841 arrived three days late and the kettle is cracked. I want a refund.',
  context: [
    { role: 'user' as const, content: 'Hi, I have a problem with a delivery.' },
    { role: 'assistant' as const, content: 'Sorry to hear that. Which order is it about?' },
  ],
  locale: 'en-GB',
  time_zone: 'Europe/London',
  reference_time: '2024-11-30T09:12:00+00:00',
  cost_ceiling_usd: 0.25,
  required_modalities: ['text' as const],
  attachments: [{ name: 'kettle.jpg', media_type: 'image/jpeg', size_bytes: 482113, ref: 'att_7Yk2' }],
  scenario: 'after_sales',
  needs_fresh_data: false,
  redrive_of: null,
};

const progress = {
  revisions: 0,
  replans: 0,
  degradations: 0,
  steps_executed: 0,
  cost_usd: 0,
  started_at: '2024-11-30T09:12:00.184Z',
};

const selection = {
  primary: 'gpt-4o-mini',
  fallbacks: ['qwen2.5-7b-instruct'],
  labels: ['classification', 'extraction', 'tool_use'],
  token_estimate: 2400,
  estimated_cost_usd: 0.0021,
  rejected: [
    { candidate: 'gpt-4o', reason: 'estimated cost 0.031 USD exceeds the per-step budget 0.02 USD' },
  ],
  degrade_level: 0,
};

const plan = {
  scene: 'refund_request',
  steps: [
    {
      index: 0,
      tool: 'order_status_query',
      tool_definition_hash: 'sha256:9f1c0e55d2a4b7c8',
      purpose: 'Confirm the order exists, was delivered, and is refundable.',
      input_from: [{ parameter: 'order_id', source: 'user_text' as const, step_index: null, path: null }],
      expected_evidence: 'source' as const,
      fallback_tool: null,
    },
    {
      index: 1,
      tool: 'refund_create',
      tool_definition_hash: 'sha256:3a7be1d09c62f415',
      purpose: 'Create the refund for the damaged item.',
      input_from: [
        { parameter: 'order_id', source: 'step_output' as const, step_index: 0, path: '$.order_id' },
        {
          parameter: 'reason',
          source: 'user_text' as const,
          step_index: null,
          path: null,
          text: 'the kettle is cracked',
        },
      ],
      expected_evidence: 'action_receipt' as const,
      fallback_tool: null,
    },
  ],
  visible_tools: ['order_status_query', 'refund_create', 'refund_status_query', 'logistics_track_query'],
  candidate_scores: [
    { tool: 'order_status_query', score: 0.92 },
    { tool: 'refund_create', score: 0.88 },
    { tool: 'logistics_track_query', score: 0.41 },
  ],
  rejected: [{ candidate: 'invoice_issue', reason: 'not relevant to a refund request' }],
  semantic_model: {
    model: 'all-minilm-l6-v2-q',
    sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1',
  },
  asked_acts: [
    {
      kind: 'act' as const,
      object: 'a refund for the cracked kettle',
      phrase: 'I want a refund for the cracked kettle',
      step_index: 1,
      unserved: null,
    },
    {
      kind: 'delete' as const,
      object: 'my old address',
      phrase: 'delete my old address',
      step_index: null,
      unserved: 'no visible tool deletes; considered order_status_query, refund_create, refund_status_query',
    },
  ],
};

const call0 = {
  step_index: 0,
  tool: 'order_status_query',
  arguments: { order_id: '20241127-8841' },
  provenance: { order_id: 'user_text' as const },
  validation_log: ['order_id: matched pattern ^\\d{8}-\\d{4}$'],
};

const result0 = {
  step_index: 0,
  tool: 'order_status_query',
  ok: true,
  output: {
    order_id: '20241127-8841',
    status: 'delivered',
    delivered_at: '2024-11-29T16:40:00Z',
    refundable: true,
  },
  output_ref: null,
  output_kind: 'source' as const,
  error_class: null,
  error_message: null,
  duration_ms: 84.2,
  attempts: 1,
  cache_hit: false,
  fetched_at: '2024-11-30T09:12:03.512Z',
  idempotency_key: null,
};

const record0 = { call: call0, result: result0, status: 'success' as const, issues: [] };

const call1 = {
  step_index: 1,
  tool: 'refund_create',
  arguments: { order_id: '20241127-8841', reason: 'damaged', amount_minor: 3499, currency: 'GBP' },
  provenance: {
    order_id: 'step_output' as const,
    reason: 'model' as const,
    amount_minor: 'step_output' as const,
    currency: 'default' as const,
  },
  validation_log: ['reason: coerced "cracked" to enum value "damaged"'],
};

const result1 = {
  step_index: 1,
  tool: 'refund_create',
  ok: true,
  output: { refund_id: 'rf_55120', status: 'pending', amount_minor: 3499, currency: 'GBP' },
  output_ref: null,
  output_kind: 'action_receipt' as const,
  error_class: null,
  error_message: null,
  duration_ms: 212.7,
  attempts: 1,
  cache_hit: false,
  fetched_at: null,
  idempotency_key: 'idem_tsk_01JD3Q8Z5V7RKM2X4N6P9T0B1C_1',
};

const carried = { task, progress, history: [] };
const carriedAfterStep0 = {
  task,
  progress: { ...progress, steps_executed: 1, cost_usd: 0.0009 },
  history: [record0],
};

const submitted = envelope('api', 'task_submitted', null, '00f067aa0ba902b7', '2024-11-30T09:12:00.184Z', {
  input_source: 'user',
  decision_reason: 'accepted: request validated',
  registry_version: null,
  profiles_version: null,
  policy_version: null,
});
const selected = envelope(
  'model_selector',
  'model_selected',
  submitted.event_id,
  'b7ad6b7169203331',
  '2024-11-30T09:12:00.902Z',
  { decision_reason: 'labels classification+extraction+tool_use; cheapest profile meeting tool_use' },
);
const planned = envelope(
  'tool_decider',
  'task_planned',
  selected.event_id,
  '5fb397be34d26b51',
  '2024-11-30T09:12:02.115Z',
  {
    decision_reason: 'scene refund_request: status query before refund (SP-1)',
  },
);
const prepared = envelope(
  'parameter_injector',
  'step_prepared',
  planned.event_id,
  '7a085853722dc6d2',
  '2024-11-30T09:12:02.640Z',
  { decision_reason: 'order_id taken from the request text' },
);
const executed = envelope(
  'executor',
  'step_executed',
  prepared.event_id,
  'e457b5a2e4d86bd1',
  '2024-11-30T09:12:03.512Z',
  {
    decision_reason: 'order_status_query ok in 1 attempt',
  },
);
const nextStep = envelope(
  'result_evaluator',
  'next_step_requested',
  executed.event_id,
  '53995c3f42cd8ad8',
  '2024-11-30T09:12:03.801Z',
  { decision_reason: 'step 0 success (source evidence); 1 step left', input_source: 'feedback' },
);
const reinject = envelope(
  'result_evaluator',
  'reinject_requested',
  executed.event_id,
  '9c7a3f1e6b2d4085',
  '2024-11-30T09:12:05.230Z',
  {
    decision_reason: 'refund_create rejected reason "cracked": not in enum; re-inject field reason',
    input_source: 'feedback',
    revision_count: 1,
  },
);
const replan = envelope(
  'result_evaluator',
  'replan_requested',
  executed.event_id,
  'd1e2f3a4b5c6d7e8',
  '2024-11-30T09:12:05.410Z',
  {
    decision_reason: 'refund_create returned permission error for agent; plan again without it',
    input_source: 'feedback',
    revision_count: 1,
  },
);
const degrade = envelope(
  'result_evaluator',
  'degrade_requested',
  executed.event_id,
  '0a1b2c3d4e5f6071',
  '2024-11-30T09:12:07.020Z',
  {
    decision_reason: 'three consecutive parameter failures with gpt-4o-mini; degrade',
    input_source: 'feedback',
    revision_count: 3,
  },
);
const finished = envelope(
  'result_evaluator',
  'task_finished',
  executed.event_id,
  '1f2e3d4c5b6a7988',
  '2024-11-30T09:12:06.004Z',
  {
    decision_reason: 'refund rf_55120 created after order status confirmed delivered',
    input_source: 'pipeline',
  },
);

const feedbackFor = (
  reason: string,
  extra: Partial<{ failed_tool: string | null; fields: string[] }> = {},
) => ({
  reason,
  issues: [reason],
  failed_tool: 'refund_create',
  error_class: 'parameter' as const,
  excluded_tools: [],
  fields: [],
  ...extra,
});

/** One message per kind; the keys are `<topic key>/<event_type>`. */
const messages: { [K in keyof typeof TOPICS]: TopicMessage<K>[] } = {
  taskSubmitted: [
    { ...submitted, event_type: 'task_submitted', payload: { task } },
    {
      ...degrade,
      event_type: 'degrade_requested',
      payload: {
        ...carriedAfterStep0,
        progress: { ...carriedAfterStep0.progress, revisions: 3 },
        selection,
        plan,
        feedback: {
          ...feedbackFor('parameter errors on refund_create three times in a row', { fields: ['reason'] }),
        },
      },
    },
  ],
  modelSelected: [
    { ...selected, event_type: 'model_selected', payload: { ...carried, selection } },
    {
      ...replan,
      event_type: 'replan_requested',
      payload: {
        ...carriedAfterStep0,
        selection,
        plan,
        feedback: {
          ...feedbackFor('refund_create denied: agent lacks refund:write'),
          error_class: 'permission',
          excluded_tools: ['refund_create'],
        },
      },
    },
  ],
  taskPlanned: [
    { ...planned, event_type: 'task_planned', payload: { ...carried, selection, plan, step_index: 0 } },
    {
      ...nextStep,
      event_type: 'next_step_requested',
      payload: { ...carriedAfterStep0, selection, plan, step_index: 1 },
    },
    {
      ...reinject,
      event_type: 'reinject_requested',
      payload: {
        ...carriedAfterStep0,
        progress: { ...carriedAfterStep0.progress, reinjections: 1 },
        selection,
        plan,
        step_index: 1,
        previous_call: { ...call1, arguments: { ...call1.arguments, reason: 'cracked' } },
        feedback: feedbackFor('reason "cracked" is not one of damaged|late|wrong_item|other', {
          fields: ['reason'],
        }),
      },
    },
  ],
  stepPrepared: [
    { ...prepared, event_type: 'step_prepared', payload: { ...carried, selection, plan, call: call0 } },
  ],
  stepExecuted: [
    {
      ...executed,
      event_type: 'step_executed',
      payload: { ...carried, selection, plan, call: call0, result: result0 },
    },
  ],
  taskFinished: [
    {
      ...finished,
      event_type: 'task_finished',
      payload: {
        task,
        status: 'success',
        steps: [record0, { call: call1, result: result1, status: 'success', issues: [] }],
        evidence: [
          { step_index: 0, kind: 'source' },
          { step_index: 1, kind: 'action_receipt' },
        ],
        questions: [],
        issues: [],
        total_cost_usd: 0.0018,
        duration_ms: 5820,
      },
    },
  ],
};

let written = 0;
let kept = 0;

function writeOnce(file: string, value: unknown): void {
  if (existsSync(file)) {
    kept += 1;
    return;
  }
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { flag: 'wx' });
  written += 1;
  console.log(`wrote ${relative(process.cwd(), file)}`);
}

for (const key of Object.keys(TOPICS) as (keyof typeof TOPICS)[]) {
  const spec = TOPICS[key];
  for (const message of messages[key]) {
    // Parse before writing: a fixture that does not match its contract is not a record of anything.
    const parsed = spec.schema.parse(message) as { event_type: string };
    writeOnce(join(root, spec.name, `v${String(FIXTURE_VERSION)}`, `${parsed.event_type}.json`), message);
  }
  writeOnce(
    join(root, 'json-schema', `${spec.name}.v${String(FIXTURE_VERSION)}.json`),
    topicJsonSchema(spec),
  );
}

console.log(`${String(written)} written, ${String(kept)} kept (existing files are never rewritten)`);
