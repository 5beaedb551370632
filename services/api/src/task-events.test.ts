import { get, type IncomingMessage } from 'node:http';
import { TOPICS, type Envelope, type TaskStatus } from '@signalbox/contracts';
import { createMemoryBus, type MemoryBus } from '@signalbox/bus/testing';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { uniqueName } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendDecision } from './append-decision.js';
import { createApiApp } from './app.js';
import { hashApiKey } from './auth.js';
import { listenLocally } from './listen-locally.js';

// GET /v1/tasks/:id/events over a real socket: the events arrive while the task runs, the stream ends with the task,
// and a client that goes away stops the polling.

const KEY = 'sk-task-events-0123456789';
const OTHER = 'sk-task-events-other-0123';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const auth = (key = KEY) => ({ authorization: `Bearer ${key}` });

let store: EventStore;
let reads = 0;
// PGlite with every migration takes seconds, more on a busy machine.
beforeAll(async () => {
  store = createPgliteEventStore();
  await store.migrate();
}, 120_000);
afterAll(async () => {
  await store.close();
});

let bus: MemoryBus;
let app: FastifyInstance;
let base: string;
beforeEach(async () => {
  bus = createMemoryBus();
  await bus.ensureTopics([{ name: TOPICS.taskSubmitted.name, partitions: 1 }]);
  // The real store, counting the reads of a task: what a stream costs the event log.
  const counted: EventStore = Object.create(store) as EventStore;
  counted.readTask = (...args) => {
    reads += 1;
    return store.readTask(...args);
  };
  app = createApiApp({
    bus,
    store: counted,
    apiKeys: { [hashApiKey(KEY)]: uniqueName('tenant'), [hashApiKey(OTHER)]: uniqueName('other') },
    taskEventsPollMs: 25,
    taskEventsHeartbeatMs: 60,
  });
  base = await listenLocally(app);
});
afterEach(async () => {
  await app.close();
  await bus.close();
});

async function submit(): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/tasks',
    headers: auth(),
    payload: { request: 'Where is my refund for order 1234?', agent_id: 'refund_agent' },
  });
  expect(res.statusCode).toBe(202);
  return res.json<{ task_id: string }>().task_id;
}

/** Appends what a stage would decide next (no pipeline runs here). */
const decide = (taskId: string, stage: Envelope['stage'], eventType: string, payload: unknown) =>
  appendDecision(store, taskId, stage, eventType, payload);

const finished = {
  status: 'success',
  steps: [],
  evidence: [],
  questions: [],
  issues: [],
  total_cost_usd: 0,
  duration_ms: 10,
};

interface ServerSentEvent {
  event: string;
  id?: string;
  data?: string;
  comment?: string;
}

/** Reads SSE frames from a response as they arrive. */
async function* frames(response: Response): AsyncGenerator<ServerSentEvent> {
  if (!response.body) throw new Error('no body');
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: ServerSentEvent = { event: 'message' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === '') event.comment = value;
        else if (field === 'event') event.event = value;
        else if (field === 'id') event.id = value;
        else if (field === 'data') event.data = value;
        else if (field === 'retry') event.event = 'retry';
      }
      yield event;
      end = buffer.indexOf('\n\n');
    }
  }
}

describe('GET /v1/tasks/:id/events', () => {
  it('sends the status at once and on each new decision, then end with the final status, and closes', async () => {
    const id = await submit();
    const response = await fetch(`${base}/v1/tasks/${id}/events`, { headers: auth() });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toMatch(/no-cache/);

    const seen: ServerSentEvent[] = [];
    let comments = 0;
    for await (const frame of frames(response)) {
      if (frame.comment !== undefined) comments += 1;
      if (frame.event !== 'status' && frame.event !== 'end') continue;
      seen.push(frame);
      const status = JSON.parse(frame.data ?? '') as TaskStatus;
      expect(frame.id).toBe(status.last_event.event_id);
      const statuses = seen.length;
      // The next decision only once the stream showed the previous one: each must arrive as its own event.
      if (statuses === 1) {
        // Idle for a while: the stream stays open with comment lines.
        await new Promise((resolve) => setTimeout(resolve, 150));
        await decide(id, 'model_selector', 'model_selected', {});
      }
      if (statuses === 2) await decide(id, 'tool_decider', 'task_planned', {});
      if (statuses === 3) await decide(id, 'result_evaluator', 'task_finished', finished);
    }
    expect(seen.map((f) => f.event)).toEqual(['status', 'status', 'status', 'end']);
    const statuses = seen.map((f) => JSON.parse(f.data ?? '') as TaskStatus);
    expect(statuses.map((s) => `${s.last_event.stage}/${s.last_event.event_type}`)).toEqual([
      'api/task_submitted',
      'model_selector/model_selected',
      'tool_decider/task_planned',
      'result_evaluator/task_finished',
    ]);
    expect(statuses[3]).toMatchObject({ task_id: id, state: 'finished', result: { status: 'success' } });
    expect(comments).toBeGreaterThan(0);
  });

  it('ends at once for a finished task', async () => {
    const id = await submit();
    await decide(id, 'result_evaluator', 'task_finished', finished);
    const response = await fetch(`${base}/v1/tasks/${id}/events`, { headers: auth() });
    const seen: string[] = [];
    for await (const frame of frames(response)) if (frame.event !== 'retry') seen.push(frame.event);
    expect(seen).toEqual(['end']);
  });

  it("answers 401 without a key and 404 for another tenant's task, before any stream", async () => {
    const id = await submit();
    const anonymous = await fetch(`${base}/v1/tasks/${id}/events`);
    expect(anonymous.status).toBe(401);
    const other = await fetch(`${base}/v1/tasks/${id}/events`, { headers: auth(OTHER) });
    expect(other.status).toBe(404);
    expect(other.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await other.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('stops reading the event log when the client disconnects', async () => {
    const id = await submit();
    // node:http rather than fetch: the test decides exactly when the connection goes away.
    const request = get(`${base}/v1/tasks/${id}/events`, { headers: auth() });
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request.on('response', resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    await new Promise((resolve) => response.once('data', resolve));
    // Polling: reads go on while the client listens.
    const before = reads;
    await pause(200);
    expect(reads - before).toBeGreaterThan(2);
    request.on('error', () => undefined);
    request.destroy();
    await pause(100);
    const afterClose = reads;
    await pause(250);
    expect(reads).toBe(afterClose);
  });

  it('ends the open streams when the app closes', async () => {
    const id = await submit();
    const response = await fetch(`${base}/v1/tasks/${id}/events`, { headers: auth() });
    const reader = frames(response);
    expect((await reader.next()).value).toMatchObject({ event: 'retry' });
    expect((await reader.next()).value).toMatchObject({ event: 'status' });
    const closing = app.close();
    // The stream ends (no end event: the task still runs; the client reconnects) and the app closes.
    const rest: ServerSentEvent[] = [];
    for await (const frame of { [Symbol.asyncIterator]: () => reader }) rest.push(frame);
    expect(rest.filter((f) => f.event === 'end')).toEqual([]);
    await closing;
  });
});
