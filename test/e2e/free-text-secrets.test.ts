// RS-6 (issue 21, hole 6) end to end: a request whose text holds a phone number and an e-mail address goes through
// ALL FIVE workers as separate processes (each service's real src/main.ts) on real Kafka + schema registry +
// PostgreSQL, with the demo tools serving in this process. No column of any events row of the task, and no line any
// worker logged, holds the clear values; the ticket the tool created has the real phone number; the event log's
// secrets table holds the values.
import { WORKER_SERVICES, startServiceProcess, stopServiceProcess, workerEnv } from '../support/services.js';
import { startDemoTools, type DemoTools } from '../support/demo-tools.js';
import { finishedEvents, submitMessage, submittedMessage } from '../support/e2e-tasks.js';
import { prefixedBus, prepareTopics } from '../support/topics.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bus } from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';

const endpoints = testEndpoints();
const REFERENCE_TIME = '2026-11-30T09:00:00.000Z';
const PHONE_WRITTEN = '+46 70 123 45 67';
const PHONE = '+46701234567';
const EMAIL = 'ana.berg@example.se';
const REQUEST = `My parcel never arrived and I want to complain. Call me on ${PHONE_WRITTEN} or mail ${EMAIL}`;
/** Every form in which the values could have been written down. */
const CLEAR = [PHONE_WRITTEN, PHONE, PHONE.slice(1), EMAIL];

let schema: IsolatedSchema;
let store: EventStore;
let demo: DemoTools;
let bus: Bus;
let services: ReturnType<typeof startServiceProcess>[] = [];
let prefix: string;

beforeAll(async () => {
  schema = await createIsolatedSchema(endpoints.databaseUrl, 'e2e_free_text');
  store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
  demo = await startDemoTools(schema.name, REFERENCE_TIME);
  prefix = `${uniqueName('e2efreetext')}.`;
  bus = prefixedBus('e2e-free-text', prefix);
  await prepareTopics(bus, prefix);
  const env = {
    ...workerEnv({ prefix, schema, registryDir: 'registry/packs/reach' }),
    SIGNALBOX_EXECUTOR_SCHEMA: `${schema.name}_executor`,
    SIGNALBOX_DEMO_TOOLS_URL: demo.url,
    SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(demo.url).host,
    // Debug lines too: more places a value could leak into.
    LOG_LEVEL: 'debug',
  };
  services = WORKER_SERVICES.map((s) =>
    startServiceProcess(s, { ...env, SIGNALBOX_GROUP_ID: uniqueName(s) }),
  );
  await Promise.all(services.map((s) => s.started));
}, 180_000);

afterAll(async () => {
  await Promise.all(services.map((s) => stopServiceProcess(s)));
  await bus.close().catch(() => undefined);
  await demo.server.close();
  await demo.pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_demo" CASCADE`);
  await demo.pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_executor" CASCADE`);
  await demo.pool.end();
  await store.close();
  await schema.drop();
}, 120_000);

describe('sensitive values in free text through five workers on real Kafka + PostgreSQL (RS-6)', () => {
  it('stores and logs no clear phone or e-mail anywhere, calls the tool with the real phone, keeps it secret', async () => {
    const taskId = `${prefix}task-1`;
    const message = submittedMessage({
      taskId,
      tenantId: 'default',
      agentId: 'reach_agent',
      request: REQUEST,
      referenceTime: REFERENCE_TIME,
      reason: 'submitted by the e2e suite',
      context: [{ role: 'user', content: `Earlier: you can also reach me at ${EMAIL}` }],
    });
    await submitMessage(store, bus, message);
    const events = await finishedEvents(store, taskId, 60_000, () =>
      services.map((s) => `--- ${s.name}\n${s.output().slice(-3000)}`).join('\n'),
    );
    const stages = events.map((e) => `${e.envelope.stage}:${e.envelope.event_type}`);
    expect(stages).toContain('executor:step_executed');

    // The tool ran with a real value: the ticket the demo backend stored has the contact the user wrote (the injector
    // picks one of the two), not a placeholder.
    const tickets = await demo.pool.query<{ contact: string | null }>(
      `SELECT contact FROM "${schema.name}_demo".tickets WHERE contact IS NOT NULL`,
    );
    expect(tickets.rows).toHaveLength(1);
    expect([PHONE, EMAIL]).toContain(tickets.rows[0]?.contact);

    // Every column of every events row of the task, as the database holds it.
    const rows = await schema.pool.query<{ event_id: string }>(
      'SELECT *, payload::text AS payload_text FROM events WHERE task_id = $1',
      [taskId],
    );
    expect(rows.rows.length).toBe(events.length);
    const stored = JSON.stringify(rows.rows);
    for (const clear of CLEAR) expect(stored, clear).not.toContain(clear);
    // The stored request is still readable, the values masked by kind.
    const submitted = rows.rows.find((r) => r.event_id === message.event_id) as unknown as {
      payload: { task: { request: string } };
    };
    expect(submitted.payload.task.request).toBe(
      'My parcel never arrived and I want to complain. Call me on [phone#1] or mail [email#1]',
    );

    // No line any worker wrote.
    for (const service of services)
      for (const clear of CLEAR) expect(service.output(), `${service.name}: ${clear}`).not.toContain(clear);

    // The values are in the secrets table (closed to PUBLIC), and a stage's own read gets them back.
    const secrets = await schema.pool.query<{ value: unknown }>(
      'SELECT value FROM event_secrets WHERE event_id = ANY($1)',
      [rows.rows.map((r) => r.event_id)],
    );
    const secretText = JSON.stringify(secrets.rows);
    expect(secretText).toContain(PHONE_WRITTEN);
    expect(secretText).toContain(EMAIL);
    const exact = await store.findByEventIds([message.event_id], { withSecrets: true });
    expect(exact.get(message.event_id)?.payload).toEqual(message.payload);
  }, 120_000);
});
