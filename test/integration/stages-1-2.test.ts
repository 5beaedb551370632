// Stages 1 and 2 as separate processes on real Kafka + schema registry + PostgreSQL: the model selector's and the
// tool decider's real `main.ts`, each a child process. A submitted SP-1 task ("late delivery + refund") arrives at
// `task.planned` with a validated, ordered plan, and the event log holds one row per stage with its reason.
import {
  startServiceProcess,
  stopServiceProcess,
  workerEnv,
  type ServiceProcess,
} from '../support/services.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, allTopicNames, type TopicMessage } from '@signalbox/contracts';
import {
  createSchemaRegistry,
  prefixTopic,
  registerTopicSchemas,
  type Bus,
  type Subscription,
} from '@signalbox/bus';
import { testEndpoints, uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { submittedTask } from '../support/pass-through.js';
import { prefixedBus } from '../support/topics.js';
import { waitFor } from '../support/workers.js';

const endpoints = testEndpoints();
let schema: IsolatedSchema;

beforeAll(async () => {
  schema = await createMigratedSchema('stages12');
});
afterAll(async () => {
  await schema.drop();
});

/** `promise`, or a failure naming the setup step that did not finish in `ms` (not a bare test timeout). */
async function within<T>(ms: number, step: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`${step} did not finish within ${String(ms)} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('model selector → tool decider as separate processes on real Kafka', () => {
  const services: ServiceProcess[] = [];
  let bus: Bus | undefined;
  let observer: Subscription | undefined;
  afterAll(async () => {
    await Promise.all(services.map((s) => stopServiceProcess(s)));
    await observer?.stop().catch(() => undefined);
    await bus?.close().catch(() => undefined);
  });

  it('a submitted task arrives at task.planned with a validated plan and two event rows with reasons', async () => {
    const prefix = `${uniqueName('stages12')}.`;
    bus = prefixedBus('stages-1-2-test', prefix);
    const created = bus;
    await within(30_000, 'creating the topics', created.ensureTopics(allTopicNames()));
    // Deploy-time step: the services do not auto-register schemas.
    await within(
      30_000,
      'registering the schemas',
      registerTopicSchemas(
        createSchemaRegistry({ url: endpoints.schemaRegistryUrl }),
        Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
      ),
    );
    const planned: TopicMessage<'taskPlanned'>[] = [];
    observer = await within(
      30_000,
      'starting the observer',
      created.consume({
        groupId: uniqueName('observer'),
        topic: TOPICS.taskPlanned,
        handler: (batch) => {
          for (const m of batch) planned.push(m.value as TopicMessage<'taskPlanned'>);
          return Promise.resolve({ deadLetters: [] });
        },
      }),
    );

    const env = workerEnv({ prefix, schema, registryDir: 'registry/packs/after-sales' });
    services.push(startServiceProcess('model-selector', { ...env, SIGNALBOX_GROUP_ID: uniqueName('ms') }));
    services.push(startServiceProcess('tool-decider', { ...env, SIGNALBOX_GROUP_ID: uniqueName('td') }));
    await Promise.all(services.map((s) => s.started));

    const taskId = `${prefix}task-1`;
    const submitted = submittedTask(taskId, new Date(), 'My order 20240917001 is late and I want a refund');
    await bus.publish([
      {
        topic: TOPICS.taskSubmitted,
        key: taskId,
        value: { ...submitted, tenant_id: 'default', agent_id: 'logistics_agent' },
      },
    ]);

    let seen = '';
    await waitFor(
      async () => {
        const r = await schema.pool.query<{ stage: string; event_type: string; decision_reason: string }>(
          `SELECT stage, event_type, decision_reason FROM events WHERE task_id = $1 ORDER BY stream_version`,
          [taskId],
        );
        seen = JSON.stringify(r.rows);
        return planned.some((m) => m.task_id === taskId);
      },
      `task.planned for ${taskId}`,
      45_000,
    ).catch((error: unknown) => {
      const outputs = services.map((s) => s.output()).join('\n---\n');
      throw new Error(`${(error as Error).message}; events so far ${seen}\n${outputs}`);
    });
    const message = planned.find((m) => m.task_id === taskId);
    expect(message?.event_type).toBe('task_planned');
    if (message?.event_type !== 'task_planned') return;
    const tools = message.payload.plan.steps.map((s) => s.tool);
    expect(tools[0]).toBe('order_status_query');
    expect(tools).toContain('refund_create');
    expect(tools.indexOf('refund_create')).toBeGreaterThan(0);
    expect(message.payload.step_index).toBe(0);
    expect(message.payload.plan.steps.every((s) => s.tool_definition_hash.length > 0)).toBe(true);
    expect(message.payload.plan.visible_tools).toContain('logistics_track_query');
    expect(message.registry_version).toMatch(/\S/);

    const rows = await schema.pool.query<{ stage: string; event_type: string; decision_reason: string }>(
      `SELECT stage, event_type, decision_reason FROM events WHERE task_id = $1 ORDER BY stream_version`,
      [taskId],
    );
    expect(rows.rows.map((r) => `${r.stage}/${r.event_type}`)).toEqual([
      'model_selector/model_selected',
      'tool_decider/task_planned',
    ]);
    for (const row of rows.rows) expect(row.decision_reason.length).toBeGreaterThan(10);
    expect(rows.rows[1]?.decision_reason).toMatch(/scene delivery_refund_scene.*chain order_status_query → /);
  }, 120_000);
});
