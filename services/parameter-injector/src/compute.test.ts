// SP-3: the sandbox's arguments are built from the figures the visit quoted, never from the request's own numbers.
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlanStep, StepRecord, TaskSpec, TopicMessage } from '@signalbox/contracts';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { createParameterInjectorDecide } from './decide.js';

let research: Registry;
beforeAll(async () => {
  research = await loadRegistryDir(
    fileURLToPath(new URL('../../../registry/packs/research', import.meta.url)),
  );
});

const PASSAGES = [
  'PostgreSQL 16 averaged 44,100 transactions per second with a mean latency of 1.45 ms.',
  'PostgreSQL 17 averaged 52,300 transactions per second with a mean latency of 1.22 ms.',
];

function task(request: string): TaskSpec {
  return {
    request,
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
  };
}

function step(index: number, tool: string, inputFrom: PlanStep['input_from']): PlanStep {
  return {
    index,
    tool,
    tool_definition_hash: research.versions.tool_hashes[tool] ?? 'x',
    purpose: tool,
    input_from: inputFrom,
    expected_evidence: research.tool(tool)?.evidence ?? 'source',
    fallback_tool: null,
  };
}

const visit: StepRecord = {
  call: {
    step_index: 1,
    tool: 'page_visit',
    arguments: { url: 'https://docs.example.org/benchmarks/postgresql-17-vs-16', goal: 'throughput' },
    provenance: { url: 'step_output', goal: 'user_text' },
    validation_log: [],
  },
  result: {
    step_index: 1,
    tool: 'page_visit',
    ok: true,
    output: {
      url: 'https://docs.example.org/benchmarks/postgresql-17-vs-16',
      title: 'Benchmark',
      passages: PASSAGES.map((text, position) => ({ text, position })),
    },
    output_ref: null,
    output_kind: 'source',
    error_class: null,
    error_message: null,
    duration_ms: 5,
    attempts: 1,
    cache_hit: false,
    fetched_at: null,
    idempotency_key: null,
  },
  status: 'success',
  issues: [],
};

function computeStep(request: string): TopicMessage<'taskPlanned'> {
  const steps = [
    step(0, 'web_search', [{ parameter: 'query', source: 'user_text', step_index: null, path: null }]),
    step(1, 'page_visit', [
      { parameter: 'url', source: 'step_output', step_index: 0, path: 'results[0].url' },
    ]),
    step(2, 'sandbox_compute', [
      { parameter: 'inputs', source: 'step_output', step_index: 1, path: 'passages[].text' },
      { parameter: 'expression', source: 'user_text', step_index: null, path: null },
    ]),
  ];
  return {
    event_id: 'ev_in_2',
    task_id: 'task-compute',
    tenant_id: 'default',
    agent_id: 'research_agent',
    stage: 'result_evaluator',
    event_type: 'next_step_requested',
    causation_id: 'ev_1',
    revision_count: 0,
    degraded_flag: false,
    decision_reason: 'next',
    input_source: 'pipeline',
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: '2026-11-30T09:00:01.000Z',
    schema_version: 1,
    traceparent: null,
    payload: {
      task: task(request),
      progress: {
        revisions: 0,
        replans: 0,
        degradations: 0,
        steps_executed: 2,
        cost_usd: 0,
        started_at: '2026-11-30T09:00:00.000Z',
      },
      history: [visit],
      selection: {
        primary: 'fast',
        fallbacks: [],
        labels: [],
        token_estimate: 10,
        estimated_cost_usd: 0,
        rejected: [],
        degrade_level: 0,
      },
      plan: {
        scene: null,
        steps,
        visible_tools: steps.map((s) => s.tool),
        candidate_scores: [],
        rejected: [],
      },
      step_index: 2,
    },
  };
}

const ctx = {
  stage: 'parameter_injector' as const,
  versions: { registry_version: null, profiles_version: null, policy_version: null },
};
type Prepared = { call: { arguments: Record<string, unknown>; provenance: Record<string, string> } };

describe('sandbox_compute arguments over a visit’s figures (SP-3)', () => {
  it('reads the quoted figures into named inputs and writes the asked calculation over them', async () => {
    const decide = createParameterInjectorDecide({ registry: research });
    const d = await decide(
      computeStep('How much faster is PostgreSQL 17 than 16 on pgbench, in percent?'),
      ctx,
    );
    expect(d.event_type).toBe('step_prepared');
    const call = (d.payload as Prepared).call;
    expect(call.arguments).toEqual({
      inputs: {
        postgresql_16_transactions_per_second: 44100,
        postgresql_16_ms: 1.45,
        postgresql_17_transactions_per_second: 52300,
        postgresql_17_ms: 1.22,
      },
      expression:
        'Math.round(((inputs.postgresql_17_transactions_per_second - inputs.postgresql_16_transactions_per_second) / inputs.postgresql_16_transactions_per_second) * 10000) / 100',
    });
    expect(call.provenance).toEqual({ inputs: 'step_output', expression: 'user_text' });
    expect(d.decision_reason).toContain(
      'percent change of PostgreSQL 17 52,300 transactions per second vs PostgreSQL 16 44,100 transactions per second',
    );
  });

  it('never takes the request itself as the program: no calculation named → need_clarification for expression', async () => {
    const decide = createParameterInjectorDecide({ registry: research });
    const d = await decide(computeStep('Tell me about PostgreSQL 17 and 16.'), ctx);
    expect(d.event_type).toBe('task_finished');
    const payload = d.payload as { status: string; questions: string[] };
    expect(payload.status).toBe('need_clarification');
    expect(payload.questions.join(' ')).toContain('expression');
  });
});
