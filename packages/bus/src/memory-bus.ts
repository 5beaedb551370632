import type { Bus, ConsumeOptions, OutgoingMessage, Subscription } from './bus.js';
import type { Codec } from './codec.js';
import {
  DeliveryFrontier,
  runBatch,
  type BatchRunnerDeps,
  type DeadLetterRecord,
  type RawRecord,
} from './consumer-runner.js';
import { BusStateError, InvalidMessageError, SubscriptionFailedError, WireFormatError } from './errors.js';
import { silentLogger, type BusLogger } from './logger.js';
import { encodeValue, parsePayload } from './payload.js';
import { resolveBackoff, type BackoffOptions } from '@signalbox/retry';
import { resolveConsumeOptions, type ResolvedConsumeOptions } from './subscription-options.js';
import { injectTraceContext } from './trace-context.js';
import { decodeWire, encodeWire } from './wire-format.js';

// A strict in-memory Kafka for unit tests and the embedded demo. Where the Bus contract speaks, it behaves like the
// Kafka adapter: wire format with schema ids, partitions by key, consumer groups with committed offsets, batches
// redelivered from the last commit, dead-letter topics, topics that must be created first.

/** Options of {@link createMemoryBus}. */
export interface MemoryBusOptions {
  /** Receives the bus's logs. @default silent */
  logger?: BusLogger;
  /** Backoff between retries of a failing batch. @default { initialMs: 10, maxMs: 1_000 } */
  retryBackoff?: BackoffOptions;
  /** Most records delivered in one batch. @default 100 */
  maxBatchSize?: number;
}

/** A record stored in the in-memory log. */
export interface MemoryRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** The in-memory bus plus test-only inspection. */
export interface MemoryBus extends Bus {
  /** Appends bytes as they are, bypassing the codec (poison in tests). */
  produceRaw(
    topic: string,
    record: { key: string | null; value: Buffer | null; headers?: Record<string, string> },
  ): void;
  /** Every record of a topic, by partition then offset. */
  records(topic: string): MemoryRecord[];
  /** The group's committed offset (next offset to read) per partition of a topic. */
  committedOffsets(groupId: string, topic: string): Record<number, number>;
}

interface Member {
  topic: string;
  assigned: Set<number>;
  /** Reset on every rebalance, as the Kafka adapter does on every group join. */
  frontier: DeliveryFrontier;
  wake(): void;
}

interface Group {
  committed: Map<string, number>;
  members: Member[];
}

// FNV-1a: a stable key → partition mapping (the Kafka adapter uses murmur2; only stability matters here).
function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(key, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % partitions;
}

/** Creates an empty in-memory bus. */
export function createMemoryBus(options: MemoryBusOptions = {}): MemoryBus {
  const logger = options.logger ?? silentLogger;
  const backoff = resolveBackoff({ initialMs: 10, maxMs: 1_000, ...options.retryBackoff });
  const maxBatchSize = options.maxBatchSize ?? 100;
  if (!Number.isInteger(maxBatchSize) || maxBatchSize < 1) {
    throw new RangeError(
      `createMemoryBus: maxBatchSize must be a positive integer, got ${String(maxBatchSize)}`,
    );
  }
  const logs = new Map<string, MemoryRecord[][]>();
  const groups = new Map<string, Group>();
  const subscriptions = new Set<Subscription>();
  // The in-memory schema registry: one id per topic schema, assigned on first publish.
  const schemaIdByTopic = new Map<string, number>();
  const knownSchemaIds = new Set<number>();
  let closed = false;

  const log = (topic: string): MemoryRecord[][] => {
    const partitions = logs.get(topic);
    if (!partitions)
      throw new BusStateError(`topic ${topic} does not exist (create it with ensureTopics)`, { topic });
    return partitions;
  };
  const ensureOpen = () => {
    if (closed) throw new BusStateError('the bus is closed');
  };
  const committedKey = (topic: string, partition: number) => `${topic}|${String(partition)}`;

  const append = (
    topic: string,
    records: { key: string | null; value: Buffer | null; headers: Record<string, string> }[],
  ) => {
    const partitions = log(topic);
    for (const r of records) {
      const partition =
        r.key === null
          ? Math.floor(Math.random() * partitions.length)
          : partitionOf(r.key, partitions.length);
      const lane = partitions[partition];
      if (!lane) throw new RangeError(`no partition ${String(partition)} in ${topic}`);
      lane.push({
        topic,
        partition,
        offset: String(lane.length),
        key: r.key,
        value: r.value,
        headers: { ...r.headers },
      });
    }
    for (const group of groups.values()) for (const m of group.members) if (m.topic === topic) m.wake();
  };

  const codec: Codec = {
    encode(topic, value) {
      const payload = encodeValue(topic, value);
      let id = schemaIdByTopic.get(topic.name);
      if (id === undefined) {
        id = knownSchemaIds.size + 1;
        schemaIdByTopic.set(topic.name, id);
        knownSchemaIds.add(id);
      }
      return Promise.resolve(encodeWire(id, payload));
    },
    decode(topic, bytes) {
      if (bytes === null || bytes.length === 0)
        return Promise.resolve({ ok: false, reason: 'undecodable', detail: 'empty value' });
      try {
        const { schemaId, payload } = decodeWire(bytes);
        if (!knownSchemaIds.has(schemaId)) {
          return Promise.resolve({
            ok: false,
            reason: 'unknown_schema',
            detail: `schema id ${String(schemaId)} is not in the registry`,
          });
        }
        const parsed = parsePayload(topic, payload);
        return Promise.resolve(parsed.ok ? { ok: true, value: parsed.value, schemaId } : parsed);
      } catch (error) {
        if (error instanceof WireFormatError)
          return Promise.resolve({ ok: false, reason: 'undecodable', detail: error.message });
        throw error;
      }
    },
  };

  const rebalance = (group: Group, topic: string) => {
    const members = group.members.filter((m) => m.topic === topic);
    const count = logs.get(topic)?.length ?? 0;
    members.forEach((m, index) => {
      m.assigned = new Set(
        Array.from({ length: count }, (_, p) => p).filter((p) => p % members.length === index),
      );
      m.frontier.reset();
      m.wake();
    });
  };

  const subscribe = (o: ResolvedConsumeOptions): Subscription => {
    const partitions = log(o.topic.name);
    log(o.deadLetterTopic);
    let group = groups.get(o.groupId);
    if (!group) {
      group = { committed: new Map(), members: [] };
      groups.set(o.groupId, group);
    }
    const g = group;
    partitions.forEach((lane, p) => {
      const key = committedKey(o.topic.name, p);
      if (!g.committed.has(key)) g.committed.set(key, o.fromBeginning ? 0 : lane.length);
    });
    let signal: (() => void) | undefined;
    const member: Member = {
      topic: o.topic.name,
      assigned: new Set(),
      frontier: new DeliveryFrontier(),
      wake: () => {
        signal?.();
        signal = undefined;
      },
    };
    const waitForSignal = () =>
      new Promise<void>((resolve) => {
        signal = resolve;
      });
    let paused = false;
    let stopping = false;
    let failed = false;
    const deps: BatchRunnerDeps = {
      topic: o.topic,
      groupId: o.groupId,
      deadLetterTopic: o.deadLetterTopic,
      decode: (topic, bytes) => codec.decode(topic, bytes),
      sendDeadLetters: (topic: string, records: DeadLetterRecord[]) => {
        append(topic, records);
        return Promise.resolve();
      },
      handler: o.handler,
      onDeadLetter: o.onDeadLetter,
      backoff,
      logger,
    };
    const inFlight = new Set<number>();
    const runPartition = async (partition: number) => {
      const key = committedKey(o.topic.name, partition);
      const from = g.committed.get(key) ?? 0;
      const lane = partitions[partition] ?? [];
      const slice = lane.slice(from, from + maxBatchSize);
      if (slice.length === 0) return;
      const freshFrom = member.frontier.take(partition, BigInt(from + slice.length - 1), BigInt(lane.length));
      const records: RawRecord[] = slice.map((r) => ({ ...r, fresh: BigInt(r.offset) >= freshFrom }));
      inFlight.add(partition);
      try {
        const result = await runBatch(deps, records, {
          heartbeat: () => Promise.resolve(),
          isActive: () => !stopping && !failed && member.assigned.has(partition),
        });
        if (result === 'done')
          g.committed.set(key, Math.max(g.committed.get(key) ?? 0, from + records.length));
      } catch (error) {
        if (!(error instanceof SubscriptionFailedError)) throw error;
        failed = true;
        logger.error(
          { topic: o.topic.name, groupId: o.groupId, err: error },
          'subscription failed; stopping it',
        );
        // Like the Kafka adapter, a failed member leaves the group so its partitions go to the others.
        setImmediate(() => void subscription.stop());
        o.onError?.(error);
      } finally {
        inFlight.delete(partition);
      }
    };
    const loop = async () => {
      while (!stopping && !failed) {
        const ready = paused
          ? []
          : [...member.assigned]
              .filter(
                (p) => (partitions[p]?.length ?? 0) > (g.committed.get(committedKey(o.topic.name, p)) ?? 0),
              )
              .slice(0, o.partitionsConcurrently);
        if (ready.length === 0) {
          await waitForSignal();
          continue;
        }
        await Promise.all(ready.map(runPartition));
      }
    };
    g.members.push(member);
    rebalance(g, o.topic.name);
    const running = loop().catch((error: unknown) => {
      failed = true;
      logger.error(
        { topic: o.topic.name, groupId: o.groupId, err: error },
        'in-memory consumer loop crashed',
      );
      o.onError?.(error instanceof Error ? error : new Error(String(error)));
    });
    let stopped: Promise<void> | undefined;
    const subscription: Subscription = {
      pause: () => {
        paused = true;
      },
      resume: () => {
        paused = false;
        member.wake();
      },
      stop: () => {
        stopped ??= (async () => {
          stopping = true;
          member.wake();
          await running;
          g.members = g.members.filter((m) => m !== member);
          rebalance(g, o.topic.name);
          subscriptions.delete(subscription);
        })();
        return stopped;
      },
    };
    subscriptions.add(subscription);
    return subscription;
  };

  return {
    ensureTopics(topics) {
      ensureOpen();
      for (const t of topics) {
        if (!Number.isInteger(t.partitions) || t.partitions < 1) {
          throw new RangeError(`topic ${t.name}: partitions must be a positive integer`);
        }
        if (!logs.has(t.name))
          logs.set(
            t.name,
            Array.from({ length: t.partitions }, () => []),
          );
      }
      return Promise.resolve();
    },

    async publish(messages: readonly OutgoingMessage[]) {
      ensureOpen();
      // Everything is validated before anything is appended: a bad message leaves nothing half-written (RS-4).
      const encoded: { topic: string; key: string; value: Buffer; headers: Record<string, string> }[] = [];
      for (const m of messages) {
        if (typeof m.key !== 'string' || m.key.length === 0) {
          throw new InvalidMessageError(
            m.topic.name,
            '(key)',
            'the key must be the non-empty task id (FL-1)',
          );
        }
        log(m.topic.name);
        encoded.push({
          topic: m.topic.name,
          key: m.key,
          value: await codec.encode(m.topic, m.value),
          headers: injectTraceContext(m.headers),
        });
      }
      for (const e of encoded) append(e.topic, [e]);
    },

    consume(consumeOptions: ConsumeOptions) {
      try {
        ensureOpen();
        return Promise.resolve(subscribe(resolveConsumeOptions(consumeOptions)));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },

    async close() {
      closed = true;
      await Promise.all([...subscriptions].map((s) => s.stop()));
    },

    produceRaw(topic, record) {
      ensureOpen();
      append(topic, [{ key: record.key, value: record.value, headers: record.headers ?? {} }]);
    },

    records(topic) {
      return log(topic).flat();
    },

    committedOffsets(groupId, topic) {
      const out: Record<number, number> = {};
      const group = groups.get(groupId);
      log(topic).forEach((_, p) => {
        out[p] = group?.committed.get(committedKey(topic, p)) ?? 0;
      });
      return out;
    },
  };
}
