// PI-5 / RS-6 end to end on real Kafka + schema registry + PostgreSQL: the parameter injector's real definition
// (reach pack, `create_ticket` whose `contact` is a sensitive field) in the shared stage runtime. The step_prepared
// message bound for the executor carries the user's phone; the event log's rows read "[REDACTED]" and only its
// secret side table holds the value; a redelivered input re-publishes the very same message.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, allTopicNames, type TopicMessage } from '@signalbox/contracts';
import { createKafkaBus, type Bus, type Subscription } from '@signalbox/bus';
import { SECRET_REDACTED, createPgEventStore, type EventStore } from '@signalbox/event-log';
import { parameterInjectorDefinition } from '@signalbox/parameter-injector';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { createStageRuntime, type StageRuntime } from '@signalbox/stage-kit';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import { waitFor } from '../support/workers.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const endpoints = testEndpoints();
const PHONE = '+46701234567';

let schema: IsolatedSchema;
let store: EventStore;
let registry: Registry;
let bus: Bus | undefined;
let observer: Subscription | undefined;
let runtime: StageRuntime | undefined;

beforeAll(async () => {
  registry = await loadRegistryDir(join(root, 'registry/packs/reach'));
  schema = await createIsolatedSchema(endpoints.databaseUrl, 'secrets');
  store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
});
afterAll(async () => {
  await runtime?.stop().catch(() => undefined);
  await observer?.stop().catch(() => undefined);
  await bus?.close().catch(() => undefined);
  await store.close();
  await schema.drop();
});

function planned(taskId: string, request: string): TopicMessage<'taskPlanned'> {
  const at = new Date().toISOString();
  return {
    event_id: `ev_planned_${taskId}`,
    task_id: taskId,
    tenant_id: 'default',
    agent_id: 'reach_agent',
    stage: 'tool_decider',
    event_type: 'task_planned',
    causation_id: `ev_selected_${taskId}`,
    revision_count: 0,
    degraded_flag: false,
    decision_reason: 'one step: create_ticket',
    input_source: 'pipeline',
    registry_version: registry.versions.registry_version,
    profiles_version: null,
    policy_version: null,
    occurred_at: at,
    schema_version: 1,
    traceparent: null,
    payload: {
      task: {
        request,
        context: [],
        locale: 'en-US',
        time_zone: 'UTC',
        reference_time: at,
        cost_ceiling_usd: null,
        required_modalities: ['text'],
        attachments: [],
        scenario: null,
        needs_fresh_data: false,
        redrive_of: null,
      },
      progress: { revisions: 0, replans: 0, degradations: 0, steps_executed: 0, cost_usd: 0, started_at: at },
      history: [],
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
        steps: [
          {
            index: 0,
            tool: 'create_ticket',
            tool_definition_hash: registry.versions.tool_hashes.create_ticket ?? '',
            purpose: 'open a support ticket',
            input_from: [{ parameter: 'title', source: 'user_text', step_index: null, path: null }],
            expected_evidence: 'action_receipt',
            fallback_tool: null,
          },
        ],
        visible_tools: ['create_ticket'],
        candidate_scores: [],
        rejected: [],
      },
      step_index: 0,
    },
  };
}

describe('sensitive fields through the parameter injector on real Kafka and PostgreSQL (PI-5, RS-6)', () => {
  it('sends the executor the real contact, stores "[REDACTED]", and re-publishes the same message on redelivery', async () => {
    const prefix = `${uniqueName('secrets')}.`;
    bus = createKafkaBus({
      brokers: endpoints.kafkaBrokers.split(','),
      clientId: 'secrets-test',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
      autoRegisterSchemas: true,
    });
    await bus.ensureTopics(allTopicNames());
    const prepared: TopicMessage<'stepPrepared'>[] = [];
    // Plays the executor: what arrives here is what the executor would run.
    observer = await bus.consume({
      groupId: uniqueName('executor-side'),
      topic: TOPICS.stepPrepared,
      handler: (batch) => {
        for (const m of batch) prepared.push(m.value as TopicMessage<'stepPrepared'>);
        return Promise.resolve({ deadLetters: [] });
      },
    });
    runtime = createStageRuntime({
      definition: parameterInjectorDefinition({ registry }),
      bus,
      store,
      groupId: uniqueName('parameter-injector'),
    });
    await runtime.start();

    const taskId = `${prefix}task-1`;
    const input = planned(taskId, `My parcel never arrived and I want to complain. Call me on ${PHONE}`);
    await bus.publish([{ topic: TOPICS.taskPlanned, key: taskId, value: input }]);
    await waitFor(() => Promise.resolve(prepared.length === 1), 'step_prepared for the executor', 30_000);

    const [first] = prepared;
    expect(first?.event_type).toBe('step_prepared');
    expect(first?.payload.call.tool).toBe('create_ticket');
    expect(first?.payload.call.arguments.contact).toBe(PHONE);
    expect(first?.decision_reason).not.toContain(PHONE);
    const contactLine = first?.payload.call.validation_log.find((line) => line.startsWith('contact ='));
    expect(contactLine).toMatch(/^contact = \[redacted\]/);
    expect(contactLine).not.toContain(PHONE);

    // What the database holds (queried directly, not through the store): the payload as published with the sensitive
    // field reading "[REDACTED]" — and every other copy of its value too (the user's own request text, which the
    // task carries, and the title quoting it): the phone is nowhere in the row. The values are only in the secret
    // side table, each at its path, and putting them back gives the published payload exactly.
    const rows = await schema.pool.query<{ event_id: string; payload: unknown; decision_reason: string }>(
      'SELECT event_id, payload, decision_reason FROM events WHERE task_id = $1',
      [taskId],
    );
    expect(rows.rows).toHaveLength(1);
    const [row] = rows.rows;
    const stored = row?.payload as TopicMessage<'stepPrepared'>['payload'];
    expect(stored.call.arguments.contact).toBe(SECRET_REDACTED);
    expect(stored.call.arguments.title).toBe(SECRET_REDACTED);
    expect((stored as unknown as { task: { request: string } }).task.request).toBe(SECRET_REDACTED);
    expect(JSON.stringify(stored)).not.toContain(PHONE);
    expect(row?.decision_reason).not.toContain(PHONE);
    const secrets = await schema.pool.query<{ path: string; value: unknown }>(
      'SELECT path, value FROM event_secrets WHERE event_id = $1 ORDER BY path',
      [row?.event_id],
    );
    expect(secrets.rows).toContainEqual({ path: 'call.arguments.contact', value: PHONE });
    expect(secrets.rows.length).toBeGreaterThan(1);
    for (const secret of secrets.rows) expect(JSON.stringify(secret.value)).toContain(PHONE);
    const restored = structuredClone(stored) as unknown as Record<string, unknown>;
    for (const { path, value } of secrets.rows) {
      const keys = path.split('.');
      const parent = keys
        .slice(0, -1)
        .reduce<Record<string, unknown>>((node, key) => node[key] as Record<string, unknown>, restored);
      parent[keys[keys.length - 1]!] = value;
    }
    expect(JSON.parse(JSON.stringify(restored))).toEqual(first?.payload);
    // Operators' reads are redacted too.
    const [read] = await store.readTask(taskId);
    expect(read?.payload).toEqual(stored);

    // A redelivered input: the stored decision is re-published, real value included, unchanged.
    await bus.publish([{ topic: TOPICS.taskPlanned, key: taskId, value: input }]);
    await waitFor(() => Promise.resolve(prepared.length === 2), 'the re-published step_prepared', 30_000);
    expect(JSON.stringify(prepared[1])).toBe(JSON.stringify(first));
    expect((await store.readTask(taskId)).length).toBe(1);
  }, 90_000);
});
