import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import {
  Kafka,
  logLevel as KafkaLogLevel,
  type Consumer,
  type LogEntry,
  type Producer,
  type TopicMessages,
} from 'kafkajs';
import type { Bus, ConsumeOptions, OutgoingMessage, Subscription } from './bus.js';
import { coalescing } from './coalesce.js';
import { createSchemaRegistry, createSchemaRegistryCodec, type Codec } from './codec.js';
import {
  DeliveryFrontier,
  kafkaEachBatch,
  type BatchRunnerDeps,
  type DeadLetterRecord,
} from './consumer-runner.js';
import { isBrokerConnectionError, wrapBrokerError } from './broker-errors.js';
import { BusStateError, InvalidMessageError, SubscriptionFailedError } from './errors.js';
import { silentLogger, type BusLogger } from './logger.js';
import { PartitionLanes } from './partition-lanes.js';
import { keyHashPartitioner } from './partitioner.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, isRetriable, resolveBackoff, type BackoffOptions } from '@signalbox/retry';
import { resolveConsumeOptions } from './subscription-options.js';
import { checkTopicPrefix, prefixTopic } from './topic-prefix.js';
import { injectTraceContext } from './trace-context.js';

/** Tries of one ensureTopics (list + create) on retriable broker errors, and the waits between them. */
const ENSURE_TOPICS_ATTEMPTS = 5;
const ENSURE_TOPICS_BACKOFF = resolveBackoff({ initialMs: 200, maxMs: 3000 });

// The Kafka adapter. kafkajs stays behind this file and consumer-runner.ts: nothing else in the workspace imports it.

/** Options of {@link createKafkaBus}. */
export interface KafkaBusOptions {
  /** `host:port` list, or one comma-separated string. */
  brokers: string | readonly string[];
  /** Kafka client id (shows in broker logs and quotas). */
  clientId: string;
  /** The schema registry's Confluent-compatible base URL (Apicurio 3: `…/apis/ccompat/v7`). */
  schemaRegistryUrl: string;
  /** Receives the bus's and kafkajs's logs. @default silent */
  logger?: BusLogger;
  /** kafkajs's own log level forwarded to `logger`. @default 'warn' */
  kafkaLogLevel?: 'nothing' | 'error' | 'warn' | 'info' | 'debug';
  /** Register a topic's schema on first publish when missing (see `createSchemaRegistryCodec`). @default false */
  autoRegisterSchemas?: boolean;
  /** Backoff between retries of a failing batch. @default { initialMs: 100, maxMs: 30_000, multiplier: 2, jitter: 0.2 } */
  retryBackoff?: BackoffOptions;
  /** Consumer session timeout: a consumer silent this long loses its partitions. @default 30_000 */
  sessionTimeoutMs?: number;
  /** Consumer heartbeat interval (sent from within long batches too). @default 3_000 */
  heartbeatIntervalMs?: number;
  /** Longest a consumer fetch waits for new data; also bounds how long `stop()` waits for an idle fetch. @default 1_000 */
  maxWaitTimeMs?: number;
  /**
   * How often handled offsets are committed. 0 commits right after every batch (one extra broker round trip per
   * batch, before the partition's next batch starts); a positive interval commits the offsets handled so far within
   * that interval, off the batches' path, and on `stop()`. Either way
   * only handled offsets are committed (at-least-once); a crash or a rebalance re-delivers at most one interval's
   * worth, which the stage runtime answers from the event log instead of deciding again. @default 0
   */
  commitIntervalMs?: number;
  /**
   * How long a publish made while no produce request is out waits for other publishes to share its request (the
   * Kafka producer's `linger.ms`, whose default is 5 ms since Kafka 4.0). Publishes made while a request is out wait
   * for it anyway, so this matters when messages trickle in: fewer, fuller requests, each of which costs a round trip
   * and CPU in this process and the broker. 0 sends such a publish at once. @default 5
   */
  lingerMs?: number;
  /** Producer retries of a failing send before `publish` rejects. @default 5 */
  producerRetries?: number;
  /** Use this registry client instead of creating one from `schemaRegistryUrl`. */
  schemaRegistry?: SchemaRegistry;
  /**
   * Namespace prepended to every topic, subject and dead-letter topic name (e.g. `staging.`), so environments or
   * isolated tests can share one cluster and registry. Stages keep using catalog names. @default ''
   */
  topicPrefix?: string;
}

// What kafkajs says (as `error`) of a response it then retries by itself: a new topic's partitions answer "not the
// leader" until their leaders are elected, a new group or producer may find its coordinator still loading. kafkajs
// logs each such response at ERROR, so every start of a stage on new topics logged a screen of errors that needed
// no one's attention; they go to debug. Should the retries run out, the call fails and that is reported.
const RETRIED_RESPONSE_ERRORS = [
  'This server is not the leader for that topic-partition',
  'There is no leader for this topic-partition as we are in the middle of a leadership election',
  "The coordinator is loading and hence can't process requests",
  'The group coordinator is not available',
];

/** True for a kafkajs log entry about a response that kafkajs retries by itself (see RETRIED_RESPONSE_ERRORS). */
export function isRetriedResponseError(entry: { message?: unknown; error?: unknown }): boolean {
  const { message, error } = entry;
  return (
    typeof message === 'string' &&
    message.startsWith('Response ') &&
    typeof error === 'string' &&
    RETRIED_RESPONSE_ERRORS.some((known) => error.startsWith(known))
  );
}

const LOG_LEVELS = {
  nothing: KafkaLogLevel.NOTHING,
  error: KafkaLogLevel.ERROR,
  warn: KafkaLogLevel.WARN,
  info: KafkaLogLevel.INFO,
  debug: KafkaLogLevel.DEBUG,
} as const;

function resolveOptions(options: KafkaBusOptions) {
  const brokers = (typeof options.brokers === 'string' ? options.brokers.split(',') : [...options.brokers])
    .map((b) => b.trim())
    .filter((b) => b.length > 0);
  if (brokers.length === 0) throw new RangeError('createKafkaBus: brokers is empty');
  if (!options.clientId) throw new RangeError('createKafkaBus: clientId is empty');
  if (!options.schemaRegistry && !/^https?:\/\//.test(options.schemaRegistryUrl)) {
    throw new RangeError(
      `createKafkaBus: schemaRegistryUrl must be an http(s) URL, got "${options.schemaRegistryUrl}"`,
    );
  }
  const sessionTimeoutMs = options.sessionTimeoutMs ?? 30_000;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 3_000;
  if (heartbeatIntervalMs >= sessionTimeoutMs) {
    throw new RangeError('createKafkaBus: heartbeatIntervalMs must be below sessionTimeoutMs');
  }
  return {
    brokers,
    clientId: options.clientId,
    logger: options.logger ?? silentLogger,
    kafkaLogLevel: LOG_LEVELS[options.kafkaLogLevel ?? 'warn'],
    backoff: resolveBackoff(options.retryBackoff),
    sessionTimeoutMs,
    heartbeatIntervalMs,
    maxWaitTimeMs: options.maxWaitTimeMs ?? 1_000,
    producerRetries: options.producerRetries ?? 5,
    lingerMs: boundedInt('lingerMs', options.lingerMs ?? 5, 1_000),
    commitIntervalMs: nonNegativeInt('commitIntervalMs', options.commitIntervalMs ?? 0),
    registry:
      options.schemaRegistry ??
      createSchemaRegistry({ url: options.schemaRegistryUrl, clientId: options.clientId }),
    autoRegisterSchemas: options.autoRegisterSchemas ?? false,
    topicPrefix: checkTopicPrefix(options.topicPrefix ?? ''),
  };
}

function boundedInt(name: string, value: number, max: number): number {
  if (nonNegativeInt(name, value) > max) {
    throw new RangeError(`createKafkaBus: ${name} must be at most ${String(max)}, got ${String(value)}`);
  }
  return value;
}

function nonNegativeInt(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`createKafkaBus: ${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

// The broker refuses a record batch above its message.max.bytes (1 MiB by default), and kafkajs puts everything one
// send carries for a partition into one record batch. A stage's decisions outgrow its inputs (every stage adds to the
// payload), so the decisions on a full 1 MiB fetch would be refused and the stage would stop: sends stay below this.
export const MAX_SEND_BYTES = 512 * 1024;
// A record's framing in the batch (length, attributes, deltas, key/value lengths as varints), rounded up, so many tiny
// messages are counted honestly too.
const RECORD_OVERHEAD_BYTES = 64;

type KafkaMessage = TopicMessages['messages'][number];

/** Bytes of a key, value or header as kafkajs sends it (a Buffer as it is, a string as UTF-8, nothing as 0). */
function byteLength(v: unknown): number {
  return Buffer.isBuffer(v) ? v.length : typeof v === 'string' ? Buffer.byteLength(v, 'utf8') : 0;
}

/** Bytes a message adds to a record batch, at most: key, value, headers and the record's framing. */
function messageBytes(message: KafkaMessage): number {
  let bytes = RECORD_OVERHEAD_BYTES + byteLength(message.key) + byteLength(message.value);
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    bytes += RECORD_OVERHEAD_BYTES + Buffer.byteLength(name, 'utf8') + byteLength(value);
  }
  return bytes;
}

/**
 * `topicMessages` cut into consecutive slices of at most `maxBytes` (a bigger message alone in its slice), keeping
 * the order of every topic's messages. The common batch fits and comes back as it is.
 */
export function sliceBySize(topicMessages: TopicMessages[], maxBytes: number): TopicMessages[][] {
  const slices: TopicMessages[][] = [];
  let current = new Map<string, TopicMessages>();
  let bytes = 0;
  for (const { topic, messages } of topicMessages) {
    for (const message of messages) {
      const size = messageBytes(message);
      if (bytes > 0 && bytes + size > maxBytes) {
        slices.push([...current.values()]);
        current = new Map();
        bytes = 0;
      }
      const group = current.get(topic) ?? { topic, messages: [] };
      group.messages.push(message);
      current.set(topic, group);
      bytes += size;
    }
  }
  if (current.size > 0) slices.push([...current.values()]);
  return slices;
}

/**
 * The {@link Bus} on Kafka (kafkajs) with values in the Confluent wire format through the schema registry (FL-2).
 * Producer: idempotent, acks from all in-sync replicas, the default (murmur2) partitioner on the key. Consumers:
 * `eachBatch` hands each fetched batch to its partition's lane ({@link PartitionLanes}) and kafkajs fetches on while it
 * is handled; offsets are committed only after a batch is handled or dead-lettered.
 */
export function createKafkaBus(options: KafkaBusOptions): Bus {
  const resolved = resolveOptions(options);
  const { logger } = resolved;
  const kafka = new Kafka({
    clientId: resolved.clientId,
    brokers: resolved.brokers,
    logLevel: resolved.kafkaLogLevel,
    logCreator:
      () =>
      ({ namespace, level, log }: LogEntry) => {
        const { message, ...extra } = log;
        const obj = { kafkajs: namespace, ...extra };
        if (isRetriedResponseError(log)) logger.debug(obj, message);
        else if (level <= KafkaLogLevel.ERROR) logger.error(obj, message);
        else if (level === KafkaLogLevel.WARN) logger.warn(obj, message);
        else logger.debug(obj, message);
      },
  });
  const codec: Codec = createSchemaRegistryCodec({
    registry: resolved.registry,
    autoRegisterSchemas: resolved.autoRegisterSchemas,
  });
  const subscriptions = new Set<Subscription>();
  const prefix = resolved.topicPrefix;
  // `closing`: no new subscription or topic; `closed`: no new publish either (set once the subscriptions drained, so
  // their last batches still publish). Publishes begun before that are waited for.
  let closing: Promise<void> | undefined;
  let closed = false;
  const publishing = new Set<Promise<void>>();
  let producerReady: Promise<Producer> | undefined;

  const producer = (): Promise<Producer> => {
    // A closing bus still sends what was published before close() (see close), with the producer it has.
    if (closed && !producerReady) return Promise.reject(new BusStateError('the bus is closed'));
    producerReady ??= (async () => {
      const p = kafka.producer({
        idempotent: true,
        maxInFlightRequests: 5,
        allowAutoTopicCreation: false,
        // kafkajs's DefaultPartitioner's placement, without its per-message allocations (see partitioner.ts).
        createPartitioner: keyHashPartitioner,
        retry: { retries: resolved.producerRetries, initialRetryTime: 100, maxRetryTime: 5_000 },
      });
      await p.connect();
      return p;
    })();
    producerReady.catch(() => {
      producerReady = undefined;
    });
    return producerReady;
  };

  // kafkajs's idempotent producer sends one request at a time per broker (a lock around each produce), and a stage
  // publishes from several partitions' batches at once: publishes made while a request is out now leave together
  // as the next request (one round trip and one record batch per partition instead of one each), in call order; an
  // idle producer's first publish lingers `lingerMs` for company. Measured on the backbone benchmark at half its
  // maximum rate, where messages trickle: 5 ms took the hop p50/p99 from 61–69/178–236 ms to 26–30/62–79 ms (the
  // process spent its time on small requests, and everything queued behind them).
  const sendBatch = coalescing(
    async (topicMessages: TopicMessages[]): Promise<void> => {
      const p = await producer();
      // One slice after another, so a key's messages keep their order across slices.
      for (const slice of sliceBySize(topicMessages, MAX_SEND_BYTES)) {
        try {
          await p.sendBatch({ topicMessages: slice, acks: -1 });
        } catch (error) {
          throw wrapBrokerError(
            `publishing to ${slice.map((t) => t.topic).join(', ')} failed`,
            error,
            slice[0]?.topic,
          );
        }
      }
    },
    { lingerMs: resolved.lingerMs },
  );

  const sendDeadLetters = (topic: string, records: DeadLetterRecord[]) =>
    sendBatch([
      { topic, messages: records.map((r) => ({ key: r.key, value: r.value, headers: r.headers })) },
    ]);

  async function publishNow(messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const byTopic = new Map<string, TopicMessages>();
    for (const message of messages) {
      if (typeof message.key !== 'string' || message.key.length === 0) {
        throw new InvalidMessageError(
          message.topic.name,
          '(key)',
          'the key must be the non-empty task id (FL-1)',
        );
      }
    }
    const encoded = await Promise.all(
      messages.map(async (m) => {
        const topic = prefixTopic(m.topic, prefix);
        return {
          topic: topic.name,
          key: m.key,
          value: await codec.encode(topic, m.value),
          headers: injectTraceContext(m.headers),
        };
      }),
    );
    for (const { topic, ...message } of encoded) {
      const group = byTopic.get(topic) ?? { topic, messages: [] };
      group.messages.push(message);
      byTopic.set(topic, group);
    }
    const sent = sendBatch([...byTopic.values()]);
    // The bus began closing while this was encoded: nothing else will join; go at once.
    if (closed) void sendBatch.flush();
    await sent;
  }

  return {
    async ensureTopics(topics) {
      if (closing) throw new BusStateError('the bus is closed');
      const admin = kafka.admin();
      await admin.connect();
      try {
        // A busy broker can answer "does not host this topic-partition" while new topics' leaders are still being
        // elected (a retriable error): list-and-create again, with backoff, a few times before giving up.
        for (let attempt = 1; ; attempt++) {
          try {
            const existing = new Set(await admin.listTopics());
            const missing = topics
              .map((t) => ({ name: `${prefix}${t.name}`, partitions: t.partitions }))
              .filter((t) => !existing.has(t.name));
            if (missing.length === 0) return;
            // createTopics resolves false (not an error) when every topic already exists, e.g. created concurrently.
            await admin.createTopics({
              waitForLeaders: true,
              topics: missing.map((t) => ({ topic: t.name, numPartitions: t.partitions })),
            });
            return;
          } catch (error) {
            const retriable = isRetriable(error) || isBrokerConnectionError(error);
            if (attempt >= ENSURE_TOPICS_ATTEMPTS || !retriable) throw error;
            await sleep(backoffDelay(attempt, ENSURE_TOPICS_BACKOFF));
          }
        }
      } catch (error) {
        throw wrapBrokerError('creating topics failed', error);
      } finally {
        await admin.disconnect();
      }
    },

    publish(messages: readonly OutgoingMessage[]) {
      if (closed) return Promise.reject(new BusStateError('the bus is closed'));
      const done = publishNow(messages);
      publishing.add(done);
      const forget = () => publishing.delete(done);
      done.then(forget, forget);
      return done;
    },

    async consume(consumeOptions: ConsumeOptions) {
      if (closing) throw new BusStateError('the bus is closed');
      const o = resolveConsumeOptions({
        ...consumeOptions,
        topic: prefixTopic(consumeOptions.topic, prefix),
        ...(consumeOptions.deadLetterTopic
          ? { deadLetterTopic: `${prefix}${consumeOptions.deadLetterTopic}` }
          : {}),
      });
      const consumer: Consumer = kafka.consumer({
        groupId: o.groupId,
        sessionTimeout: resolved.sessionTimeoutMs,
        heartbeatInterval: resolved.heartbeatIntervalMs,
        maxWaitTimeInMs: resolved.maxWaitTimeMs,
        allowAutoTopicCreation: false,
      });
      let failed = false;
      let stopping: Promise<void> | undefined;
      // Handled batches report the next offset of their partition here; the bus commits them (kafkajs's own commits
      // are off: it resolves offsets as soon as a batch is handed to a lane, before the batch is handled).
      const handled = new Map<number, string>();
      let committing: Promise<void> | undefined;
      let commitTimer: NodeJS.Timeout | undefined;
      let lastCommitAt = 0;
      let generation = 0;
      /** Commits the offsets handled so far, one commit at a time; resolves once `handled` is empty or a commit failed. */
      const commitHandled = (): Promise<void> => {
        committing ??= (async () => {
          try {
            while (handled.size > 0) {
              const taken = [...handled];
              const takenIn = generation;
              handled.clear();
              lastCommitAt = Date.now();
              try {
                await consumer.commitOffsets(
                  taken.map(([partition, offset]) => ({ topic: o.topic.name, partition, offset })),
                );
              } catch (err) {
                // Not fatal: the next member re-reads from the last commit, and the stage runtime answers a
                // redelivered input from its event log. Unless the assignment changed meanwhile, the offsets wait
                // for the next commit.
                logger.warn({ topic: o.topic.name, groupId: o.groupId, err }, 'committing offsets failed');
                if (takenIn === generation) {
                  for (const [partition, offset] of taken)
                    if (!handled.has(partition)) handled.set(partition, offset);
                }
                return;
              }
              // On an interval, what was handled meanwhile waits for the next tick.
              if (resolved.commitIntervalMs > 0) return;
            }
          } finally {
            committing = undefined;
          }
        })();
        return committing;
      };
      /** With an interval: commits what is handled at most once per interval, within one interval of its handling. */
      const scheduleCommit = (): void => {
        if (commitTimer || stopping || handled.size === 0) return;
        commitTimer = setTimeout(
          () => {
            void commitHandled().then(() => {
              commitTimer = undefined;
              scheduleCommit();
            });
          },
          Math.max(0, lastCommitAt + resolved.commitIntervalMs - Date.now()),
        );
      };
      const lanes = new PartitionLanes({
        concurrency: o.partitionsConcurrently,
        isUsable: () => !failed,
        async onHandled(partition, nextOffset) {
          handled.set(partition, nextOffset);
          // 0: commit right after every handled batch, before the partition's next batch starts.
          if (resolved.commitIntervalMs === 0) {
            await commitHandled();
            return;
          }
          // Otherwise at most every interval, off the lane.
          scheduleCommit();
        },
        seek(partition, offset) {
          logger.warn(
            { topic: o.topic.name, groupId: o.groupId, partition, offset },
            'a batch gave up while its partition is still assigned; fetching it again',
          );
          try {
            consumer.seek({ topic: o.topic.name, partition, offset });
          } catch (err) {
            logger.error(
              { topic: o.topic.name, groupId: o.groupId, partition, offset, err },
              'seeking back failed; the batch comes again after the next rebalance or restart',
            );
          }
        },
        onError(error, partition) {
          if (error instanceof SubscriptionFailedError) fail(error);
          else {
            // The group's heartbeat failed inside a batch (a rebalance, most often): kafkajs rejoins on its own.
            logger.warn(
              { topic: o.topic.name, groupId: o.groupId, partition, err: error },
              'a batch gave up',
            );
          }
        },
      });
      const stop = (): Promise<void> => {
        stopping ??= (async () => {
          try {
            // Graceful drain: no new batches; the running ones finish their current step; what they handled is
            // committed while this member still owns its partitions.
            try {
              consumer.pause([{ topic: o.topic.name }]);
            } catch {
              // Not running any more (it crashed): nothing is fetched anyway.
            }
            await lanes.drain();
            clearTimeout(commitTimer);
            await committing;
            await commitHandled();
            await consumer.stop();
          } finally {
            await consumer.disconnect();
            subscriptions.delete(subscription);
          }
        })();
        return stopping;
      };
      const fail = (error: SubscriptionFailedError) => {
        if (failed) return;
        failed = true;
        logger.error(
          { topic: o.topic.name, groupId: o.groupId, err: error },
          'subscription failed; stopping it',
        );
        // Stop outside the lane: stopping waits for the lanes, one of which is the caller.
        setImmediate(() => {
          stop().catch((err: unknown) => {
            logger.error(
              { topic: o.topic.name, groupId: o.groupId, err },
              'stopping a failed subscription failed',
            );
          });
        });
        o.onError?.(error);
      };
      const frontier = new DeliveryFrontier();
      // A rebalance begins (or the consumer crashed and restarts): batches fetched so far may belong to partitions
      // another member gets; they stop, and what they handled since the last commit is never committed. Whatever a
      // partition holds when it is (re)assigned may have been handed to its previous owner (the frontier).
      const newGeneration = () => {
        generation++;
        lanes.newGeneration();
        handled.clear();
      };
      consumer.on(consumer.events.REBALANCING, newGeneration);
      consumer.on(consumer.events.GROUP_JOIN, () => {
        newGeneration();
        frontier.reset();
      });
      consumer.on(consumer.events.CRASH, (event) => {
        newGeneration();
        logger.error(
          {
            topic: o.topic.name,
            groupId: o.groupId,
            err: event.payload.error,
            restart: event.payload.restart,
          },
          'kafka consumer crashed',
        );
        // kafkajs restarts a consumer that crashed on a retriable error (a broker outage among them). One it does
        // not restart consumes nothing any more: the subscription has failed, and says so (onError), rather than
        // leave the stage looking alive while it stands still.
        if (!event.payload.restart && !stopping) {
          fail(new SubscriptionFailedError(o.topic.name, o.groupId, { cause: event.payload.error }));
        }
      });
      const deps: BatchRunnerDeps = {
        topic: o.topic,
        groupId: o.groupId,
        deadLetterTopic: o.deadLetterTopic,
        decode: (topic, bytes) => codec.decode(topic, bytes),
        sendDeadLetters,
        handler: o.handler,
        onDeadLetter: o.onDeadLetter,
        backoff: resolved.backoff,
        logger,
      };
      const subscription: Subscription = {
        pause: () => {
          consumer.pause([{ topic: o.topic.name }]);
        },
        resume: () => {
          consumer.resume([{ topic: o.topic.name }]);
        },
        stop,
      };
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [o.topic.name], fromBeginning: o.fromBeginning });
        // run() resolves once the consumer joined the group.
        await consumer.run({
          eachBatchAutoResolve: false,
          // The bus commits what its lanes handled (see `handled` above); kafkajs's resolved offsets run ahead of it.
          autoCommit: false,
          // kafkajs's workers only hand batches to the lanes (which run `partitionsConcurrently` at once); one per
          // partition, so a partition waiting for its lane never holds up another's hand-over.
          partitionsConsumedConcurrently: Math.max(o.partitionsConcurrently, o.topic.partitions),
          eachBatch: kafkaEachBatch(deps, { isUsable: () => !failed, lanes, frontier }),
        });
      } catch (error) {
        await consumer.disconnect().catch(() => undefined);
        throw wrapBrokerError(
          `subscribing group ${o.groupId} to ${o.topic.name} failed`,
          error,
          o.topic.name,
        );
      }
      subscriptions.add(subscription);
      return subscription;
    },

    close() {
      closing ??= (async () => {
        await Promise.all([...subscriptions].map((s) => s.stop()));
        closed = true;
        // What lingers goes out now; publishes begun before are waited for (they settle either way).
        await sendBatch.flush();
        await Promise.allSettled([...publishing]);
        const pending = producerReady;
        producerReady = undefined;
        if (pending) await (await pending.catch(() => undefined))?.disconnect();
      })();
      return closing;
    },
  };
}
