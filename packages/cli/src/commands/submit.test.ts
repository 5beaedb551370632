import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  TOPICS,
  allTopicNames,
  deterministicEventId,
  type Envelope,
  type TaskSubmitted,
} from '@signalbox/contracts';
import { createApiApp, hashApiKey } from '@signalbox/api';
import { createMemoryBus } from '@signalbox/bus/testing';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { bufferIo } from '../io.js';
import { writeDevServer } from '../dev/dev-server-file.js';
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

  it('submits to the running dev server when no URL or key is given, and says so when none runs', async () => {
    const home = mkdtempSync(join(tmpdir(), 'signalbox-submit-'));
    try {
      const env = { SIGNALBOX_HOME: home };
      await expect(submit(bufferIo(process.cwd(), env), 'x', { agent: 'a' })).rejects.toThrow(
        /no API to submit to: .*start `signalbox dev` \(no running dev server is recorded in .*dev-server\.json\)/,
      );
      writeDevServer(env, {
        url,
        api_key: 'sk-test',
        pid: process.pid,
        started_at: new Date().toISOString(),
      });
      const result = await submit(bufferIo(process.cwd(), env), 'Where is my refund?', {
        agent: 'refund_agent',
      });
      expect(result.exitCode).toBe(0);
      expect(result.json).toMatchObject({ api_url: url, api_source: 'dev server' });
      expect(result.text[0]).toContain(`(the dev server at ${url})`);
      expect(await store.readTask(result.json.task_id as string)).toHaveLength(1);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('submits with an Idempotency-Key: the same key again is the same task', async () => {
    const io = bufferIo(process.cwd(), { SIGNALBOX_API_URL: url, SIGNALBOX_API_KEY: 'sk-test' });
    const opts = { agent: 'refund_agent', idempotencyKey: 'cli-submit-once' };
    const first = await submit(io, 'Refund order 55', opts);
    const again = await submit(io, 'Refund order 55', opts);
    expect(again.json).toMatchObject({ task_id: first.json.task_id, replayed: true });
    expect(again.text[0]).toMatch(/the same Idempotency-Key made it before/);
  });

  it('waits for the result with --wait, following the task as it moves', async () => {
    const io = bufferIo(process.cwd(), { SIGNALBOX_API_URL: url, SIGNALBOX_API_KEY: 'sk-test' });
    const before = seen.length;
    const waiting = submit(io, 'What is the status of order 1234?', {
      agent: 'refund_agent',
      wait: true,
      timeout: '20',
    });
    // No pipeline runs here: decide for it once the submission is on the topic.
    await expect.poll(() => seen.length, { timeout: 10_000 }).toBeGreaterThan(before);
    const message = seen[seen.length - 1] as TaskSubmitted;
    const [submitted] = await store.readTask(message.task_id);
    if (!submitted) throw new Error('no submission');
    const envelope: Envelope = {
      ...submitted.envelope,
      event_id: deterministicEventId({
        task_id: message.task_id,
        stage: 'result_evaluator',
        causation_id: submitted.envelope.event_id,
        event_type: 'task_finished',
      }),
      stage: 'result_evaluator',
      event_type: 'task_finished',
      causation_id: submitted.envelope.event_id,
      decision_reason: 'the status lookup answered',
      input_source: 'pipeline',
    };
    const payload = {
      task: message.payload.task,
      status: 'success',
      steps: [
        { call: { step_index: 0, tool: 'order_status' }, result: { ok: true, output: { state: 'shipped' } } },
      ],
      evidence: [],
      questions: [],
      issues: [],
      total_cost_usd: 0,
      duration_ms: 5,
    };
    await store.append([{ envelope, topic: null, payload }]);
    const result = await waiting;
    expect(result.exitCode).toBe(0);
    expect(result.json).toMatchObject({
      task_id: message.task_id,
      task: { state: 'finished', result: { status: 'success' } },
    });
    expect(result.text.join('\n')).toMatch(/success: the status lookup answered/);
    expect(result.text.join('\n')).toMatch(/answer \(order_status\): \{"state":"shipped"\}/);
    expect(io.err.join('')).toMatch(/result_evaluator task_finished/);
  });

  it('gives up --wait after --timeout, pointing at the trace', async () => {
    const io = bufferIo(process.cwd(), { SIGNALBOX_API_URL: url, SIGNALBOX_API_KEY: 'sk-test' });
    const result = await submit(io, 'Still running', { agent: 'refund_agent', wait: true, timeout: '0.3' });
    expect(result.exitCode).toBe(1);
    expect(result.text.join('\n')).toMatch(
      /still running after 300 ms: follow it with `signalbox trace task_/,
    );
    await expect(submit(io, 'x', { agent: 'a', wait: true, timeout: 'soon' })).rejects.toThrow(/--timeout/);
  });
});
