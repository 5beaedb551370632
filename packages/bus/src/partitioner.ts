import type { ICustomPartitioner, PartitionerArgs } from 'kafkajs';

// FL-1: a task's messages go to the partition its key (the task id) hashes to, as every Kafka client's default
// partitioner picks it — murmur2 of the key's UTF-8 bytes, the sign bit cleared, modulo the topic's partitions — so a
// task stays on one partition whoever produces it. kafkajs's own implementation does this arithmetic with 64-bit
// `Long` objects (it allocates a few dozen per key) and filters the partition list on every message: 3.5 % of the
// backbone benchmark's CPU at full rate. 32-bit `Math.imul` arithmetic gives the same low 32 bits, which is all the
// hash keeps.

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** Kafka's murmur2 (the Java client's `Utils.murmur2`) of `data`, as a signed 32-bit integer. */
export function murmur2(data: Buffer): number {
  const length = data.length;
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data.readInt32LE(i);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last one to three bytes (the Java client's switch, falling through).
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data.readUInt8(whole + 2) << 16;
    if (rest >= 2) h ^= data.readUInt8(whole + 1) << 8;
    h ^= data.readUInt8(whole);
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * A kafkajs partitioner that places every message exactly where kafkajs's `DefaultPartitioner` (and the Java client's)
 * does: an explicit partition as given; a keyed message by murmur2 of its key; a message without a key round robin
 * over the partitions that have a leader.
 */
export const keyHashPartitioner: ICustomPartitioner = () => {
  const counters = new Map<string, number>();
  return ({ topic, partitionMetadata, message }: PartitionerArgs): number => {
    if (typeof message.partition === 'number') return message.partition;
    const partitions = partitionMetadata.length;
    const key = message.key;
    if (key !== null && key !== undefined) {
      const bytes = Buffer.isBuffer(key) ? key : Buffer.from(key);
      return (murmur2(bytes) & 0x7fffffff) % partitions;
    }
    // Not how the bus publishes (every message carries its task id), kept for the partitioner's whole contract.
    const counter = (counters.get(topic) ?? Math.floor(Math.random() * 0x7fffffff)) + 1;
    counters.set(topic, counter);
    const available = partitionMetadata.filter((p) => p.leader >= 0);
    if (available.length > 0) {
      const picked = available[(counter & 0x7fffffff) % available.length];
      if (picked) return picked.partitionId;
    }
    return (counter & 0x7fffffff) % partitions;
  };
};
