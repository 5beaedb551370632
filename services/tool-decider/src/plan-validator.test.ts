// One test per TD-5 rule: a plan that breaks it is refused with that rule's reason; the same plan without the
// breach passes that rule.
import { describe, expect, it } from 'vitest';
import { cosine } from '@signalbox/embedder';
import { sharedOnnxEmbedder } from '@signalbox/embedder/testing';
import { ToolDefinition, type ToolDefinitionInput } from '@signalbox/registry';
import {
  PLAN_RULES,
  REFERS_TO_LINK,
  normaliseUrl,
  validatePlan,
  type DraftStep,
  type PlanRuleId,
  type ValidationContext,
} from './plan-validator.js';

function tool(input: Partial<ToolDefinitionInput> & { name: string }): ToolDefinition {
  return ToolDefinition.parse({
    description: { purpose: `${input.name} purpose`, returns: 'something', not_for: 'other things' },
    action: 'read',
    permission: 'read_only',
    ...input,
  });
}

const TOOLS = [
  tool({
    name: 'order_status_query',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  }),
  tool({
    name: 'refund_create',
    action: 'write',
    permission: 'write',
    depends_on: [{ tool: 'order_status_query', output: 'order_id', parameter: 'order_id', required: true }],
    exclusive_with: ['repair_create'],
  }),
  tool({ name: 'repair_create', action: 'write', permission: 'write' }),
  tool({ name: 'refund_status_query' }),
  tool({ name: 'record_delete', action: 'delete', permission: 'write' }),
  tool({
    name: 'record_delete_confirmed',
    action: 'delete',
    permission: 'write',
    requires_confirmation: true,
  }),
  tool({ name: 'admin_wipe', action: 'delete', permission: 'sensitive', requires_confirmation: true }),
  tool({ name: 'web_search', evidence: 'lead' }),
  tool({
    name: 'page_visit',
    depends_on: [{ tool: 'web_search', output: 'results[].url', parameter: 'url', required: false }],
    preconditions: [{ kind: 'needs_url', parameter: 'url' }],
  }),
  tool({ name: 'a_tool', depends_on: [{ tool: 'b_tool', output: 'x', parameter: 'x', required: false }] }),
  tool({ name: 'b_tool', depends_on: [{ tool: 'a_tool', output: 'y', parameter: 'y', required: false }] }),
];

function ctx(overrides: Partial<ValidationContext> = {}): ValidationContext {
  return {
    visible: new Map(TOOLS.map((t) => [t.name, t])),
    maxPermission: 'write',
    // The request asks for a refund: every write of the test's tools is allowed unless a test says otherwise.
    writes: {
      allowed: new Set(TOOLS.filter((t) => t.action !== 'read').map((t) => t.name)),
      unasked: (t) => `the request asks for no change; ${t.name} would ${t.action}`,
    },
    requestText: 'my order 20240917001 is late and I want a refund',
    needsFreshData: false,
    history: [],
    automatic: true,
    ...overrides,
  };
}

const step = (name: string, extra: Partial<DraftStep> = {}): DraftStep => ({
  tool: name,
  purpose: `use ${name}`,
  input_from: [],
  ...extra,
});

function refusedBy(rule: PlanRuleId, steps: DraftStep[], context = ctx()) {
  const own = PLAN_RULES[rule](steps, context);
  const all = validatePlan(steps, context);
  return { own, all };
}

describe('TD-5 plan validation rules', () => {
  it('visibility_permission: a tool outside the visible set, or above the permission, is refused', () => {
    const unseen = refusedBy('visibility_permission', [step('get_weather_data')]);
    expect(unseen.own).toEqual([
      expect.objectContaining({ rule: 'visibility_permission', tool: 'get_weather_data' }),
    ]);
    expect(unseen.own[0]?.reason).toMatch(/not in the visible tool set/);
    const above = refusedBy('visibility_permission', [step('admin_wipe')]);
    expect(above.own[0]?.reason).toMatch(/needs sensitive, above the allowed write/);
    expect(PLAN_RULES.visibility_permission([step('order_status_query')], ctx())).toEqual([]);
  });

  it('depends_on: a required producer must be planned, and before its consumer', () => {
    const missing = refusedBy('depends_on', [step('refund_create')]);
    expect(missing.own[0]).toMatchObject({ rule: 'depends_on', tool: 'refund_create' });
    expect(missing.own[0]?.reason).toMatch(/order_status_query is not planned before it/);
    const late = refusedBy('depends_on', [step('refund_create'), step('order_status_query')]);
    expect(late.own[0]?.reason).toMatch(/comes after it/);
    expect(PLAN_RULES.depends_on([step('order_status_query'), step('refund_create')], ctx())).toEqual([]);
    // Already executed earlier in the task counts as satisfied.
    expect(
      PLAN_RULES.depends_on(
        [step('refund_create')],
        ctx({ history: [{ tool: 'order_status_query', arguments: {}, ok: true }] }),
      ),
    ).toEqual([]);
  });

  it('exclusive_with: two exclusive tools never share a plan', () => {
    const { own, all } = refusedBy('exclusive_with', [
      step('order_status_query'),
      step('refund_create'),
      step('repair_create'),
    ]);
    expect(own).toEqual([expect.objectContaining({ rule: 'exclusive_with', tool: 'repair_create' })]);
    expect(own[0]?.reason).toMatch(/exclusive with refund_create/);
    expect(all.some((v) => v.rule === 'exclusive_with')).toBe(true);
    expect(PLAN_RULES.exclusive_with([step('order_status_query'), step('refund_create')], ctx())).toEqual([]);
  });

  it('reads_before_writes: a read after a write is refused unless it reads that write’s output', () => {
    const { own } = refusedBy('reads_before_writes', [
      step('order_status_query'),
      step('refund_create'),
      step('web_search'),
    ]);
    expect(own).toEqual([expect.objectContaining({ rule: 'reads_before_writes', tool: 'web_search' })]);
    expect(own[0]?.reason).toMatch(/reads go first/);
    const readsReceipt = step('refund_status_query', {
      input_from: [{ parameter: 'refund_id', source: 'step_output', step_index: 1, path: 'refund_id' }],
    });
    expect(
      PLAN_RULES.reads_before_writes(
        [step('order_status_query'), step('refund_create'), readsReceipt],
        ctx(),
      ),
    ).toEqual([]);
  });

  it('delete_confirmation: no delete in an automatic chain unless the tool requires confirmation', () => {
    const { own } = refusedBy('delete_confirmation', [step('record_delete')]);
    expect(own[0]).toMatchObject({ rule: 'delete_confirmation', tool: 'record_delete' });
    expect(own[0]?.reason).toMatch(/without requiring confirmation/);
    expect(PLAN_RULES.delete_confirmation([step('record_delete_confirmed')], ctx())).toEqual([]);
    expect(PLAN_RULES.delete_confirmation([step('record_delete')], ctx({ automatic: false }))).toEqual([]);
  });

  it('intent_side_effect: a write the request does not ask for is refused, with the reason the context gives', () => {
    const question = ctx({
      writes: {
        allowed: new Set(),
        unasked: (t) => `the request asks for no change; ${t.name} would ${t.action}`,
      },
    });
    const { own } = refusedBy(
      'intent_side_effect',
      [step('order_status_query'), step('refund_create')],
      question,
    );
    expect(own).toEqual([expect.objectContaining({ rule: 'intent_side_effect', tool: 'refund_create' })]);
    expect(own[0]?.reason).toMatch(/asks for no change; refund_create would write/);
    expect(PLAN_RULES.intent_side_effect([step('order_status_query'), step('refund_create')], ctx())).toEqual(
      [],
    );
  });

  it('intent_side_effect: one asked change is made by one tool — a second tool of its kind is unasked', () => {
    const oneCreate = ctx({
      writes: {
        allowed: new Set(['refund_create', 'repair_create']),
        unasked: () => 'unasked',
        asked: { counts: new Map([['create', 1]]), kindOf: () => 'create' },
      },
    });
    const plan = [step('order_status_query'), step('refund_create'), step('repair_create')];
    expect(PLAN_RULES.intent_side_effect(plan, oneCreate)).toEqual([
      expect.objectContaining({
        tool: 'repair_create',
        reason: expect.stringMatching(/asks for 1 create, which refund_create already does/),
      }),
    ]);
    const twoCreates = ctx({
      writes: { ...oneCreate.writes, asked: { counts: new Map([['create', 2]]), kindOf: () => 'create' } },
    });
    expect(PLAN_RULES.intent_side_effect(plan, twoCreates)).toEqual([]);
  });

  it('preconditions: a visit needs a URL from the user or from an earlier search step', () => {
    const noUrl = ctx({ requestText: 'what does the PostgreSQL 17 release page say?' });
    const { own } = refusedBy('preconditions', [step('page_visit')], noUrl);
    expect(own[0]).toMatchObject({ rule: 'preconditions', tool: 'page_visit' });
    expect(own[0]?.reason).toMatch(/needs a URL from the user or an earlier search step/);
    expect(PLAN_RULES.preconditions([step('web_search'), step('page_visit')], noUrl)).toEqual([]);
    const withUrl = ctx({ requestText: 'summarise https://www.postgresql.org/about/news/' });
    expect(PLAN_RULES.preconditions([step('page_visit')], withUrl)).toEqual([]);
  });

  it('duplicate_step: exact and near-duplicate steps are refused unless a reason applies', () => {
    const exact = refusedBy('duplicate_step', [
      step('web_search', { arguments: { query: 'PostgreSQL latest release' } }),
      step('web_search', { arguments: { query: 'latest  release, postgresql' } }),
    ]);
    expect(exact.own[0]).toMatchObject({ rule: 'duplicate_step', tool: 'web_search', step_index: 1 });
    expect(exact.own[0]?.reason).toMatch(/repeats step 0/);
    const urls = PLAN_RULES.duplicate_step(
      [
        step('page_visit', { arguments: { url: 'https://www.example.com/a/?b=2&a=1#top' } }),
        step('page_visit', { arguments: { url: 'http://example.com/a?a=1&b=2' } }),
      ],
      ctx(),
    );
    expect(urls).toHaveLength(1);
    expect(normaliseUrl('https://www.example.com/a/?b=2&a=1#top')).toBe('example.com/a?a=1&b=2');
    // Against history: refused, unless the earlier call failed and the repeat says so, or fresh data is needed.
    const history = [{ tool: 'web_search', arguments: { query: 'PostgreSQL latest release' }, ok: false }];
    const again = [step('web_search', { arguments: { query: 'postgresql latest release' } })];
    expect(PLAN_RULES.duplicate_step(again, ctx({ history }))[0]?.reason).toMatch(/already executed/);
    const retry = [{ ...again[0]!, repeat_reason: 'earlier_failure' as const }];
    expect(PLAN_RULES.duplicate_step(retry, ctx({ history }))).toEqual([]);
    const fresh = [{ ...again[0]!, repeat_reason: 'freshness' as const }];
    expect(
      PLAN_RULES.duplicate_step(
        fresh,
        ctx({ history: [{ ...history[0]!, ok: true }], needsFreshData: true }),
      ),
    ).toEqual([]);
    expect(PLAN_RULES.duplicate_step(fresh, ctx({ history: [{ ...history[0]!, ok: true }] }))).toHaveLength(
      1,
    );
  });

  it('no_cycles: input_from only reads earlier steps, and planned tools do not depend on each other in a loop', () => {
    const forward = refusedBy('no_cycles', [
      step('web_search', {
        input_from: [{ parameter: 'q', source: 'step_output', step_index: 1, path: 'x' }],
      }),
      step('page_visit'),
    ]);
    expect(forward.own[0]).toMatchObject({ rule: 'no_cycles', tool: 'web_search' });
    expect(forward.own[0]?.reason).toMatch(/not an earlier step/);
    const loop = PLAN_RULES.no_cycles([step('a_tool'), step('b_tool')], ctx());
    expect(loop[0]?.reason).toMatch(/dependency cycle/);
    expect(PLAN_RULES.no_cycles([step('web_search'), step('page_visit')], ctx())).toEqual([]);
  });

  it('a valid chain passes every rule', () => {
    expect(validatePlan([step('order_status_query'), step('refund_create')], ctx())).toEqual([]);
  });
});

describe('duplicate_step with the semantic model (near duplicates in other words)', () => {
  it('refuses the same search reworded, keeps a search for other values', async () => {
    const embedder = await sharedOnnxEmbedder();
    const texts = [
      'cheapest flights from Oslo to Rome in May',
      'the lowest fares for flying Oslo to Rome in May',
      'cheapest flights from Oslo to Madrid in May',
    ];
    const vectors = new Map(
      (await embedder.embed(texts, 'all-minilm-l6-v2-q')).map((v, i) => [texts[i] ?? '', v]),
    );
    const textSimilarity = (a: string, b: string) => {
      const x = vectors.get(a);
      const y = vectors.get(b);
      return x && y ? cosine(x, y) : undefined;
    };
    const search = (query: string) => step('web_search', { arguments: { query }, texts: { query } });
    const reworded = PLAN_RULES.duplicate_step(
      [search(texts[0]!), search(texts[1]!)],
      ctx({ textSimilarity }),
    );
    expect(reworded).toHaveLength(1);
    expect(reworded[0]?.reason).toMatch(/repeats step 0 in other words/);
    // 0.82 in meaning and another city: a search of its own.
    expect(
      PLAN_RULES.duplicate_step([search(texts[0]!), search(texts[2]!)], ctx({ textSimilarity })),
    ).toEqual([]);
    // Without the model nothing is compared by meaning.
    expect(PLAN_RULES.duplicate_step([search(texts[0]!), search(texts[1]!)], ctx())).toEqual([]);
  }, 30_000); // (loads both model files: slow on a busy 2-core machine)
});

describe('REFERS_TO_LINK', () => {
  it.each([
    ['summarise the page I linked', true],
    ['go through the benchmark article I sent you', true],
    ['read the long pricing post we shared', true],
    ['find an article about NVMe endurance', false],
    ['the article says I sent nothing', false],
  ])('%s → %s (a word or two may describe the page before the speaker says they gave it)', (text, refers) => {
    expect(REFERS_TO_LINK.test(text)).toBe(refers);
  });
});
