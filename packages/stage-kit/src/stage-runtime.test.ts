import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTRACT_VERSION,
  TOPICS,
  deadLetterTopicOf,
  type Envelope,
  type ModelSelected,
  type StepRecord,
  type TaskSubmitted,
} from '@signalbox/contracts';
import { testMessage, testProgress, testTask } from '@signalbox/contracts/testing';
import {
  DEAD_LETTER_HEADERS,
  REPUBLISHED_HEADER,
  decodeWire,
  type Bus,
  type Subscription,
} from '@signalbox/bus';
import { createMemoryBus, type MemoryBus, type MemoryRecord } from '@signalbox/bus/testing';
import {
  EventStoreQueryError,
  EventStoreUnavailableError,
  createPgliteEventStore,
  type EventStore,
} from '@signalbox/event-log';
import {
  ProviderTimeoutError,
  hashModelRequest,
  type ModelProvider,
  type ModelRequest,
} from '@signalbox/providers';
import { createScriptedProvider } from '@signalbox/providers/testing';
import { uniqueName } from '@signalbox/test-support';
import {
  decisionEventId,
  type Decide,
  type Decision,
  type DecisionVersions,
  type StageDefinition,
  type StageInput,
} from './decision.js';
import { DecisionDeferredError, StageConfigError } from './errors.js';
import { replayExchanges } from './model-exchanges.js';
import {
  createStageRuntime,
  type RuntimeObserver,
  type StageRuntime,
  type StageRuntimeOptions,
} from './stage-runtime.js';

// The stage runtime on the strict in-memory bus and an embedded PostgreSQL (PGlite) event log: the fakes the house
// style allows for unit tests. Each test has its own bus and consumer group, and its own task ids in the one store.

const STAGE = 'model_selector' as const;
const GROUP = `signalbox.${STAGE}`;
const INPUT = TOPICS.taskSubmitted;
const OUTPUT = TOPICS.modelSelected;
const DEAD_LETTERS = deadLetterTopicOf(STAGE);
const VERSIONS: DecisionVersions = {
  registry_version: 'reg-7',
  profiles_version: 'prof-3',
  policy_version: 'pol-2',
};
const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

let store: EventStore;
beforeAll(async () => {
  // Starting PGlite takes about a second: one in-memory instance for the file, every test with its own task ids.
  store = createPgliteEventStore();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function submitted(taskId: string, extra: Partial<TaskSubmitted> = {}): TaskSubmitted {
  const at = '2030-01-01T00:00:00.000Z';
  return {
    ...testMessage(
      'taskSubmitted',
      'task_submitted',
      { task: testTask({ request: `request of ${taskId}`, reference_time: at }) },
      {
        event_id: `ev_submitted_${taskId}`,
        task_id: taskId,
        tenant_id: 'tenant-a',
        agent_id: 'agent-a',
        occurred_at: at,
        schema_version: 1,
      },
    ),
    ...extra,
  };
}

/** A valid model_selected decision for `input`. */
function selected(input: StageInput, reason: string, extra: Partial<Decision> = {}): Decision {
  const { task } = (input as TaskSubmitted).payload;
  return {
    topic: OUTPUT,
    event_type: 'model_selected',
    payload: {
      task,
      progress: testProgress({ started_at: input.occurred_at }),
      history: [],
      selection: {
        primary: 'model-small',
        fallbacks: ['model-large'],
        labels: ['tool_use'],
        token_estimate: 120,
        estimated_cost_usd: 0.001,
        rejected: [],
        degrade_level: 0,
      },
    },
    decision_reason: reason,
    revision_count: input.revision_count,
    degraded_flag: input.degraded_flag,
    ...extra,
  };
}

/** A strict scripted decide: each task id has its script; any other task id is a test defect and fails loudly. */
function scripted(scripts: Record<string, (input: StageInput, call: number) => Decision>): {
  decide: Decide;
  calls: Map<string, number>;
  unexpected: string[];
} {
  const calls = new Map<string, number>();
  const unexpected: string[] = [];
  const decide: Decide = (input) => {
    const script = scripts[input.task_id];
    if (!script) {
      unexpected.push(input.task_id);
      throw new TypeError(`no script for task ${input.task_id}`);
    }
    const call = (calls.get(input.task_id) ?? 0) + 1;
    calls.set(input.task_id, call);
    return script(input, call);
  };
  cleanups.push(() => {
    expect(unexpected, 'decide called for tasks without a script').toEqual([]);
    return Promise.resolve();
  });
  return { decide, calls, unexpected };
}

interface Rig {
  bus: MemoryBus;
  ids: (count: number) => string[];
  publish(...inputs: TaskSubmitted[]): Promise<void>;
  /** Publishes again, marked as a re-publication — how an upstream stage or the API sends an input a second time. */
  republish(...inputs: TaskSubmitted[]): Promise<void>;
  outputs(): ModelSelected[];
  deadLetters(): MemoryRecord[];
  inputRecords(): MemoryRecord[];
  committed(): number;
  run(
    decide: Decide,
    options?: Partial<Omit<StageRuntimeOptions, 'definition'>> &
      Pick<StageDefinition, 'sensitivePaths' | 'models'>,
  ): Promise<StageRuntime>;
}

async function rig(partitions = 1): Promise<Rig> {
  const bus = createMemoryBus({ retryBackoff: { initialMs: 2, maxMs: 20 } });
  await bus.ensureTopics([
    { name: INPUT.name, partitions },
    { name: OUTPUT.name, partitions: 1 },
    { name: DEAD_LETTERS, partitions: 1 },
  ]);
  cleanups.push(() => bus.close());
  const prefix = uniqueName('task');
  return {
    bus,
    ids: (count) => Array.from({ length: count }, (_, i) => `${prefix}-${String(i)}`),
    publish: (...inputs) => bus.publish(inputs.map((value) => ({ topic: INPUT, key: value.task_id, value }))),
    republish: (...inputs) =>
      bus.publish(
        inputs.map((value) => ({
          topic: INPUT,
          key: value.task_id,
          value,
          headers: { [REPUBLISHED_HEADER]: 'true' },
        })),
      ),
    outputs: () =>
      bus.records(OUTPUT.name).map((r) => {
        if (!r.value) throw new Error('output record without a value');
        return JSON.parse(decodeWire(r.value).payload.toString('utf8')) as ModelSelected;
      }),
    deadLetters: () => bus.records(DEAD_LETTERS),
    inputRecords: () => bus.records(INPUT.name),
    committed: () => Object.values(bus.committedOffsets(GROUP, INPUT.name)).reduce((a, b) => a + b, 0),
    async run(decide, { sensitivePaths, models, ...options } = {}) {
      const runtime = createStageRuntime({
        definition: { stage: STAGE, input: INPUT, versions: () => VERSIONS, decide, sensitivePaths, models },
        bus,
        store,
        retryBaseMs: 1,
        retryMaxMs: 5,
        storeProbeIntervalMs: 10,
        ...options,
      });
      await runtime.start();
      cleanups.push(() => runtime.stop());
      return runtime;
    },
  };
}

async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function retriable(message: string): Error {
  return Object.assign(new Error(message), { retriable: true });
}

function recordingObserver(): { observer: RuntimeObserver; outcomes: string[]; retries: string[] } {
  const outcomes: string[] = [];
  const retries: string[] = [];
  return {
    outcomes,
    retries,
    observer: {
      onMessage: (outcome) => outcomes.push(outcome),
      onRetry: (what) => retries.push(what),
    },
  };
}

describe('stage runtime: decide, append, publish', () => {
  it('appends the decision before publishing it, with the deterministic event id and the full envelope', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId, { traceparent: TRACEPARENT });
    const { decide, calls } = scripted({
      [taskId]: (i) =>
        selected(i, 'small model fits the request', {
          revision_count: 2,
          degraded_flag: true,
          versions: { policy_version: 'pol-pinned' },
        }),
    });
    // Publishing checks the log: a decision on the bus that is not in the event log would break EL-2.
    const inLogAtPublish: boolean[] = [];
    const publish: Bus['publish'] = async (messages) => {
      const ids = messages.map((m) => (m.value as Envelope).event_id);
      inLogAtPublish.push((await store.findByEventIds(ids)).size === ids.length);
      await r.bus.publish(messages);
    };
    const decided: Envelope[] = [];
    const runtime = createStageRuntime({
      definition: { stage: STAGE, input: INPUT, versions: () => VERSIONS, decide },
      bus: { ...r.bus, publish },
      store,
      now: () => new Date('2030-01-02T03:04:05.678Z'),
      observer: { onMessage: (_outcome, _seconds, envelope) => envelope && decided.push(envelope) },
    });
    expect(runtime.isReady()).toBe(false);
    await runtime.start();
    cleanups.push(() => runtime.stop());
    expect(runtime.state).toBe('running');
    expect(runtime.isReady()).toBe(true);

    await r.publish(input);
    await waitFor(() => r.outputs().length === 1, 'the decision on the output topic');

    const expected: Envelope = {
      event_id: decisionEventId(STAGE, input),
      task_id: taskId,
      tenant_id: 'tenant-a',
      agent_id: 'agent-a',
      stage: STAGE,
      event_type: 'model_selected',
      causation_id: input.event_id,
      revision_count: 2,
      degraded_flag: true,
      decision_reason: 'small model fits the request',
      input_source: 'pipeline',
      registry_version: 'reg-7',
      profiles_version: 'prof-3',
      policy_version: 'pol-pinned',
      occurred_at: '2030-01-02T03:04:05.678Z',
      // Producers stamp the contract version they speak.
      schema_version: CONTRACT_VERSION,
      traceparent: TRACEPARENT,
    };
    expect(expected.event_id).toMatch(/^ev_[0-9a-f]{40}$/);
    const [output] = r.outputs();
    const { payload, ...envelope } = output ?? ({} as ModelSelected);
    expect(envelope).toEqual(expected);
    expect(payload.selection.primary).toBe('model-small');
    expect(payload.task).toEqual(input.payload.task);
    expect(r.bus.records(OUTPUT.name)[0]?.key).toBe(taskId);
    expect(r.bus.records(OUTPUT.name)[0]?.headers.traceparent).toBe(TRACEPARENT);
    expect(inLogAtPublish).toEqual([true]);

    const rows = await store.readTask(taskId);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.envelope).toEqual(expected);
    expect(rows[0]?.topic).toBe(OUTPUT.name);
    expect(rows[0]?.payload).toEqual(payload);
    expect(decided).toEqual([expected]);
    expect(calls.get(taskId)).toBe(1);
    await waitFor(() => r.committed() === 1, 'the input committed');
  });

  it('re-publishes the stored decision for a redelivered input instead of deciding again (EL-2)', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId);
    // Non-deterministic on purpose: a second decide call would produce a different reason.
    const { decide, calls } = scripted({ [taskId]: (i) => selected(i, `coin flip ${randomUUID()}`) });
    const seen = recordingObserver();
    await r.run(decide, { observer: seen.observer });

    await r.publish(input);
    await waitFor(() => r.outputs().length === 1, 'the first publication');
    await r.republish(input);
    await waitFor(() => r.outputs().length === 2, 'the re-publication');

    const [first, second] = r.outputs();
    expect(first?.decision_reason).toMatch(/^coin flip /);
    expect(second).toEqual(first);
    expect(calls.get(taskId)).toBe(1);
    expect(await store.readTask(taskId)).toHaveLength(1);
    expect(seen.outcomes).toEqual(['decided', 'reused']);
    // Sent again, so marked: the next stage looks its input up rather than taking it for new.
    const [one, two] = r.bus.records(OUTPUT.name);
    expect(one?.headers[REPUBLISHED_HEADER]).toBeUndefined();
    expect(two?.headers[REPUBLISHED_HEADER]).toBe('true');
  });

  it('records the stage’s own time on a decision with it (EL-6), retries included', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    // A decision that takes ~60 ms of its own, on its second attempt after a retriable failure.
    const tried = new Set<string>();
    const decide: Decide = async (input) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (!tried.has(input.task_id)) {
        tried.add(input.task_id);
        throw retriable('first attempt fails');
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      return selected(input, 'slow but sure');
    };
    await r.run(decide);
    await r.publish(submitted(taskId));
    await waitFor(() => r.outputs().length === 1, 'the decision');
    const [event] = await store.readTask(taskId);
    expect(event?.work_ms).toBeGreaterThanOrEqual(55);
    expect(event?.work_ms).toBeLessThan(5_000);
  });

  it('reuses the stored decision when the batch is retried after its append (the publish failed once)', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const { decide, calls } = scripted({ [taskId]: (i) => selected(i, `coin flip ${randomUUID()}`) });
    const seen = recordingObserver();
    let refusals = 1;
    const flakyBus: Bus = {
      ...r.bus,
      publish: (messages) =>
        refusals-- > 0 ? Promise.reject(retriable('broker not available')) : r.bus.publish(messages),
    };
    await r.run(decide, { observer: seen.observer, bus: flakyBus });
    await r.publish(submitted(taskId));
    await waitFor(() => r.committed() === 1, 'the input handled and committed');

    expect(calls.get(taskId)).toBe(1);
    expect(r.outputs()).toHaveLength(1);
    expect(await store.readTask(taskId)).toHaveLength(1);
    expect(seen.outcomes).toEqual(['decided', 'reused']);
  });

  it('looks up only inputs the bus cannot vouch are new, and keeps a stored decision an unmarked copy meets', async () => {
    const r = await rig();
    const [warm = '', taskId = ''] = r.ids(2);
    const { decide, calls } = scripted({
      [warm]: (i) => selected(i, 'the first input of the partition'),
      [taskId]: (i) => selected(i, `coin flip ${randomUUID()}`),
    });
    const seen = recordingObserver();
    const lookups: string[][] = [];
    const countingStore: EventStore = {
      ...store,
      findByEventIds: (ids, options) => {
        lookups.push([...ids]);
        return store.findByEventIds(ids, options);
      },
    };
    await r.run(decide, { observer: seen.observer, store: countingStore });
    // The first batch of a partition: the bus cannot tell what an earlier owner was handed, so it is looked up.
    await r.publish(submitted(warm));
    await waitFor(() => r.outputs().length === 1, 'the first input');
    expect(lookups).toEqual([[decisionEventId(STAGE, submitted(warm))]]);

    const input = submitted(taskId);
    await r.publish(input);
    await waitFor(() => r.outputs().length === 2, 'the first publication');
    expect(lookups).toHaveLength(1);

    // The same input again, unmarked (a producer outside Signalbox sent it twice): taken for new, decided again —
    // and the append keeps the stored decision, which is what goes out, marked as a re-publication.
    await r.publish(input);
    await waitFor(() => r.outputs().length === 3, 'the second publication');
    expect(calls.get(taskId)).toBe(2);
    const [, first, second] = r.outputs();
    expect(second).toEqual(first);
    const [, one, two] = r.bus.records(OUTPUT.name);
    expect(two?.value?.equals(one?.value ?? Buffer.alloc(0))).toBe(true);
    expect(one?.headers[REPUBLISHED_HEADER]).toBeUndefined();
    expect(two?.headers[REPUBLISHED_HEADER]).toBe('true');
    expect(await store.readTask(taskId)).toHaveLength(1);
    expect(seen.outcomes).toEqual(['decided', 'decided', 'reused']);

    // Marked as a re-publication: looked up, not decided.
    await r.republish(input);
    await waitFor(() => r.outputs().length === 4, 'the third publication');
    expect(lookups).toHaveLength(2);
    expect(lookups[1]).toEqual([decisionEventId(STAGE, input)]);
    expect(calls.get(taskId)).toBe(2);
  });

  it('does not publish a decision taken again for an input whose original decision was pruned (EL-4)', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const { decide } = scripted({ [taskId]: (i) => selected(i, 'decided again after retention') });
    const seen = recordingObserver();
    // The event log reports the id as stored once and pruned since: the original decision went on long ago.
    const prunedStore: EventStore = {
      ...store,
      append: async (events, options) =>
        (await store.append(events, options)).map((result) => ({
          ...result,
          inserted: false,
          pruned: true as const,
        })),
    };
    await r.run(decide, { observer: seen.observer, store: prunedStore });
    await r.publish(submitted(taskId));
    await waitFor(() => r.committed() === 1, 'the input handled and committed');
    expect(r.outputs()).toHaveLength(0);
    expect(seen.outcomes).toEqual(['reused']);
  });

  it('decides once when a redelivered copy arrives in the same batch', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId);
    const { decide, calls } = scripted({ [taskId]: (i) => selected(i, `coin flip ${randomUUID()}`) });
    await r.publish(input, input);
    await r.run(decide);

    await waitFor(() => r.committed() === 2, 'both copies committed');
    expect(calls.get(taskId)).toBe(1);
    const rows = await store.readTask(taskId);
    expect(rows).toHaveLength(1);
    expect(r.outputs().length).toBeGreaterThanOrEqual(1);
    for (const output of r.outputs()) expect(output.decision_reason).toBe(rows[0]?.envelope.decision_reason);
  });
});

describe('stage runtime: sensitive values (PI-5, RS-6)', () => {
  const phone = '+46 70 123 45 67';
  const record = (contact: string): StepRecord => ({
    call: {
      step_index: 0,
      tool: 'create_ticket',
      arguments: { title: 'Parcel lost', contact },
      provenance: { title: 'user_text', contact: 'user_text' },
      validation_log: ['contact = [redacted]'],
    },
    result: {
      step_index: 0,
      tool: 'create_ticket',
      ok: true,
      output: { ticket_id: 'T-1' },
      output_ref: null,
      output_kind: 'action_receipt',
      error_class: null,
      error_message: null,
      duration_ms: 3,
      attempts: 1,
      cache_hit: false,
      fetched_at: null,
      idempotency_key: null,
    },
    status: 'success',
    issues: [],
  });
  /** A decision whose history carries the contact phone, and the path the stage declares sensitive. */
  const withContact = (i: StageInput, reason: string): Decision => {
    const decision = selected(i, reason);
    return { ...decision, payload: { ...(decision.payload as object), history: [record(phone)] } };
  };
  const sensitivePaths = (payload: unknown) =>
    ((payload as { history?: unknown[] }).history ?? []).map(
      (_, n) => `history.${String(n)}.call.arguments.contact`,
    );

  it('publishes the real value, stores it redacted, and re-publishes it byte for byte on redelivery', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId);
    const { decide, calls } = scripted({ [taskId]: (i) => withContact(i, `coin flip ${randomUUID()}`) });
    await r.run(decide, { sensitivePaths });

    await r.publish(input);
    await waitFor(() => r.outputs().length === 1, 'the first publication');
    await r.republish(input);
    await waitFor(() => r.outputs().length === 2, 'the re-publication');

    const [first] = r.outputs();
    expect(first?.payload.history[0]?.call.arguments.contact).toBe(phone);
    const [one, two] = r.bus.records(OUTPUT.name);
    expect(two?.value?.equals(one?.value ?? Buffer.alloc(0))).toBe(true);
    expect(calls.get(taskId)).toBe(1);

    const rows = await store.readTask(taskId);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows[0]?.payload)).not.toContain(phone);
    expect((rows[0]?.payload as ModelSelected['payload']).history[0]?.call.arguments.contact).toBe(
      '[REDACTED]',
    );
    const id = decisionEventId(STAGE, input);
    expect((await store.findByEventIds([id], { withSecrets: true })).get(id)?.payload).toEqual(
      first?.payload,
    );
  });

  it('dead-letters a decision whose declared sensitive path it does not hold, storing nothing in the clear', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const { decide } = scripted({ [taskId]: (i) => withContact(i, 'contact recorded') });
    await r.run(decide, { sensitivePaths: () => ['history.0.call.arguments.phone'] });

    await r.publish(submitted(taskId));
    await waitFor(() => r.deadLetters().length === 1, 'the dead letter');

    expect(r.outputs()).toEqual([]);
    const rows = await store.readTask(taskId);
    expect(rows.map((e) => e.envelope.event_type)).toEqual(['failed']);
    expect(rows[0]?.envelope.decision_reason).toContain(
      'history.0.call.arguments.phone is not in the payload',
    );
    expect(JSON.stringify(rows.map((e) => [e.envelope, e.payload]))).not.toContain(phone);
  });
});

describe('stage runtime: model exchanges (EL-2, EL-7, EL-9)', () => {
  /** What the decide below asks its model: the task's request, so each task's exchange is its own. */
  const question = (input: StageInput): ModelRequest => ({
    messages: [
      { role: 'system', content: 'Name the model profile that fits the request.' },
      { role: 'user', content: (input as TaskSubmitted).payload.task.request },
    ],
    temperature: 0,
  });
  /** A decide that asks the task's profile model which model to pick, and picks what it answers. */
  const askingDecide: Decide = async (input, ctx) => {
    const model = ctx.models?.('light_model');
    if (!model) throw new TypeError('no model for light_model');
    const answer = await model.complete(question(input));
    const decision = selected(input, `the model chose ${String(answer.content)}`);
    const payload = decision.payload as ModelSelected['payload'];
    return {
      ...decision,
      payload: { ...payload, selection: { ...payload.selection, primary: String(answer.content) } },
    };
  };

  it('stores the exchange with the decision, and a redelivery reuses it without asking the model again', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId);
    // Strict: a second call (a redelivery deciding again) would be refused, and fail the input.
    const model = createScriptedProvider(
      [
        {
          expect: { lastUserMessage: `request of ${taskId}` },
          respond: { content: 'model-large', usage: { inputTokens: 41, outputTokens: 2 } },
        },
      ],
      { model: 'gpt-4o-mini-2024-07-18' },
    );
    const seen = recordingObserver();
    await r.run(askingDecide, {
      observer: seen.observer,
      models: (profile) => (profile === 'light_model' ? model : undefined),
    });

    await r.publish(input);
    await waitFor(() => r.outputs().length === 1, 'the decision');
    // A redelivery the bus cannot vouch is new (the upstream re-published it): looked up, found, reused.
    await r.republish(input);
    await waitFor(() => r.outputs().length === 2, 'the re-publication');

    model.assertConsumed();
    expect(model.requests).toHaveLength(1);
    expect(seen.outcomes).toEqual(['decided', 'reused']);
    const [first, second] = r.outputs();
    expect(first?.payload.selection.primary).toBe('model-large');
    expect(second).toEqual(first);

    const id = decisionEventId(STAGE, input);
    const stored = (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id);
    expect(stored?.exchanges).toHaveLength(1);
    const [exchange] = stored?.exchanges ?? [];
    expect(exchange).toMatchObject({
      profile_id: 'light_model',
      model: 'gpt-4o-mini-2024-07-18',
      request_hash: hashModelRequest(question(input)),
      request: question(input),
      response: { content: 'model-large', toolCalls: [], usage: { inputTokens: 41, outputTokens: 2 } },
      input_tokens: 41,
      output_tokens: 2,
    });
    expect(exchange?.latency_ms).toBeGreaterThanOrEqual(0);
    expect(await store.readTask(taskId)).toHaveLength(1);
  });

  it('stores only the exchanges of the attempt that decided, not those of a retried one', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const model = createScriptedProvider([
      { label: 'first attempt', respond: { content: 'model-small' } },
      { label: 'second attempt', respond: { content: 'model-large' } },
    ]);
    let attempts = 0;
    const decide: Decide = async (input, ctx) => {
      const decision = await askingDecide(input, ctx);
      if (++attempts === 1) throw retriable('the registry blinked after the model answered');
      return decision;
    };
    await r.run(decide, { models: () => model });
    await r.publish(submitted(taskId));
    await waitFor(() => r.outputs().length === 1, 'the decision');

    model.assertConsumed();
    const [event] = await store.readTask(taskId, { withExchanges: true });
    expect(event?.exchanges?.map((x) => (x.response as { content: string }).content)).toEqual([
      'model-large',
    ]);
    expect(r.outputs()[0]?.payload.selection.primary).toBe('model-large');
  });

  it('stores a failed call with the decision that degraded on it, and a replay re-takes that decision exactly', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const input = submitted(taskId);
    /** Asks the model; when the call fails, keeps the default profile and says why, flagged degraded. */
    const degradingDecide: Decide = async (input, ctx) => {
      try {
        return await askingDecide(input, ctx);
      } catch (error) {
        const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        return selected(input, `model unavailable (${why}); the default profile stands`, {
          degraded_flag: true,
        });
      }
    };
    let asked = 0;
    const down: ModelProvider = {
      complete() {
        asked++;
        return Promise.reject(
          new ProviderTimeoutError('request timed out after 30000 ms', { model: 'gpt-4o-mini' }),
        );
      },
    };
    await r.run(degradingDecide, { models: (profile) => (profile === 'light_model' ? down : undefined) });
    await r.publish(input);
    await waitFor(() => r.outputs().length === 1, 'the decision');
    expect(asked).toBe(1);

    const id = decisionEventId(STAGE, input);
    const stored = (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id);
    expect(stored?.envelope).toMatchObject({
      degraded_flag: true,
      decision_reason:
        'model unavailable (ProviderTimeoutError: request timed out after 30000 ms); the default profile stands',
    });
    expect(stored?.exchanges).toEqual([
      {
        profile_id: 'light_model',
        model: null,
        request_hash: hashModelRequest(question(input)),
        request: question(input),
        response: null,
        input_tokens: null,
        output_tokens: null,
        latency_ms: expect.any(Number) as number,
        error: {
          name: 'ProviderTimeoutError',
          message: 'request timed out after 30000 ms',
          timeout: true,
          retriable: true,
          model: 'gpt-4o-mini',
        },
      },
    ]);

    // EL-9: re-taken on the recorded exchanges, with no model at all, the decision comes out the same — 0 differences.
    const redecide = async (replay: ReturnType<typeof replayExchanges>) => {
      const decision = await degradingDecide(input, {
        stage: STAGE,
        versions: VERSIONS,
        models: replay.models,
      });
      return {
        event_type: decision.event_type,
        decision_reason: decision.decision_reason,
        degraded_flag: decision.degraded_flag,
        payload: JSON.parse(JSON.stringify(decision.payload)) as unknown,
      };
    };
    const recorded = {
      event_type: stored?.envelope.event_type,
      decision_reason: stored?.envelope.decision_reason,
      degraded_flag: stored?.envelope.degraded_flag,
      payload: stored?.payload,
    };
    const replay = replayExchanges(stored?.exchanges ?? []);
    expect(await redecide(replay)).toEqual(recorded);
    expect(replay.replayed).toBe(1);
    expect(replay.unrecorded()).toEqual([]);
    expect(asked).toBe(1);
    // The control: without the recorded failure, the same re-take meets "not recorded" and says something else.
    const unrecorded = replayExchanges([], { configured: ['light_model'] });
    const without = await redecide(unrecorded);
    expect(without.decision_reason).toMatch(/^model unavailable \(UnrecordedRequestError: no recorded model/);
    expect(without.decision_reason).not.toBe(recorded.decision_reason);
    expect(unrecorded.unrecorded()).toHaveLength(1);
  });

  it('keeps the model calls of a decision that failed with its failed event', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const model = createScriptedProvider([{ respond: { content: 'model-huge' } }], { model: 'gpt-4o' });
    const decide: Decide = async (input, ctx) => {
      const answer = await ctx.models?.('light_model')?.complete(question(input));
      // Not retriable: the input is dead-lettered after this one attempt.
      throw new TypeError(`no profile named ${String(answer?.content)}`);
    };
    await r.run(decide, { models: () => model });
    await r.publish(submitted(taskId));
    await waitFor(async () => (await store.readTask(taskId)).length === 1, 'the failed event');

    model.assertConsumed();
    const [event] = await store.readTask(taskId, { withExchanges: true });
    expect(event?.envelope.event_type).toBe('failed');
    expect(event?.envelope.decision_reason).toContain('no profile named model-huge');
    expect(event?.exchanges).toMatchObject([
      { profile_id: 'light_model', model: 'gpt-4o', response: { content: 'model-huge' } },
    ]);
    expect(r.outputs()).toEqual([]);
  });

  it('gives a stage without models a context without models, and stores no exchanges', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const contexts: unknown[] = [];
    await r.run((input, ctx) => {
      contexts.push(ctx.models);
      return selected(input, 'deterministic');
    });
    await r.publish(submitted(taskId));
    await waitFor(() => r.outputs().length === 1, 'the decision');
    expect(contexts).toEqual([undefined]);
    const [event] = await store.readTask(taskId, { withExchanges: true });
    expect(event?.exchanges).toEqual([]);
  });
});

describe('stage runtime: failures and dead letters (RS-2)', () => {
  it('dead-letters an input whose decision the output schema refuses, with a failed event; the batch proceeds', async () => {
    const r = await rig();
    const [a = '', bad = '', c = ''] = r.ids(3);
    const { decide } = scripted({
      [a]: (i) => selected(i, 'ok'),
      [bad]: (i) => {
        const decision = selected(i, 'empty primary');
        const payload = decision.payload as ModelSelected['payload'];
        return { ...decision, payload: { ...payload, selection: { ...payload.selection, primary: '' } } };
      },
      [c]: (i) => selected(i, 'ok'),
    });
    await r.publish(submitted(a), submitted(bad), submitted(c));
    await r.run(decide);

    await waitFor(() => r.committed() === 3, 'the batch committed');
    expect(r.outputs().map((o) => o.task_id)).toEqual([a, c]);
    const [letter] = r.deadLetters();
    expect(r.deadLetters()).toHaveLength(1);
    expect(letter?.key).toBe(bad);
    expect(letter?.value).toEqual(r.inputRecords()[1]?.value);
    expect(letter?.headers[DEAD_LETTER_HEADERS.reason]).toBe('handler_failed');
    expect(letter?.headers[DEAD_LETTER_HEADERS.detail]).toMatch(
      /InvalidDecisionError: .*payload\.selection\.primary/,
    );
    expect(letter?.headers[DEAD_LETTER_HEADERS.sourceOffset]).toBe('1');

    const [failed] = await store.readTask(bad);
    expect(failed?.envelope).toMatchObject({
      event_type: 'failed',
      stage: STAGE,
      causation_id: `ev_submitted_${bad}`,
    });
    expect(failed?.envelope.decision_reason).toMatch(/^dead-lettered: InvalidDecisionError/);
    expect(failed?.topic).toBeNull();
    expect(failed?.payload).toMatchObject({
      reason: 'handler_failed',
      source: { topic: INPUT.name, offset: '1' },
    });
    for (const id of [a, c])
      expect((await store.readTask(id)).map((e) => e.envelope.event_type)).toEqual(['model_selected']);
  });

  it('dead-letters a decision that cannot be encoded as JSON instead of stopping the stage', async () => {
    const r = await rig();
    const [bad = '', next = ''] = r.ids(2);
    const { decide } = scripted({
      [bad]: (i) => {
        const decision = selected(i, 'circular');
        const payload: Record<string, unknown> = { ...(decision.payload as object) };
        payload.self = payload;
        return { ...decision, payload };
      },
      [next]: (i) => selected(i, 'ok'),
    });
    const runtime = await r.run(decide);
    await r.publish(submitted(bad), submitted(next));

    await waitFor(() => r.committed() === 2, 'both inputs committed');
    expect(runtime.state).toBe('running');
    expect(r.deadLetters().map((d) => d.headers[DEAD_LETTER_HEADERS.detail])).toEqual([
      expect.stringMatching(/InvalidDecisionError: .*not JSON-serializable/),
    ]);
    expect((await store.readTask(bad)).map((e) => e.envelope.event_type)).toEqual(['failed']);
    expect(r.outputs().map((o) => o.task_id)).toEqual([next]);
  });

  it('retries a decide that fails with a retriable error, then publishes its decision', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const { decide, calls } = scripted({
      [taskId]: (i, call) => {
        if (call === 1) throw retriable('model endpoint busy');
        return selected(i, 'second try');
      },
    });
    const seen = recordingObserver();
    await r.run(decide, { observer: seen.observer });
    await r.publish(submitted(taskId));

    await waitFor(() => r.outputs().length === 1, 'the decision');
    expect(r.outputs()[0]?.decision_reason).toBe('second try');
    expect(calls.get(taskId)).toBe(2);
    expect(seen.retries).toEqual(['decide']);
    expect(seen.outcomes).toEqual(['decided']);
    expect(r.deadLetters()).toEqual([]);
    expect((await store.readTask(taskId)).map((e) => e.envelope.event_type)).toEqual(['model_selected']);
  });

  it('dead-letters an input whose decide always throws, after bounded retries; the inputs behind it flow', async () => {
    const r = await rig();
    const [before = '', poison = '', broken = '', after = '', later = ''] = r.ids(5);
    const ok = (i: StageInput) => selected(i, 'ok');
    const { decide, calls } = scripted({
      [before]: ok,
      // Retriable but never recovering: retried decideAttempts times, then given up.
      [poison]: () => {
        throw retriable('upstream down');
      },
      // Not retriable: given up at once.
      [broken]: () => {
        throw new Error('cannot plan this');
      },
      [after]: ok,
      [later]: ok,
    });
    const seen = recordingObserver();
    await r.run(decide, { decideAttempts: 3, observer: seen.observer });
    await r.publish(submitted(before), submitted(poison), submitted(broken), submitted(after));

    await waitFor(() => r.committed() === 4, 'the batch committed');
    expect(calls.get(poison)).toBe(3);
    expect(calls.get(broken)).toBe(1);
    expect(seen.retries).toEqual(['decide', 'decide']);
    expect(
      r
        .deadLetters()
        .map((d) => [d.key, d.headers[DEAD_LETTER_HEADERS.reason], d.headers[DEAD_LETTER_HEADERS.detail]]),
    ).toEqual([
      [poison, 'handler_failed', 'Error: upstream down'],
      [broken, 'handler_failed', 'Error: cannot plan this'],
    ]);
    for (const id of [poison, broken]) {
      expect((await store.readTask(id)).map((e) => e.envelope.event_type)).toEqual(['failed']);
    }

    // The stage keeps flowing, and a redelivered poison input reuses its stored failure instead of deciding again.
    await r.publish(submitted(later));
    await r.republish(submitted(poison));
    await waitFor(() => r.committed() === 6, 'the next batch committed');
    expect(r.outputs().map((o) => o.task_id)).toEqual([before, after, later]);
    expect(calls.get(poison)).toBe(3);
    expect(r.deadLetters().map((d) => d.key)).toEqual([poison, broken, poison]);
    expect(await store.readTask(poison)).toHaveLength(1);
  });

  it('dead-letters a decide failure whose message is longer than an event may carry', async () => {
    const r = await rig();
    const [bad = '', next = ''] = r.ids(2);
    const { decide } = scripted({
      [bad]: () => {
        throw new Error(`provider said: ${'x'.repeat(10_000)}`);
      },
      [next]: (i) => selected(i, 'ok'),
    });
    const runtime = await r.run(decide);
    await r.publish(submitted(bad), submitted(next));

    await waitFor(() => r.committed() === 2, 'both inputs committed');
    expect(runtime.state).toBe('running');
    const [failed] = await store.readTask(bad);
    expect(failed?.envelope.event_type).toBe('failed');
    expect(failed?.envelope.decision_reason.length).toBeLessThanOrEqual(4000);
    expect(failed?.envelope.decision_reason).toMatch(/^dead-lettered: Error: provider said: x+…$/);
    expect(r.outputs().map((o) => o.task_id)).toEqual([next]);
  });

  it('records undecodable input as a failed event of its key, and of `unknown` when the key is empty', async () => {
    const r = await rig();
    const [poisonKey = '', next = ''] = r.ids(2);
    const { decide } = scripted({ [next]: (i) => selected(i, 'ok') });
    const runtime = await r.run(decide);
    r.bus.produceRaw(INPUT.name, { key: poisonKey, value: Buffer.from('not the wire format') });
    r.bus.produceRaw(INPUT.name, { key: '', value: Buffer.from([0, 0, 0, 0, 99, 123, 125]) });
    await r.publish(submitted(next));

    await waitFor(() => r.committed() === 3, 'every input committed');
    expect(runtime.state).toBe('running');
    expect(r.deadLetters().map((d) => [d.key, d.headers[DEAD_LETTER_HEADERS.reason]])).toEqual([
      [poisonKey, 'undecodable'],
      ['', 'unknown_schema'],
    ]);
    const [failed] = await store.readTask(poisonKey);
    expect(failed?.envelope).toMatchObject({ event_type: 'failed', causation_id: `${INPUT.name}/0/0` });
    expect(failed?.payload).toMatchObject({
      reason: 'undecodable',
      source: { topic: INPUT.name, partition: 0, offset: '0' },
    });
    const unknown = await store.readTask('unknown');
    expect(unknown.filter((e) => e.envelope.causation_id === `${INPUT.name}/0/1`)).toHaveLength(1);
    expect(r.outputs().map((o) => o.task_id)).toEqual([next]);
  });

  it('stops reporting ready when the event log refuses an append for good (not retriable)', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    const { decide } = scripted({ [taskId]: (i) => selected(i, 'ok') });
    const brokenStore: EventStore = {
      ...store,
      append: () => Promise.reject(new EventStoreQueryError('relation "events" does not exist')),
    };
    const runtime = await r.run(decide, { store: brokenStore });
    await r.publish(submitted(taskId));

    await waitFor(() => runtime.state === 'failed', 'the runtime to fail');
    expect(runtime.isReady()).toBe(false);
    // Nothing was committed: the input comes again once the worker is fixed and restarted.
    expect(r.committed()).toBe(0);
    expect(r.outputs()).toEqual([]);
    await runtime.stop();
    expect(runtime.state).toBe('stopped');
  });
});

describe('stage runtime: backpressure and lifecycle (RS-3)', () => {
  it('pauses consumption while the event log is unreachable, then resumes with exactly one row per input', async () => {
    const r = await rig(2);
    const ids = r.ids(10);
    const { decide } = scripted(
      Object.fromEntries(ids.map((id) => [id, (i: StageInput) => selected(i, `reason ${randomUUID()}`)])),
    );
    let down = false;
    let failedAppends = 0;
    const outage = () => new EventStoreUnavailableError('connect ECONNREFUSED 127.0.0.1:5432');
    const flakyStore: EventStore = {
      ...store,
      append: (events) => {
        if (!down) return store.append(events);
        failedAppends++;
        return Promise.reject(outage());
      },
      ping: () => (down ? Promise.reject(outage()) : store.ping()),
    };
    const pausing: string[] = [];
    const spyBus: Bus = {
      ...r.bus,
      consume: async (options) => {
        const sub = await r.bus.consume(options);
        const spied: Subscription = {
          pause: () => {
            pausing.push('pause');
            sub.pause();
          },
          resume: () => {
            pausing.push('resume');
            sub.resume();
          },
          stop: () => sub.stop(),
        };
        return spied;
      },
    };
    const seen = recordingObserver();
    const runtime = await r.run(decide, { store: flakyStore, bus: spyBus, observer: seen.observer });
    expect(runtime.isReady()).toBe(true);

    down = true;
    await r.publish(...ids.slice(0, 5).map((id) => submitted(id)));
    await waitFor(() => !runtime.isReady(), 'readiness to drop');
    expect(pausing).toEqual(['pause']);
    expect(runtime.state).toBe('running');
    await waitFor(
      () => failedAppends >= 3 && seen.retries.includes('event_log'),
      'appends and probes to fail',
    );
    await r.publish(...ids.slice(5).map((id) => submitted(id)));
    expect(r.outputs()).toEqual([]);
    expect(r.committed()).toBe(0);

    down = false;
    await waitFor(() => runtime.isReady(), 'readiness to return');
    await waitFor(() => r.committed() === ids.length, 'every input committed');
    expect(pausing).toEqual(['pause', 'resume']);
    for (const id of ids) {
      const rows = await store.readTask(id);
      expect(rows.map((e) => e.envelope.event_type)).toEqual(['model_selected']);
      const published = r.outputs().filter((o) => o.task_id === id);
      expect(published.map((o) => o.decision_reason)).toEqual([rows[0]?.envelope.decision_reason]);
    }
  });

  it('drains on stop: the batch in flight is decided, published and committed, nothing new is fetched', async () => {
    const r = await rig();
    const ids = r.ids(4);
    const [first = '', second = '', third = '', afterStop = ''] = ids;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const decide: Decide = async (input) => {
      started++;
      await gate;
      return selected(input, 'ok');
    };
    await r.publish(submitted(first), submitted(second), submitted(third));
    const runtime = await r.run(decide);
    // Runs before the runtime's own cleanup, so a failing assertion cannot leave stop() waiting on the gate.
    cleanups.push(() => {
      release();
      return Promise.resolve();
    });
    await waitFor(() => started === 3, 'the batch in flight');

    let stopped = false;
    const stopping = runtime.stop().then(() => {
      stopped = true;
    });
    expect(runtime.state).toBe('draining');
    expect(runtime.isReady()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;

    expect(runtime.state).toBe('stopped');
    expect(r.outputs().map((o) => o.task_id)).toEqual([first, second, third]);
    expect(r.committed()).toBe(3);
    await r.publish(submitted(afterStop));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(started).toBe(3);
    expect(await store.readTask(afterStop)).toEqual([]);
  });

  // Issue 21: a decision waiting out a tool's outage must neither hold the drain up nor be reported as failed.
  it('a decision that gives up as the stage drains is left undecided and uncommitted; the next owner decides it', async () => {
    const r = await rig();
    const [taskId = ''] = r.ids(1);
    let waiting = 0;
    const outage: Decide = (_input, ctx) =>
      new Promise<Decision>((_resolve, reject) => {
        waiting++;
        ctx.signal?.addEventListener(
          'abort',
          () => {
            reject(new DecisionDeferredError('the tool is still down'));
          },
          { once: true },
        );
      });
    await r.publish(submitted(taskId));
    const runtime = await r.run(outage);
    await waitFor(() => waiting === 1, 'the decision waiting on the outage');

    const began = Date.now();
    await runtime.stop();
    expect(Date.now() - began).toBeLessThan(1000);
    expect(runtime.state).toBe('stopped');
    expect(r.committed()).toBe(0);
    expect(r.deadLetters()).toEqual([]);
    expect(await store.readTask(taskId)).toEqual([]);

    await r.run((input) => selected(input, 'decided once the tool was back'));
    await waitFor(() => r.committed() === 1, 'the next owner deciding the input');
    expect(r.outputs().map((o) => o.task_id)).toEqual([taskId]);
    const rows = await store.readTask(taskId);
    expect(rows.map((e) => e.envelope.event_type)).toEqual(['model_selected']);
    expect(waiting).toBe(1);
  });

  it('refuses a definition whose input topic is another stage’s, and bad options, before any side effect', async () => {
    const r = await rig();
    const consumed: string[] = [];
    const bus: Bus = {
      ...r.bus,
      consume: (options) => {
        consumed.push(options.topic.name);
        return r.bus.consume(options);
      },
    };
    const decide: Decide = () => {
      throw new Error('never called');
    };
    expect(() =>
      createStageRuntime({
        definition: { stage: STAGE, input: TOPICS.modelSelected, versions: () => VERSIONS, decide },
        bus,
        store,
      }),
    ).toThrow(
      new StageConfigError(
        `stage ${STAGE} cannot consume ${TOPICS.modelSelected.name}: that topic is the input of tool_decider`,
      ),
    );
    expect(() =>
      createStageRuntime({
        definition: { stage: STAGE, input: INPUT, versions: () => VERSIONS, decide },
        bus,
        store,
        concurrency: 0,
      }),
    ).toThrow(/concurrency must be a positive integer, got 0/);
    expect(consumed).toEqual([]);

    const runtime = await r.run(decide, { bus });
    expect(consumed).toEqual([INPUT.name]);
    await expect(runtime.start()).rejects.toThrow(StageConfigError);
  });
});
