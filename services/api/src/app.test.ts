import { resolve } from 'node:path';
import { TOPICS, deterministicEventId, type Envelope, type TaskSpec } from '@signalbox/contracts';
import { BrokerError, REPUBLISHED_HEADER, type Bus, type IncomingMessage } from '@signalbox/bus';
import { createMemoryBus, type MemoryBus } from '@signalbox/bus/testing';
import { createPgliteEventStore, type EventStore, type NewEvent } from '@signalbox/event-log';
import { loadRegistryDir, type RegistryStore } from '@signalbox/registry';
import { uniqueName } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
// kafkajs is CommonJS and spreads its error classes into its exports: they are reached through the default export.
import kafkajs from 'kafkajs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiApp, type ApiAppOptions } from './app.js';
import { hashApiKey } from './auth.js';
import { checkResponses, type ResponseLog } from './openapi-conformance.js';

const KEY_A = 'sk-tenant-a-0123456789';
const KEY_B = 'sk-tenant-b-9876543210';
const NOW = new Date('2026-11-30T10:00:00.000Z');
const auth = (key = KEY_A) => ({ authorization: `Bearer ${key}` });

// One in-memory PGlite store for the file (it takes about a second to start); each test gets its own tenants (so
// listings see only its tasks), memory bus and app.
let store: EventStore;
beforeAll(async () => {
  store = createPgliteEventStore();
  await store.migrate();
});
afterAll(async () => {
  await store.close();
});

let tenantA: string;
let apiKeys: Record<string, string>;
let bus: MemoryBus;
let app: FastifyInstance;
let published: IncomingMessage[];
// Every answer of these tests is checked against the OpenAPI document (openapi-conformance.ts); each test ends with
// no mismatch, and the file checks a good number of answers in all.
let responses: ResponseLog;
let checkedInAll = 0;
afterAll(() => {
  expect(checkedInAll).toBeGreaterThan(50);
});

async function build(overrides: Partial<ApiAppOptions> = {}) {
  await app.close();
  checkedInAll += responses.checked;
  expect(responses.problems).toEqual([]);
  app = createApiApp({ bus, store, apiKeys, now: () => NOW, ...overrides });
  responses = checkResponses(app);
  return app;
}

beforeEach(async () => {
  bus = createMemoryBus();
  await bus.ensureTopics([
    { name: TOPICS.taskSubmitted.name, partitions: 2 },
    { name: TOPICS.taskSubmitted.deadLetterTopic ?? '', partitions: 1 },
  ]);
  published = [];
  await bus.consume({
    groupId: 'observer',
    topic: TOPICS.taskSubmitted,
    handler: (batch) => {
      published.push(...batch);
      return Promise.resolve({ deadLetters: [] });
    },
  });
  tenantA = uniqueName('tenant-a');
  apiKeys = { [hashApiKey(KEY_A)]: tenantA, [hashApiKey(KEY_B)]: uniqueName('tenant-b') };
  app = createApiApp({ bus, store, apiKeys, now: () => NOW });
  responses = checkResponses(app);
});
afterEach(async () => {
  await app.close();
  checkedInAll += responses.checked;
  expect(responses.problems).toEqual([]);
  await bus.close();
});

async function waitFor(condition: () => boolean, what: string) {
  const deadline = Date.now() + 3000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const submitBody = {
  request: 'Where is my refund for order 1234?',
  agent_id: 'refund_agent',
  time_zone: 'Europe/Berlin',
  scenario: 'after-sales',
};

async function submit(body: unknown = submitBody, headers: Record<string, string> = auth()) {
  return app.inject({ method: 'POST', url: '/v1/tasks', headers, payload: body as Record<string, unknown> });
}

async function submitOk(
  headers: Record<string, string> = auth(),
  body: unknown = submitBody,
): Promise<string> {
  const res = await submit(body, headers);
  expect(res.statusCode).toBe(202);
  return res.json<{ task_id: string }>().task_id;
}

/** Appends what a stage would have decided next for the task (the pipeline is not running in unit tests). */
async function pipelineEvent(
  taskId: string,
  stage: Envelope['stage'],
  eventType: string,
  payload: unknown,
  extra: Partial<Envelope> = {},
  more: Pick<NewEvent, 'exchanges' | 'secrets'> = {},
): Promise<string> {
  const events = await store.readTask(taskId);
  const last = events[events.length - 1];
  if (!last) throw new Error('no events');
  const envelope: Envelope = {
    ...last.envelope,
    event_id: deterministicEventId({
      task_id: taskId,
      stage,
      causation_id: last.envelope.event_id,
      event_type: 'decision',
    }),
    stage,
    event_type: eventType,
    causation_id: last.envelope.event_id,
    decision_reason: `${stage} decided ${eventType}`,
    input_source: 'pipeline',
    ...extra,
  };
  const event: NewEvent = { envelope, topic: null, payload, ...more };
  await store.append([event]);
  return envelope.event_id;
}

async function taskOf(taskId: string): Promise<TaskSpec> {
  const [first] = await store.readTask(taskId);
  return (first?.payload as { task: TaskSpec }).task;
}

const finishedPayload = (task: TaskSpec, status: string, tools: string[] = []) => ({
  task,
  status,
  steps: tools.map((tool, i) => ({
    call: { step_index: i, tool },
    result: { tool, ok: true },
    status: 'success',
    issues: [],
  })),
  evidence: [],
  questions: status === 'need_clarification' ? ['Which order number do you mean?'] : [],
  issues: [],
  total_cost_usd: 0.002,
  duration_ms: 1200,
});

describe('authentication and probes', () => {
  it('refuses /v1 without a key or with an unknown key (401, WWW-Authenticate) and keeps probes open', async () => {
    for (const headers of [{}, { authorization: 'Bearer nope' }, { authorization: `Basic ${KEY_A}` }]) {
      const res = await app.inject({ method: 'GET', url: '/v1/traces', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
      expect(res.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    // An unauthenticated submission is refused before its body is read or anything is written.
    const res = await submit(submitBody, {});
    expect(res.statusCode).toBe(401);
    expect(await store.findTasks({ tenant_id: tenantA })).toEqual([]);
    expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  });

  it('is ready while the event log answers, not ready when it does not, and serves metrics', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      ready: true,
      event_log: true,
      broker: true,
    });
    await build({ store: { ...store, ping: () => Promise.reject(new Error('down')) } });
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ready: false, event_log: false, broker: true });
    await submit();
    const metrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(
      /signalbox_messages_processed_total\{stage="api",event_type="POST \/v1\/tasks",outcome="ok"\} 1/,
    );
  });

  it('refuses a configuration with a raw key instead of its hash', () => {
    expect(() => createApiApp({ bus, store, apiKeys: { [KEY_A]: tenantA } })).toThrow(/sha256 hex/);
  });
});

describe('POST /v1/tasks', () => {
  it('appends task_submitted first, publishes it, and answers 202 with the task id and Location', async () => {
    const res = await submit();
    expect(res.statusCode).toBe(202);
    const { task_id } = res.json<{ task_id: string }>();
    expect(res.headers.location).toBe(`/v1/tasks/${task_id}`);

    const events = await store.readTask(task_id);
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(event?.stream_version).toBe(1);
    expect(event?.envelope).toMatchObject({
      task_id,
      tenant_id: tenantA,
      agent_id: 'refund_agent',
      stage: 'api',
      event_type: 'task_submitted',
      causation_id: null,
      input_source: 'user',
      event_id: deterministicEventId({
        task_id,
        stage: 'api',
        causation_id: null,
        event_type: 'task_submitted',
      }),
    });
    expect(event?.payload).toEqual({
      task: {
        request: submitBody.request,
        context: [],
        locale: 'en',
        time_zone: 'Europe/Berlin',
        reference_time: NOW.toISOString(),
        cost_ceiling_usd: null,
        required_modalities: [],
        attachments: [],
        scenario: 'after-sales',
        needs_fresh_data: false,
        redrive_of: null,
      },
    });

    await waitFor(() => published.length === 1, 'the submission on the topic');
    const [message] = published;
    expect(message?.key).toBe(task_id);
    expect(message?.value).toMatchObject({ event_id: event?.envelope.event_id, payload: event?.payload });
    expect(message?.headers.traceparent).toBe(event?.envelope.traceparent);
  });

  it('keeps a caller traceparent and an explicit reference time', async () => {
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const id = await submitOk(
      { ...auth(), traceparent },
      { ...submitBody, reference_time: '2024-11-04T09:00:00+01:00' },
    );
    const [event] = await store.readTask(id);
    expect(event?.envelope.traceparent).toBe(traceparent);
    expect((event?.payload as { task: TaskSpec }).task.reference_time).toBe('2024-11-04T09:00:00+01:00');
  });

  it('answers field-level errors (400) and writes nothing', async () => {
    const res = await submit({
      agent_id: '',
      time_zone: 'Mars/Olympus',
      context: [{ role: 'robot', content: 'hi' }],
      reference_time: 'tomorrow',
      timezone: 'UTC',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; fields: { path: string; message: string }[] } }>();
    expect(body.error.code).toBe('invalid_request');
    expect(body.error.fields.map((f) => f.path).sort()).toEqual(
      ['agent_id', 'context.0.role', 'reference_time', 'request', 'time_zone', 'timezone'].sort(),
    );
    expect(body.error.fields.find((f) => f.path === 'timezone')?.message).toBe('unknown field');
    expect(await store.findTasks({ tenant_id: tenantA })).toEqual([]);
    expect(bus.records(TOPICS.taskSubmitted.name)).toHaveLength(0);
  });

  it('refuses a body above the limit (413), a non-JSON body (415) and broken JSON (400)', async () => {
    await build({ bodyLimitBytes: 2048 });
    const big = await submit({ ...submitBody, request: 'x'.repeat(4096) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: { code: 'payload_too_large' } });
    const text = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { ...auth(), 'content-type': 'text/plain' },
      payload: 'refund please',
    });
    expect(text.statusCode).toBe(415);
    const broken = await app.inject({
      method: 'POST',
      url: '/v1/tasks',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: '{"request": ',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: { code: 'invalid_request' } });
    expect(await store.findTasks({ tenant_id: tenantA })).toEqual([]);
  });

  it('returns the same task for the same Idempotency-Key of the same tenant, a new one for another tenant', async () => {
    const first = await submit(submitBody, { ...auth(), 'idempotency-key': 'order-1234-refund' });
    const again = await submit(submitBody, { ...auth(), 'idempotency-key': 'order-1234-refund' });
    const otherTenant = await submit(submitBody, { ...auth(KEY_B), 'idempotency-key': 'order-1234-refund' });
    const id = first.json<{ task_id: string }>().task_id;
    expect(again.statusCode).toBe(202);
    expect(again.json<{ task_id: string }>().task_id).toBe(id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(otherTenant.json<{ task_id: string }>().task_id).not.toBe(id);
    expect(await store.readTask(id)).toHaveLength(1);

    // Once a stage reacted, the submission evidently arrived: a replay does not publish it again.
    await waitFor(() => published.length === 3, 'three publications');
    await pipelineEvent(id, 'model_selector', 'model_selected', {});
    const third = await submit(submitBody, { ...auth(), 'idempotency-key': 'order-1234-refund' });
    expect(third.json<{ task_id: string }>().task_id).toBe(id);
    const sent = bus.records(TOPICS.taskSubmitted.name).filter((r) => r.key === id);
    expect(sent).toHaveLength(2);
    // The replay is marked, so the model selector looks its input up instead of taking it for new (EL-2).
    expect(sent.map((r) => r.headers[REPUBLISHED_HEADER])).toEqual([undefined, 'true']);

    const conflicting = await submit(
      { ...submitBody, request: 'Cancel order 1234' },
      { ...auth(), 'idempotency-key': 'order-1234-refund' },
    );
    expect(conflicting.statusCode).toBe(409);
    expect(conflicting.json()).toMatchObject({ error: { code: 'idempotency_conflict' } });
  });

  it('answers 503 when the bus is down after the append, and the retry with the same key publishes', async () => {
    let down = true;
    const flaky: Bus = {
      ...bus,
      publish: (messages) =>
        down
          ? Promise.reject(Object.assign(new Error('broker unreachable'), { retriable: true }))
          : bus.publish(messages),
    };
    await build({ bus: flaky });
    const headers = { ...auth(), 'idempotency-key': 'retry-me' };
    const failed = await submit(submitBody, headers);
    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBe('1');
    expect(bus.records(TOPICS.taskSubmitted.name)).toHaveLength(0);
    down = false;
    const retried = await submit(submitBody, headers);
    expect(retried.statusCode).toBe(202);
    const id = retried.json<{ task_id: string }>().task_id;
    await waitFor(() => published.length === 1, 'the retried publication');
    expect(published[0]?.key).toBe(id);
    expect(await store.readTask(id)).toHaveLength(1);
  });
});

describe('GET /v1/tasks/:id', () => {
  it('shows a running task with its last event, then the task_finished result', async () => {
    const id = await submitOk();
    await pipelineEvent(
      id,
      'model_selector',
      'model_selected',
      {},
      { decision_reason: 'cheapest profile that fits' },
    );
    const running = await app.inject({ method: 'GET', url: `/v1/tasks/${id}`, headers: auth() });
    expect(running.statusCode).toBe(200);
    expect(running.json()).toMatchObject({
      task_id: id,
      state: 'running',
      result: null,
      awaiting_answer: false,
      last_event: {
        stage: 'model_selector',
        event_type: 'model_selected',
        decision_reason: 'cheapest profile that fits',
      },
    });

    await pipelineEvent(
      id,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(id), 'success', ['refund_status_query']),
    );
    const done = await app.inject({ method: 'GET', url: `/v1/tasks/${id}`, headers: auth() });
    expect(done.json()).toMatchObject({
      state: 'finished',
      awaiting_answer: false,
      result: { status: 'success', questions: [], issues: [], total_cost_usd: 0.002, duration_ms: 1200 },
    });
    expect(done.json<{ result: { steps: unknown[] } }>().result.steps).toHaveLength(1);
  });

  it("answers 404 for another tenant's task and for unknown ids", async () => {
    const id = await submitOk();
    for (const url of [`/v1/tasks/${id}`, `/v1/traces/${id}`]) {
      const res = await app.inject({ method: 'GET', url, headers: auth(KEY_B) });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    const answer = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(KEY_B),
      payload: { answer: '1234' },
    });
    expect(answer.statusCode).toBe(404);
    expect(
      (await app.inject({ method: 'GET', url: '/v1/tasks/task_nope', headers: auth() })).statusCode,
    ).toBe(404);
  });
});

describe('POST /v1/tasks/:id/answers', () => {
  it('continues a need_clarification with a new task_submitted linked to the answered task_finished', async () => {
    const id = await submitOk();
    const finishedId = await pipelineEvent(
      id,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(id), 'need_clarification'),
    );
    const view = await app.inject({ method: 'GET', url: `/v1/tasks/${id}`, headers: auth() });
    expect(view.json()).toMatchObject({
      awaiting_answer: true,
      result: { questions: ['Which order number do you mean?'] },
    });

    const hash = 'a'.repeat(64);
    const res = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: { answer: 'Order 1234', confirmation: { tool: 'refund_create', arguments_hash: hash } },
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ task_id: id, answers_event_id: finishedId });

    const events = await store.readTask(id);
    const continuation = events[events.length - 1];
    expect(continuation?.envelope).toMatchObject({
      stage: 'api',
      event_type: 'task_submitted',
      causation_id: finishedId,
      input_source: 'user',
      agent_id: 'refund_agent',
      tenant_id: tenantA,
    });
    const task = (continuation?.payload as { task: TaskSpec }).task;
    expect(task.request).toBe(submitBody.request);
    expect(task.redrive_of).toBeNull();
    expect(task.context).toEqual([
      { role: 'assistant', content: 'Which order number do you mean?' },
      { role: 'user', content: 'Order 1234' },
      {
        role: 'user',
        content: `confirm refund_create sha256:${hash}`,
      },
    ]);
    await waitFor(() => published.length === 2, 'the continuation on the topic');
    expect(published[1]?.value).toMatchObject({
      event_id: continuation?.envelope.event_id,
      causation_id: finishedId,
    });

    // The trace shows the continuation; the task runs again and cannot be answered twice.
    const trace = await app.inject({ method: 'GET', url: `/v1/traces/${id}`, headers: auth() });
    expect(trace.json()).toMatchObject({ state: 'running', loops: { continuation: 1 } });
    const again = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: { answer: 'Order 99' },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'already_answered' } });
    // Once a stage reacted to the continuation, the task is simply not waiting.
    await pipelineEvent(id, 'model_selector', 'model_selected', {});
    const late = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: { answer: 'Order 1234' },
    });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: { code: 'not_awaiting_answer' } });
  });

  it('refuses answers to a task that is not waiting, and invalid answers with field errors', async () => {
    const id = await submitOk();
    const running = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: { answer: 'x' },
    });
    expect(running.statusCode).toBe(409);
    await pipelineEvent(
      id,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(id), 'need_clarification'),
    );
    const empty = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: {},
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: { fields: [{ path: 'answer' }] } });
    const badHash = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: { confirmation: { tool: 'refund_create', arguments_hash: 'abc' } },
    });
    expect(badHash.statusCode).toBe(400);
    expect(badHash.json()).toMatchObject({ error: { fields: [{ path: 'confirmation.arguments_hash' }] } });
    expect(await store.readTask(id)).toHaveLength(2);
  });
});

describe('GET /v1/traces and /v1/traces/:taskId', () => {
  it("lists the caller's traces with EL-5 filters and pages with a cursor", async () => {
    const done = await submitOk();
    await pipelineEvent(done, 'executor', 'step_executed', { call: { tool: 'refund_status_query' } });
    await pipelineEvent(
      done,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(done), 'success', ['refund_status_query']),
    );
    const degraded = await submitOk(auth(), { ...submitBody, agent_id: 'logistics_agent' });
    await pipelineEvent(
      degraded,
      'model_selector',
      'model_selected',
      {},
      { degraded_flag: true, revision_count: 2 },
    );
    const running = await submitOk();
    const foreign = await submitOk(auth(KEY_B));

    const list = async (query: string) => {
      const res = await app.inject({ method: 'GET', url: `/v1/traces${query}`, headers: auth() });
      expect(res.statusCode).toBe(200);
      return res.json<{ traces: { task_id: string; status: string | null }[]; next_cursor: string | null }>();
    };
    expect((await list('')).traces.map((t) => t.task_id)).toEqual([running, degraded, done]);
    expect((await list('')).traces.map((t) => t.task_id)).not.toContain(foreign);
    expect((await list('?status=success')).traces).toMatchObject([{ task_id: done, status: 'success' }]);
    expect((await list('?tool=refund_status_query')).traces.map((t) => t.task_id)).toEqual([done]);
    expect((await list('?degraded=true')).traces.map((t) => t.task_id)).toEqual([degraded]);
    expect((await list('?degraded=false')).traces.map((t) => t.task_id)).toEqual([running, done]);
    expect((await list('?revision_count_above=1')).traces.map((t) => t.task_id)).toEqual([degraded]);
    expect((await list('?agent=logistics_agent')).traces.map((t) => t.task_id)).toEqual([degraded]);
    expect((await list('?from=2000-01-01T00:00:00Z&to=2001-01-01T00:00:00Z')).traces).toEqual([]);

    const page1 = await list('?limit=2');
    expect(page1.traces.map((t) => t.task_id)).toEqual([running, degraded]);
    expect(page1.next_cursor).not.toBeNull();
    const page2 = await list(`?limit=2&cursor=${page1.next_cursor ?? ''}`);
    expect(page2.traces.map((t) => t.task_id)).toEqual([done]);
    expect(page2.next_cursor).toBeNull();
  });

  it('refuses bad filters with field errors, including a tenant parameter', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/traces?status=great&limit=0&cursor=zz&tenant=tenant-b',
      headers: auth(),
    });
    expect(res.statusCode).toBe(400);
    const paths = res.json<{ error: { fields: { path: string }[] } }>().error.fields.map((f) => f.path);
    expect(paths.sort()).toEqual(['cursor', 'limit', 'status', 'tenant']);
  });

  it('gives one trace as a timeline with stages, reasons, durations and loops', async () => {
    const id = await submitOk();
    await pipelineEvent(id, 'model_selector', 'model_selected', {});
    await pipelineEvent(id, 'result_evaluator', 'replan_requested', {}, { revision_count: 1 });
    const res = await app.inject({ method: 'GET', url: `/v1/traces/${id}`, headers: auth() });
    expect(res.statusCode).toBe(200);
    const t = res.json<{
      events: {
        stage: string;
        event_type: string;
        since_start_ms: number;
        since_previous_ms: number;
        loop: string | null;
        decision_reason: string;
      }[];
      loops: Record<string, number>;
      state: string;
    }>();
    expect(t.state).toBe('running');
    expect(t.events.map((e) => [e.stage, e.event_type, e.loop])).toEqual([
      ['api', 'task_submitted', null],
      ['model_selector', 'model_selected', null],
      ['result_evaluator', 'replan_requested', 'replan'],
    ]);
    expect(t.events[0]?.decision_reason).toBe('task submitted through the API');
    expect(t.loops).toEqual({ replan: 1, reinject: 0, degrade: 0, next_step: 0, continuation: 0 });
    for (const e of t.events) {
      expect(e.since_start_ms).toBeGreaterThanOrEqual(0);
      expect(e.since_previous_ms).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('GET /v1/traces/:taskId/events/:eventId', () => {
  it('gives one decision with its payload, as the timeline describes it; 404 for an unknown event or tenant', async () => {
    const id = await submitOk();
    const task = await taskOf(id);
    const failedCall = await pipelineEvent(id, 'executor', 'step_executed', {
      call: { tool: 'refund_create' },
      result: { ok: false, error_message: 'HTTP 500' },
    });
    const res = await app.inject({
      method: 'GET',
      url: `/v1/traces/${id}/events/${failedCall}`,
      headers: auth(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      task_id: id,
      event_id: failedCall,
      stream_version: 2,
      stage: 'executor',
      event_type: 'step_executed',
      tool: 'refund_create',
      failed: true,
      topic: null,
      payload: { call: { tool: 'refund_create' }, result: { ok: false, error_message: 'HTTP 500' } },
    });
    const [submitted] = await store.readTask(id);
    const first = await app.inject({
      method: 'GET',
      url: `/v1/traces/${id}/events/${submitted?.envelope.event_id ?? ''}`,
      headers: auth(),
    });
    expect(first.json()).toMatchObject({ failed: false, payload: { task } });

    for (const [url, headers] of [
      [`/v1/traces/${id}/events/ev_unknown`, auth()],
      [`/v1/traces/${id}/events/${failedCall}`, auth(KEY_B)],
    ] as const) {
      const missing = await app.inject({ method: 'GET', url, headers });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ error: { code: 'not_found' } });
    }
    const anonymous = await app.inject({ method: 'GET', url: `/v1/traces/${id}/events/${failedCall}` });
    expect(anonymous.statusCode).toBe(401);
    expect(res.json<{ model_exchanges: unknown[] }>().model_exchanges).toEqual([]);
  });

  it('gives the model calls the decision rests on (EL-7), with its secret values redacted in them', async () => {
    const id = await submitOk();
    const phone = '+49 30 1234567';
    const request = { messages: [{ role: 'user', content: `call me on ${phone} about the refund` }] };
    const decided = await pipelineEvent(
      id,
      'parameter_injector',
      'step_prepared',
      { call: { tool: 'callback_book', arguments: { phone } } },
      {},
      {
        secrets: [{ path: 'call.arguments.phone', value: phone }],
        exchanges: [
          {
            profile_id: 'extraction',
            model: 'small-model-1',
            request_hash: 'a'.repeat(64),
            request,
            response: { content: `{"phone":"${phone}"}` },
            input_tokens: 42,
            output_tokens: 7,
            latency_ms: 310,
          },
        ],
      },
    );
    const res = await app.inject({
      method: 'GET',
      url: `/v1/traces/${id}/events/${decided}`,
      headers: auth(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(phone);
    const body = res.json<{ model_exchanges: Record<string, unknown>[] }>();
    expect(body.model_exchanges).toHaveLength(1);
    expect(body.model_exchanges[0]).toMatchObject({
      profile_id: 'extraction',
      model: 'small-model-1',
      input_tokens: 42,
      output_tokens: 7,
      latency_ms: 310,
    });
    expect(JSON.stringify(body.model_exchanges[0]?.request)).toContain('[REDACTED]');
  });

  it('gives a failed model call as failed: its error, no answer, its secret values redacted', async () => {
    const id = await submitOk();
    const phone = '+49 30 7654321';
    const request = { messages: [{ role: 'user', content: `call me on ${phone} about the refund` }] };
    const decided = await pipelineEvent(
      id,
      'parameter_injector',
      'step_prepared',
      { call: { tool: 'callback_book', arguments: { phone } } },
      {},
      {
        secrets: [{ path: 'call.arguments.phone', value: phone }],
        exchanges: [
          {
            profile_id: 'extraction',
            model: null,
            request_hash: 'b'.repeat(64),
            request,
            response: null,
            input_tokens: null,
            output_tokens: null,
            latency_ms: 30_000,
            error: {
              name: 'ProviderRequestError',
              message: `400 content refused: "call me on ${phone}"`,
              timeout: false,
              retriable: false,
              status: 400,
            },
          },
        ],
      },
    );
    const res = await app.inject({
      method: 'GET',
      url: `/v1/traces/${id}/events/${decided}`,
      headers: auth(),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(phone);
    const body = res.json<{ model_exchanges: Record<string, unknown>[] }>();
    expect(body.model_exchanges).toEqual([
      {
        profile_id: 'extraction',
        model: null,
        request_hash: 'b'.repeat(64),
        request: { messages: [{ role: 'user', content: 'call me on [REDACTED] about the refund' }] },
        response: null,
        input_tokens: null,
        output_tokens: null,
        latency_ms: 30_000,
        error: {
          name: 'ProviderRequestError',
          message: '400 content refused: "call me on [REDACTED]"',
          timeout: false,
          retriable: false,
          status: 400,
        },
      },
    ]);
  });
});

describe('the trace viewer (IF-3; the browser tests are in viewer/viewer.browser.test.ts)', () => {
  it('serves the page without a key, with a policy that allows only its own scripts, styles and API', async () => {
    const res = await app.inject({ method: 'GET', url: '/viewer?trace=task_1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body).toContain('<script type="module" src="viewer/assets/viewer.js"></script>');
    // No CDN, nothing from another origin: every URL in the page is relative.
    expect(res.body).not.toMatch(/(src|href)="(https?:)?\/\//);
    const slash = await app.inject({ method: 'GET', url: '/viewer/' });
    expect(slash.statusCode).toBe(308);
    expect(slash.headers.location).toBe('../viewer');
  });

  it('serves its browser modules and stylesheet, and nothing else from the assets path', async () => {
    for (const name of ['viewer.js', 'api.js', 'dom.js', 'timeline.js', 'format.js']) {
      const res = await app.inject({ method: 'GET', url: `/viewer/assets/${name}` });
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(res.body).toMatch(/^\/\/ @ts-check/);
    }
    const css = await app.inject({ method: 'GET', url: '/viewer/assets/viewer.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.body).toContain('.mark.degraded');
    for (const name of ['types.d.ts', 'tsconfig.json', '..%2Froutes.ts', 'missing.js']) {
      const res = await app.inject({ method: 'GET', url: `/viewer/assets/${name}` });
      expect(res.statusCode, name).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'not_found' } });
    }
  });
});

describe('GET /v1/registry/versions', () => {
  it('reports the loaded directory and the latest publication of each configured name', async () => {
    const registry = await loadRegistryDir(
      resolve(import.meta.dirname, '../../../registry/packs/after-sales'),
    );
    const publication = {
      seq: 7,
      registry: 'after-sales',
      registry_version: registry.versions.registry_version,
      profiles_version: registry.versions.profiles_version,
      policy_version: registry.versions.policy_version,
      label: 'prod',
      published_at: '2026-11-29T12:00:00.000Z',
    };
    const unexpected = () => Promise.reject(new Error('not expected in this test'));
    // A strict fake: only history() is expected.
    const registryStore: RegistryStore = {
      migrate: unexpected,
      publish: unexpected,
      load: unexpected,
      close: unexpected,
      history: (name) =>
        Promise.resolve(name === 'after-sales' ? [{ ...publication, seq: 3, label: null }, publication] : []),
    };
    await build({ registry, registryStore, registryNames: ['after-sales', 'never-published'] });
    const res = await app.inject({ method: 'GET', url: '/v1/registry/versions', headers: auth() });
    expect(res.statusCode).toBe(200);
    const body = res.json<{
      loaded: { registry_version: string; tool_hashes: Record<string, string> };
      published: unknown[];
    }>();
    expect(body.loaded.registry_version).toBe(registry.versions.registry_version);
    expect(Object.keys(body.loaded.tool_hashes)).toContain('refund_create');
    expect(body.published).toEqual([{ ...publication, publications: 2 }]);
  });
});

// What kafkajs raises while the broker is down (it stays behind packages/bus in the code; the test builds its errors
// as its retrier does): the producer's connect retries run out → KafkaJSNumberOfRetriesExceeded caused by the
// KafkaJSConnectionError; a connected producer's send → the bus's BrokerError around that; nested retriers → a
// KafkaJSNonRetriableError around it.
const refused = () =>
  new kafkajs.KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:19092', {
    broker: '127.0.0.1:19092',
    code: 'ECONNREFUSED',
  });
const retriesExceeded = () =>
  new kafkajs.KafkaJSNumberOfRetriesExceeded(refused(), { retryCount: 5, retryTime: 7362 });

// As kafkajs's retrier builds it when a nested retrier gave up (its typings leave out the options argument).
const nonRetriable = (cause: Error): Error => {
  const NonRetriable = kafkajs.KafkaJSNonRetriableError as unknown as new (
    e: Error,
    options: { cause: Error },
  ) => Error;
  return new NonRetriable(cause, { cause });
};

describe('an unreachable broker', () => {
  const brokerErrors: [string, () => Error][] = [
    ['KafkaJSNumberOfRetriesExceeded(KafkaJSConnectionError), from the connect', retriesExceeded],
    [
      "the bus's BrokerError around it (retriable: false), from a send",
      () =>
        new BrokerError('publishing to signalbox.task.submitted.v1 failed: Connection error', {
          cause: retriesExceeded(),
          retriable: false,
        }),
    ],
    [
      'KafkaJSNonRetriableError around a KafkaJSRequestTimeoutError',
      () =>
        nonRetriable(new kafkajs.KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 7) timed out')),
    ],
    ['a bare KafkaJSConnectionError', refused],
  ];

  it.each(brokerErrors)(
    'answers 503 + Retry-After naming the broker for %s, and the retry with the same key publishes',
    async (_what, error) => {
      let down = true;
      const flaky: Bus = {
        ...bus,
        publish: (messages) => (down ? Promise.reject(error()) : bus.publish(messages)),
      };
      await build({ bus: flaky });
      const headers = { ...auth(), 'idempotency-key': uniqueName('broker-down') };
      const failed = await submit(submitBody, headers);
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['retry-after']).toBe('1');
      const { error: body } = failed.json<{ error: { code: string; message: string } }>();
      expect(body.code).toBe('unavailable');
      expect(body.message).toMatch(/message broker .*unavailable/);
      // The submission is recorded once; nothing reached the topic.
      const [taskId] = await store.findTasks({ tenant_id: tenantA });
      expect(taskId).toBeDefined();
      expect(await store.readTask(taskId!)).toHaveLength(1);
      expect(bus.records(TOPICS.taskSubmitted.name)).toHaveLength(0);

      down = false;
      const retried = await submit(submitBody, headers);
      expect(retried.statusCode).toBe(202);
      expect(retried.json<{ task_id: string }>().task_id).toBe(taskId);
      await waitFor(() => published.length === 1, 'the retried publication');
      expect(published[0]?.headers[REPUBLISHED_HEADER]).toBe('true');
      expect(await store.readTask(taskId!)).toHaveLength(1);
    },
  );

  it('answers 503 within the publish deadline when the send hangs (kafkajs retrying a dead broker)', async () => {
    const hanging: Bus = { ...bus, publish: () => new Promise<void>(() => undefined) };
    await build({ bus: hanging, publishTimeoutMs: 300 });
    const started = performance.now();
    const res = await submit(submitBody, { ...auth(), 'idempotency-key': 'hangs' });
    const ms = performance.now() - started;
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({
      error: { code: 'unavailable', message: expect.stringMatching(/message broker/) },
    });
    expect(ms).toBeGreaterThanOrEqual(290);
    expect(ms).toBeLessThan(2000);
  });

  it('answers 503 for an answer whose continuation cannot be published; the same answer again publishes it', async () => {
    let down = false;
    const flaky: Bus = {
      ...bus,
      publish: (messages) => (down ? Promise.reject(retriesExceeded()) : bus.publish(messages)),
    };
    await build({ bus: flaky });
    const id = await submitOk();
    await pipelineEvent(
      id,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(id), 'need_clarification'),
    );
    down = true;
    const answer = () =>
      app.inject({
        method: 'POST',
        url: `/v1/tasks/${id}/answers`,
        headers: auth(),
        payload: { answer: 'Order 1234' },
      });
    const failed = await answer();
    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBe('1');
    down = false;
    const retried = await answer();
    expect(retried.statusCode).toBe(202);
    await waitFor(() => published.length === 2, 'the continuation');
    expect(published[1]?.headers[REPUBLISHED_HEADER]).toBe('true');
    expect(await store.readTask(id)).toHaveLength(3);
  });

  it('is not ready while the broker does not answer', async () => {
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toEqual({
      ready: true,
      event_log: true,
      broker: true,
    });
    await build({ bus: { ...bus, ensureTopics: () => Promise.reject(retriesExceeded()) } });
    const refusedProbe = await app.inject({ method: 'GET', url: '/readyz' });
    expect(refusedProbe.statusCode).toBe(503);
    expect(refusedProbe.json()).toEqual({ ready: false, event_log: true, broker: false });
    await build({
      bus: { ...bus, ensureTopics: () => new Promise<void>(() => undefined) },
      readinessTimeoutMs: 100,
    });
    const hangingProbe = await app.inject({ method: 'GET', url: '/readyz' });
    expect(hangingProbe.statusCode).toBe(503);
    expect(hangingProbe.json()).toEqual({ ready: false, event_log: true, broker: false });
  });
});

describe('text PostgreSQL cannot store (U+0000, lone surrogates)', () => {
  const fieldsOf = (res: { json: () => unknown }) =>
    (res.json() as { error: { code: string; fields: { path: string; message: string }[] } }).error;

  it('refuses them in any text field of a submission, nested ones too, naming the field (400), writing nothing', async () => {
    const res = await submit({
      ...submitBody,
      request: 'refund\u0000 please',
      context: [
        { role: 'user', content: 'fine' },
        { role: 'assistant', content: 'half a pair \ud83d' },
      ],
      attachments: [{ name: 'a\udc00.pdf', media_type: 'application/pdf', size_bytes: 1, ref: null }],
    });
    expect(res.statusCode).toBe(400);
    const error = fieldsOf(res);
    expect(error.code).toBe('invalid_request');
    expect(error.fields).toEqual(
      expect.arrayContaining([
        { path: 'request', message: 'contains U+0000, which cannot be stored' },
        {
          path: 'context.1.content',
          message: 'contains a lone surrogate (U+D83D), which cannot be stored',
        },
        {
          path: 'attachments.0.name',
          message: 'contains a lone surrogate (U+DC00), which cannot be stored',
        },
      ]),
    );
    expect(error.fields).toHaveLength(3);
    expect(await store.findTasks({ tenant_id: tenantA })).toEqual([]);
    expect(bus.records(TOPICS.taskSubmitted.name)).toHaveLength(0);
    // Paired surrogates (an emoji) are fine.
    expect((await submit({ ...submitBody, request: 'refund 👟 please' })).statusCode).toBe(202);
  });

  it('reports them alongside other field errors', async () => {
    const res = await submit({ agent_id: 'a\u0000', context: [{ role: 'robot', content: '\u0000' }] });
    expect(res.statusCode).toBe(400);
    expect(
      fieldsOf(res)
        .fields.map((f) => f.path)
        .sort(),
    ).toEqual(['agent_id', 'context.0.content', 'context.0.role', 'request'].sort());
  });

  it('refuses them in an answer and a confirmation', async () => {
    const id = await submitOk();
    await pipelineEvent(
      id,
      'result_evaluator',
      'task_finished',
      finishedPayload(await taskOf(id), 'need_clarification'),
    );
    const res = await app.inject({
      method: 'POST',
      url: `/v1/tasks/${id}/answers`,
      headers: auth(),
      payload: {
        answer: 'Order \u00001234',
        confirmation: { tool: 'refund\ud800', arguments_hash: 'a'.repeat(64) },
      },
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res).fields).toEqual([
      { path: 'answer', message: 'contains U+0000, which cannot be stored' },
      {
        path: 'confirmation.tool',
        message: 'contains a lone surrogate (U+D800), which cannot be stored',
      },
    ]);
    expect(await store.readTask(id)).toHaveLength(2);
  });

  it('refuses them in path and query parameters', async () => {
    for (const url of [
      '/v1/tasks/%00',
      '/v1/tasks/task_%00/answers',
      '/v1/traces/%00',
      '/v1/traces/x%00/events/e',
    ]) {
      const res = await app.inject({
        method: url.endsWith('answers') ? 'POST' : 'GET',
        url,
        headers: auth(),
        ...(url.endsWith('answers') ? { payload: { answer: 'x' } } : {}),
      });
      expect(res.statusCode, url).toBe(400);
      const error = fieldsOf(res);
      expect(error.code).toBe('invalid_request');
      expect(error.fields).toEqual([
        {
          path: url.startsWith('/v1/tasks') ? 'params.id' : 'params.taskId',
          message: 'contains U+0000, which cannot be stored',
        },
      ]);
    }
    const query = await app.inject({ method: 'GET', url: '/v1/traces?tool=a%00b', headers: auth() });
    expect(query.statusCode).toBe(400);
    expect(fieldsOf(query).fields).toEqual([
      { path: 'tool', message: 'contains U+0000, which cannot be stored' },
    ]);
    // Authentication still comes first.
    expect((await app.inject({ method: 'GET', url: '/v1/tasks/%00' })).statusCode).toBe(401);
    // A lone surrogate cannot be percent-encoded as UTF-8: such a URL does not decode, answered in the API's shape.
    const undecodable = await app.inject({ method: 'GET', url: '/v1/tasks/%ED%A0%80', headers: auth() });
    expect(undecodable.statusCode).toBe(400);
    expect(undecodable.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
