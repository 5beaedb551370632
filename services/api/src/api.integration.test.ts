// IF-1 on real infrastructure: a task submitted through the HTTP API (listening on a real port) lands on the Kafka
// topic through the schema registry and as the first row of its trace in PostgreSQL; the registry versions come
// from a real publication. Isolated by a unique topic prefix and a PostgreSQL schema of its own.
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { TOPICS, type TaskSubmitted } from '@signalbox/contracts';
import {
  REPUBLISHED_HEADER,
  createKafkaBus,
  type Bus,
  type IncomingMessage,
  type Subscription,
} from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import { createRegistryStore, loadRegistryDir, type RegistryStore } from '@signalbox/registry';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from './app.js';
import { hashApiKey } from './auth.js';
import { checkResponses, type ResponseLog } from './openapi-conformance.js';
import { taskIdFor } from './tasks.js';
import { listenLocally } from './listen-locally.js';

const endpoints = testEndpoints();
const KEY = `sk-${uniqueName('integration')}`;

let schema: IsolatedSchema;
let store: EventStore;
let registryStore: RegistryStore;
let bus: Bus;
let app: FastifyInstance;
let subscription: Subscription | undefined;
let baseUrl: string;
let responses: ResponseLog;
const seen: IncomingMessage[] = [];
const tenant = uniqueName('tenant');
const topicPrefix = `${uniqueName('api')}.`;

beforeAll(async () => {
  schema = await createIsolatedSchema(endpoints.databaseUrl, 'api');
  store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
  registryStore = createRegistryStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await registryStore.migrate();
  const registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../registry/packs/after-sales'));
  await registryStore.publish('after-sales', registry, { label: 'integration' });

  bus = createKafkaBus({
    brokers: endpoints.kafkaBrokers.split(','),
    clientId: 'api-integration-test',
    schemaRegistryUrl: endpoints.schemaRegistryUrl,
    topicPrefix,
    autoRegisterSchemas: true,
    sessionTimeoutMs: 6_000,
    heartbeatIntervalMs: 1_000,
  });
  await bus.ensureTopics([
    { name: TOPICS.taskSubmitted.name, partitions: 2 },
    { name: TOPICS.taskSubmitted.deadLetterTopic ?? '', partitions: 1 },
  ]);
  subscription = await bus.consume({
    groupId: uniqueName('api-observer'),
    topic: TOPICS.taskSubmitted,
    fromBeginning: true,
    handler: (batch) => {
      seen.push(...batch);
      return Promise.resolve({ deadLetters: [] });
    },
  });
  app = createApiApp({
    bus,
    store,
    apiKeys: { [hashApiKey(KEY)]: tenant },
    registry,
    registryStore,
    registryNames: ['after-sales'],
  });
  // Every answer on real infrastructure is checked against the OpenAPI document too.
  responses = checkResponses(app);
  baseUrl = await listenLocally(app);
}, 120_000);

afterAll(async () => {
  await app.close();
  expect(responses.problems).toEqual([]);
  expect(responses.checked).toBeGreaterThan(3);
  await subscription?.stop();
  await bus.close();
  await store.close();
  await registryStore.close();
  await schema.drop();
}, 60_000);

/** A local port nothing listens on: connecting to it is refused at once, as to a stopped broker. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise<void>((done) => {
    server.close(() => {
      done();
    });
  });
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function waitFor<T>(find: () => T | undefined, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('HTTP API on real Kafka + schema registry + PostgreSQL', () => {
  it('submits a task: 202, the message on the topic, the task_submitted row first in the trace', async () => {
    const started = performance.now();
    const res = await fetch(`${baseUrl}/v1/tasks`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${KEY}`,
        'content-type': 'application/json',
        'idempotency-key': 'it-1',
      },
      body: JSON.stringify({
        request: 'Where is my refund for order 1234?',
        agent_id: 'refund_agent',
        scenario: 'after-sales',
      }),
    });
    const submitMs = performance.now() - started;
    expect(res.status).toBe(202);
    const { task_id } = (await res.json()) as { task_id: string };
    expect(res.headers.get('location')).toBe(`/v1/tasks/${task_id}`);

    const message = await waitFor(() => seen.find((m) => m.key === task_id), 'the submission on Kafka');
    const value = message.value as TaskSubmitted;
    expect(value.event_type).toBe('task_submitted');
    expect(value.tenant_id).toBe(tenant);
    expect(value.payload.task.request).toBe('Where is my refund for order 1234?');

    const [row, ...rest] = await store.readTask(task_id);
    expect(rest).toEqual([]);
    expect(row?.stream_version).toBe(1);
    expect(row?.envelope.event_id).toBe(value.event_id);
    expect(row?.envelope).toMatchObject({ stage: 'api', event_type: 'task_submitted', tenant_id: tenant });
    expect(row?.topic).toBe(TOPICS.taskSubmitted.name);

    const status = await fetch(`${baseUrl}/v1/tasks/${task_id}`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(await status.json()).toMatchObject({
      task_id,
      state: 'running',
      last_event: { event_type: 'task_submitted' },
    });
    const traces = await fetch(`${baseUrl}/v1/traces`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(((await traces.json()) as { traces: { task_id: string }[] }).traces.map((t) => t.task_id)).toEqual(
      [task_id],
    );
    console.info(`[api] submit round trip over HTTP + PostgreSQL + Kafka: ${submitMs.toFixed(1)} ms`);
  }, 60_000);

  it('reports the published registry version', async () => {
    const res = await fetch(`${baseUrl}/v1/registry/versions`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    const body = (await res.json()) as {
      loaded: { registry_version: string };
      published: { registry: string; registry_version: string; label: string | null }[];
    };
    expect(body.published).toMatchObject([
      { registry: 'after-sales', registry_version: body.loaded.registry_version, label: 'integration' },
    ]);
  }, 30_000);

  it('answers 503 + Retry-After within the publish deadline while the broker is down; the same request publishes once it is back', async () => {
    // The same event log, topic prefix and schema registry, but a broker that refuses connections: kafkajs retries its
    // connect for about 10 s before it gives up, the API answers after publishTimeoutMs.
    const deadBus = createKafkaBus({
      brokers: [`127.0.0.1:${String(await closedPort())}`],
      clientId: 'api-integration-dead-broker',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix,
      autoRegisterSchemas: true,
      kafkaLogLevel: 'nothing',
    });
    const deadApp = createApiApp({
      bus: deadBus,
      store,
      apiKeys: { [hashApiKey(KEY)]: tenant },
      publishTimeoutMs: 2000,
      readinessTimeoutMs: 1000,
    });
    const deadResponses = checkResponses(deadApp);
    const request = {
      method: 'POST',
      url: '/v1/tasks',
      headers: { authorization: `Bearer ${KEY}`, 'idempotency-key': 'it-broker-down' },
      payload: {
        request: 'Cancel order 1234',
        agent_id: 'refund_agent',
        reference_time: '2026-11-30T10:00:00Z',
      },
    } as const;
    try {
      const started = performance.now();
      const failed = await deadApp.inject(request);
      const ms = performance.now() - started;
      expect(failed.statusCode).toBe(503);
      expect(failed.headers['retry-after']).toBe('1');
      expect(failed.json()).toMatchObject({
        error: { code: 'unavailable', message: expect.stringMatching(/message broker is unavailable/) },
      });
      expect(ms).toBeLessThan(4000);
      console.info(
        `[api] submit with the broker down: ${String(failed.statusCode)} after ${ms.toFixed(0)} ms`,
      );

      const ready = await deadApp.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ ready: false, event_log: true, broker: false });

      // Recorded once; the same request through an API whose broker answers publishes the stored submission.
      const taskId = taskIdFor(tenant, 'it-broker-down');
      expect(await store.readTask(taskId)).toHaveLength(1);
      const retried = await app.inject(request);
      expect(retried.statusCode).toBe(202);
      expect(retried.headers['idempotent-replayed']).toBe('true');
      const { task_id } = retried.json<{ task_id: string }>();
      const message = await waitFor(
        () => seen.find((m) => m.key === task_id),
        'the retried submission on Kafka',
      );
      expect((message.value as TaskSubmitted).payload.task.request).toBe('Cancel order 1234');
      expect(message.headers[REPUBLISHED_HEADER]).toBe('true');
      expect(await store.readTask(taskId)).toHaveLength(1);
      expect(deadResponses.problems).toEqual([]);
    } finally {
      await deadApp.close();
      // Waits for the publish kafkajs is still retrying in the background.
      await deadBus.close();
    }
  }, 60_000);
});
