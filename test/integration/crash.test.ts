// RS-1 crash points with real child processes killed by SIGKILL, and a rebalance mid-stream. After restart every
// input has exactly one event row, and downstream sees each decision once after dedupe by event id.
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, allTopicNames, type TopicMessage } from '@signalbox/contracts';
import { createKafkaBus, type Bus, type Subscription } from '@signalbox/bus';
import { testEndpoints, uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { submittedTask } from '../support/pass-through.js';
import { spawnWorker, waitFor, type WorkerProcess } from '../support/workers.js';

const N = 120;
const endpoints = testEndpoints();
let schema: IsolatedSchema;
let db: pg.Pool;

beforeAll(async () => {
  schema = await createMigratedSchema('crash');
  db = schema.pool;
});
afterAll(async () => {
  await schema.drop();
});

interface Rig {
  bus: Bus;
  prefix: string;
  group: string;
  taskIds: string[];
  downstream: string[];
  observer: Subscription;
  workers: WorkerProcess[];
}

async function rig(tasks: number): Promise<Rig> {
  const prefix = `${uniqueName('crash')}.`;
  const bus = createKafkaBus({
    brokers: endpoints.kafkaBrokers.split(','),
    clientId: 'crash-test',
    schemaRegistryUrl: endpoints.schemaRegistryUrl,
    topicPrefix: prefix,
    autoRegisterSchemas: true,
  });
  await bus.ensureTopics(allTopicNames());
  const downstream: string[] = [];
  const observer = await bus.consume({
    groupId: uniqueName('observer'),
    topic: TOPICS.modelSelected,
    handler: (batch) => {
      for (const m of batch) downstream.push((m.value as TopicMessage<'modelSelected'>).event_id);
      return Promise.resolve({ deadLetters: [] });
    },
  });
  const taskIds = Array.from({ length: tasks }, (_, i) => `${prefix}task-${String(i)}`);
  return { bus, prefix, group: uniqueName('model-selector'), taskIds, downstream, observer, workers: [] };
}

function start(r: Rig, env: Record<string, string> = {}): WorkerProcess {
  const worker = spawnWorker({
    STAGE: 'model_selector',
    SIGNALBOX_TOPIC_PREFIX: r.prefix,
    SIGNALBOX_GROUP_ID: r.group,
    EVENT_LOG_SCHEMA: schema.name,
    // One partition at a time, so a crash point means the same thing in every run.
    PARTITIONS_CONCURRENTLY: '1',
    // The broker's minimum: a killed worker's partitions move to the restarted one after 6 s.
    KAFKA_SESSION_TIMEOUT_MS: '6000',
    ...env,
  });
  r.workers.push(worker);
  return worker;
}

async function publishTasks(r: Rig, ids: string[]): Promise<void> {
  await r.bus.publish(
    ids.map((id) => ({ topic: TOPICS.taskSubmitted, key: id, value: submittedTask(id, new Date()) })),
  );
}

async function rows(r: Rig): Promise<{ rows: number; tasks: number }> {
  const res = await db.query<{ rows: string; tasks: string }>(
    `SELECT count(*) AS rows, count(DISTINCT task_id) AS tasks FROM events
     WHERE stage = 'model_selector' AND event_type = 'model_selected' AND task_id LIKE $1`,
    [`${r.prefix}%`],
  );
  return { rows: Number(res.rows[0]?.rows), tasks: Number(res.rows[0]?.tasks) };
}

async function assertExactlyOnce(r: Rig): Promise<void> {
  await waitFor(
    async () => (await rows(r)).rows >= r.taskIds.length,
    `${String(r.taskIds.length)} event rows`,
  );
  await waitFor(() => new Set(r.downstream).size >= r.taskIds.length, 'every decision downstream');
  expect(await rows(r)).toEqual({ rows: r.taskIds.length, tasks: r.taskIds.length });
  const distinct = new Set(r.downstream);
  expect(distinct.size).toBe(r.taskIds.length);
  const stored = await db.query<{ event_id: string }>(
    `SELECT event_id FROM events WHERE stage = 'model_selector' AND task_id LIKE $1`,
    [`${r.prefix}%`],
  );
  expect(new Set(stored.rows.map((x) => x.event_id))).toEqual(distinct);
}

async function teardown(r: Rig): Promise<void> {
  for (const w of r.workers)
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
  await Promise.all(r.workers.map((w) => w.exited));
  await r.observer.stop();
  await r.bus.close();
}

describe('crash points (SIGKILL) and rebalance on real Kafka + PostgreSQL', () => {
  for (const crashAt of ['after_append', 'after_publish', 'mid_batch'] as const) {
    it(`loses and duplicates nothing when the worker is killed ${crashAt.replace('_', ' ')}`, async () => {
      const r = await rig(N);
      try {
        await publishTasks(r, r.taskIds);
        const first = start(r, { CRASH_AT: crashAt, CRASH_ON_BATCH: '1' });
        const ended = await first.exited;
        expect(ended.signal, first.output()).toBe('SIGKILL');
        expect(first.output()).toContain(`crash ${crashAt}`);
        const afterCrash = await rows(r);
        if (crashAt === 'mid_batch') expect(afterCrash.rows).toBe(0);
        else expect(afterCrash.rows).toBeGreaterThan(0);

        start(r);
        await assertExactlyOnce(r);
        if (crashAt === 'after_publish') {
          // The crashed worker published before committing: the restart re-published the same decisions, and the
          // dedupe by event id above is what makes them count once.
          await waitFor(() => r.downstream.length > new Set(r.downstream).size, 're-published duplicates');
          expect(new Set(r.downstream).size).toBe(r.taskIds.length);
        }
      } finally {
        await teardown(r);
      }
    });
  }

  it('loses and duplicates nothing when a second consumer joins mid-stream', async () => {
    const r = await rig(240);
    try {
      const a = start(r);
      await a.ready;
      const waves = 6;
      const per = r.taskIds.length / waves;
      for (let w = 0; w < waves; w++) {
        await publishTasks(r, r.taskIds.slice(w * per, (w + 1) * per));
        if (w === 1) start(r);
        await new Promise((res) => setTimeout(res, 300));
      }
      await assertExactlyOnce(r);
      await r.workers[1]!.ready;
    } finally {
      await teardown(r);
    }
  });
});
