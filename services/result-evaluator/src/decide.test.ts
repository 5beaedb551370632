import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  Plan,
  PreparedCall,
  Progress,
  StepRecord,
  StepResult,
  TaskSpec,
  TopicMessage,
} from '@signalbox/contracts';
import { testProgress, testTask } from '@signalbox/contracts/testing';
import type { ModelProvider } from '@signalbox/providers';
import { createScriptedProvider } from '@signalbox/providers/testing';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import type { Decision } from '@signalbox/stage-kit';
import { HARD_CHECKS, HEURISTICS } from './checks.js';
import { createResultEvaluatorDecide, emptyDayReason } from './decide.js';
import { JUDGE_SYSTEM_PROMPT } from './judge.js';

const packDir = fileURLToPath(new URL('../../../registry/packs/after-sales', import.meta.url));
let registry: Registry;
beforeAll(async () => {
  registry = await loadRegistryDir(packDir);
});

const task: TaskSpec = testTask({ request: 'my order 1234 is late and I want a refund' });

const progress: Progress = testProgress({ started_at: '2026-11-30T09:00:00.000Z' });

const plan: Plan = {
  scene: 'delivery_refund',
  steps: ['order_status_query', 'refund_create'].map((tool, index) => ({
    index,
    tool,
    tool_definition_hash: `sha256:${tool}`,
    purpose: tool,
    input_from: [],
    expected_evidence: index === 0 ? 'source' : 'action_receipt',
    fallback_tool: null,
  })),
  visible_tools: ['order_status_query', 'refund_create'],
  candidate_scores: [],
  rejected: [],
};

const statusCall: PreparedCall = {
  step_index: 0,
  tool: 'order_status_query',
  arguments: { order_id: '1234' },
  provenance: { order_id: 'user_text' },
  validation_log: [],
};
const refundCall: PreparedCall = {
  step_index: 1,
  tool: 'refund_create',
  arguments: { order_id: '1234', reason: 'late delivery' },
  provenance: { order_id: 'step_output', reason: 'user_text' },
  validation_log: [],
};

function result(over: Partial<StepResult> & Pick<StepResult, 'tool' | 'step_index'>): StepResult {
  return {
    ok: true,
    output: null,
    output_ref: null,
    output_kind: 'source',
    error_class: null,
    error_message: null,
    duration_ms: 40,
    attempts: 1,
    cache_hit: false,
    fetched_at: null,
    idempotency_key: null,
    ...over,
  };
}

const statusOk = result({
  tool: 'order_status_query',
  step_index: 0,
  output: { order_id: '1234', status: 'in_transit', refundable: true, paid_amount: 59.9, currency: 'EUR' },
});

function executed(
  call: PreparedCall,
  res: StepResult,
  extra: {
    history?: StepRecord[];
    progress?: Partial<Progress>;
    occurred_at?: string;
    plan?: Plan;
    task?: TaskSpec;
  } = {},
): TopicMessage<'stepExecuted'> {
  return {
    event_id: `ev_exec_${String(call.step_index)}`,
    task_id: 'task-1',
    tenant_id: 'acme',
    agent_id: 'refund_agent',
    stage: 'executor',
    event_type: 'step_executed',
    causation_id: 'ev_prep',
    revision_count: 1,
    degraded_flag: false,
    decision_reason: 'executed',
    input_source: 'pipeline',
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: extra.occurred_at ?? '2026-11-30T09:00:05.000Z',
    schema_version: 1,
    traceparent: null,
    payload: {
      task: extra.task ?? task,
      progress: { ...progress, ...extra.progress },
      history: extra.history ?? [],
      selection: {
        primary: 'fast',
        fallbacks: [],
        labels: ['tool_use'],
        token_estimate: 20,
        estimated_cost_usd: 0,
        rejected: [],
        degrade_level: 0,
      },
      plan: extra.plan ?? plan,
      call,
      result: res,
    },
  };
}

const decide = (input: TopicMessage<'stepExecuted'>, ceilings = {}) =>
  createResultEvaluatorDecide({ registry, ceilings })(input, {
    stage: 'result_evaluator',
    versions: { registry_version: null, profiles_version: null, policy_version: null },
  }) as Decision;

const okRecord: StepRecord = { call: statusCall, result: statusOk, status: 'success', issues: [] };

describe('checks (EV-1)', () => {
  const input = (res: StepResult, call: PreparedCall = statusCall, history: StepRecord[] = []) => ({
    tool: registry.tool(call.tool),
    call,
    result: res,
    history,
  });
  it('returns_schema: an output breaking the tool’s returns schema fails', () => {
    const f = HARD_CHECKS.returns_schema!(
      input(result({ tool: 'order_status_query', step_index: 0, output: { order_id: '1234' } })),
    );
    expect(f[0]).toMatchObject({ severity: 'fail', kind: 'tool' });
    expect(f[0]!.message).toContain("order_status_query's returns schema");
  });
  it('write_receipt: a write without an id or reference fails; with one it passes', () => {
    const noReceipt = result({ tool: 'refund_create', step_index: 1, output: { ok: true } });
    expect(HARD_CHECKS.write_receipt!(input(noReceipt, refundCall))).toHaveLength(1);
    const receipt = result({
      tool: 'refund_create',
      step_index: 1,
      output: { refund_id: 'R-1', status: 'created' },
    });
    expect(HARD_CHECKS.write_receipt!(input(receipt, refundCall))).toEqual([]);
  });
  it('call_failed: maps the error class to the route kind', () => {
    const f = HARD_CHECKS.call_failed!(
      input(
        result({
          tool: 'order_status_query',
          step_index: 0,
          ok: false,
          error_class: 'permission',
          output_kind: 'failure',
        }),
      ),
    );
    expect(f[0]).toMatchObject({ severity: 'fail', kind: 'permission' });
  });
  it('empty_body and zero_rows are partial results of kind empty', () => {
    expect(
      HEURISTICS.empty_body!(input(result({ tool: 'order_status_query', step_index: 0, output: {} })))[0],
    ).toMatchObject({ severity: 'partial', kind: 'empty' });
    expect(
      HEURISTICS.zero_rows!(
        input(result({ tool: 'order_status_query', step_index: 0, output: { minutes: [], count: 0 } })),
      )[0]!.message,
    ).toContain('minutes');
  });
  it('error_words and abnormal_latency are notes that do not change the status', () => {
    expect(
      HEURISTICS.error_words!(
        input(
          result({ tool: 'order_status_query', step_index: 0, output: { message: 'Service unavailable' } }),
        ),
      )[0],
    ).toMatchObject({ severity: 'note' });
    expect(
      HEURISTICS.abnormal_latency!(
        input(result({ tool: 'order_status_query', step_index: 0, output: {}, duration_ms: 2900 })),
      )[0]!.message,
    ).toContain('near the 3000 ms timeout');
  });
  it('wrong_entity: an output about another order fails', () => {
    const f = HEURISTICS.wrong_entity!(
      input(result({ tool: 'order_status_query', step_index: 0, output: { order_id: '9999' } })),
    );
    expect(f[0]!.message).toBe('the output is about order_id 9999, but 1234 was asked');
  });
  it('no_new_evidence: repeating an earlier output is partial', () => {
    expect(HEURISTICS.no_new_evidence!(input(statusOk, statusCall, [okRecord]))[0]).toMatchObject({
      severity: 'partial',
      kind: 'empty',
    });
  });
});

describe('unverified_inputs: derived evidence only over source figures (SP-3)', () => {
  let research: Registry;
  beforeAll(async () => {
    research = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/research', import.meta.url)),
    );
  });
  const computeCall = (provenance: PreparedCall['provenance']): PreparedCall => ({
    step_index: 2,
    tool: 'sandbox_compute',
    arguments: { expression: 'inputs.a / inputs.b', inputs: { a: 52300, b: 44100 } },
    provenance,
    validation_log: [],
  });
  const visitCall: PreparedCall = {
    step_index: 1,
    tool: 'page_visit',
    arguments: { url: 'https://docs.example.org/x', goal: 'throughput' },
    provenance: { url: 'step_output', goal: 'user_text' },
    validation_log: [],
  };
  const visit = (ok: boolean): StepRecord => ({
    call: visitCall,
    result: result({
      tool: 'page_visit',
      step_index: 1,
      ok,
      output: ok
        ? { url: 'https://docs.example.org/x', passages: [{ text: '52,300 tps', position: 0 }] }
        : null,
      error_class: ok ? null : 'permission',
    }),
    status: ok ? 'success' : 'failed',
    issues: [],
  });
  const check = (call: PreparedCall, history: StepRecord[]) =>
    HARD_CHECKS.unverified_inputs!({
      tool: research.tool('sandbox_compute'),
      call,
      result: result({
        tool: 'sandbox_compute',
        step_index: 2,
        output: { value: 1.19 },
        output_kind: 'derived',
      }),
      history,
    });

  it('passes when the inputs came from the output of a successful source step', () => {
    expect(check(computeCall({ expression: 'user_text', inputs: 'step_output' }), [visit(true)])).toEqual([]);
  });
  it('fails naming the parameter when the inputs came from the request or no source step succeeded', () => {
    expect(check(computeCall({ expression: 'user_text', inputs: 'user_text' }), [visit(true)])).toEqual([
      {
        check: 'unverified_inputs',
        severity: 'fail',
        kind: 'parameter',
        message: "sandbox_compute.inputs came from user_text, not from a source step's output",
      },
    ]);
    expect(
      check(computeCall({ expression: 'user_text', inputs: 'step_output' }), [visit(false)])[0]?.message,
    ).toBe('sandbox_compute.inputs has no source-level step before it to have been verified by');
  });
});

describe('routing (EV-3) with ceilings (FL-6)', () => {
  it('success with steps left → next step for the injector, history carried', () => {
    const d = decide(executed(statusCall, statusOk));
    expect(d.event_type).toBe('next_step_requested');
    expect(d.topic.name).toBe('signalbox.task.planned.v1');
    expect(d.payload).toMatchObject({
      step_index: 1,
      history: [{ status: 'success' }],
      progress: { steps_executed: 0 },
    });
    expect(d.decision_reason).toContain('next: step 1 (refund_create)');
  });
  it('success on the last step → task finished, success, with evidence', () => {
    const receipt = result({
      tool: 'refund_create',
      step_index: 1,
      output: { refund_id: 'R-1', order_id: '1234', status: 'pending', amount: 59.9 },
      output_kind: 'action_receipt',
    });
    const d = decide(executed(refundCall, receipt, { history: [okRecord] }));
    expect(d.event_type).toBe('task_finished');
    expect(d.payload).toMatchObject({
      status: 'success',
      evidence: [{ step_index: 0 }, { step_index: 1, kind: 'action_receipt' }],
    });
  });
  it('TD-5: the last step succeeding is success only when every asked act has a step that succeeded', () => {
    const receipt = result({
      tool: 'refund_create',
      step_index: 1,
      output: { refund_id: 'R-1', order_id: '1234', status: 'pending', amount: 59.9 },
      output_kind: 'action_receipt',
    });
    const act = (kind: 'act' | 'cancel', stepIndex: number | null) => ({
      kind,
      object: kind === 'act' ? 'a refund' : 'my old invoice',
      phrase: kind,
      step_index: stepIndex,
      unserved: stepIndex === null ? 'no visible tool cancels' : null,
    });
    const served = decide(
      executed(refundCall, receipt, { history: [okRecord], plan: { ...plan, asked_acts: [act('act', 1)] } }),
    );
    expect(served.payload).toMatchObject({ status: 'success' });
    const undone = decide(
      executed(refundCall, receipt, {
        history: [okRecord],
        plan: { ...plan, asked_acts: [act('act', 1), act('cancel', null)] },
      }),
    );
    expect(undone.payload).toMatchObject({ status: 'partial_success' });
    expect(undone.decision_reason).toContain(
      'asked act is undone: cancel "my old invoice" (no visible tool cancels)',
    );
    // An act whose step did not succeed is undone too, whatever the last step did.
    const failedFirst = decide(
      executed(refundCall, receipt, {
        history: [{ ...okRecord, status: 'partial_success' }],
        plan: { ...plan, asked_acts: [act('act', 0)] },
      }),
    );
    expect(failedFirst.payload).toMatchObject({ status: 'partial_success' });
  });
  it('TD-7: a look-up that found nothing (404) is the answer — a question naming the value, not a re-plan', () => {
    const notFound = result({
      tool: 'order_status_query',
      step_index: 0,
      ok: false,
      error_class: 'empty',
      error_message: 'order_not_found: no order 4321',
      output_kind: 'failure',
    });
    const d = decide(executed({ ...statusCall, arguments: { order_id: '4321' } }, notFound));
    expect(d.event_type).toBe('task_finished');
    expect(d.payload).toMatchObject({
      status: 'need_clarification',
      questions: [expect.stringMatching(/found nothing for order_id 4321 .*order_not_found/)],
    });
  });
  /** A status query whose order id the tool refused: a parameter problem. */
  const badOrderId = () =>
    result({
      tool: 'order_status_query',
      step_index: 0,
      ok: false,
      error_class: 'parameter',
      error_message: 'order_not_found: no order 1234',
      output_kind: 'failure',
    });
  it('a parameter problem → re-inject naming the field; at the ceiling → need_clarification asking for it', () => {
    const bad = badOrderId();
    const d = decide(executed(statusCall, bad));
    expect(d.event_type).toBe('reinject_requested');
    expect(d.payload).toMatchObject({
      feedback: { fields: ['order_id'], error_class: 'parameter' },
      progress: { reinjections: 1 },
    });
    const second = decide(executed(statusCall, bad, { progress: { reinjections: 1 } }));
    expect(second.payload).toMatchObject({ progress: { reinjections: 2 } });
    const atCeiling = decide(executed(statusCall, bad, { progress: { reinjections: 3 } }));
    expect(atCeiling.payload).toMatchObject({
      status: 'need_clarification',
      questions: [expect.stringContaining('order_id')],
    });
    expect(atCeiling.decision_reason).toContain('re-injection ceiling reached (3 of 3)');
  });
  it('a refusal that quotes a value names that argument, not a parameter its prose happens to mention', () => {
    const repairPlan: Plan = {
      ...plan,
      steps: [{ ...plan.steps[0]!, tool: 'repair_create', expected_evidence: 'action_receipt' }],
      visible_tools: ['repair_create'],
    };
    const repairCall: PreparedCall = {
      step_index: 0,
      tool: 'repair_create',
      arguments: {
        order_id: '20240917001',
        issue: 'the lid hinge snapped',
        pickup: true,
        preferred_date: '2026-12-13',
      },
      provenance: {
        order_id: 'user_text',
        issue: 'user_text',
        pickup: 'default',
        preferred_date: 'user_text',
      },
      validation_log: [],
    };
    const refused = (error_message: string) =>
      decide(
        executed(
          repairCall,
          result({
            tool: 'repair_create',
            step_index: 0,
            ok: false,
            error_class: 'parameter',
            error_message,
          }),
          { plan: repairPlan },
        ),
      );
    expect(
      refused('HTTP 422 no_slot: no pickup slot on 2026-12-13, the courier does not work that day').payload,
    ).toMatchObject({
      feedback: { fields: ['preferred_date'] },
    });
    // A field named as an identifier is named, whatever other values the message repeats.
    expect(refused('order 20240917001: preferred_date must be a working day').payload).toMatchObject({
      feedback: { fields: ['preferred_date'] },
    });
  });
  it('FL-6: re-plans, degradations and re-asks (revisions) do not use up the re-injection ceiling', () => {
    const bad = badOrderId();
    const d = decide(executed(statusCall, bad, { progress: { revisions: 5, replans: 2, degradations: 1 } }));
    expect(d.event_type).toBe('reinject_requested');
    expect(d.payload).toMatchObject({ progress: { reinjections: 1, revisions: 5 } });
  });
  it('an empty result → re-plan without excluding the tool; a forbidden one → re-plan without it', () => {
    const empty = decide(
      executed(statusCall, result({ tool: 'order_status_query', step_index: 0, output: {} })),
    );
    expect(empty.event_type).toBe('replan_requested');
    expect(empty.payload).toMatchObject({
      feedback: { excluded_tools: [] },
      history: [{ status: 'partial_success' }],
    });
    const forbidden = decide(
      executed(
        statusCall,
        result({
          tool: 'order_status_query',
          step_index: 0,
          ok: false,
          error_class: 'permission',
          output_kind: 'failure',
        }),
      ),
    );
    expect(forbidden.payload).toMatchObject({ feedback: { excluded_tools: ['order_status_query'] } });
  });
  it('a second failure on a task → degrade request to the model selector; at the ceiling → failed', () => {
    const failedRecord: StepRecord = {
      call: statusCall,
      result: result({
        tool: 'order_status_query',
        step_index: 0,
        ok: false,
        error_class: 'transient',
        output_kind: 'failure',
      }),
      status: 'failed',
      issues: ['x'],
    };
    const again = result({
      tool: 'order_status_query',
      step_index: 0,
      ok: false,
      error_class: 'transient',
      output_kind: 'failure',
    });
    const d = decide(executed(statusCall, again, { history: [failedRecord] }));
    expect(d.event_type).toBe('degrade_requested');
    expect(d.topic.name).toBe('signalbox.task.submitted.v1');
    const capped = decide(
      executed(statusCall, again, { history: [failedRecord], progress: { degradations: 2 } }),
    );
    expect(capped.payload).toMatchObject({ status: 'failed' });
  });
  it('the re-plan and wall-time ceilings end the task with the reason', () => {
    const empty = result({ tool: 'order_status_query', step_index: 0, output: {} });
    expect(decide(executed(statusCall, empty, { progress: { replans: 3 } })).decision_reason).toContain(
      're-plan ceiling reached (3)',
    );
    const late = decide(executed(statusCall, statusOk, { occurred_at: '2026-11-30T10:00:00.000Z' }));
    expect(late.event_type).toBe('task_finished');
    expect(late.decision_reason).toContain('wall-time ceiling reached');
  });
  it('keeps revision_count and degraded_flag: the stage that revises increments them', () => {
    const d = decide(executed(statusCall, statusOk));
    expect(d.revision_count).toBe(1);
    expect(d.degraded_flag).toBe(false);
  });
});

describe('the empty weekend (SP-2)', () => {
  const listCall = (args: Record<string, unknown>): PreparedCall => ({
    step_index: 0,
    tool: 'minutes_list',
    arguments: args as PreparedCall['arguments'],
    provenance: {},
    validation_log: [],
  });

  it('an empty answer about one Saturday or Sunday says so and names the Friday before it', () => {
    expect(emptyDayReason(listCall({ date_from: '2026-11-29', date_to: '2026-11-29' }))).toBe(
      'no minutes on Sunday 2026-11-29; the last working day before it is Friday 2026-11-27',
    );
    expect(emptyDayReason(listCall({ date_from: '2026-11-28' }))).toContain('Saturday 2026-11-28');
    // A working day, a range of days, or no date: nothing to explain.
    expect(emptyDayReason(listCall({ date_from: '2026-11-27' }))).toBeNull();
    expect(emptyDayReason(listCall({ date_from: '2026-11-28', date_to: '2026-11-29' }))).toBeNull();
    expect(emptyDayReason(listCall({ project: 'Atlas' }))).toBeNull();
  });

  it('the re-plan request carries that reason in its decision_reason and feedback', () => {
    const call = { ...statusCall, arguments: { order_id: '1234', since: '2026-11-29' } };
    const d = decide(executed(call, result({ tool: 'order_status_query', step_index: 0, output: {} })));
    expect(d.event_type).toBe('replan_requested');
    expect(d.decision_reason).toContain(
      'no order status on Sunday 2026-11-29; the last working day before it is Friday 2026-11-27 → re-plan',
    );
    expect((d.payload as { feedback: { reason: string } }).feedback.reason).toMatch(
      /^no order status on Sunday 2026-11-29; .* \(empty_body: the tool returned an empty body\)$/,
    );
  });
});

describe('model judge (EV-1 layer 3)', () => {
  // Slow (over 80 % of the 3 s timeout) but otherwise clean: the checks only note it — inconclusive.
  const slow = result({ ...statusOk, tool: 'order_status_query', step_index: 0, duration_ms: 2900 });
  const verdict = (v: string, reason: string) => ({ content: JSON.stringify({ verdict: v, reason }) });
  const judged = (provider: ModelProvider | undefined, res: StepResult = slow) =>
    createResultEvaluatorDecide({ registry })(executed(statusCall, res), {
      stage: 'result_evaluator',
      versions: { registry_version: null, profiles_version: null, policy_version: null },
      models: (id) => (id === 'fast' ? provider : undefined),
    });

  it('asked only when the checks are inconclusive, in its own context with the quality-control prompt', async () => {
    const judge = createScriptedProvider([
      {
        expect: (request) =>
          request.messages.length === 2 &&
          request.messages[0]?.role === 'system' &&
          request.messages[0].content === JUDGE_SYSTEM_PROMPT &&
          request.tools === undefined &&
          request.responseFormat?.name === 'step_verdict'
            ? true
            : 'not a judge request',
        respond: verdict('fail', 'the status is for another shipment than the order asked about'),
      },
    ]);
    const d = await judged(judge);
    judge.assertConsumed();
    const asked = judge.requests[0]?.messages[1]?.content ?? '';
    expect(asked).toContain('Request: my order 1234 is late and I want a refund');
    expect(asked).toContain('"status":"in_transit"');
    expect(asked).toContain('abnormal_latency: took 2900 ms');
    // A fail is a tool problem: the step failed and the task is re-planned without the tool.
    expect(d.event_type).toBe('replan_requested');
    expect(d.decision_reason).toContain(
      'model_judge: model judge (scripted): fail — the status is for another shipment than the order asked about',
    );
  });

  it('a pass keeps the step a success; a partial makes it partial; the verdict is in the reason', async () => {
    const pass = await judged(
      createScriptedProvider([{ respond: verdict('pass', 'the status answers the step') }]),
    );
    expect(pass.event_type).toBe('next_step_requested');
    expect(pass.decision_reason).toContain('model judge (scripted): pass — the status answers the step');
    const partial = await judged(
      createScriptedProvider([{ respond: verdict('partial', 'no delivery date') }]),
    );
    expect(partial.event_type).toBe('replan_requested');
    expect(partial.decision_reason).toContain('partial_success');
  });

  it('not asked when the checks are conclusive, nor when no model is configured for the task’s profile', async () => {
    const never = createScriptedProvider([]);
    // A clean success and a hard failure: both conclusive, the strict fake would throw if asked.
    expect((await judged(never, statusOk)).event_type).toBe('next_step_requested');
    const broken = result({ tool: 'order_status_query', step_index: 0, output: { order_id: '1234' } });
    expect((await judged(never, broken)).event_type).toBe('replan_requested');
    expect(never.requests).toHaveLength(0);
    expect((await judged(undefined)).event_type).toBe('next_step_requested');
  });

  it('an unreachable or off-format judge is recorded and the checks’ result stands', async () => {
    const down = await judged(
      createScriptedProvider([{ respond: { error: new Error('connect ECONNREFUSED') } }]),
    );
    expect(down.event_type).toBe('next_step_requested');
    expect(down.decision_reason).toContain('model judge unavailable (connect ECONNREFUSED)');
    const prose = await judged(createScriptedProvider([{ respond: { content: 'Looks fine to me.' } }]));
    expect(prose.event_type).toBe('next_step_requested');
    expect(prose.decision_reason).toContain('model judge unavailable');
  });
});

describe('TD-7: a list of zero items answers the look-up', () => {
  it('ends the task asking whether the values are right, instead of re-planning the same call', async () => {
    const office = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/office', import.meta.url)),
    );
    const listPlan: Plan = {
      ...plan,
      scene: 'weekly_report',
      steps: [
        {
          ...plan.steps[0]!,
          tool: 'minutes_list',
          purpose: 'minutes_list',
          tool_definition_hash: 'sha256:m',
        },
      ],
      visible_tools: ['minutes_list'],
    };
    const call: PreparedCall = {
      step_index: 0,
      tool: 'minutes_list',
      arguments: { date_from: '2026-11-26', date_to: '2026-11-26' },
      provenance: {},
      validation_log: [],
    };
    const d = createResultEvaluatorDecide({ registry: office })(
      executed(call, result({ tool: 'minutes_list', step_index: 0, output: { minutes: [] } }), {
        plan: listPlan,
      }),
      {
        stage: 'result_evaluator',
        versions: { registry_version: null, profiles_version: null, policy_version: null },
        models: () => undefined,
      },
    ) as Decision;
    expect(d.event_type).toBe('task_finished');
    expect(d.payload).toMatchObject({
      status: 'need_clarification',
      questions: [
        expect.stringMatching(/minutes_list found nothing for date_from 2026-11-26, date_to 2026-11-26/),
      ],
    });
  });

  it('to a question whether any exists, "none found" is the answer: the task succeeds with it', async () => {
    const office = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/office', import.meta.url)),
    );
    const step = (tool: string): Plan['steps'][number] => ({
      ...plan.steps[0]!,
      tool,
      purpose: tool,
      tool_definition_hash: 'sha256:m',
    });
    const call: PreparedCall = {
      step_index: 0,
      tool: 'minutes_list',
      arguments: { date_from: '2026-11-26', date_to: '2026-11-26' },
      provenance: {},
      validation_log: [],
    };
    const ctx = {
      stage: 'result_evaluator' as const,
      versions: { registry_version: null, profiles_version: null, policy_version: null },
      models: () => undefined,
    };
    const decide = createResultEvaluatorDecide({ registry: office });
    const empty = result({ tool: 'minutes_list', step_index: 0, output: { minutes: [] } });
    const asked = (request: string, tools: string[]) =>
      decide(
        executed(call, empty, {
          plan: { ...plan, scene: 'weekly_report', steps: tools.map(step), visible_tools: tools },
          task: testTask({ request }),
        }),
        ctx,
      ) as Decision;
    const answered = asked('Did we hold a standup on Thursday? If we did, what was decided?', [
      'minutes_list',
      'minutes_parse',
    ]);
    expect(answered.event_type).toBe('task_finished');
    expect(answered.payload).toMatchObject({
      status: 'success',
      questions: [],
      steps: [expect.objectContaining({ status: 'success' })],
    });
    // A write still to come is not done on the strength of "none"; the user is asked.
    expect(
      asked('周四有没有开会？把纪要发给陈杰', ['minutes_list', 'contact_lookup', 'email_send']).payload,
    ).toMatchObject({ status: 'need_clarification' });
  });
});

describe('a refused page (issue 20)', () => {
  it('the page at a URL the user gave answers with the refusal; one a search found is re-planned', async () => {
    const research = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/research', import.meta.url)),
    );
    const url = 'https://docs.example.org/internal/plans';
    const visit = (provenance: 'user_text' | 'step_output'): PreparedCall => ({
      step_index: 0,
      tool: 'page_visit',
      arguments: { url, goal: 'the plans' },
      provenance: { url: provenance, goal: 'user_text' },
      validation_log: [],
    });
    const refused = result({
      tool: 'page_visit',
      step_index: 0,
      ok: false,
      error_class: 'permission',
      error_message: 'HTTP 403 forbidden',
      output_kind: 'failure',
    });
    const visitPlan: Plan = {
      ...plan,
      scene: 'web_research_scene',
      steps: [{ ...plan.steps[0]!, tool: 'page_visit', purpose: 'read' }],
      visible_tools: ['page_visit', 'web_search'],
    };
    const decideResearch = (call: PreparedCall, request: string) =>
      createResultEvaluatorDecide({ registry: research })(
        executed(call, refused, { plan: visitPlan, task: testTask({ request }) }),
        {
          stage: 'result_evaluator',
          versions: { registry_version: null, profiles_version: null, policy_version: null },
        },
      ) as Decision;
    const named = decideResearch(visit('user_text'), `What does ${url} say about next year?`);
    expect(named.event_type).toBe('task_finished');
    expect(named.payload).toMatchObject({ status: 'need_clarification' });
    expect(JSON.stringify(named.payload)).toContain('another source');
    const found = decideResearch(visit('step_output'), 'What are the plans for next year?');
    expect(found.event_type).toBe('replan_requested');
  });
});
