import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PlanStep, StepRecord, TaskSpec, TopicMessage } from '@signalbox/contracts';
import { testTask } from '@signalbox/contracts/testing';
import type { ModelProvider, ModelRequest } from '@signalbox/providers';
import { createScriptedProvider } from '@signalbox/providers/testing';
import { RegistryContent, createRegistry, loadRegistryDir, type Registry } from '@signalbox/registry';
import type { Decision, DecisionContext } from '@signalbox/stage-kit';
import { createParameterInjectorDecide, parameterInjectorDefinition } from './decide.js';
import { InjectorConfigError } from './errors.js';

const description = {
  purpose: 'Does a thing.',
  returns: 'A result.',
  not_for: 'Other things (use other_tool).',
};

function registry(): Registry {
  return createRegistry(
    RegistryContent.parse({
      tools: [
        {
          name: 'get_weather',
          description,
          action: 'read',
          permission: 'read_only',
          parameters: {
            type: 'object',
            properties: {
              city: {
                type: 'string',
                minLength: 1,
                description: 'City name.',
                normalizers: ['trim', 'city_name'],
              },
              date: { type: 'string', format: 'date', normalizers: ['iso_date'] },
              unit: {
                type: 'string',
                enum: ['celsius', 'fahrenheit'],
                synonyms: { c: 'celsius', f: 'fahrenheit' },
                default: 'celsius',
              },
              days: { type: 'integer', minimum: 1, maximum: 10 },
            },
            required: ['city'],
            additionalProperties: false,
          },
        },
        {
          name: 'order_status_query',
          description,
          action: 'read',
          permission: 'read_only',
          parameters: {
            type: 'object',
            properties: {
              order_id: { type: 'string', pattern: '^[0-9]{8,20}$', normalizers: ['trim', 'digits_only'] },
            },
            required: ['order_id'],
            additionalProperties: false,
          },
        },
        {
          name: 'refund_create',
          description,
          action: 'write',
          permission: 'write',
          parameters: {
            type: 'object',
            properties: {
              order_id: { type: 'string', pattern: '^[0-9]{8,20}$' },
              reason: {
                type: 'string',
                enum: ['late_delivery', 'damaged', 'other'],
                synonyms: { late: 'late_delivery', broken: 'damaged' },
              },
              amount: { type: 'number', exclusiveMinimum: 0, description: 'Amount in dollars.' },
              approved_by: { type: 'string', readOnly: true },
              email: { type: 'string', format: 'email' },
            },
            required: ['order_id', 'reason'],
            additionalProperties: false,
          },
          depends_on: [{ tool: 'order_status_query', output: 'order_id', parameter: 'order_id' }],
          sensitive_fields: ['email'],
        },
        {
          name: 'ticket_create',
          description,
          action: 'write',
          permission: 'write',
          parameters: {
            type: 'object',
            properties: {
              title: { type: 'string', minLength: 3, maxLength: 200 },
              priority: {
                type: 'string',
                enum: ['low', 'medium', 'high'],
                synonyms: { urgent: 'high' },
                default: 'low',
              },
              contact: { type: 'string', description: 'E-mail or phone of the user.' },
            },
            required: ['title'],
            additionalProperties: false,
          },
          sensitive_fields: ['contact'],
        },
      ],
      agents: [],
      scenes: [],
      tenants: [],
      settings: {},
      profiles: [],
      policies: [],
    }),
  );
}

const reg = registry();

function task(request: string, extra: Partial<TaskSpec> = {}): TaskSpec {
  return testTask({ request, reference_time: '2024-11-04T09:00:00.000Z', ...extra });
}

function step(
  index: number,
  tool: string,
  inputFrom: PlanStep['input_from'] = [],
  from: Registry = reg,
): PlanStep {
  return {
    index,
    tool,
    tool_definition_hash: from.versions.tool_hashes[tool] ?? 'x',
    purpose: `run ${tool}`,
    input_from: inputFrom,
    expected_evidence: 'source',
    fallback_tool: null,
  };
}

function record(index: number, tool: string, output: unknown): StepRecord {
  return {
    call: { step_index: index, tool, arguments: {}, provenance: {}, validation_log: [] },
    result: {
      step_index: index,
      tool,
      ok: true,
      output: output as never,
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
}

function planned(
  t: TaskSpec,
  steps: PlanStep[],
  stepIndex = 0,
  history: StepRecord[] = [],
  agent = 'support',
): TopicMessage<'taskPlanned'> {
  return {
    event_id: 'ev_in_1',
    task_id: 'task-1',
    tenant_id: 'acme',
    agent_id: agent,
    stage: 'tool_decider',
    event_type: 'task_planned',
    causation_id: 'ev_0',
    revision_count: 0,
    degraded_flag: false,
    decision_reason: 'planned',
    input_source: 'pipeline',
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: '2024-11-04T09:00:01.000Z',
    schema_version: 1,
    traceparent: null,
    payload: {
      task: t,
      progress: {
        revisions: 0,
        replans: 0,
        degradations: 0,
        steps_executed: history.length,
        cost_usd: 0,
        started_at: '2024-11-04T09:00:00.000Z',
      },
      history,
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
      step_index: stepIndex,
    },
  };
}

const ctx: DecisionContext = {
  stage: 'parameter_injector' as const,
  versions: { registry_version: null, profiles_version: null, policy_version: null },
};
/** The context a stage runtime gives a decision when a model is configured for the task's profile. */
const withModel = (model: ModelProvider): DecisionContext => ({ ...ctx, models: () => model });
type Prepared = {
  call: { arguments: Record<string, unknown>; provenance: Record<string, string>; validation_log: string[] };
  progress: { revisions: number };
};
type Finished = { status: string; questions: string[]; issues: string[] };
const prepared = (d: Decision) => d.payload as Prepared;
const finished = (d: Decision) => d.payload as Finished;

describe('building arguments (PI-1, PI-2) with provenance (PI-6)', () => {
  const decide = createParameterInjectorDecide({ registry: reg });

  it('extracts from the request, coerces a synonym, fills defaults, and records where each value came from', async () => {
    const d = await decide(
      planned(task("What's the weather in Beijing next Friday, in F?"), [step(0, 'get_weather')]),
      ctx,
    );
    expect(d.event_type).toBe('step_prepared');
    expect(prepared(d).call.arguments).toEqual({ city: 'Beijing', date: '2024-11-08', unit: 'fahrenheit' });
    expect(prepared(d).call.provenance).toEqual({ city: 'user_text', date: 'user_text', unit: 'user_text' });
    expect(prepared(d).call.validation_log.join('\n')).toContain(
      'next friday = first friday after the reference day',
    );
  });
  it('uses the schema default for an optional parameter the user did not give', async () => {
    const d = await decide(planned(task('weather in Paris'), [step(0, 'get_weather')]), ctx);
    expect(prepared(d).call.arguments).toEqual({ city: 'Paris', unit: 'celsius' });
    expect(prepared(d).call.provenance.unit).toBe('default');
  });
  it('input_from step_output: reads a JSON path in an earlier output; depends_on does the same without input_from', async () => {
    const history = [record(0, 'order_status_query', { order_id: '20240917001', status: 'delivered' })];
    const viaPath = await decide(
      planned(
        task('it arrived broken, refund me'),
        [
          step(0, 'order_status_query'),
          step(1, 'refund_create', [
            { parameter: 'order_id', source: 'step_output', step_index: 0, path: '$.order_id' },
          ]),
        ],
        1,
        history,
      ),
      ctx,
    );
    expect(prepared(viaPath).call.arguments).toEqual({ order_id: '20240917001', reason: 'damaged' });
    expect(prepared(viaPath).call.provenance).toEqual({ order_id: 'step_output', reason: 'user_text' });
    const viaDependsOn = await decide(
      planned(
        task('it came late, refund me'),
        [step(0, 'order_status_query'), step(1, 'refund_create')],
        1,
        history,
      ),
      ctx,
    );
    expect(prepared(viaDependsOn).call.arguments).toMatchObject({
      order_id: '20240917001',
      reason: 'late_delivery',
    });
  });
  it('input_from context and user_text: an id from the conversation, free text as the request', async () => {
    const t = task('where is it now?', { context: [{ role: 'user', content: 'my order is 20240917001' }] });
    const d = await decide(
      planned(t, [
        step(0, 'order_status_query', [
          { parameter: 'order_id', source: 'context', step_index: null, path: null },
        ]),
      ]),
      ctx,
    );
    expect(prepared(d).call.arguments).toEqual({ order_id: '20240917001' });
    expect(prepared(d).call.provenance).toEqual({ order_id: 'context' });
    const ticket = await decide(
      planned(task('My parcel is lost, this is urgent. Reach me at ann@example.com'), [
        step(0, 'ticket_create', [{ parameter: 'title', source: 'user_text', step_index: null, path: null }]),
      ]),
      ctx,
    );
    expect(prepared(ticket).call.arguments).toEqual({
      title: 'My parcel is lost, this is urgent. Reach me at ann@example.com',
      priority: 'high',
      contact: 'ann@example.com',
    });
  });
  it('input_from user_text with text: the words the plan names, not the whole request (one search of several)', async () => {
    const request = 'Open a ticket about the lost parcel and one about the broken kettle.';
    const d = await decide(
      planned(task(request), [
        step(0, 'ticket_create', [
          {
            parameter: 'title',
            source: 'user_text',
            step_index: null,
            path: null,
            text: 'the broken kettle',
          },
        ]),
      ]),
      ctx,
    );
    expect(prepared(d).call.arguments).toMatchObject({ title: 'the broken kettle' });
    expect(prepared(d).call.provenance).toMatchObject({ title: 'user_text' });
    expect(prepared(d).call.validation_log.join('\n')).toContain('the words the plan names');
  });
  it('input_from default uses the declared default, even for a parameter the user did not mention', async () => {
    const d = await decide(
      planned(task('weather in Oslo'), [
        step(0, 'get_weather', [{ parameter: 'unit', source: 'default', step_index: null, path: null }]),
      ]),
      ctx,
    );
    expect(prepared(d).call.provenance.unit).toBe('default');
  });
  it('never invents a required value: a missing city ends in need_clarification naming the field', async () => {
    const d = await decide(planned(task('what is the weather like?'), [step(0, 'get_weather')]), ctx);
    expect(d.event_type).toBe('task_finished');
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions).toEqual([
      expect.stringMatching(/^What city should I use for get_weather\?/),
    ]);
    expect(d.decision_reason).toContain('city is required but missing');
    expect(d.revision_count).toBe(0);
  });
  it('ends a plan that names an unknown step as failed, with the reason', async () => {
    const d = await decide(planned(task('x'), [step(0, 'get_weather')], 3), ctx);
    expect(finished(d).status).toBe('failed');
    expect(d.decision_reason).toContain('no step 3');
  });
});

describe('field permissions and redaction (PI-5)', () => {
  it('strips what the agent may not set (readOnly, field policy) with a reason, and redacts sensitive values', async () => {
    const model = createScriptedProvider([
      {
        expect: { toolNames: ['refund_create'], toolChoice: { name: 'refund_create' } },
        respond: {
          toolCalls: [
            {
              name: 'refund_create',
              arguments: {
                order_id: '20240917001',
                reason: 'late',
                amount: 20,
                approved_by: 'me',
                email: 'ann@example.com',
              },
            },
          ],
        },
      },
    ]);
    const decide = createParameterInjectorDecide({
      registry: reg,
      fieldPolicy: { support: ['refund_create.amount'] },
    });
    const d = await decide(
      planned(task('order 20240917001 came late, refund $20 to ann@example.com'), [step(0, 'refund_create')]),
      withModel(model),
    );
    model.assertConsumed();
    expect(prepared(d).call.arguments).toEqual({
      order_id: '20240917001',
      reason: 'late_delivery',
      email: 'ann@example.com',
    });
    expect(d.decision_reason).toContain('stripped amount (agent support may not set amount (field policy))');
    expect(d.decision_reason).toContain('approved_by (read-only: set by the system, never by an agent)');
    const log = prepared(d).call.validation_log.join('\n');
    expect(log).toContain('email = [redacted]');
    expect(log).not.toContain('ann@example.com');
    expect(d.decision_reason).not.toContain('ann@example.com');
  });
  it('refuses a malformed field policy at construction', () => {
    expect(() => createParameterInjectorDecide({ registry: reg, fieldPolicy: { a: ['amount'] } })).toThrow(
      InjectorConfigError,
    );
    expect(() => createParameterInjectorDecide({ registry: reg, maxRevisions: -1 })).toThrow(
      InjectorConfigError,
    );
    expect(() =>
      createParameterInjectorDecide({ registry: reg, ceilings: { maxTaskRevisions: -1 } }),
    ).toThrow(/ceiling maxTaskRevisions is invalid/);
  });
});

describe('re-ask loop with the scripted model (PI-4)', () => {
  const propose = (days: unknown) => ({
    expect: { toolChoice: { name: 'get_weather' } },
    respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Berlin', days } }] },
  });
  const fix = (days: unknown) => ({
    expect: (r: ModelRequest) => {
      const last = r.messages.at(-1)?.content ?? '';
      return (
        (last.includes('days: must be <= 10') && last.includes('Fix only days')) ||
        `re-ask does not name the field: ${last}`
      );
    },
    respond: { toolCalls: [{ name: 'get_weather', arguments: { days, city: 'Hacked' } }] },
  });

  it('fixed on revision 2 → step_prepared with revision_count 2, only the named field taken', async () => {
    const model = createScriptedProvider([propose(14), fix(12), fix(7)]);
    const decide = createParameterInjectorDecide({ registry: reg });
    const d = await decide(
      planned(task('forecast for Berlin for 14 days'), [step(0, 'get_weather')]),
      withModel(model),
    );
    model.assertConsumed();
    expect(d.event_type).toBe('step_prepared');
    expect(d.revision_count).toBe(2);
    expect(prepared(d).progress.revisions).toBe(2);
    expect(prepared(d).call.arguments).toMatchObject({ city: 'Berlin', days: 7 });
    expect(prepared(d).call.provenance.days).toBe('model');
  });
  it('never fixed → need_clarification after 3 re-asks, naming the field', async () => {
    const model = createScriptedProvider([propose(14), fix(11), fix(12), fix(13)]);
    const decide = createParameterInjectorDecide({ registry: reg });
    const d = await decide(
      planned(task('forecast for Berlin for 14 days'), [step(0, 'get_weather')]),
      withModel(model),
    );
    model.assertConsumed();
    expect(d.event_type).toBe('task_finished');
    expect(finished(d).status).toBe('need_clarification');
    expect(d.revision_count).toBe(3);
    expect(finished(d).questions).toEqual([
      expect.stringContaining('The days for get_weather must be <= 10'),
    ]);
  });
  it('the revision bound is configurable', async () => {
    const model = createScriptedProvider([propose(14), fix(11)]);
    const decide = createParameterInjectorDecide({ registry: reg, maxRevisions: 1 });
    const d = await decide(
      planned(task('forecast for Berlin for 14 days'), [step(0, 'get_weather')]),
      withModel(model),
    );
    model.assertConsumed();
    expect(d.revision_count).toBe(1);
    expect(finished(d).status).toBe('need_clarification');
  });
  it('a model value for a missing required field must be in the request (never invented)', async () => {
    const model = createScriptedProvider([
      { respond: { toolCalls: [{ name: 'order_status_query', arguments: { order_id: '99999999' } }] } },
      { respond: { toolCalls: [{ name: 'order_status_query', arguments: { order_id: '99999999' } }] } },
    ]);
    const decide = createParameterInjectorDecide({ registry: reg, maxRevisions: 1 });
    const d = await decide(
      planned(task('where is my order?'), [step(0, 'order_status_query')]),
      withModel(model),
    );
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions[0]).toContain('What order_id should I use');
  });
});

describe('feedback kinds', () => {
  const reinject = (fields: string[], revisions = 0): TopicMessage<'taskPlanned'> => {
    const base = planned(task('weather in Springfield'), [step(0, 'get_weather')]);
    return {
      ...base,
      event_id: 'ev_reinject',
      event_type: 'reinject_requested',
      stage: 'result_evaluator',
      revision_count: 1,
      payload: {
        ...base.payload,
        progress: { ...base.payload.progress, revisions },
        previous_call: {
          step_index: 0,
          tool: 'get_weather',
          arguments: { city: 'Springfield', unit: 'celsius' },
          provenance: { city: 'user_text', unit: 'default' },
          validation_log: [],
        },
        feedback: {
          reason: 'unknown_city: several cities are called Springfield',
          issues: [],
          failed_tool: 'get_weather',
          error_class: 'parameter',
          excluded_tools: [],
          fields,
        },
      },
    };
  };

  it('reinject_requested: the model fixes the named field, revision_count + 1', async () => {
    const model = createScriptedProvider([
      {
        expect: { lastUserMessage: 'city: was refused: unknown_city' },
        respond: {
          toolCalls: [{ name: 'get_weather', arguments: { city: 'Springfield, IL', unit: 'fahrenheit' } }],
        },
      },
    ]);
    const d = await createParameterInjectorDecide({ registry: reg })(reinject(['city']), withModel(model));
    model.assertConsumed();
    expect(d.event_type).toBe('step_prepared');
    expect(d.revision_count).toBe(2);
    expect(d.input_source).toBe('feedback');
    expect(prepared(d).call.arguments).toEqual({ city: 'Springfield, IL', unit: 'celsius' });
  });
  it('reinject_requested: a refused optional field the model gives no new value for is asked, not left out', async () => {
    const model = createScriptedProvider([
      {
        expect: { lastUserMessage: 'unit: was refused: unknown_city' },
        respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Springfield' } }] },
      },
    ]);
    const d = await createParameterInjectorDecide({ registry: reg })(reinject(['unit']), withModel(model));
    model.assertConsumed();
    // The call without the unit would run with a unit nobody chose.
    expect(d.event_type).toBe('task_finished');
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions[0]).toContain('unit for get_weather');
  });
  it('reinject_requested without a model asks the user about the named field', async () => {
    const d = await createParameterInjectorDecide({ registry: reg })(reinject(['city']), ctx);
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions[0]).toContain('city for get_weather');
    expect(d.revision_count).toBe(2);
  });
  it('reinject_requested at the task revision ceiling ends in need_clarification', async () => {
    const d = await createParameterInjectorDecide({ registry: reg, ceilings: { maxTaskRevisions: 2 } })(
      reinject(['city'], 2),
      ctx,
    );
    expect(finished(d).status).toBe('need_clarification');
    expect(d.decision_reason).toContain('revision ceiling reached (2 of 2)');
  });
  it('next_step_requested prepares payload.step_index', async () => {
    const history = [record(0, 'order_status_query', { order_id: '20240917001' })];
    const input = {
      ...planned(
        task('refund it, it is broken'),
        [step(0, 'order_status_query'), step(1, 'refund_create')],
        1,
        history,
      ),
      event_type: 'next_step_requested',
    } as TopicMessage<'taskPlanned'>;
    const d = await createParameterInjectorDecide({ registry: reg })(input, ctx);
    expect(prepared(d).call).toMatchObject({ step_index: 1, tool: 'refund_create' });
  });
});

describe('stage definition', () => {
  it('consumes the planned topic and records the registry version', () => {
    const def = parameterInjectorDefinition({ registry: reg });
    expect(def.stage).toBe('parameter_injector');
    expect(def.input.name).toBe('signalbox.task.planned.v1');
    expect(def.versions().registry_version).toBe(reg.versions.registry_version);
  });
});

describe('scenario-pack rules (issue 7)', () => {
  const decide = createParameterInjectorDecide({ registry: reg });
  const fromUser = (parameter: string) => ({
    parameter,
    source: 'user_text' as const,
    step_index: null,
    path: null,
  });

  it('a city planned from user text is the city named in it, not the whole request; none named → ask', async () => {
    const d = await decide(
      planned(task('What is the weather in Berlin today?'), [step(0, 'get_weather', [fromUser('city')])]),
      ctx,
    );
    expect(prepared(d).call.arguments).toMatchObject({ city: 'Berlin', date: '2024-11-04' });
    const none = await decide(
      planned(task('What is the weather like?'), [step(0, 'get_weather', [fromUser('city')])]),
      ctx,
    );
    expect(none.event_type).toBe('task_finished');
    expect(finished(none).status).toBe('need_clarification');
    expect(finished(none).questions.join(' ')).toContain('What city should I use');
  });

  it('a number the request spent on the order id is not also the optional amount', async () => {
    // A short order number (long ones never read as quantities): the status query already ran with it.
    const done = record(0, 'order_status_query', { order_id: '20240917001' });
    const history = [{ ...done, call: { ...done.call, arguments: { order_id: '1234' } } }];
    const steps = [step(0, 'order_status_query'), step(1, 'refund_create')];
    const d = await decide(
      planned(task('My order 1234 is late and I want a refund.'), steps, 1, history),
      ctx,
    );
    expect(prepared(d).call.arguments).toEqual({ order_id: '20240917001', reason: 'late_delivery' });
    expect(d.decision_reason).toContain("amount not filled: 1234 is already the request's id");
  });

  it('an optional number needs a cue: a loose number is left out, a currency or the parameter name fills it', async () => {
    const history = [record(0, 'order_status_query', { order_id: '20240917001' })];
    const steps = [step(0, 'order_status_query'), step(1, 'refund_create')];
    const run = (request: string) => decide(planned(task(request), steps, 1, history), ctx);
    const loose = await run('Order 20240917001 came late and 1 item is missing; refund it');
    expect(prepared(loose).call.arguments).not.toHaveProperty('amount');
    expect(loose.decision_reason).toContain('loose number with no unit, currency or keyword naming amount');
    expect(prepared(await run('Refund $25 of order 20240917001, it was late')).call.arguments).toMatchObject({
      amount: 25,
    });
    expect(
      prepared(await run('Order 20240917001 was late: refund amount 25 please')).call.arguments,
    ).toMatchObject({ amount: 25 });
  });
});

describe('the empty weekend (SP-2)', () => {
  const office = createRegistry(
    RegistryContent.parse({
      tools: [
        {
          name: 'minutes_list',
          description,
          action: 'read',
          permission: 'read_only',
          parameters: {
            type: 'object',
            properties: {
              date_from: { type: 'string', format: 'date' },
              date_to: { type: 'string', format: 'date' },
            },
            required: ['date_from'],
            additionalProperties: false,
          },
        },
      ],
      agents: [],
      scenes: [],
      tenants: [],
      settings: {},
      profiles: [],
      policies: [],
    }),
  );
  const decide = createParameterInjectorDecide({ registry: office });
  // Monday 2026-11-30: "yesterday" is Sunday 2026-11-29.
  const monday = task("Turn the minutes of yesterday's meeting into the weekly report", {
    reference_time: '2026-11-30T09:00:00.000Z',
  });
  const listStep: PlanStep = { ...step(0, 'minutes_list'), tool_definition_hash: 'x' };

  it('"the minutes of yesterday\'s meeting" is one date: both ends of the range are yesterday', async () => {
    const d = await decide(planned(monday, [listStep]), ctx);
    expect(prepared(d).call.arguments).toEqual({ date_from: '2026-11-29', date_to: '2026-11-29' });
  });

  it('after the Sunday came back empty, the same relative date moves to the last working day (Friday)', async () => {
    const empty = record(0, 'minutes_list', { minutes: [] });
    const sunday = { date_from: '2026-11-29', date_to: '2026-11-29' };
    const history: StepRecord[] = [
      { ...empty, call: { ...empty.call, arguments: sunday }, status: 'partial_success' },
    ];
    const d = await decide(planned(monday, [listStep], 0, history), ctx);
    expect(prepared(d).call.arguments).toEqual({ date_from: '2026-11-27', date_to: '2026-11-27' });
    expect(d.decision_reason).toContain(
      'minutes_list found nothing on Sunday 2026-11-29; the last working day before it is Friday 2026-11-27',
    );
    // A Sunday that answered (success) is not moved: the rule reacts to an empty answer only.
    const answered: StepRecord[] = [{ ...history[0]!, status: 'success' }];
    const kept = await decide(planned(monday, [listStep], 0, answered), ctx);
    expect(prepared(kept).call.arguments).toEqual(sunday);
  });
});

describe('sandbox_compute over a visit’s figures (SP-3)', () => {
  let research: Registry;
  beforeAll(async () => {
    research = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/research', import.meta.url)),
    );
  });
  const visit = record(1, 'page_visit', {
    url: 'https://docs.example.org/benchmarks/postgresql-17-vs-16',
    title: 'Benchmark',
    passages: [
      'PostgreSQL 16 averaged 44,100 transactions per second with a mean latency of 1.45 ms.',
      'PostgreSQL 17 averaged 52,300 transactions per second with a mean latency of 1.22 ms.',
    ].map((text, position) => ({ text, position })),
  });
  const computeStep = (request: string) =>
    planned(
      task(request),
      [
        step(0, 'web_search', [], research),
        step(1, 'page_visit', [], research),
        step(
          2,
          'sandbox_compute',
          [
            { parameter: 'inputs', source: 'step_output', step_index: 1, path: 'passages[].text' },
            { parameter: 'expression', source: 'user_text', step_index: null, path: null },
          ],
          research,
        ),
      ],
      2,
      [visit],
      'research_agent',
    );

  it('reads the quoted figures into named inputs and writes the asked calculation over them', async () => {
    const decide = createParameterInjectorDecide({ registry: research });
    const d = await decide(
      computeStep('How much faster is PostgreSQL 17 than 16 on pgbench, in percent?'),
      ctx,
    );
    expect(d.event_type).toBe('step_prepared');
    expect(prepared(d).call.arguments).toEqual({
      inputs: {
        postgresql_16_transactions_per_second: 44100,
        postgresql_16_ms: 1.45,
        postgresql_17_transactions_per_second: 52300,
        postgresql_17_ms: 1.22,
      },
      expression:
        'Math.round(((inputs.postgresql_17_transactions_per_second - inputs.postgresql_16_transactions_per_second) / inputs.postgresql_16_transactions_per_second) * 10000) / 100',
    });
    expect(prepared(d).call.provenance).toEqual({ inputs: 'step_output', expression: 'user_text' });
    expect(d.decision_reason).toContain(
      'percent change of PostgreSQL 17 52,300 transactions per second vs PostgreSQL 16 44,100 transactions per second',
    );
  });

  it('never takes the request itself as the program: no calculation named → need_clarification for expression', async () => {
    const decide = createParameterInjectorDecide({ registry: research });
    const d = await decide(computeStep('Tell me about PostgreSQL 17 and 16.'), ctx);
    expect(d.event_type).toBe('task_finished');
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions.join(' ')).toContain('expression');
  });
});

describe('requests in Chinese (issue 20)', () => {
  const packs: Record<string, Registry> = {};
  beforeAll(async () => {
    for (const pack of ['reach', 'after-sales', 'office'])
      packs[pack] = await loadRegistryDir(
        fileURLToPath(new URL(`../../../registry/packs/${pack}`, import.meta.url)),
      );
  });
  // The demo's reference: Monday 2026-11-30 09:00 UTC, a user in Shanghai.
  const zh = (request: string, extra: Partial<TaskSpec> = {}) =>
    task(request, {
      locale: 'zh-CN',
      time_zone: 'Asia/Shanghai',
      reference_time: '2026-11-30T09:00:00.000Z',
      ...extra,
    });
  const run = (
    pack: string,
    t: TaskSpec,
    tool: string,
    index = 0,
    history: StepRecord[] = [],
    steps?: PlanStep[],
  ) => {
    const from = packs[pack]!;
    const plan = steps ?? [step(0, tool, [], from)];
    return createParameterInjectorDecide({ registry: from })(planned(t, plan, index, history), ctx);
  };

  it('weather: the city in the English the backend knows, 明天 in Shanghai, the unit by its Chinese name', async () => {
    const d = await run('reach', zh('明天北京天气怎么样？用华氏度'), 'get_weather');
    expect(d.event_type).toBe('step_prepared');
    expect(prepared(d).call.arguments).toEqual({ city: 'Beijing', date: '2026-12-01', unit: 'fahrenheit' });
    // 北京 is the user's word; the city_name normalizer wrote it as the backend's "Beijing".
    expect(prepared(d).call.provenance).toMatchObject({
      city: 'coerced',
      date: 'user_text',
      unit: 'user_text',
    });
    expect(prepared(d).call.validation_log.join('\n')).toMatch(/北京.*Beijing/);
  });

  it('a name written against its label in the words the plan names (抬头王芳), in a request of two asks', async () => {
    const request = '订单20240917001的发票开好了没？另外订单5678也帮我开张个人发票，抬头王芳';
    const ask = '订单5678也帮我开张个人发票，抬头王芳';
    const from = packs['after-sales']!;
    const history = [record(0, 'order_status_query', { order_id: '5678', status: 'awaiting_shipment' })];
    const issue = step(
      1,
      'invoice_issue',
      [
        { parameter: 'order_id', source: 'step_output', step_index: 0, path: 'order_id' },
        { parameter: 'invoice_type', source: 'user_text', step_index: null, path: null, text: ask },
        { parameter: 'title', source: 'user_text', step_index: null, path: null, text: ask },
      ],
      from,
    );
    const d = await run('after-sales', zh(request), 'invoice_issue', 1, history, [
      step(0, 'order_status_query', [], from),
      issue,
    ]);
    expect(d.event_type).toBe('step_prepared');
    expect(prepared(d).call.arguments).toEqual({ order_id: '5678', invoice_type: 'personal', title: '王芳' });
  });

  it('a step whose ask names its own order is not fed the invoice an earlier step issued for another', async () => {
    const request = '订单5678也帮我开张个人发票，抬头王芳；还有订单20240917001的发票下载链接发我一下';
    const from = packs['after-sales']!;
    const history = [
      record(0, 'order_status_query', { order_id: '5678', status: 'awaiting_shipment' }),
      record(1, 'invoice_issue', { invoice_id: 'INV-000042', status: 'requested' }),
    ];
    const status = step(
      2,
      'invoice_status_query',
      [
        {
          parameter: 'order_id',
          source: 'user_text',
          step_index: null,
          path: null,
          text: '还有订单20240917001的发票下载链接发我一下',
        },
      ],
      from,
    );
    const d = await run('after-sales', zh(request), 'invoice_status_query', 2, history, [
      step(0, 'order_status_query', [], from),
      step(1, 'invoice_issue', [], from),
      status,
    ]);
    expect(prepared(d).call.arguments).toEqual({ order_id: '20240917001' });
  });

  it.each([
    {
      rule: 'the one Chinese name in the words the plan names beats a Latin name elsewhere in the request',
      request: zh('把Orion项目上周的周会纪要整理一下，然后邮件发给王芳'),
      ask: '邮件发给王芳',
      query: '王芳',
    },
    {
      rule: 'a group named after a preposition in the words the plan names keeps its whole name, not its capitalised word',
      request: task('Summarise the notes from Tuesday and mail the summary to the Helios design team.'),
      ask: 'mail the summary to the Helios design team.',
      query: 'Helios design team',
    },
  ])('$rule', async ({ request, ask, query }) => {
    const from = packs.office!;
    const lookup = step(
      0,
      'contact_lookup',
      [{ parameter: 'query', source: 'user_text', step_index: null, path: null, text: ask }],
      from,
    );
    const d = await run(
      'office',
      request,
      'contact_lookup',
      0,
      [],
      [lookup, step(1, 'email_send', [], from)],
    );
    expect(d.event_type).toBe('step_prepared');
    expect(prepared(d).call.arguments).toEqual({ query });
  });

  it("明天 is the user's tomorrow: at 02:00 UTC it is Monday in Shanghai and still Sunday evening in New York", async () => {
    const at = { reference_time: '2026-11-30T02:00:00.000Z' };
    const shanghai = await run('reach', zh('明天上海会下雨吗', at), 'get_weather');
    expect(prepared(shanghai).call.arguments).toMatchObject({ city: 'Shanghai', date: '2026-12-01' });
    const newYork = await run(
      'reach',
      zh('明天上海会下雨吗', { ...at, time_zone: 'America/New_York' }),
      'get_weather',
    );
    expect(prepared(newYork).call.arguments).toMatchObject({ city: 'Shanghai', date: '2026-11-30' });
  });

  it('refund: the order id inside Chinese text, the reason by its Chinese synonym, the amount in yuan', async () => {
    const d = await run('after-sales', zh('订单20261101001的杯子坏了，退我两百块'), 'refund_create');
    expect(prepared(d).call.arguments).toEqual({ order_id: '20261101001', reason: 'damaged', amount: 200 });
    const late = await run('after-sales', zh('订单20261101001晚到了三天，退款299元'), 'refund_create');
    expect(prepared(late).call.arguments).toEqual({
      order_id: '20261101001',
      reason: 'late_delivery',
      amount: 299,
    });
    // The order number is spent on the id: without a currency or a 块 no amount is read from it.
    const noAmount = await run('after-sales', zh('订单20261101001发错货了，我要退款'), 'refund_create');
    expect(prepared(noAmount).call.arguments).toEqual({ order_id: '20261101001', reason: 'wrong_item' });
  });

  it('a short order number after 单号是', async () => {
    const d = await run('after-sales', zh('帮我查一下，单号是5678'), 'order_status_query');
    expect(prepared(d).call.arguments).toEqual({ order_id: '5678' });
  });

  it('a city the request does not name in any form is asked for, never guessed', async () => {
    const d = await run('reach', zh('明天天气怎么样？'), 'get_weather');
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions.join(' ')).toContain('What city should I use');
  });

  it('SP-2 in Chinese: 昨天 on a Monday is Sunday, and after Sunday came back empty the last working day', async () => {
    const t = zh('把昨天的会议纪要整理成周报，发给项目组');
    const first = await run('office', t, 'minutes_list');
    expect(prepared(first).call.arguments).toEqual({ date_from: '2026-11-29', date_to: '2026-11-29' });
    const empty = record(0, 'minutes_list', { minutes: [] });
    const history: StepRecord[] = [
      {
        ...empty,
        call: { ...empty.call, arguments: { date_from: '2026-11-29', date_to: '2026-11-29' } },
        status: 'partial_success',
      },
    ];
    const again = await run('office', t, 'minutes_list', 0, history);
    expect(prepared(again).call.arguments).toEqual({ date_from: '2026-11-27', date_to: '2026-11-27' });
    expect(again.decision_reason).toContain('the last working day before it is Friday 2026-11-27');
  });

  it('a range in Chinese: 上周五到这周三', async () => {
    const d = await run('office', zh('列出上周五到这周三的会议纪要'), 'minutes_list');
    expect(prepared(d).call.arguments).toEqual({ date_from: '2026-11-27', date_to: '2026-12-02' });
  });

  it('a task whose time zone is not an IANA zone fails, naming time_zone', async () => {
    const d = await run('reach', zh('明天北京天气', { time_zone: 'Beijing Time' }), 'get_weather');
    expect(d.event_type).toBe('task_finished');
    expect(finished(d).status).toBe('failed');
    expect(d.decision_reason).toContain('time_zone "Beijing Time" is not an IANA time zone');
  });
});

describe('a look-up that only finds a later step’s input', () => {
  it('asks for its value naming what it is for: contact_lookup’s query finds message_send’s chat_ids', async () => {
    const office = await loadRegistryDir(
      fileURLToPath(new URL('../../../registry/packs/office', import.meta.url)),
    );
    const decide = createParameterInjectorDecide({ registry: office });
    const d = await decide(
      planned(
        task('post "deploy finished, staging is green" in the chat'),
        [step(0, 'contact_lookup', [], office), step(1, 'message_send', [], office)],
        0,
        [],
        'office_agent',
      ),
      ctx,
    );
    expect(finished(d).status).toBe('need_clarification');
    expect(finished(d).questions).toEqual([
      expect.stringMatching(
        /^What query should I use for contact_lookup\?.* It is needed to find message_send's chat_ids/,
      ),
    ]);
  });
});
