import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { TOPICS, allTopicNames } from '@signalbox/contracts';
import { createApiApp, hashApiKey } from '@signalbox/api';
import { createMemoryBus } from '@signalbox/bus/testing';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { bufferIo } from '../io.js';
import { submit } from './submit.js';

let app: FastifyInstance;
let store: EventStore;
let url: string;
const seen: unknown[] = [];

beforeAll(async () => {
  const bus = createMemoryBus();
  await bus.ensureTopics(allTopicNames());
  await bus.consume({
    groupId: 'observer',
    topic: TOPICS.taskSubmitted,
    handler: (batch) => {
      seen.push(...batch.map((m) => m.value));
      return Promise.resolve({ deadLetters: [] });
    },
  });
  store = createPgliteEventStore();
  await store.migrate();
  app = createApiApp({ bus, store, apiKeys: { [hashApiKey('sk-test')]: 'acme' } });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  url = `http://127.0.0.1:${String(typeof address === 'object' && address ? address.port : 0)}`;
}, 60_000);

afterAll(async () => {
  await app.close();
  await store.close();
});

describe('signalbox submit', () => {
  it('submits through the API: a task id back, the submitted event first in the log, the message on the topic', async () => {
    const io = bufferIo(process.cwd(), { SIGNALBOX_API_URL: url, SIGNALBOX_API_KEY: 'sk-test' });
    const result = await submit(io, 'My order 1234 is late and I want a refund.', { agent: 'refund_agent' });
    expect(result.exitCode).toBe(0);
    const taskId = result.json.task_id as string;
    expect(taskId).toBeTruthy();
    const events = await store.readTask(taskId);
    expect(events[0]?.envelope).toMatchObject({
      event_type: 'task_submitted',
      tenant_id: 'acme',
      agent_id: 'refund_agent',
    });
    await expect.poll(() => seen.length).toBe(1);
  });

  it('shows the API’s field errors and exits non-zero on a bad request', async () => {
    const io = bufferIo(process.cwd(), { SIGNALBOX_API_URL: url, SIGNALBOX_API_KEY: 'sk-test' });
    const result = await submit(io, 'hello', { agent: 'refund_agent', timeZone: 'Not/AZone' });
    expect(result.exitCode).toBe(1);
    expect(result.text.join('\n')).toMatch(/time_zone/);
  });

  it('refuses without a key', async () => {
    await expect(
      submit(bufferIo(process.cwd(), { SIGNALBOX_API_URL: url }), 'x', { agent: 'a' }),
    ).rejects.toThrow(/SIGNALBOX_API_KEY/);
  });
});
