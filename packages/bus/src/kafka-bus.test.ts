import { readFile } from 'node:fs/promises';
import { TOPICS } from '@signalbox/contracts';
import { testEndpoints, uniqueName } from '@signalbox/test-support';
import {
  Kafka,
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  logLevel,
  type Consumer,
  type Producer,
  type ProducerConfig,
} from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { busContract, contractTopic, waitFor } from './bus-contract.js';
import { createSchemaRegistry, registerTopicSchemas, registeredSchemaText } from './codec.js';
import { headersToStrings, type DeadLetterRecord } from './consumer-runner.js';
import { IncompatibleSchemaError, SchemaNotRegisteredError } from './errors.js';
import { createKafkaBus, type KafkaBusOptions } from './kafka-bus.js';
import type { Bus } from './bus.js';
import { prefixTopic } from './topic-prefix.js';
import { COMPATIBILITY, SchemaType } from '@kafkajs/confluent-schema-registry';

const endpoints = testEndpoints();
const kafka = new Kafka({
  clientId: 'bus-test',
  brokers: endpoints.kafkaBrokers.split(','),
  logLevel: logLevel.NOTHING,
});
const registry = createSchemaRegistry({ url: endpoints.schemaRegistryUrl });
let rawProducer: Producer;

beforeAll(async () => {
  rawProducer = kafka.producer({ allowAutoTopicCreation: false });
  await rawProducer.connect();
});
afterAll(async () => {
  await rawProducer.disconnect();
});

busContract(
  'Kafka + schema registry',
  () => {
    const bus = createKafkaBus({
      brokers: endpoints.kafkaBrokers,
      clientId: uniqueName('bus-test'),
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      retryBackoff: { initialMs: 50, maxMs: 500 },
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      maxWaitTimeMs: 200,
    });
    const readers: Consumer[] = [];
    return Promise.resolve({
      bus,
      async prepare(topics, deadLetterTopics) {
        await bus.ensureTopics([
          ...topics.map((t) => ({ name: t.name, partitions: t.partitions })),
          ...deadLetterTopics.map((name) => ({ name, partitions: 1 })),
        ]);
        await registerTopicSchemas(registry, topics);
      },
      async produceRaw(topic, key, value) {
        await rawProducer.send({ topic, messages: [{ key, value }] });
      },
      async readDeadLetters(topic, count) {
        const records: DeadLetterRecord[] = [];
        const reader = kafka.consumer({ groupId: uniqueName('dlq-reader'), maxWaitTimeInMs: 200 });
        readers.push(reader);
        await reader.connect();
        await reader.subscribe({ topics: [topic], fromBeginning: true });
        await reader.run({
          eachMessage: ({ message }) => {
            records.push({
              key: message.key?.toString('utf8') ?? null,
              value: message.value,
              headers: headersToStrings(message.headers),
            });
            return Promise.resolve();
          },
        });
        try {
          await waitFor(`${String(count)} dead letters in ${topic}`, () => records.length >= count);
        } finally {
          await reader.disconnect();
        }
        return records;
      },
      async schemaIdOf(topic) {
        return registry.getRegistryIdBySchema(topic.subject, {
          type: SchemaType.JSON,
          schema: registeredSchemaText(topic),
        });
      },
      async dispose() {
        await Promise.all(readers.map((r) => r.disconnect()));
        await bus.close();
      },
    });
  },
  45_000,
);

/** A bus on the test cluster whose `topic` exists with its schema registered. */
async function busWithTopic(
  topic: ReturnType<typeof contractTopic>,
  options: Partial<KafkaBusOptions> = {},
): Promise<Bus> {
  const bus = createKafkaBus({
    brokers: endpoints.kafkaBrokers,
    clientId: uniqueName('bus-test'),
    schemaRegistryUrl: endpoints.schemaRegistryUrl,
    ...options,
  });
  try {
    await bus.ensureTopics([{ name: topic.name, partitions: topic.partitions }]);
    await registerTopicSchemas(registry, [topic]);
  } catch (error) {
    await bus.close();
    throw error;
  }
  return bus;
}

describe('committing on an interval', { timeout: 45_000 }, () => {
  it('commits what it handled when the subscription stops, though the interval has not passed', async () => {
    const topic = contractTopic(2);
    const bus = await busWithTopic(topic, { maxWaitTimeMs: 200, commitIntervalMs: 600_000 });
    const groupId = uniqueName('group');
    try {
      const consumeInto = (seen: string[]) =>
        bus.consume({
          groupId,
          topic,
          handler: (batch) => {
            seen.push(...batch.map((m) => m.key));
            return Promise.resolve({ deadLetters: [] });
          },
        });
      const first: string[] = [];
      const subscription = await consumeInto(first);
      const keys = Array.from({ length: 20 }, (_, i) => `k${String(i)}`);
      await bus.publish(keys.map((key, seq) => ({ topic, key, value: { task_id: key, seq } })));
      await waitFor('the first 20 messages', () => first.length >= 20);
      await subscription.stop();

      const second: string[] = [];
      await consumeInto(second);
      await bus.publish([{ topic, key: 'after', value: { task_id: 'after', seq: 0 } }]);
      await waitFor('the message published after the stop', () => second.includes('after'));
      expect(second).toEqual(['after']);
    } finally {
      await bus.close();
    }
  });
});

describe('committing on an interval, while idle', { timeout: 45_000 }, () => {
  it('commits a handled batch within the interval though nothing arrives after it', async () => {
    const topic = contractTopic(1);
    const bus = await busWithTopic(topic, { maxWaitTimeMs: 200, commitIntervalMs: 1_000 });
    const groupId = uniqueName('group');
    const admin = kafka.admin();
    await admin.connect();
    try {
      let handled = 0;
      await bus.consume({
        groupId,
        topic,
        handler: (batch) => {
          handled += batch.length;
          return Promise.resolve({ deadLetters: [] });
        },
      });
      await bus.publish(
        Array.from({ length: 5 }, (_, seq) => ({ topic, key: 'k', value: { task_id: 'k', seq } })),
      );
      await waitFor('5 messages handled', () => handled === 5);
      const committed = async () => {
        const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic.name] });
        return offsets?.partitions[0]?.offset;
      };
      let offset = await committed();
      for (let waited = 0; offset !== '5' && waited < 5_000; waited += 250) {
        await new Promise((r) => setTimeout(r, 250));
        offset = await committed();
      }
      expect(offset).toBe('5');
    } finally {
      await admin.disconnect();
      await bus.close();
    }
  });
});

describe('lingering publishes', { timeout: 45_000 }, () => {
  it('sends what lingers when the bus closes, and refuses a linger out of range', async () => {
    const topic = contractTopic(1);
    const bus = await busWithTopic(topic, { lingerMs: 1_000 });
    // The producer connects on the first publish; this one goes out after the linger.
    await bus.publish([{ topic, key: 'k', value: { task_id: 'k', seq: 0 } }]);
    const lingering = bus.publish([{ topic, key: 'k', value: { task_id: 'k', seq: 1 } }]);
    await bus.close();
    await expect(lingering).resolves.toBeUndefined();
    const admin = kafka.admin();
    await admin.connect();
    try {
      const [partition] = await admin.fetchTopicOffsets(topic.name);
      expect(partition?.high).toBe('2');
    } finally {
      await admin.disconnect();
    }
    for (const lingerMs of [-1, 1_001, 0.5]) {
      expect(() =>
        createKafkaBus({
          brokers: endpoints.kafkaBrokers,
          clientId: 'x',
          schemaRegistryUrl: endpoints.schemaRegistryUrl,
          lingerMs,
        }),
      ).toThrow(/lingerMs/);
    }
  });
});

describe('handing batches to partition lanes', { timeout: 45_000 }, () => {
  it("handles another partition's new messages while one partition's batch is still being handled", async () => {
    const topic = contractTopic(2);
    const bus = await busWithTopic(topic, { maxWaitTimeMs: 200 });
    try {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let slowPartition: number | undefined;
      const handled: { key: string; partition: number }[] = [];
      await bus.consume({
        groupId: uniqueName('group'),
        topic,
        partitionsConcurrently: 2,
        handler: async (batch) => {
          if (batch.some((m) => m.key === 'slow')) {
            slowPartition = batch[0]?.partition;
            await gate;
          }
          handled.push(...batch.map((m) => ({ key: m.key, partition: m.partition })));
          return { deadLetters: [] };
        },
      });
      await bus.publish([{ topic, key: 'slow', value: { task_id: 'slow', seq: 0 } }]);
      await waitFor('the slow batch to start', () => slowPartition !== undefined);
      // Published while the slow batch runs: kafkajs fetches them only once the batches it handed out returned.
      const keys = Array.from({ length: 20 }, (_, i) => `after${String(i)}`);
      await bus.publish(keys.map((key, seq) => ({ topic, key, value: { task_id: key, seq } })));
      await waitFor('a message of the other partition, published after the slow batch began', () =>
        handled.some((h) => h.partition !== slowPartition),
      );
      expect(handled.map((h) => h.key)).not.toContain('slow');
      expect(handled.every((h) => h.partition !== slowPartition)).toBe(true);
      release();
      await waitFor('everything', () => handled.length === keys.length + 1);
      // The slow partition's later messages waited for it, in order.
      const slowLane = handled.filter((h) => h.partition === slowPartition).map((h) => h.key);
      expect(slowLane[0]).toBe('slow');
      expect(slowLane.slice(1)).toEqual(keys.filter((k) => slowLane.includes(k)));
    } finally {
      await bus.close();
    }
  });
  it('hands what a busy partition fetches meanwhile to its handler as one batch, in order, as soon as it is free', async () => {
    const topic = contractTopic(1);
    const bus = await busWithTopic(topic, { maxWaitTimeMs: 100 });
    try {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const batches: string[][] = [];
      let started = false;
      await bus.consume({
        groupId: uniqueName('group'),
        topic,
        handler: async (batch) => {
          if (batch.some((m) => m.key === 'slow')) {
            started = true;
            await gate;
          }
          batches.push(batch.map((m) => m.key));
          return { deadLetters: [] };
        },
      });
      await bus.publish([{ topic, key: 'slow', value: { task_id: 'slow', seq: 0 } }]);
      await waitFor('the slow batch to start', () => started);
      // One at a time, each fetched on its own while the slow batch runs: each joins the batch waiting behind it.
      // (Before, the first of them held kafkajs's fetching up until the slow batch was done, and the rest came after.)
      const keys = ['m0', 'm1', 'm2', 'm3'];
      for (const [seq, key] of keys.entries()) {
        await bus.publish([{ topic, key, value: { task_id: key, seq } }]);
        await new Promise((r) => setTimeout(r, 300));
      }
      await new Promise((r) => setTimeout(r, 700));
      release();
      await waitFor('everything', () => batches.flat().length === keys.length + 1);
      expect(batches).toEqual([['slow'], keys]);
    } finally {
      await bus.close();
    }
  });
});

describe('schema registry compatibility (FL-2)', { timeout: 30_000 }, () => {
  it('refuses an incompatible change under BACKWARD and accepts a compatible one', async () => {
    const v1 = contractTopic();
    const [first] = await registerTopicSchemas(registry, [v1]);
    expect(first?.id).toBeGreaterThan(0);
    // Registering the same schema again is a no-op with the same id.
    expect((await registerTopicSchemas(registry, [v1]))[0]?.id).toBe(first?.id);

    const newRequired = { ...v1, schema: v1.schema.extend({ tenant_id: z.string() }) };
    await expect(registerTopicSchemas(registry, [newRequired])).rejects.toBeInstanceOf(
      IncompatibleSchemaError,
    );
    await expect(registerTopicSchemas(registry, [newRequired])).rejects.toThrow(/required property/i);

    const changedType = { ...v1, schema: v1.schema.extend({ seq: z.string() }) };
    await expect(registerTopicSchemas(registry, [changedType])).rejects.toBeInstanceOf(
      IncompatibleSchemaError,
    );

    const newOptional = { ...v1, schema: v1.schema.extend({ tenant_id: z.string().optional() }) };
    const [second] = await registerTopicSchemas(registry, [newOptional]);
    expect(second?.id).not.toBe(first?.id);
  });

  it('accepts every topic’s current contract over its frozen v1 schema (the upgrade of a running system)', async () => {
    const prefix = `${uniqueName('upgrade')}.`;
    const frozen = new URL('../../contracts/fixtures/json-schema/', import.meta.url);
    for (const spec of Object.values(TOPICS)) {
      const topic = prefixTopic(spec, prefix);
      const v1 = JSON.parse(await readFile(new URL(`${spec.name}.v1.json`, frozen), 'utf8')) as unknown;
      const old = await registry.register(
        { type: SchemaType.JSON, schema: JSON.stringify(v1) },
        { subject: topic.subject, compatibility: COMPATIBILITY.BACKWARD },
      );
      const [current] = await registerTopicSchemas(registry, [topic]);
      expect(current?.id, spec.name).toBeGreaterThan(0);
      expect(current?.id, `${spec.name} changed since v1`).not.toBe(old.id);
    }
  });

  it('refuses to publish to a topic whose schema was never registered, naming the fix', async () => {
    const topic = contractTopic(1);
    const bus = createKafkaBus({
      brokers: endpoints.kafkaBrokers,
      clientId: uniqueName('bus-test'),
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
    });
    try {
      await bus.ensureTopics([{ name: topic.name, partitions: 1 }]);
      const publishing = bus.publish([{ topic, key: 'k', value: { task_id: 'k', seq: 1 } }]);
      await expect(publishing).rejects.toBeInstanceOf(SchemaNotRegisteredError);
      await expect(publishing).rejects.toThrow(/registerTopicSchemas/);
    } finally {
      await bus.close();
    }
  });
});

// Issue 21, broker scenario: a publish in flight as the broker died failed after kafkajs's retries with a
// `retriable: false` wrapper around the connection error, and the subscription stopped for good. The broker here is
// the shared one, so the outage is the producer's: its sends to the output topic fail as kafkajs fails them then.
describe('a publish that meets a broker outage', { timeout: 45_000 }, () => {
  it('retries the batch and goes on consuming once the broker is back; the subscription never fails', async () => {
    const input = contractTopic(1);
    const output = contractTopic(1);
    const bus = await busWithTopic(input, {
      maxWaitTimeMs: 200,
      retryBackoff: { initialMs: 50, maxMs: 200 },
    });
    // The prototype's own method, called on each client below (`this` is the client the bus created).
    const createProducer = Object.getOwnPropertyDescriptor(Kafka.prototype, 'producer')?.value as (
      this: Kafka,
      config?: ProducerConfig,
    ) => Producer;
    let failures = 3;
    const spy = vi.spyOn(Kafka.prototype, 'producer').mockImplementation(function (this: Kafka, config) {
      const producer = createProducer.call(this, config);
      const sendBatch = producer.sendBatch.bind(producer);
      producer.sendBatch = (batch) => {
        if (batch.topicMessages?.some((t) => t.topic === output.name) && failures-- > 0) {
          // What kafkajs's producer rejects with when its reconnect inside the send's retry ran out of retries.
          const refused = new (
            KafkaJSConnectionError as unknown as new (e: string, o: Record<string, unknown>) => Error
          )('Connection error: connect ECONNREFUSED 127.0.0.1:9092', { code: 'ECONNREFUSED' });
          const exceeded = new (
            KafkaJSNumberOfRetriesExceeded as unknown as new (e: Error, o: Record<string, unknown>) => Error
          )(refused, { retryCount: 5, retryTime: 3000 });
          return Promise.reject(
            new (KafkaJSNonRetriableError as unknown as new (e: Error, o: Record<string, unknown>) => Error)(
              exceeded,
              { cause: refused },
            ),
          );
        }
        return sendBatch(batch);
      };
      return producer;
    });
    const errors: Error[] = [];
    const forwarded: string[] = [];
    let attempts = 0;
    try {
      await bus.ensureTopics([{ name: output.name, partitions: 1 }]);
      await registerTopicSchemas(registry, [output]);
      await bus.consume({
        groupId: uniqueName('group'),
        topic: input,
        handler: async (batch) => {
          attempts++;
          await bus.publish(batch.map((m) => ({ topic: output, key: m.key, value: m.value })));
          forwarded.push(...batch.map((m) => m.key));
          return { deadLetters: [] };
        },
        onError: (error) => errors.push(error),
      });
      await bus.publish([{ topic: input, key: 'during', value: { task_id: 'during', seq: 0 } }]);
      await waitFor('the message published into the outage', () => forwarded.includes('during'));
      expect(attempts).toBe(4);
      await bus.publish([{ topic: input, key: 'after', value: { task_id: 'after', seq: 1 } }]);
      await waitFor('the message published after it', () => forwarded.includes('after'));
      expect(forwarded).toEqual(['during', 'after']);
      expect(errors).toEqual([]);
      const admin = kafka.admin();
      await admin.connect();
      try {
        const [partition] = await admin.fetchTopicOffsets(output.name);
        expect(partition?.high).toBe('2');
      } finally {
        await admin.disconnect();
      }
    } finally {
      spy.mockRestore();
      await bus.close();
    }
  });
});
