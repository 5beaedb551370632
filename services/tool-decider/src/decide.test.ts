import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  TOPICS,
  type ModelSelection,
  type Plan,
  type StepRecord,
  type TopicMessage,
} from '@signalbox/contracts';
import { testMessage, testProgress, testTask } from '@signalbox/contracts/testing';
import { loadRegistryDir, toolHash, type Registry } from '@signalbox/registry';
import { createScriptedProvider } from '@signalbox/providers/testing';
import type { DecisionContext } from '@signalbox/stage-kit';
import { createToolDeciderDecide } from './decide.js';
import { createSemanticScorer, type SemanticScorer } from './semantic.js';
import { sharedOnnxEmbedder } from '@signalbox/embedder/testing';

type In = TopicMessage<'modelSelected'>;
const packs = fileURLToPath(new URL('../../../registry/packs/', import.meta.url));
const ctx: DecisionContext = {
  stage: 'tool_decider',
  versions: { registry_version: null, profiles_version: null, policy_version: null },
};
const NOW = '2026-11-30T10:00:00.000Z';
const selection: ModelSelection = {
  primary: 'light_model',
  fallbacks: [],
  labels: ['tool_use'],
  token_estimate: 100,
  estimated_cost_usd: 0,
  rejected: [],
  degrade_level: 0,
};

function selected(
  request: string,
  agent: string,
  extra: Partial<In> = {},
): Extract<In, { event_type: 'model_selected' }> {
  return {
    ...testMessage(
      'modelSelected',
      'model_selected',
      {
        task: testTask({ request, reference_time: NOW }),
        progress: testProgress({ started_at: NOW }),
        history: [],
        selection,
      },
      {
        event_id: `ev_${agent}_${request.length}`,
        task_id: 'task-1',
        tenant_id: 'default',
        agent_id: agent,
        stage: 'model_selector',
        causation_id: 'ev_submitted',
        decision_reason: 'chose light_model',
        input_source: 'pipeline',
        occurred_at: NOW,
        schema_version: 1,
      },
    ),
    ...extra,
  } as Extract<In, { event_type: 'model_selected' }>;
}

function record(
  index: number,
  tool: string,
  args: Record<string, unknown>,
  output: Record<string, unknown> | null,
  status: 'success' | 'partial_success' = 'success',
): StepRecord {
  return {
    call: {
      step_index: index,
      tool,
      arguments: args as StepRecord['call']['arguments'],
      provenance: {},
      validation_log: [],
    },
    result: {
      step_index: index,
      tool,
      ok: output !== null,
      output: output as StepRecord['result']['output'],
      output_ref: null,
      output_kind: output === null ? 'failure' : 'source',
      error_class: output === null ? 'empty' : null,
      error_message: null,
      duration_ms: 1,
      attempts: 1,
      cache_hit: false,
      fetched_at: null,
      idempotency_key: null,
    },
    status,
    issues: [],
  };
}

let afterSales: Registry;
let reach: Registry;
let office: Registry;
let research: Registry;
let semantic: SemanticScorer;
beforeAll(async () => {
  semantic = createSemanticScorer(await sharedOnnxEmbedder());
  afterSales = await loadRegistryDir(`${packs}after-sales`);
  reach = await loadRegistryDir(`${packs}reach`);
  office = await loadRegistryDir(`${packs}office`);
  research = await loadRegistryDir(`${packs}research`);
});

describe('tool decider decide (TD-1..TD-8)', () => {
  it('SP-1: a late delivery + refund request becomes an ordered chain honouring depends_on', async () => {
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const decision = await decide(
      selected('My order 20240917001 is late and I want a refund', 'logistics_agent'),
      ctx,
    );
    expect(decision.topic).toBe(TOPICS.taskPlanned);
    expect(decision.event_type).toBe('task_planned');
    const payload = decision.payload as { plan: Plan; step_index: number };
    const tools = payload.plan.steps.map((s) => s.tool);
    expect(tools[0]).toBe('order_status_query');
    expect(tools).toContain('refund_create');
    expect(tools.indexOf('refund_create')).toBeGreaterThan(tools.indexOf('order_status_query'));
    const refund = payload.plan.steps.find((s) => s.tool === 'refund_create');
    expect(refund?.input_from).toContainEqual({
      parameter: 'order_id',
      source: 'step_output',
      step_index: 0,
      path: 'order_id',
    });
    expect(refund?.tool_definition_hash).toBe(toolHash(afterSales.tool('refund_create')!));
    expect(payload.plan.scene).toBe('delivery_refund_scene');
    expect(payload.plan.visible_tools).toEqual(
      expect.arrayContaining([
        'order_status_query',
        'logistics_track_query',
        'refund_create',
        'refund_status_query',
      ]),
    );
    expect(payload.plan.candidate_scores.length).toBe(payload.plan.visible_tools.length);
    expect(payload.step_index).toBe(0);
    expect(decision.decision_reason).toMatch(
      /scene delivery_refund_scene.*chain order_status_query → .*refund_create/,
    );
  });

  it('a question never gets a write tool: "has my refund been paid?" looks the refund up', async () => {
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const decision = await decide(
      selected('Has my refund for order 20240917001 been paid yet?', 'refund_agent'),
      ctx,
    );
    const plan = (decision.payload as { plan: Plan }).plan;
    expect(plan.steps.map((s) => s.tool)).toEqual(['refund_status_query']);
    expect(plan.rejected).toContainEqual(
      expect.objectContaining({
        candidate: 'refund_create',
        reason: expect.stringMatching(/intent_side_effect/),
      }),
    );
  });

  it('TD-6: when no visible tool fits, a zero-step plan finishes the task as need_clarification, never forcing a tool', async () => {
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const decision = await decide(selected('What is the capital of France?', 'refund_agent'), ctx);
    expect(decision.topic).toBe(TOPICS.taskFinished);
    const payload = decision.payload as {
      status: string;
      questions: string[];
      issues: string[];
      steps: unknown[];
    };
    expect(payload.status).toBe('need_clarification');
    expect(payload.questions[0]).toMatch(/None of the available tools .* fits this request/);
    expect(payload.issues[0]).toBe('no_tool_fits');
    expect(decision.decision_reason).toMatch(/zero-step plan \(TD-6\)/);
  });

  it('with an LLM configured, proposals are resolved to visible tools (TD-3) and hallucinations rejected', async () => {
    const provider = createScriptedProvider([
      {
        expect: { lastUserMessage: 'weather in Beijing', toolNames: ['get_weather'] },
        respond: {
          toolCalls: [
            { name: 'get_weather_data', arguments: { city: 'Beijing' } },
            { name: 'launch_rockets', arguments: {} },
          ],
        },
      },
    ]);
    const decide = createToolDeciderDecide({ registry: reach, semantic });
    const decision = await decide(selected('What is the weather in Beijing today?', 'reach_agent'), {
      ...ctx,
      models: (id) => (id === 'light_model' ? provider : undefined),
    });
    provider.assertConsumed();
    expect(decision.topic).toBe(TOPICS.taskPlanned);
    const plan = (decision.payload as { plan: Plan }).plan;
    expect(plan.steps.map((s) => s.tool)).toEqual(['get_weather']);
    expect(plan.rejected).toContainEqual(
      expect.objectContaining({
        candidate: 'get_weather_data',
        reason: expect.stringMatching(/resolved to get_weather \(similar/),
      }),
    );
    expect(plan.rejected).toContainEqual(
      expect.objectContaining({
        candidate: 'launch_rockets',
        reason: expect.stringMatching(/not resolved \(TD-3\)/),
      }),
    );
    expect(decision.decision_reason).toMatch(/route hits 0\/2/);
  });

  it('rules have the last word over the model: a proposed write for a question is refused, the model is told why', async () => {
    const provider = createScriptedProvider([
      {
        respond: {
          toolCalls: [{ name: 'refund_create', arguments: { order_id: '20240917001', reason: 'other' } }],
        },
      },
      {
        expect: (r) =>
          JSON.stringify(r.messages).includes('intent_side_effect') || 'violations were not fed back',
        respond: { toolCalls: [{ name: 'refund_status_query', arguments: { order_id: '20240917001' } }] },
      },
    ]);
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const decision = await decide(
      selected('Has my refund for order 20240917001 been paid yet?', 'refund_agent'),
      {
        ...ctx,
        models: () => provider,
      },
    );
    provider.assertConsumed();
    expect((decision.payload as { plan: Plan }).plan.steps.map((s) => s.tool)).toEqual([
      'refund_status_query',
    ]);
    expect(decision.decision_reason).toMatch(/re-proposed after violations/);
  });

  it('TD-7: a re-plan excludes the failed tool, takes the declared alternative, and counts the revision', async () => {
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const first = await decide(
      selected('My order 20240917001 is late and I want a refund', 'logistics_agent'),
      ctx,
    );
    const planned = first.payload as { plan: Plan };
    const base = selected('My order 20240917001 is late and I want a refund', 'logistics_agent');
    const replan = {
      ...base,
      event_type: 'replan_requested' as const,
      stage: 'result_evaluator' as const,
      revision_count: 1,
      payload: {
        ...base.payload,
        plan: planned.plan,
        feedback: {
          reason: 'refund_create: order_not_refundable',
          issues: [],
          failed_tool: 'refund_create',
          error_class: 'capability_mismatch' as const,
          // The evaluator excludes a tool that cannot do the job (only an empty result leaves it in).
          excluded_tools: ['refund_create'],
          fields: [],
        },
      },
    };
    const decision = await decide(replan, ctx);
    expect(decision.revision_count).toBe(2);
    const payload = decision.payload as { plan: Plan; progress: { replans: number } };
    expect(payload.progress.replans).toBe(1);
    const tools = payload.plan.steps.map((s) => s.tool);
    expect(tools).not.toContain('refund_create');
    expect(payload.plan.rejected).toContainEqual({
      candidate: 'refund_create',
      reason: 'excluded by feedback (TD-7)',
    });
    expect(decision.decision_reason).toMatch(/re-plan 1 of 3.*excluded \[refund_create\]/);

    const ceiling = await decide(
      { ...replan, payload: { ...replan.payload, progress: { ...replan.payload.progress, replans: 3 } } },
      ctx,
    );
    expect(ceiling.topic).toBe(TOPICS.taskFinished);
    expect((ceiling.payload as { status: string }).status).toBe('failed');
    expect(ceiling.decision_reason).toMatch(/re-plan ceiling reached/);
  });

  it('TD-7: when nothing else can do the failed part, the task ends with what it has and states the gap', async () => {
    const request = 'What does the internal product roadmap 2027 page say about PostgreSQL?';
    const decide = createToolDeciderDecide({ registry: research, semantic });
    const base = selected(request, 'research_agent');
    const planned = ((await decide(base, ctx)).payload as { plan: Plan }).plan;
    expect(planned.steps.map((s) => s.tool)).toEqual(['web_search', 'page_visit']);
    const search = record(0, 'web_search', { query: request }, { results: [{ url: 'https://x.example/r' }] });
    const forbidden = {
      reason: 'call_failed: the call failed (permission): page_visit: HTTP 403 forbidden',
      issues: ['call_failed: the call failed (permission)'],
      failed_tool: 'page_visit',
      error_class: 'permission' as const,
      excluded_tools: ['page_visit'],
      fields: [],
    };
    const replan = (history: StepRecord[], excluded = ['page_visit']) =>
      decide(
        {
          ...base,
          event_type: 'replan_requested',
          stage: 'result_evaluator',
          payload: {
            ...base.payload,
            history,
            plan: planned,
            feedback: { ...forbidden, excluded_tools: excluded },
          },
        },
        ctx,
      );
    const decision = await replan([search]);
    expect(decision.topic).toBe(TOPICS.taskFinished);
    const payload = decision.payload as {
      status: string;
      questions: string[];
      issues: string[];
      evidence: { step_index: number }[];
    };
    // The search's leads are what the task has: partial, not a request to rephrase.
    expect(payload.status).toBe('partial_success');
    expect(payload.questions).toEqual([]);
    expect(payload.evidence).toEqual([{ step_index: 0, kind: 'source' }]);
    expect(payload.issues[0]).toBe(
      'gap: page_visit could not do its part (call_failed: the call failed (permission): page_visit: HTTP 403 forbidden) ' +
        'and no other visible tool can (considered: web_search, sandbox_compute, scholar_search)',
    );
    expect(decision.decision_reason).toMatch(/^re-plan found no other way \(TD-7\); gap: page_visit/);
    // Without any evidence (the search failed too and is excluded as well) the same gap ends the task failed.
    const nothing = await replan([], ['page_visit', 'web_search']);
    expect((nothing.payload as { status: string }).status).toBe('failed');
  });

  it('TD-7: a write refused after the look-up that only fed it fails the task: nothing asked was done', async () => {
    const request = 'my kettle stopped heating (order 20240917001), please book a repair';
    const decide = createToolDeciderDecide({ registry: afterSales, semantic });
    const base = selected(request, 'repair_agent');
    const planned = ((await decide(base, ctx)).payload as { plan: Plan }).plan;
    expect(planned.steps.map((s) => s.tool)).toEqual(['order_status_query', 'repair_create']);
    expect(planned.asked_acts).toEqual([expect.objectContaining({ kind: 'create', step_index: 1 })]);
    const status = record(0, 'order_status_query', { order_id: '20240917001' }, { order_id: '20240917001' });
    const decision = await decide(
      {
        ...base,
        event_type: 'replan_requested',
        stage: 'result_evaluator',
        payload: {
          ...base.payload,
          history: [status],
          plan: planned,
          feedback: {
            reason: 'call_failed: repair_create: HTTP 422 warranty_expired',
            issues: [],
            failed_tool: 'repair_create',
            error_class: 'capability_mismatch',
            excluded_tools: ['repair_create'],
            fields: [],
          },
        },
      },
      ctx,
    );
    expect(decision.topic).toBe(TOPICS.taskFinished);
    expect((decision.payload as { status: string }).status).toBe('failed');
  });

  it('TD-7: an empty result re-plans from the empty step, keeps the tool, and keeps only successful steps as done', async () => {
    const request =
      "Turn the minutes of yesterday's meeting into the weekly report and send it to the Atlas project group.";
    const decide = createToolDeciderDecide({ registry: office, semantic });
    const first = await decide(selected(request, 'office_agent'), ctx);
    const planned = (first.payload as { plan: Plan }).plan;
    expect(planned.steps.map((s) => s.tool)).toEqual([
      'minutes_list',
      'report_generate',
      'contact_lookup',
      'email_send',
    ]);
    const base = selected(request, 'office_agent');
    const empty = record(0, 'minutes_list', { date_from: '2026-11-29' }, { minutes: [] }, 'partial_success');
    const reason =
      'no minutes on Sunday 2026-11-29; the last working day before it is Friday 2026-11-27 (zero_rows: zero rows)';
    const decision = await decide(
      {
        ...base,
        event_type: 'replan_requested',
        stage: 'result_evaluator',
        payload: {
          ...base.payload,
          history: [empty],
          plan: planned,
          feedback: {
            reason,
            issues: ['zero_rows: zero rows (minutes is empty)'],
            failed_tool: 'minutes_list',
            error_class: null,
            excluded_tools: [],
            fields: [],
          },
        },
      },
      ctx,
    );
    expect(decision.topic).toBe(TOPICS.taskPlanned);
    expect(decision.revision_count).toBe(1);
    const payload = decision.payload as { plan: Plan; step_index: number };
    // The partial step is not "done": the chain runs again from minutes_list, which stays allowed.
    expect(payload.step_index).toBe(0);
    expect(payload.plan.steps.map((s) => s.tool)).toEqual(planned.steps.map((s) => s.tool));
    expect(payload.plan.rejected.map((r) => r.reason)).not.toContain('excluded by feedback (TD-7)');
    expect(decision.decision_reason).toContain(reason);
    expect(decision.decision_reason).toContain('excluded []');
    expect(decision.decision_reason).toContain('kept 0 done step(s)');

    // Once minutes_list succeeded and contact_lookup came back empty, the first two steps are done.
    const found = record(0, 'minutes_list', { date_from: '2026-11-27' }, { minutes: [{ minutes_id: 'm1' }] });
    const report = record(
      1,
      'report_generate',
      { minutes_ids: ['m1'] },
      { title: 't', body: 'b', item_count: 2 },
    );
    const noContact = record(2, 'contact_lookup', { query: 'Atlas' }, null, 'partial_success');
    const later = await decide(
      {
        ...base,
        event_type: 'replan_requested',
        stage: 'result_evaluator',
        payload: {
          ...base.payload,
          history: [empty, found, report, noContact],
          plan: planned,
          feedback: {
            reason: 'call_failed: no_match',
            issues: [],
            failed_tool: 'contact_lookup',
            error_class: 'empty',
            excluded_tools: [],
            fields: [],
          },
        },
      },
      ctx,
    );
    expect((later.payload as { step_index: number }).step_index).toBe(2);
    expect(later.decision_reason).toContain('kept 2 done step(s)');
  });
});

describe('requests nobody writes on purpose', () => {
  // Whitespace only (the contract refuses an empty string at the API), 50 KB of text, emoji only, and two scripts
  // neither model covers: each gets a decision the output topic accepts — a plan or a question — never a throw.
  const odd: [string, string][] = [
    ['whitespace only', ' \n\t '],
    ['50 KB long', 'Tell me about the weather and the news and everything else. '.repeat(850)],
    ['emoji only', '🌧️🌧️❓🙏'],
    ['Amharic', 'ነገ በአዲስ አበባ የአየር ሁኔታ ምን ይመስላል?'],
    ['Georgian', 'რა ამინდი იქნება ხვალ თბილისში?'],
  ];
  it.each(odd)('%s → a decision the topic schema accepts', async (_label, request) => {
    const decide = createToolDeciderDecide({ registry: reach, semantic });
    const decision = await decide(selected(request, 'reach_agent'), ctx);
    const parsed = decision.topic.schema.safeParse({
      ...selected(request, 'reach_agent'),
      event_type: decision.event_type,
      payload: decision.payload,
    });
    expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 2))).toBe(true);
    if (request.length < 1000 && !/\p{Script=Ethiopic}|\p{Script=Georgian}/u.test(request)) {
      // No words to go on: the task ends with a question, no tool is forced.
      expect(decision.event_type).toBe('task_finished');
      expect((decision.payload as { status: string }).status).toBe('need_clarification');
    }
    expect(decision.decision_reason.length).toBeLessThanOrEqual(4000);
  });
});
