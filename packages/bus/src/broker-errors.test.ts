// Issue 21, broker scenario: a publish in flight as the broker dies fails after kafkajs's own retries with a
// `retriable: false` wrapper around a connection error; the bus must call that retriable, and the consumer runner
// must retry the batch and go on consuming instead of stopping the subscription.
import {
  KafkaJSConnectionError,
  KafkaJSLockTimeout,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSRequestTimeoutError,
} from 'kafkajs';
import { describe, expect, it } from 'vitest';
import type { IncomingMessage } from './bus.js';
import { contractTopic, waitFor } from './bus-contract.js';
import { isBrokerConnectionError, wrapBrokerError } from './broker-errors.js';
import { runBatch, type BatchRunnerDeps, type RawRecord } from './consumer-runner.js';
import { SubscriptionFailedError } from './errors.js';
import { resolveBackoff } from '@signalbox/retry';
import { createMemoryBus } from './testing.js';

// kafkajs's constructors take options its type declarations leave out (`cause`, `code`, `retryCount`…).
type Ctor<T> = new (e: Error | string, options?: Record<string, unknown>) => T;
const ConnectionError = KafkaJSConnectionError as unknown as Ctor<KafkaJSConnectionError>;
const NonRetriable = KafkaJSNonRetriableError as unknown as Ctor<KafkaJSNonRetriableError>;
const RetriesExceeded = KafkaJSNumberOfRetriesExceeded as unknown as Ctor<KafkaJSNumberOfRetriesExceeded>;
const RequestTimeout = KafkaJSRequestTimeoutError as unknown as Ctor<KafkaJSRequestTimeoutError>;
const LockTimeout = KafkaJSLockTimeout as unknown as Ctor<KafkaJSLockTimeout>;
const ProtocolError = KafkaJSProtocolError as unknown as Ctor<KafkaJSProtocolError>;

const refused = () =>
  new ConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092', {
    broker: '127.0.0.1:9092',
    code: 'ECONNREFUSED',
  });

/** What kafkajs's retrier rejects with when its retries ran out on `e` (src/retry/index.js). */
const exceeded = (e: Error) => new RetriesExceeded(e, { retryCount: 5, retryTime: 5000 });
/**
 * What an outer kafkajs retrier rejects with when the inner one gave up: the producer's send reconnects inside its
 * own retry, and that reconnect's exhausted retries are not retriable to it (the shape the fault run logged).
 */
const nonRetriableAround = (e: Error) => new NonRetriable(e, { cause: e.cause ?? e });

/** Broker-down shapes as kafkajs throws them from `producer.sendBatch`. */
const BROKER_DOWN: [string, () => Error][] = [
  ['a connection error', refused],
  ['retries exceeded on a refused connection', () => exceeded(refused())],
  ['non-retriable around exhausted connection retries', () => nonRetriableAround(exceeded(refused()))],
  [
    'retries exceeded on a request timeout',
    () => exceeded(new RequestTimeout('Request Produce(key: 0, version: 7) timed out', { broker: 'b:9092' })),
  ],
  [
    'a lock timeout (a broker that never answered holds it)',
    () => new LockTimeout('Timeout while acquiring lock'),
  ],
  [
    'non-retriable around a bare ECONNRESET',
    () => nonRetriableAround(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
  ],
];

/** Failures a retry cannot fix: they must still stop the subscription. */
const BROKER_REFUSED: [string, () => Error][] = [
  [
    'a record the broker refuses',
    () =>
      nonRetriableAround(
        new ProtocolError({
          message: 'The request included a message larger than the max message size the server will accept',
          type: 'MESSAGE_TOO_LARGE',
          code: 10,
          retriable: false,
        } as unknown as Error),
      ),
  ],
  ['an invalid topic', () => new NonRetriable('Invalid topic')],
];

describe('broker errors: connection-class failures are retriable however kafkajs flags the wrapper', () => {
  it.each(BROKER_DOWN)('%s → retriable', (_, make) => {
    const error = make();
    expect(isBrokerConnectionError(error)).toBe(true);
    const wrapped = wrapBrokerError('publishing to t failed', error, 't');
    expect(wrapped).toMatchObject({ retriable: true, topic: 't' });
    expect(wrapped.message).toBe(`publishing to t failed: ${error.message}`);
    expect(wrapped.cause).toBe(error);
  });

  it.each(BROKER_REFUSED)('%s → not retriable', (_, make) => {
    const error = make();
    expect(isBrokerConnectionError(error)).toBe(false);
    expect(wrapBrokerError('publishing to t failed', error).retriable).toBe(false);
  });

  it('keeps the retriable flag of other errors, and survives odd cause chains', () => {
    expect(wrapBrokerError('x', new Error('plain')).retriable).toBe(true);
    expect(wrapBrokerError('x', 'a string').retriable).toBe(true);
    const cyclic = Object.assign(new Error('loop'), { retriable: false });
    Object.assign(cyclic, { cause: cyclic });
    expect(isBrokerConnectionError(cyclic)).toBe(false);
    expect(wrapBrokerError('x', cyclic).retriable).toBe(false);
  });
});

/** A producer that fails its first sends with the given errors, as `sendBatch` in kafka-bus.ts wraps them. */
function flakyProducer(failures: (() => Error)[]) {
  const sent: string[][] = [];
  let calls = 0;
  return {
    sent,
    calls: () => calls,
    async publish(keys: string[]): Promise<void> {
      calls++;
      const failure = failures.shift();
      await Promise.resolve();
      if (failure) throw wrapBrokerError('publishing to signalbox.task.planned.v1 failed', failure());
      sent.push(keys);
    },
  };
}

function runnerDeps(handler: BatchRunnerDeps['handler'], warnings: string[]): BatchRunnerDeps {
  const topic = contractTopic(1);
  return {
    topic,
    groupId: 'g',
    deadLetterTopic: `${topic.name}.dlq`,
    decode: (_, bytes) =>
      Promise.resolve({ ok: true, value: JSON.parse(String(bytes)) as unknown, schemaId: 1 }),
    sendDeadLetters: () => Promise.resolve(),
    handler,
    backoff: resolveBackoff({ initialMs: 1, maxMs: 5 }),
    logger: {
      debug: () => undefined,
      info: () => undefined,
      warn: (_, msg) => warnings.push(msg),
      error: () => undefined,
    },
  };
}

const records = (...keys: string[]): RawRecord[] =>
  keys.map((key, i) => ({
    partition: 0,
    offset: String(i),
    key,
    value: Buffer.from(JSON.stringify({ task_id: key, seq: i })),
    headers: {},
  }));

describe('consumer runner: a batch whose publish meets a broker outage', () => {
  it('is retried with backoff until the broker is back, then done (committed), never failing the subscription', async () => {
    const producer = flakyProducer(BROKER_DOWN.map(([, make]) => make));
    const warnings: string[] = [];
    const handled: (boolean | undefined)[][] = [];
    let heartbeats = 0;
    const result = await runBatch(
      runnerDeps(async (batch: IncomingMessage[]) => {
        handled.push(batch.map((m) => m.firstDelivery));
        await producer.publish(batch.map((m) => m.key));
        return { deadLetters: [] };
      }, warnings),
      records('a', 'b'),
      {
        heartbeat: () => {
          heartbeats++;
          return Promise.resolve();
        },
        isActive: () => true,
      },
    );
    expect(result).toBe('done');
    expect(producer.calls()).toBe(BROKER_DOWN.length + 1);
    expect(producer.sent).toEqual([['a', 'b']]);
    expect(warnings).toHaveLength(BROKER_DOWN.length);
    expect(warnings.every((w) => w === 'batch handler failed; retrying the batch after backoff')).toBe(true);
    expect(heartbeats).toBeGreaterThan(0);
    // A retry may follow a partial success: from the second attempt on nothing counts as a first delivery.
    expect(
      handled
        .slice(1)
        .flat()
        .every((first) => !first),
    ).toBe(true);
  });

  it('gives up without committing when the subscription stops while the broker is still down', async () => {
    const producer = flakyProducer(Array.from({ length: 1000 }, () => () => exceeded(refused())));
    let active = true;
    const running = runBatch(
      runnerDeps(async (batch) => {
        await producer.publish(batch.map((m) => m.key));
        return { deadLetters: [] };
      }, []),
      records('a'),
      { heartbeat: () => Promise.resolve(), isActive: () => active },
    );
    await waitFor('a few failed publishes', () => producer.calls() >= 3);
    active = false;
    await expect(running).resolves.toBe('aborted');
    expect(producer.sent).toEqual([]);
  });

  it.each(BROKER_REFUSED)('still stops the subscription on %s', async (_, make) => {
    const producer = flakyProducer([make]);
    await expect(
      runBatch(
        runnerDeps(async (batch) => {
          await producer.publish(batch.map((m) => m.key));
          return { deadLetters: [] };
        }, []),
        records('a'),
        { heartbeat: () => Promise.resolve(), isActive: () => true },
      ),
    ).rejects.toBeInstanceOf(SubscriptionFailedError);
    expect(producer.calls()).toBe(1);
  });

  it('keeps the subscription consuming: later messages are handled and committed, onError never fires', async () => {
    const bus = createMemoryBus({ retryBackoff: { initialMs: 1, maxMs: 5 } });
    const topic = contractTopic(1);
    await bus.ensureTopics([
      { name: topic.name, partitions: 1 },
      { name: topic.deadLetterTopic!, partitions: 1 },
    ]);
    const producer = flakyProducer([
      () => nonRetriableAround(exceeded(refused())),
      () => nonRetriableAround(exceeded(refused())),
    ]);
    const errors: Error[] = [];
    try {
      await bus.consume({
        groupId: 'g',
        topic,
        handler: async (batch) => {
          await producer.publish(batch.map((m) => m.key));
          return { deadLetters: [] };
        },
        onError: (error) => errors.push(error),
      });
      await bus.publish([{ topic, key: 'first', value: { task_id: 'first', seq: 0 } }]);
      await waitFor('the first message handled', () => producer.sent.flat().includes('first'));
      await bus.publish([{ topic, key: 'second', value: { task_id: 'second', seq: 1 } }]);
      await waitFor('the message after the outage', () => producer.sent.flat().includes('second'));
      await waitFor('both committed', () => bus.committedOffsets('g', topic.name)[0] === 2);
      expect(producer.sent.flat()).toEqual(['first', 'second']);
      expect(errors).toEqual([]);
    } finally {
      await bus.close();
    }
  });
});
