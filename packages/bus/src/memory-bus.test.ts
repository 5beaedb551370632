import { describe, expect, it } from 'vitest';
import { busContract, contractTopic } from './bus-contract.js';
import { decodeWire } from './wire-format.js';
import { createMemoryBus } from './memory-bus.js';

busContract('in-memory', () => {
  const bus = createMemoryBus({ retryBackoff: { initialMs: 5, maxMs: 50 } });
  return Promise.resolve({
    bus,
    async prepare(topics, deadLetterTopics) {
      await bus.ensureTopics([
        ...topics.map((t) => ({ name: t.name, partitions: t.partitions })),
        ...deadLetterTopics.map((name) => ({ name, partitions: 1 })),
      ]);
    },
    produceRaw(topic, key, value) {
      bus.produceRaw(topic, { key, value });
      return Promise.resolve();
    },
    async readDeadLetters(topic, count) {
      const deadline = Date.now() + 5_000;
      while (bus.records(topic).length < count && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return bus.records(topic);
    },
    schemaIdOf(topic) {
      const record = bus.records(topic.name).find((r) => r.value?.[0] === 0 && r.key?.startsWith('valid'));
      if (!record?.value) throw new Error(`no published record in ${topic.name}`);
      return Promise.resolve(decodeWire(record.value).schemaId);
    },
    dispose: () => bus.close(),
  });
});

describe('in-memory bus strictness', () => {
  it('refuses topics that were not created, like Kafka with auto-create off', async () => {
    const bus = createMemoryBus();
    const topic = contractTopic();
    await expect(bus.publish([{ topic, key: 'k', value: { task_id: 'k', seq: 1 } }])).rejects.toThrow(
      /does not exist/,
    );
    await expect(
      bus.consume({ groupId: 'g', topic, handler: () => Promise.resolve({ deadLetters: [] }) }),
    ).rejects.toThrow(/does not exist/);
  });

  it('refuses a publish after close', async () => {
    const bus = createMemoryBus();
    const topic = contractTopic();
    await bus.ensureTopics([{ name: topic.name, partitions: 1 }]);
    await bus.close();
    await expect(bus.publish([{ topic, key: 'k', value: { task_id: 'k', seq: 1 } }])).rejects.toThrow(
      /closed/,
    );
  });
});
