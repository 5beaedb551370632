import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { TOPICS, TaskPlanned } from '@signalbox/contracts';
import { createKafkaBus } from '@signalbox/bus';
import { createPgEventStore } from '@signalbox/event-log';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import { bufferIo } from '../io.js';
import { topicsCreate } from './ops.js';
import { redrive, trace } from './trace.js';

const endpoints = testEndpoints();
const fixture = fileURLToPath(
  new URL('../../../contracts/fixtures/signalbox.task.planned.v1/v1/task_planned.json', import.meta.url),
);
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

describe('signalbox redrive (EL-8) on real Kafka + PostgreSQL', () => {
  it('re-publishes a recorded task from the injector as a new task linked to the original', async () => {
    const schema: IsolatedSchema = await createIsolatedSchema(endpoints.databaseUrl, 'cli-redrive');
    cleanups.push(() => schema.drop());
    const prefix = `${uniqueName('cli-redrive')}.`;
    const store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
    cleanups.push(() => store.close());
    await store.migrate();
    const bus = createKafkaBus({
      brokers: endpoints.kafkaBrokers,
      clientId: 'redrive-test',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
    });
    cleanups.push(() => bus.close());
    const io = bufferIo(process.cwd(), {
      DATABASE_URL: endpoints.databaseUrl,
      KAFKA_BROKERS: endpoints.kafkaBrokers,
      SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
      SIGNALBOX_TOPIC_PREFIX: prefix,
    });
    // The deploy step: topics and schemas (BACKWARD), as `signalbox topics create` does.
    await topicsCreate(io, {});

    // The recorded input of the injector: the frozen task_planned fixture, as task `orig-1`.
    const recorded = TaskPlanned.parse({
      ...(JSON.parse(await readFile(fixture, 'utf8')) as object),
      task_id: 'orig-1',
      event_id: 'ev_recorded_plan_1',
    });
    const { payload, ...envelope } = recorded;
    await store.append([{ envelope, topic: TOPICS.taskPlanned.name, payload }]);

    const seen: { key: string; value: unknown }[] = [];
    const sub = await bus.consume({
      groupId: uniqueName('redrive-observer'),
      topic: TOPICS.taskPlanned,
      handler: (batch) => {
        seen.push(...batch.map((m) => ({ key: m.key, value: m.value })));
        return Promise.resolve({ deadLetters: [] });
      },
    });
    cleanups.push(() => sub.stop());

    const result = await redrive(io, 'orig-1', { from: 'parameter_injector', schema: schema.name });
    expect(result.json).toMatchObject({
      task_id: 'orig-1~redrive-1',
      redrive_of: 'orig-1',
      from: 'parameter_injector',
    });

    const deadline = Date.now() + 20_000;
    while (!seen.some((m) => m.key === 'orig-1~redrive-1') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const published = seen.find((m) => m.key === 'orig-1~redrive-1')?.value as
      | {
          task_id: string;
          causation_id: string;
          input_source: string;
          event_type: string;
          payload: { task: { redrive_of: string } };
        }
      | undefined;
    expect(published).toMatchObject({
      task_id: 'orig-1~redrive-1',
      causation_id: 'ev_recorded_plan_1',
      input_source: 'redrive',
      event_type: 'task_planned',
      payload: { task: { redrive_of: 'orig-1' } },
    });
    // The new task's trace starts with the re-drive, linked to the original's event.
    const timeline = await trace(io, 'orig-1~redrive-1', { schema: schema.name });
    expect(timeline.text.join('\n')).toContain('re-driven from parameter_injector of orig-1');
    // A second re-drive is a new task again, never a rewrite of the first.
    const again = await redrive(io, 'orig-1', { from: 'parameter_injector', schema: schema.name });
    expect(again.json.task_id).toBe('orig-1~redrive-2');
  });
});
