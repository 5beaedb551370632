// RS-2 on real Kafka + schema registry + PostgreSQL: poison messages of every kind (undecodable bytes, an unknown
// schema id, a registered schema with a value zod refuses, a task whose decide always throws) interleaved with valid
// tasks on one partition. Each poison message ends on the stage's dead-letter topic with error headers and a failed
// event in the log; every valid task behind it is decided once.
import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, allTopicNames, deadLetterTopicOf, type TopicMessage } from '@signalbox/contracts';
import {
  DEAD_LETTER_HEADERS,
  createKafkaBus,
  createSchemaRegistry,
  encodeWire,
  prefixTopic,
  registerTopicSchemas,
  type Bus,
  type Subscription,
} from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import { createStageRuntime, type StageDefinition, type StageRuntime } from '@signalbox/stage-kit';
import { testEndpoints, uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { PASS_THROUGH_STAGES, submittedTask } from '../support/pass-through.js';
import { waitFor } from '../support/workers.js';

const endpoints = testEndpoints();
const DECIDE_ATTEMPTS = 3;
// Well above any id this registry hands out in a test run.
const BOGUS_SCHEMA_ID = 0x7ffffff0;

let schema: IsolatedSchema;
beforeAll(async () => {
  schema = await createMigratedSchema('poison');
});
afterAll(async () => {
  await schema.drop();
});

interface DeadLetterSeen {
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

interface Sent {
  key: string;
  value: Buffer;
  /** The dead-letter reason expected, or null for a valid task. */
  poison: 'undecodable' | 'unknown_schema' | 'invalid_payload' | 'handler_failed' | null;
}

describe('poison messages (RS-2) on real Kafka + registry + PostgreSQL', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  });

  it('dead-letters each kind of poison with error headers and a failed event while valid tasks keep flowing', async () => {
    const prefix = `${uniqueName('poison')}.`;
    const input = prefixTopic(TOPICS.taskSubmitted, prefix);
    const deadLetterTopic = `${prefix}${deadLetterTopicOf('model_selector')}`;
    const brokers = endpoints.kafkaBrokers.split(',');

    const bus: Bus = createKafkaBus({
      brokers,
      clientId: 'poison-test',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
      autoRegisterSchemas: true,
      sessionTimeoutMs: 6_000,
      heartbeatIntervalMs: 1_000,
      retryBackoff: { initialMs: 50, maxMs: 1_000 },
    });
    cleanups.push(() => bus.close());
    await bus.ensureTopics(allTopicNames());
    // The input subject as a deploy would register it; its id is what valid (and zod-invalid) values carry.
    const [registered] = await registerTopicSchemas(
      createSchemaRegistry({ url: endpoints.schemaRegistryUrl }),
      [input],
    );
    if (!registered) throw new Error(`no schema id for ${input.subject}`);

    // Raw kafkajs: the stage's bus would refuse to produce poison, which is the point.
    const kafka = new Kafka({ clientId: 'poison-test-raw', brokers, logLevel: logLevel.NOTHING });
    const producer: Producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    cleanups.push(() => producer.disconnect());
    const deadLetters: DeadLetterSeen[] = [];
    const reader: Consumer = kafka.consumer({
      groupId: uniqueName('dead-letter-reader'),
      maxWaitTimeInMs: 500,
    });
    await reader.connect();
    cleanups.push(() => reader.disconnect());
    await reader.subscribe({ topics: [deadLetterTopic], fromBeginning: true });
    await reader.run({
      eachMessage: ({ message }) => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(message.headers ?? {})) {
          if (value !== undefined)
            headers[name] = String(Array.isArray(value) ? value[value.length - 1] : value);
        }
        deadLetters.push({ key: message.key?.toString('utf8') ?? null, value: message.value, headers });
        return Promise.resolve();
      },
    });

    const downstream: string[] = [];
    const observer: Subscription = await bus.consume({
      groupId: uniqueName('observer'),
      topic: TOPICS.modelSelected,
      handler: (batch) => {
        for (const m of batch) downstream.push((m.value as TopicMessage<'modelSelected'>).task_id);
        return Promise.resolve({ deadLetters: [] });
      },
    });
    cleanups.push(() => observer.stop());

    const throwingTask = `${prefix}always-throws`;
    let throwingCalls = 0;
    const base: StageDefinition = PASS_THROUGH_STAGES.model_selector;
    const definition: StageDefinition = {
      ...base,
      decide: (task, ctx) => {
        if (task.task_id !== throwingTask) return base.decide(task, ctx);
        throwingCalls++;
        // Retriable, so the runtime retries it (bounded) before giving up.
        throw Object.assign(new Error('upstream model endpoint keeps failing'), { retriable: true });
      },
    };
    const store: EventStore = createPgEventStore({
      connectionString: endpoints.databaseUrl,
      schema: schema.name,
    });
    cleanups.push(() => store.close());
    const runtime: StageRuntime = createStageRuntime({
      definition,
      bus,
      store,
      groupId: uniqueName('model-selector'),
      decideAttempts: DECIDE_ATTEMPTS,
      retryBaseMs: 10,
      retryMaxMs: 50,
    });
    await runtime.start();
    cleanups.push(() => runtime.stop());

    const wire = (value: unknown, schemaId = registered.id) =>
      encodeWire(schemaId, Buffer.from(JSON.stringify(value)));
    const valid = (n: number): Sent => {
      const key = `${prefix}task-${String(n)}`;
      return { key, value: wire(submittedTask(key, new Date())), poison: null };
    };
    const garbage = randomBytes(64);
    garbage[0] = 0xde; // not the wire format's magic byte
    const invalidTask = submittedTask(`${prefix}invalid-payload`, new Date());
    const sent: Sent[] = [
      valid(0),
      { key: `${prefix}random-bytes`, value: garbage, poison: 'undecodable' },
      valid(1),
      valid(2),
      {
        key: `${prefix}unknown-schema`,
        value: wire(submittedTask(`${prefix}unknown-schema`, new Date()), BOGUS_SCHEMA_ID),
        poison: 'unknown_schema',
      },
      valid(3),
      {
        key: invalidTask.task_id,
        value: wire({ ...invalidTask, payload: { task: { ...invalidTask.payload.task, locale: 'x' } } }),
        poison: 'invalid_payload',
      },
      valid(4),
      valid(5),
      { key: throwingTask, value: wire(submittedTask(throwingTask, new Date())), poison: 'handler_failed' },
      valid(6),
      valid(7),
    ];
    // One partition, one request: the poison sits in front of valid tasks in offset order.
    const [meta] = await producer.send({
      topic: input.name,
      acks: -1,
      messages: sent.map((m) => ({ key: m.key, value: m.value, partition: 0 })),
    });
    const baseOffset = BigInt(meta?.baseOffset ?? '0');
    const offsetOf = (index: number) => String(baseOffset + BigInt(index));
    const poison = sent.flatMap((m, index) => (m.poison ? [{ ...m, offset: offsetOf(index) }] : []));
    const validKeys = sent.filter((m) => !m.poison).map((m) => m.key);

    const count = async (eventType: string) =>
      Number(
        (
          await schema.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM events WHERE stage = 'model_selector' AND event_type = $1`,
            [eventType],
          )
        ).rows[0]?.n,
      );
    await waitFor(
      async () => (await count('model_selected')) >= validKeys.length,
      'every valid task decided',
      20_000,
    );
    await waitFor(() => deadLetters.length >= poison.length, 'every poison message dead-lettered', 20_000);
    await waitFor(
      async () => (await count('failed')) >= poison.length,
      'a failed event per poison message',
      20_000,
    );
    await waitFor(() => new Set(downstream).size >= validKeys.length, 'every decision downstream', 20_000);

    // The dead-letter topic: the original bytes and key, with error headers naming what is wrong and where from.
    expect(deadLetters.map((d) => d.key).sort()).toEqual(poison.map((p) => p.key).sort());
    for (const p of poison) {
      const letter = deadLetters.find((d) => d.key === p.key);
      expect(letter?.value, p.poison ?? '').toEqual(p.value);
      expect(letter?.headers).toMatchObject({
        [DEAD_LETTER_HEADERS.reason]: p.poison,
        [DEAD_LETTER_HEADERS.sourceTopic]: input.name,
        [DEAD_LETTER_HEADERS.sourcePartition]: '0',
        [DEAD_LETTER_HEADERS.sourceOffset]: p.offset,
      });
    }
    const detail = (key: string) =>
      deadLetters.find((d) => d.key === key)?.headers[DEAD_LETTER_HEADERS.detail];
    expect(detail(`${prefix}random-bytes`)).toMatch(/magic byte 222/);
    expect(detail(`${prefix}unknown-schema`)).toBe(
      `schema id ${String(BOGUS_SCHEMA_ID)} is not in the registry`,
    );
    expect(detail(invalidTask.task_id)).toMatch(/^payload\.task\.locale: /);
    expect(detail(throwingTask)).toBe('Error: upstream model endpoint keeps failing');
    expect(throwingCalls).toBe(DECIDE_ATTEMPTS);

    // The event log: exactly one failed event per poison message, naming the reason and the source offset.
    const failed = await schema.pool.query<{
      task_id: string;
      decision_reason: string;
      payload: { reason: string; source: { offset: string } };
    }>(
      `SELECT task_id, decision_reason, payload FROM events WHERE stage = 'model_selector' AND event_type = 'failed'`,
    );
    expect(failed.rows.map((r) => r.task_id).sort()).toEqual(poison.map((p) => p.key).sort());
    for (const p of poison) {
      const row = failed.rows.find((r) => r.task_id === p.key);
      expect(row?.payload.reason).toBe(p.poison);
      expect(row?.payload.source.offset).toBe(p.offset);
      expect(row?.decision_reason).toMatch(/^dead-lettered/);
    }

    // Every valid task behind the poison: one model_selected row each, and its decision downstream.
    const decided = await schema.pool.query<{ task_id: string; n: string }>(
      `SELECT task_id, count(*) AS n FROM events WHERE stage = 'model_selector' AND event_type = 'model_selected'
       GROUP BY task_id`,
    );
    expect(Object.fromEntries(decided.rows.map((r) => [r.task_id, Number(r.n)]))).toEqual(
      Object.fromEntries(validKeys.map((k) => [k, 1])),
    );
    expect(new Set(downstream)).toEqual(new Set(validKeys));
    expect(runtime.state).toBe('running');
    expect(runtime.isReady()).toBe(true);
  });
});
