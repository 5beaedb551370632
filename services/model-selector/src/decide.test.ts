import { describe, expect, it } from 'vitest';
import type { TaskSpec, TopicMessage } from '@signalbox/contracts';
import { testMessage, testTask } from '@signalbox/contracts/testing';
import { RegistryContent, createRegistry, type Registry } from '@signalbox/registry';
import type { Decision } from '@signalbox/stage-kit';
import { HARD_FILTERS } from './hard-filters.js';
import { analyseTask } from './task-analysis.js';
import { ModelSelectorConfigError, createModelSelectorDecide, modelSelectorDefinition } from './decide.js';

const profile = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  provider: { kind: 'deterministic' },
  capabilities: ['text_generation', 'function_calling', 'json_output'],
  max_context: 128_000,
  cost_per_1k_tokens: { input: 0.005, output: 0.015 },
  latency_class: 'medium',
  ...extra,
});

function registry(over: Partial<Record<'profiles' | 'policies', unknown[]>> = {}): Registry {
  return createRegistry(
    RegistryContent.parse({
      tools: [],
      agents: [],
      scenes: [],
      tenants: [],
      settings: {},
      profiles: over.profiles ?? [
        profile('strong', { cost_per_1k_tokens: { input: 0.01, output: 0.03 }, regions: ['eu', 'us'] }),
        profile('vision', {
          capabilities: ['text_generation', 'function_calling', 'vision'],
          modalities: ['text', 'image'],
        }),
        profile('fast', { cost_per_1k_tokens: { input: 0.0005, output: 0.0015 }, max_context: 16_000 }),
        profile('chat-only', {
          capabilities: ['text_generation'],
          cost_per_1k_tokens: { input: 0.0001, output: 0.0002 },
        }),
      ],
      policies: over.policies ?? [
        {
          id: 'default-policy',
          rules: [
            { labels: ['vision'], prefer: ['vision'], reason: 'images need a vision model' },
            { labels: ['multi_step_reasoning'], prefer: ['strong'], reason: 'plans need the strong model' },
          ],
          default: ['fast', 'strong'],
          degrade_order: ['strong', 'vision', 'fast', 'chat-only'],
          cost_guardrail: { max_task_cost: 1 },
        },
      ],
    }),
  );
}

const task = (request: string, extra: Partial<TaskSpec> = {}): TaskSpec => testTask({ request, ...extra });

function submitted(t: TaskSpec, tenant = 'acme'): TopicMessage<'taskSubmitted'> {
  return testMessage(
    'taskSubmitted',
    'task_submitted',
    { task: t },
    {
      event_id: 'ev_in_1',
      task_id: 'task-1',
      tenant_id: tenant,
      occurred_at: '2026-11-30T09:00:00.000Z',
      schema_version: 1,
    },
  );
}

const run = (decide: ReturnType<typeof createModelSelectorDecide>, input: TopicMessage<'taskSubmitted'>) =>
  decide(input, {
    stage: 'model_selector',
    versions: { registry_version: null, profiles_version: null, policy_version: null },
  }) as Decision;

type Selected = {
  selection: {
    primary: string;
    fallbacks: string[];
    rejected: { candidate: string; reason: string }[];
    degrade_level: number;
  };
  progress: { degradations: number };
};

describe('task analysis (MS-2)', () => {
  it('labels tool use, multi-step reasoning and calculation from the request, and estimates tokens', () => {
    const a = analyseTask(
      task('My order 1234 is late, track it and then refund me; how much will I get back?'),
    );
    expect(a.labels).toEqual(expect.arrayContaining(['tool_use', 'multi_step_reasoning', 'calculation']));
    expect(a.token_estimate).toBeGreaterThan(10);
    expect(a.tool_complexity).not.toBe('none');
  });
  it('marks images as vision and huge inputs as long documents; small talk is conversation', () => {
    expect(analyseTask(task('describe this', { required_modalities: ['text', 'image'] })).labels).toContain(
      'vision',
    );
    expect(analyseTask(task('x'.repeat(80_000))).labels).toContain('long_document');
    expect(analyseTask(task('hello there')).labels).toEqual(['conversation']);
  });
});

describe('hard filters (MS-3), each recorded with its reason', () => {
  const reg = registry();
  const decide = createModelSelectorDecide({
    registry: reg,
    tenants: {
      acme: { region: 'eu', allowed_profiles: ['strong', 'vision', 'fast'] },
      strict: { no_retention: true },
    },
  });
  const rejectedOf = (d: Decision) => (d.payload as Selected).selection.rejected;

  it('context window: a profile too small for the task is rejected', () => {
    const d = run(decide, submitted(task(`summarise this: ${'lorem ipsum '.repeat(6000)}`)));
    expect(rejectedOf(d)).toContainEqual({
      candidate: 'fast',
      reason: expect.stringMatching(/^context_window: context window 16000/),
    });
  });
  it('modalities: a text-only profile is rejected for an image task', () => {
    const d = run(
      decide,
      submitted(task('what is in this photo?', { required_modalities: ['text', 'image'] })),
    );
    expect((d.payload as Selected).selection.primary).toBe('vision');
    expect(rejectedOf(d)).toContainEqual({
      candidate: 'strong',
      reason: expect.stringContaining('modalities: no image input'),
    });
  });
  it('tool calling: a profile without function calling is rejected for a tool task', () => {
    const d = run(decide, submitted(task('track my order 1234')));
    expect(rejectedOf(d)).toContainEqual({
      candidate: 'chat-only',
      reason: expect.stringContaining('tool_calling'),
    });
  });
  it("data policy: a profile outside the tenant's region, or retaining data for a no-retention tenant, is rejected", () => {
    const regional = createModelSelectorDecide({
      registry: registry({
        profiles: [
          profile('us-only', { regions: ['us'] }),
          profile('eu', { regions: ['eu'], retains_data: true }),
        ],
        policies: [{ id: 'p', default: ['us-only', 'eu'], degrade_order: ['us-only', 'eu'] }],
      }),
      tenants: { acme: { region: 'eu' }, strict: { no_retention: true } },
    });
    expect(rejectedOf(run(regional, submitted(task('track order 1')))).map((r) => r.reason)).toEqual([
      expect.stringContaining("data_policy: processes data in us, not in the tenant's region eu"),
    ]);
    expect(rejectedOf(run(regional, submitted(task('track order 1'), 'strict')))).toContainEqual({
      candidate: 'eu',
      reason: expect.stringContaining('retains prompts'),
    });
  });
  it("tenant allow-list: a profile not on the tenant's list is rejected", () => {
    const d = run(decide, submitted(task('hello')));
    expect(rejectedOf(d)).toContainEqual({
      candidate: 'chat-only',
      reason: expect.stringContaining('tenant_allow_list'),
    });
  });
  it('no survivor ends the task as failed with every rejection as an issue', () => {
    const d = run(
      decide,
      submitted(
        task(`what is in this photo? ${'long '.repeat(200_000)}`, { required_modalities: ['image'] }),
      ),
    );
    expect(d.event_type).toBe('task_finished');
    expect(d.payload).toMatchObject({ status: 'failed' });
    expect((d.payload as { issues: string[] }).issues.length).toBeGreaterThanOrEqual(3);
  });
  it('each filter is a pure function that passes a fitting profile', () => {
    const p = reg.profile('strong')!;
    const a = analyseTask(task('track my order'));
    for (const [name, filter] of Object.entries(HARD_FILTERS)) expect(filter(p, a, {}), name).toBeNull();
  });
});

describe('policy choice and cost guardrail (MS-4, MS-5)', () => {
  it('follows the first matching rule and lists the other survivors as fallbacks, without degrading', () => {
    const decide = createModelSelectorDecide({ registry: registry() });
    const d = run(decide, submitted(task('compare the two offers and then book the cheaper one')));
    const sel = (d.payload as Selected).selection;
    expect(sel.primary).toBe('strong');
    expect(sel.fallbacks).toEqual(expect.arrayContaining(['fast', 'vision']));
    expect(d.degraded_flag).toBe(false);
    expect(d.decision_reason).toContain('plans need the strong model');
  });
  it('downgrades above the ceiling to a cheaper profile, sets degraded_flag and records the delta', () => {
    const decide = createModelSelectorDecide({ registry: registry() });
    const d = run(
      decide,
      submitted(task('compare the offers and then book one', { cost_ceiling_usd: 0.0001 })),
    );
    expect((d.payload as Selected).selection.primary).not.toBe('strong');
    expect(d.degraded_flag).toBe(true);
    expect(d.decision_reason).toMatch(
      /cost guardrail: .* > ceiling 0.0001; downgraded to \S+ \(est\. [\d.e-]+, delta -/,
    );
  });
  it('leaves normal tasks alone under the policy ceiling', () => {
    const decide = createModelSelectorDecide({ registry: registry() });
    const d = run(decide, submitted(task('compare the offers and then book one')));
    expect(d.degraded_flag).toBe(false);
    expect(d.decision_reason).not.toContain('cost guardrail');
  });
  it('refuses a policy naming an unknown profile at construction', () => {
    expect(() =>
      createModelSelectorDecide({
        registry: registry({ policies: [{ id: 'p', default: ['ghost'], degrade_order: ['ghost'] }] }),
      }),
    ).toThrow(ModelSelectorConfigError);
  });
});

describe('degrade on request (MS-6, FL-6)', () => {
  const decide = createModelSelectorDecide({ registry: registry(), ceilings: { maxDegradations: 1 } });
  const first = run(decide, submitted(task('compare the offers and then book one')));
  const selected = first.payload as Selected & Record<string, unknown>;
  const degradeInput = (degradations: number): TopicMessage<'taskSubmitted'> => ({
    ...submitted(task('compare the offers and then book one')),
    event_id: `ev_degrade_${String(degradations)}`,
    event_type: 'degrade_requested',
    stage: 'result_evaluator',
    revision_count: 2,
    payload: {
      task: task('compare the offers and then book one'),
      progress: { ...(selected.progress as object), degradations } as never,
      history: [],
      selection: selected.selection as never,
      plan: null,
      feedback: {
        reason: 'the tool failed twice',
        issues: [],
        failed_tool: 'refund_create',
        error_class: 'transient',
        excluded_tools: [],
        fields: [],
      },
    },
  });

  it('chooses the next simpler profile, sets degraded_flag and counts the revision', () => {
    const d = run(decide, degradeInput(0));
    expect(d.event_type).toBe('model_selected');
    const sel = (d.payload as Selected).selection;
    expect(sel.primary).toBe('vision');
    expect(sel.degrade_level).toBe(1);
    expect((d.payload as Selected).progress.degradations).toBe(1);
    expect(d.degraded_flag).toBe(true);
    expect(d.revision_count).toBe(3);
    expect(d.decision_reason).toContain('degraded from strong to vision after: the tool failed twice');
  });
  it('fails the task at the degradation ceiling', () => {
    const d = run(decide, degradeInput(1));
    expect(d.event_type).toBe('task_finished');
    expect(d.decision_reason).toContain('degradation ceiling reached (1 of 1)');
  });
});

describe('stage definition', () => {
  it('records the registry, profiles and policy versions on every decision', () => {
    const reg = registry();
    const def = modelSelectorDefinition({ registry: reg });
    expect(def.stage).toBe('model_selector');
    expect(def.versions()).toEqual({
      registry_version: reg.versions.registry_version,
      profiles_version: reg.versions.profiles_version,
      policy_version: reg.versions.policy_version,
    });
    expect(def.versions().policy_version).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
