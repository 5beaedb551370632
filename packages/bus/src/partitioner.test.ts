import { randomBytes, randomUUID } from 'node:crypto';
import { Partitioners, type PartitionerArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { keyHashPartitioner, murmur2 } from './partitioner.js';

const metadata = (count: number, leaderless: number[] = []): PartitionerArgs['partitionMetadata'] =>
  Array.from({ length: count }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: leaderless.includes(partitionId) ? -1 : 0,
    replicas: [0],
    isr: [0],
  }));

describe('keyHashPartitioner', () => {
  it("hashes keys as Kafka's Java client does (Utils.murmur2 test vectors)", () => {
    // From the Java client's UtilsTest.testMurmur2.
    const vectors: [string, number][] = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, hash] of vectors) expect(murmur2(Buffer.from(key, 'utf8')), key).toBe(hash);
  });

  it("places every keyed message on the partition kafkajs's DefaultPartitioner picks", () => {
    const ours = keyHashPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const keys: (string | Buffer)[] = [
      '',
      'x',
      'ü日本🙂',
      ...Array.from({ length: 500 }, () => randomUUID()),
      ...Array.from({ length: 500 }, (_, i) => randomBytes(i % 67)),
    ];
    for (const partitions of [1, 6, 7, 48]) {
      for (const key of keys) {
        const args = { topic: 't', partitionMetadata: metadata(partitions), message: { key, value: null } };
        expect(ours(args), `${String(key)} over ${String(partitions)}`).toBe(theirs(args));
      }
    }
  });

  it('keeps an explicit partition and spreads keyless messages over the partitions that have a leader', () => {
    const partition = keyHashPartitioner();
    const partitionMetadata = metadata(4, [1]);
    expect(
      partition({ topic: 't', partitionMetadata, message: { key: 'k', value: null, partition: 3 } }),
    ).toBe(3);
    const picked = new Set(
      Array.from({ length: 12 }, () =>
        partition({ topic: 't', partitionMetadata, message: { value: null } }),
      ),
    );
    expect([...picked].sort()).toEqual([0, 2, 3]);
  });
});
