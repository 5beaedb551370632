import { createServer } from 'node:net';
import { appendDecision, checkResponses, listenLocally, type ResponseLog } from '@signalbox/api/testing';
import { createApiApp, hashApiKey } from '@signalbox/api';
import { createMemoryBus, type MemoryBus } from '@signalbox/bus/testing';
import {
  TOPICS,
  argumentsHash as contractsArgumentsHash,
  type Envelope,
  type TaskSpec,
  type TaskStatus,
  type TaskSubmitted,
} from '@signalbox/contracts';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { argumentHash, confirmationsIn } from '@signalbox/executor';
import { uniqueName } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  SignalboxApiError,
  SignalboxConnectionError,
  SignalboxTimeoutError,
  argumentsHash,
  createSignalboxClient,
  type SignalboxClient,
} from './index.js';

// The client against the real API app, listening on a port, over the in-memory bus and an event log (PGlite, every
// migration). No pipeline runs: a scripted stage consumes what the API publishes and appends the decisions a real
// pipeline would, so the client's waiting, answering and confirming meet the API's real answers. Every answer the
// API sends is checked against its OpenAPI document.

const KEY = 'sk-client-test-0123456789';
const OTHER_KEY = 'sk-client-test-other-0123';

let store: EventStore;
// PGlite with every migration takes seconds, more on a busy machine.
beforeAll(async () => {
  store = createPgliteEventStore();
  await store.migrate();
}, 120_000);
afterAll(async () => {
  await store.close();
});

/** What the scripted stage does with one submission (a first one or an answer's continuation). */
type Script = (message: TaskSubmitted) => Promise<void>;

let bus: MemoryBus;
let app: FastifyInstance;
let responses: ResponseLog;
let baseUrl: string;
let client: SignalboxClient;
let script: Script;
let tenant: string;

beforeEach(async () => {
  bus = createMemoryBus();
  await bus.ensureTopics([
    { name: TOPICS.taskSubmitted.name, partitions: 1 },
    { name: TOPICS.taskSubmitted.deadLetterTopic ?? '', partitions: 1 },
  ]);
  script = () => Promise.resolve();
  await bus.consume({
    groupId: 'scripted-stage',
    topic: TOPICS.taskSubmitted,
    handler: async (batch) => {
      for (const message of batch) await script(message.value as TaskSubmitted);
      return { deadLetters: [] };
    },
  });
  tenant = uniqueName('tenant');
  app = createApiApp({
    bus,
    store,
    apiKeys: { [hashApiKey(KEY)]: tenant, [hashApiKey(OTHER_KEY)]: uniqueName('other') },
    taskEventsPollMs: 20,
  });
  responses = checkResponses(app);
  baseUrl = await listenLocally(app);
  client = createSignalboxClient({ baseUrl, apiKey: KEY, retryDelayMs: 10 });
});
afterEach(async () => {
  await app.close();
  await bus.close();
  expect(responses.problems).toEqual([]);
  checkedInAll += responses.checked;
});
let checkedInAll = 0;
afterAll(() => {
  expect(checkedInAll).toBeGreaterThan(20);
});

const task = {
  request: 'Where is my refund for order 1234?',
  agent_id: 'refund_agent',
  scenario: 'after-sales',
};

/** Appends a decision after the task's latest event, as a stage would. */
const decide = (taskId: string, stage: Envelope['stage'], eventType: string, payload: unknown) =>
  appendDecision(store, taskId, stage, eventType, payload);

const finished = (spec: TaskSpec, status: string, questions: string[] = []) => ({
  task: spec,
  status,
  steps: [],
  evidence: [],
  questions,
  issues: [],
  total_cost_usd: 0,
  duration_ms: 5,
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('submitTask', () => {
  it('submits with an Idempotency-Key: the same key again is the same task, replayed, never a second one', async () => {
    const first = await client.submitTask(task, { idempotencyKey: 'order-1234-refund' });
    expect(first).toMatchObject({ state: 'running', replayed: false, idempotency_key: 'order-1234-refund' });
    expect(first.task_id).toMatch(/^task_[0-9a-f]{32}$/);
    expect(first.links.task).toBe(`/v1/tasks/${first.task_id}`);
    const again = await client.submitTask(task, { idempotencyKey: 'order-1234-refund' });
    expect(again).toMatchObject({ task_id: first.task_id, replayed: true });
    expect(await store.readTask(first.task_id)).toHaveLength(1);

    // Without a key the client makes one, so that its own retries cannot start the task twice.
    const keyed = await client.submitTask(task);
    expect(keyed.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyed.task_id).not.toBe(first.task_id);

    const conflict = await client
      .submitTask({ ...task, request: 'Cancel order 1234' }, { idempotencyKey: 'order-1234-refund' })
      .catch((error: unknown) => error);
    expect(conflict).toBeInstanceOf(SignalboxApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'idempotency_conflict', retriable: false });
  });

  it("throws the API's error code and field errors for an invalid task", async () => {
    const error = await client
      .submitTask({ ...task, agent_id: '', time_zone: 'Mars/Olympus' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignalboxApiError);
    const apiError = error as SignalboxApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe('invalid_request');
    expect(apiError.fields.map((f) => f.path).sort()).toEqual(['agent_id', 'time_zone']);
    expect(apiError.message).toMatch(
      /POST \/v1\/tasks: HTTP 400 invalid_request: .*time_zone: not an IANA time zone/,
    );
  });

  it('throws unauthorized for a wrong key, and a connection error (retried first) when nothing listens', async () => {
    const wrong = createSignalboxClient({ baseUrl, apiKey: 'sk-not-a-key' });
    await expect(wrong.submitTask(task)).rejects.toMatchObject({ status: 401, code: 'unauthorized' });

    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as { port: number };
        server.close(() => {
          resolve(free);
        });
      });
    });
    let calls = 0;
    const nowhere = createSignalboxClient({
      baseUrl: `http://127.0.0.1:${String(port)}`,
      apiKey: KEY,
      maxRetries: 2,
      retryDelayMs: 1,
      fetch: (input, init) => {
        calls += 1;
        return fetch(input, init);
      },
    });
    const error = await nowhere.getTask('task_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignalboxConnectionError);
    expect((error as Error).message).toMatch(/is unreachable/);
    expect(calls).toBe(3);
  });

  it('refuses bad options before any request', () => {
    expect(() => createSignalboxClient({ baseUrl: 'not a url', apiKey: KEY })).toThrow(
      /baseUrl is not a URL/,
    );
    expect(() => createSignalboxClient({ baseUrl, apiKey: ' ' })).toThrow(/apiKey is empty/);
    expect(() => createSignalboxClient({ baseUrl, apiKey: KEY, maxRetries: -1 })).toThrow(/maxRetries/);
  });
});

describe('waitForTask', () => {
  const runToSuccess: Script = async (message) => {
    await pause(40);
    await decide(message.task_id, 'model_selector', 'model_selected', {});
    await pause(40);
    await decide(
      message.task_id,
      'result_evaluator',
      'task_finished',
      finished(message.payload.task, 'success'),
    );
  };

  it.each(['events', 'poll'] as const)(
    'waits for the result (via %s), seeing the statuses on the way',
    async (via) => {
      script = runToSuccess;
      const { task_id } = await client.submitTask(task);
      const seen: TaskStatus[] = [];
      const done = await client.waitForTask(task_id, {
        via,
        pollIntervalMs: 10,
        timeoutMs: 10_000,
        onStatus: (s) => seen.push(s),
      });
      expect(done).toMatchObject({ task_id, state: 'finished', result: { status: 'success' } });
      const stages = seen.map((s) => s.last_event.stage);
      expect(stages[stages.length - 1]).toBe('result_evaluator');
      expect(stages).toContain('model_selector');
    },
  );

  it('follows the events: status on each decision, then end', async () => {
    script = runToSuccess;
    const { task_id } = await client.submitTask(task);
    const types: string[] = [];
    for await (const event of client.taskEvents(task_id))
      types.push(`${event.type}:${event.status.last_event.stage}`);
    expect(types[types.length - 1]).toBe('end:result_evaluator');
    expect(types).toContain('status:model_selector');
  });

  it('gives up with a timeout error while the task runs, and a 404 for an unknown task', async () => {
    const { task_id } = await client.submitTask(task);
    await expect(client.waitForTask(task_id, { timeoutMs: 200 })).rejects.toBeInstanceOf(
      SignalboxTimeoutError,
    );
    await expect(client.waitForTask(task_id, { via: 'poll', timeoutMs: 200 })).rejects.toBeInstanceOf(
      SignalboxTimeoutError,
    );
    await expect(client.waitForTask('task_unknown')).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    });
    // Another tenant's task is not found either.
    const other = createSignalboxClient({ baseUrl, apiKey: OTHER_KEY });
    await expect(other.getTask(task_id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('answer and confirm', () => {
  it('answers a clarification; the task continues with the answer and finishes', async () => {
    script = async (message) => {
      const spec = message.payload.task;
      const answered = spec.context.some(
        (m) => m.role === 'user' && m.content === 'Order 1234, placed in May',
      );
      await decide(
        message.task_id,
        'result_evaluator',
        'task_finished',
        answered
          ? finished(spec, 'success')
          : finished(spec, 'need_clarification', ['Which order do you mean?']),
      );
    };
    const { task_id } = await client.submitTask(task);
    const asked = await client.waitForTask(task_id);
    expect(asked).toMatchObject({
      awaiting_answer: true,
      result: { questions: ['Which order do you mean?'] },
    });

    const accepted = await client.answer(task_id, { answer: 'Order 1234, placed in May' });
    expect(accepted).toMatchObject({
      task_id,
      state: 'running',
      answers_event_id: asked.last_event.event_id,
    });
    const done = await client.waitForTask(task_id);
    expect(done).toMatchObject({ state: 'finished', awaiting_answer: false, result: { status: 'success' } });

    await expect(client.answer(task_id, { answer: 'again' })).rejects.toMatchObject({
      status: 409,
      code: 'not_awaiting_answer',
    });
  });

  it('confirms a pending call with the hash the executor checks (RFC 8785 canonical JSON of the arguments)', async () => {
    // Key order differs from the one the client is given below: the canonical JSON makes them one hash.
    const call = {
      step_index: 0,
      tool: 'refund_create',
      arguments: { reason: '商品破损 😀', order_id: '1234', amount: 12.5 },
    };
    const confirmedWith: string[] = [];
    script = async (message) => {
      const spec = message.payload.task;
      const confirmations = confirmationsIn(spec.context).filter((c) => c.tool === call.tool);
      if (confirmations.length === 0) {
        // The executor's gate: the prepared call, then need_clarification caused by it.
        await decide(message.task_id, 'parameter_injector', 'step_prepared', { call });
        await decide(
          message.task_id,
          'executor',
          'task_finished',
          finished(spec, 'need_clarification', [`Reply with the line "confirm refund_create sha256:…"`]),
        );
        return;
      }
      confirmedWith.push(...confirmations.map((c) => c.arguments_sha256));
      const ok = confirmations.some((c) => c.arguments_sha256 === argumentHash(call.arguments));
      await decide(
        message.task_id,
        'result_evaluator',
        'task_finished',
        finished(spec, ok ? 'success' : 'failed'),
      );
    };
    const { task_id } = await client.submitTask(task);
    const waiting = await client.waitForTask(task_id);
    expect(waiting.awaiting_answer).toBe(true);
    // The API shows the pending call with the hash of its real arguments: the client's hash is the same one.
    const args = { amount: 12.5, order_id: '1234', reason: '商品破损 😀' };
    expect(waiting.pending_confirmation).toMatchObject({
      tool: 'refund_create',
      arguments_hash: argumentsHash(args),
    });
    expect(argumentsHash(args)).toBe(argumentHash(call.arguments));
    expect(argumentsHash(args)).toBe(contractsArgumentsHash(call.arguments));

    await client.confirm(task_id, { tool: 'refund_create', arguments: args });
    const done = await client.waitForTask(task_id);
    expect(done.result?.status).toBe('success');
    expect(confirmedWith).toEqual([argumentHash(call.arguments)]);
  });

  it('confirms with the pending confirmation as the API gave it', async () => {
    const call = { step_index: 0, tool: 'refund_create', arguments: { order_id: '77', amount: 3 } };
    script = async (message) => {
      const spec = message.payload.task;
      const confirmed = confirmationsIn(spec.context).some(
        (c) => c.tool === call.tool && c.arguments_sha256 === argumentHash(call.arguments),
      );
      if (!confirmed) {
        await decide(message.task_id, 'parameter_injector', 'step_prepared', { call });
        await decide(
          message.task_id,
          'executor',
          'task_finished',
          finished(spec, 'need_clarification', ['Confirm?']),
        );
        return;
      }
      await decide(message.task_id, 'result_evaluator', 'task_finished', finished(spec, 'success'));
    };
    const { task_id } = await client.submitTask(task);
    const waiting = await client.waitForTask(task_id);
    const pending = waiting.pending_confirmation;
    if (!pending) throw new Error('the API shows no pending confirmation');
    await client.confirm(task_id, pending);
    expect((await client.waitForTask(task_id)).result?.status).toBe('success');
  });
});

describe('traces', () => {
  it('lists the tenant’s traces page by page and reads one trace and one decision', async () => {
    script = async (message) => {
      await decide(
        message.task_id,
        'result_evaluator',
        'task_finished',
        finished(message.payload.task, 'success'),
      );
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { task_id } = await client.submitTask({ ...task, agent_id: 'trace_agent' });
      await client.waitForTask(task_id);
      ids.push(task_id);
    }
    const page = await client.listTraces({ agent: 'trace_agent', limit: 2 });
    expect(page.traces).toHaveLength(2);
    expect(page.next_cursor).not.toBeNull();
    const all: string[] = [];
    for await (const trace of client.traces({ agent: 'trace_agent', limit: 2, status: 'success' }))
      all.push(trace.task_id);
    expect(all.sort()).toEqual([...ids].sort());

    const [firstId] = ids;
    if (firstId === undefined) throw new Error('no task');
    const timeline = await client.getTrace(firstId);
    expect(timeline).toMatchObject({ task_id: firstId, state: 'finished', status: 'success' });
    const finishedEvent = timeline.events.find((e) => e.event_type === 'task_finished');
    if (!finishedEvent) throw new Error('no task_finished on the timeline');
    const decision = await client.getTraceEvent(firstId, finishedEvent.event_id);
    expect(decision).toMatchObject({ event_id: finishedEvent.event_id, payload: { status: 'success' } });
    await expect(client.getTraceEvent(firstId, 'evt_unknown')).rejects.toMatchObject({ status: 404 });
  });
});
