import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOPICS, type TopicSpec } from '@signalbox/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { contractTopic } from './bus-contract.js';
import { coalescing } from './coalesce.js';
import { InvalidMessageError } from './errors.js';
import { forEachByKey } from './for-each-by-key.js';
import { encodeValue, parsePayload, validateValue, validatedPayloadJson } from './payload.js';
import { isRetriedResponseError, sliceBySize } from './kafka-bus.js';
import { backoffDelay, isRetriable, resolveBackoff } from '@signalbox/retry';
import { decodeWire, encodeWire, encodeWireText } from './wire-format.js';

describe('wire format', () => {
  it('round-trips the schema id and payload, and refuses other magic bytes and short values', () => {
    const bytes = encodeWire(70_000, Buffer.from('{}'));
    expect([...bytes.subarray(0, 5)]).toEqual([0, 0, 1, 0x11, 0x70]);
    expect(decodeWire(bytes)).toEqual({ schemaId: 70_000, payload: Buffer.from('{}') });
    expect(() => decodeWire(Buffer.from([1, 0, 0, 0, 1, 123]))).toThrow(/magic byte 1/);
    expect(() => decodeWire(Buffer.from([0, 0]))).toThrow(/fewer than/);
  });

  it('writes text the same as its UTF-8 bytes, multi-byte characters included', () => {
    for (const text of ['{}', '{"a":"ü日本🙂"}', '', 'x'.repeat(10_000)]) {
      expect(encodeWireText(70_000, text)).toEqual(encodeWire(70_000, Buffer.from(text, 'utf8')));
    }
    expect(() => encodeWireText(-1, '{}')).toThrow(RangeError);
  });
});

describe('validateValue', () => {
  it('checks like publish and returns the value a consumer sees, frozen', () => {
    const topic = contractTopic();
    const value = validateValue(topic, { task_id: 't', seq: 1, extra: 'dropped' });
    expect(value).toEqual({ task_id: 't', seq: 1 });
    expect(Object.isFrozen(value)).toBe(true);
    expect(encodeValue(topic, value).toString('utf8')).toBe('{"task_id":"t","seq":1}');
    expect(() => validateValue(topic, { task_id: 't', seq: -1 })).toThrow(InvalidMessageError);
  });

  it('checks the value a consumer sees after JSON encoding, also when it is not plain JSON', () => {
    const topic = contractTopic();
    const when = new Date('2030-01-02T03:04:05.678Z');
    expect(validateValue(topic, { task_id: 't', seq: 1, note: when })).toEqual({
      task_id: 't',
      seq: 1,
      note: '2030-01-02T03:04:05.678Z',
    });
    expect(validateValue(topic, { task_id: 't', seq: 1, note: undefined })).toEqual({ task_id: 't', seq: 1 });
    expect(() => validateValue(topic, { task_id: 't', seq: Number.NaN })).toThrow(/seq/);
    expect(() => validateValue(topic, { task_id: 't', seq: 1n })).toThrow(/not JSON-serializable/);
    const cyclic: Record<string, unknown> = { task_id: 't', seq: 1 };
    cyclic.self = cyclic;
    expect(() => validateValue(topic, cyclic)).toThrow(/not JSON-serializable/);
  });

  it('lets only the same schema skip the check: another topic checks the value again', () => {
    const value = validateValue(contractTopic(), { task_id: 't', seq: 1 });
    const stricter = {
      ...contractTopic(),
      schema: z.object({ task_id: z.string(), seq: z.number().min(5) }),
    };
    expect(() => encodeValue(stricter, value)).toThrow(/seq/);
    // A copy with the same fields is not the validated object: checked as usual.
    expect(() => encodeValue(contractTopic(), { ...(value as object), seq: 'x' })).toThrow(/seq/);
  });
});

describe('validatedPayloadJson', () => {
  const topic = {
    ...contractTopic(),
    schema: z.object({
      task_id: z.string(),
      note: z.string().optional(),
      payload: z.object({ b: z.array(z.number()), a: z.record(z.string(), z.unknown()) }),
      tail: z.number(),
    }),
  };

  it('gives the text the published message holds for its payload, as JSON.stringify writes it', () => {
    const value = validateValue(
      topic,
      {
        tail: 1,
        payload: { a: { 'é"\\': [null, '\u0000'], x: { y: 1 } }, b: [1.5, -0], extra: 'dropped' },
        task_id: 't',
      },
      { keyOrder: (a, b) => (a < b ? -1 : a > b ? 1 : 0) },
    );
    const payload = (value as { payload: unknown }).payload;
    const payloadJson = validatedPayloadJson(value);
    expect(payloadJson).toBe(JSON.stringify(payload));
    expect(JSON.parse(payloadJson ?? '')).toEqual({
      b: [1.5, 0],
      a: { x: { y: 1 }, 'é"\\': [null, '\u0000'] },
    });
    expect(encodeValue(topic, value).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('writes the message the same even when a member reads like the mark the payload is written around', () => {
    const value = validateValue(topic, {
      task_id: 't',
      note: '\u0000payload-',
      payload: { b: [], a: {} },
      tail: 2,
    });
    expect(encodeValue(topic, value).toString('utf8')).toBe(JSON.stringify(value));
    expect(validatedPayloadJson(value)).toBe('{"b":[],"a":{}}');
  });

  it('is undefined for a value not checked by validateValue, or without an object payload', () => {
    expect(validatedPayloadJson({ payload: {} })).toBeUndefined();
    expect(validatedPayloadJson(validateValue(contractTopic(), { task_id: 't', seq: 1 }))).toBeUndefined();
    expect(validatedPayloadJson(null)).toBeUndefined();
  });
});

describe('validateValue with a key order', () => {
  const topic = {
    ...contractTopic(),
    schema: z.object({ task_id: z.string(), data: z.record(z.string(), z.unknown()) }),
  };
  const reverse = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  const keysOf = (value: unknown) => Object.keys((value as { data: object }).data);

  it('puts the keys of members kept as they come in that order, however they arrived', () => {
    for (const data of [
      { a: 1, b: 2, c: { y: 1, z: 2 } },
      { c: { z: 2, y: 1 }, a: 1, b: 2 },
      { b: 2, c: { y: 1, z: 2 }, a: 1 },
    ]) {
      const value = validateValue(topic, { task_id: 't', data }, { keyOrder: reverse });
      expect(keysOf(value)).toEqual(['c', 'b', 'a']);
      expect(encodeValue(topic, value).toString('utf8')).toBe(
        '{"task_id":"t","data":{"c":{"z":2,"y":1},"b":2,"a":1}}',
      );
    }
  });

  it('tells apart key lists that join to the same text, and stays right past its cache size', () => {
    const first = validateValue(topic, { task_id: 't', data: { 'a\u0000': 1, b: 2 } }, { keyOrder: reverse });
    const second = validateValue(
      topic,
      { task_id: 't', data: { a: 1, '\u0000b': 2 } },
      { keyOrder: reverse },
    );
    expect(first).toEqual({ task_id: 't', data: { 'a\u0000': 1, b: 2 } });
    expect(keysOf(first)).toEqual(['b', 'a\u0000']);
    expect(keysOf(second)).toEqual(['a', '\u0000b']);
    // Many lists that share their first key, then many that do not: each still in order.
    for (let i = 0; i < 100; i++) {
      const data = { a: 0, [`z${String(i)}`]: i, [`b${String(i)}`]: -i };
      expect(keysOf(validateValue(topic, { task_id: 't', data }, { keyOrder: reverse }))).toEqual([
        `z${String(i)}`,
        `b${String(i)}`,
        'a',
      ]);
    }
    for (let i = 0; i < 5000; i++) {
      const data = { [`k${String(i)}`]: i, [`j${String(i)}`]: -i };
      expect(keysOf(validateValue(topic, { task_id: 't', data }, { keyOrder: reverse }))).toEqual([
        `k${String(i)}`,
        `j${String(i)}`,
      ]);
    }
  });
});

describe('validateValue with a key order, against the schema given every object in that order', () => {
  // What the key order must give: every object of the value in that order, then the schema's own parser — the
  // schema writes the members it defines in its own order, and keeps the rest as they come.
  const byLengthThenText = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  const reverse = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);
  const deepSorted = (value: unknown, order: (a: string, b: string) => number): unknown => {
    if (Array.isArray(value)) return value.map((v) => deepSorted(v, order));
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(order))
      out[key] = deepSorted((value as Record<string, unknown>)[key], order);
    return out;
  };
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const shuffled = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(shuffled);
    if (typeof value !== 'object' || value === null) return value;
    const keys = Object.keys(value).sort(() => random() - 0.5);
    const out: Record<string, unknown> = {};
    for (const key of keys) out[key] = shuffled((value as Record<string, unknown>)[key]);
    return out;
  };
  const expected = (topic: TopicSpec, value: unknown, order: (a: string, b: string) => number) =>
    JSON.stringify(topic.schema.parse(deepSorted(JSON.parse(JSON.stringify(value)), order)));
  const fixturesRoot = join(import.meta.dirname, '..', '..', 'contracts', 'fixtures');

  it('gives the same bytes for every fixture of every topic, its keys in any order', () => {
    let checked = 0;
    for (const topic of Object.values(TOPICS)) {
      for (const version of readdirSync(join(fixturesRoot, topic.name))) {
        for (const file of readdirSync(join(fixturesRoot, topic.name, version))) {
          const fixture: unknown = JSON.parse(
            readFileSync(join(fixturesRoot, topic.name, version, file), 'utf8'),
          );
          // Free-form members with keys out of order, where the topic has them.
          const text = JSON.stringify(fixture).replace(
            '"arguments":{',
            '"arguments":{"zz":{"b":[{"y":1,"x":{"q":1,"p":2}}],"a":null},"aa":"x",',
          );
          for (let i = 0; i < 4; i++) {
            const value = shuffled(JSON.parse(text));
            for (const order of [byLengthThenText, reverse]) {
              const got = JSON.stringify(validateValue(topic, value, { keyOrder: order }));
              expect(got, `${topic.name} ${version} ${file}`).toBe(expected(topic, value, order));
              checked++;
            }
          }
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(Object.keys(TOPICS).length * 8);
  });

  it('puts in order the members an object does not define, a union it cannot follow and records in arrays', () => {
    const topic = {
      ...contractTopic(),
      schema: z.object({
        task_id: z.string(),
        loose: z.looseObject({ b: z.number() }),
        either: z.union([z.object({ n: z.number() }), z.record(z.string(), z.number())]),
        list: z.array(z.record(z.string(), z.object({ k: z.number(), j: z.number() }))).optional(),
        piped: z.object({ z: z.number(), a: z.number() }).pipe(z.object({ z: z.number(), a: z.number() })),
      }),
    };
    const value = {
      piped: { a: 1, z: 2 },
      list: [{ y: { j: 1, k: 2 }, x: { k: 3, j: 4 } }],
      either: { q: 1, p: 2, n: 3 },
      loose: { z: 1, b: 2, a: 3 },
      task_id: 't',
    };
    for (const order of [byLengthThenText, reverse]) {
      expect(JSON.stringify(validateValue(topic, value, { keyOrder: order }))).toBe(
        expected(topic, value, order),
      );
    }
    expect(JSON.stringify(validateValue(topic, value, { keyOrder: reverse }))).toBe(
      '{"task_id":"t","loose":{"b":2,"z":1,"a":3},"either":{"n":3},"list":[{"y":{"k":2,"j":1},"x":{"k":3,"j":4}}],"piped":{"z":2,"a":1}}',
    );
  });

  it("leaves the caller's objects as they were", () => {
    const topic = TOPICS.stepPrepared;
    const dir = join(fixturesRoot, topic.name, 'v2');
    const value = shuffled(JSON.parse(readFileSync(join(dir, readdirSync(dir)[0] ?? ''), 'utf8')));
    const before = JSON.stringify(value);
    validateValue(topic, value, { keyOrder: reverse });
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('a __proto__ key deep inside free-form JSON', () => {
  // The compiled parsers keep such a key where zod's own parser makes it a prototype (see jsonParser): the bus must
  // give the schema's bytes anyway, or a re-published message would differ from its first publication.
  const topic = TOPICS.stepPrepared;
  const dir = join(import.meta.dirname, '..', '..', 'contracts', 'fixtures', topic.name, 'v2');
  const fixture = readFileSync(join(dir, readdirSync(dir)[0] ?? ''), 'utf8');
  const text = JSON.stringify(JSON.parse(fixture)).replace(
    '"arguments":{',
    '"arguments":{"weird":{"x":{"__proto__":{"polluted":true}}},',
  );
  const canonical = JSON.stringify(topic.schema.parse(JSON.parse(text)));

  it('is validated and decoded as the schema does it', () => {
    expect(text).toContain('"weird":{"x":{"__proto__"');
    expect(encodeValue(topic, JSON.parse(text)).toString('utf8')).toBe(canonical);
    const decoded = parsePayload(topic, Buffer.from(text, 'utf8'));
    expect(decoded.ok).toBe(true);
    expect(JSON.stringify(decoded.ok ? decoded.value : null)).toBe(canonical);
  });
});

describe('coalescing', () => {
  it('sends the first call at once and the calls made meanwhile together, in call order', async () => {
    const sent: number[][] = [];
    let release: () => void = () => undefined;
    const send = coalescing<number>(async (items) => {
      sent.push(items);
      if (sent.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = send([1]);
    expect(sent).toEqual([[1]]);
    const later = [send([2, 3]), send([4])];
    release();
    await Promise.all([first, ...later]);
    expect(sent).toEqual([[1], [2, 3, 4]]);
    await send([5]);
    expect(sent).toEqual([[1], [2, 3, 4], [5]]);
  });

  it('rejects every call the failing send carried, and goes on with the next', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const send = coalescing<string>(async (items) => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      if (items.includes('bad')) throw new Error('refused');
    });
    const first = send(['ok']);
    const failing = [send(['bad']), send(['x'])];
    release();
    await expect(first).resolves.toBeUndefined();
    for (const call of failing) await expect(call).rejects.toThrow('refused');
    await expect(send(['after'])).resolves.toBeUndefined();
  });
});

describe('coalescing with a linger', () => {
  it("holds an idle sender's first call for the linger, sending the calls made meanwhile with it", async () => {
    const sent: number[][] = [];
    const send = coalescing<number>(
      (items) => {
        sent.push(items);
        return Promise.resolve();
      },
      { lingerMs: 30 },
    );
    const calls = [send([1]), send([2])];
    await new Promise((r) => setTimeout(r, 5));
    calls.push(send([3]));
    expect(sent).toEqual([]);
    await Promise.all(calls);
    expect(sent).toEqual([[1, 2, 3]]);
    // Idle again: the next call lingers too.
    const next = send([4]);
    expect(sent).toHaveLength(1);
    await next;
    expect(sent).toEqual([[1, 2, 3], [4]]);
  });

  it('flush() sends what lingers at once and resolves when the sender is idle', async () => {
    const sent: string[][] = [];
    const send = coalescing<string>(
      (items) => {
        sent.push(items);
        return Promise.resolve();
      },
      { lingerMs: 60_000 },
    );
    const call = send(['a']);
    await send.flush();
    expect(sent).toEqual([['a']]);
    await expect(call).resolves.toBeUndefined();
    await send.flush(); // idle: nothing to do
    expect(() => coalescing(() => Promise.resolve(), { lingerMs: -1 })).toThrow(/lingerMs/);
  });
});

describe('sliceBySize', () => {
  const message = (key: string, bytes: number) => ({ key, value: Buffer.alloc(bytes) });

  it('keeps a batch that fits as it is', () => {
    const batch = [{ topic: 'a', messages: [message('k', 100), message('k', 100)] }];
    expect(sliceBySize(batch, 10_000)).toEqual([batch]);
  });

  it('cuts a big batch into slices under the limit, keeping every topic in order', () => {
    const a = Array.from({ length: 10 }, (_, i) => message(`a${String(i)}`, 1_000));
    const b = Array.from({ length: 5 }, (_, i) => message(`b${String(i)}`, 1_000));
    const slices = sliceBySize(
      [
        { topic: 'a', messages: a },
        { topic: 'b', messages: b },
      ],
      3_500,
    );
    expect(slices.length).toBeGreaterThan(4);
    for (const slice of slices) {
      const bytes = slice.flatMap((t) => t.messages).reduce((n, m) => n + (m.value as Buffer).length, 0);
      expect(bytes).toBeLessThanOrEqual(3_500);
    }
    const keysOf = (topic: string) =>
      slices.flatMap((slice) =>
        slice.filter((t) => t.topic === topic).flatMap((t) => t.messages.map((m) => m.key)),
      );
    expect(keysOf('a')).toEqual(a.map((m) => m.key));
    expect(keysOf('b')).toEqual(b.map((m) => m.key));
  });

  it('sends a message bigger than the limit alone', () => {
    const slices = sliceBySize(
      [{ topic: 'a', messages: [message('k', 10), message('k', 5_000), message('k', 10)] }],
      1_000,
    );
    expect(slices.map((s) => s[0]?.messages.length)).toEqual([1, 1, 1]);
  });
});

describe('forEachByKey', () => {
  it('runs keys concurrently but each key in order', async () => {
    const messages = ['a', 'b', 'a', 'c', 'b', 'a'].map((key, i) => ({ key, i }));
    const order: string[] = [];
    let active = 0;
    let peak = 0;
    await forEachByKey(messages, 2, async (m) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, m.key === 'a' ? 5 : 1));
      order.push(`${m.key}${String(m.i)}`);
      active--;
    });
    expect(order.filter((s) => s.startsWith('a'))).toEqual(['a0', 'a2', 'a5']);
    expect(order.filter((s) => s.startsWith('b'))).toEqual(['b1', 'b4']);
    expect(peak).toBe(2);
  });

  it('rejects with the first error and starts no new key after it', async () => {
    const seen: string[] = [];
    await expect(
      forEachByKey([{ key: 'x' }, { key: 'y' }, { key: 'z' }], 1, (m) => {
        seen.push(m.key);
        return m.key === 'x' ? Promise.reject(new Error('boom')) : Promise.resolve();
      }),
    ).rejects.toThrow('boom');
    expect(seen).toEqual(['x']);
  });
});

describe('retry policy', () => {
  it('grows exponentially, caps, and jitters within bounds', () => {
    const b = resolveBackoff({ initialMs: 100, maxMs: 1_000, jitter: 0.2 });
    expect(backoffDelay(1, b, () => 0.5)).toBe(100);
    expect(backoffDelay(3, b, () => 0.5)).toBe(400);
    expect(backoffDelay(10, b, () => 1)).toBe(1_000);
    expect(backoffDelay(2, b, () => 0)).toBe(160);
  });

  it('never retries programmer errors or errors marked non-retriable', () => {
    expect(isRetriable(new Error('db down'))).toBe(true);
    expect(isRetriable(new TypeError('x is undefined'))).toBe(false);
    expect(isRetriable(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }))).toBe(true);
    expect(isRetriable(Object.assign(new Error('bad'), { retriable: false }))).toBe(false);
  });
});

describe('isRetriedResponseError', () => {
  // As kafkajs's Connection logs a failed response: `Response <api>(key, version)` with the broker's error message.
  const response = (error: string) => ({
    message: 'Response ListOffsets(key: 2, version: 3)',
    error,
    correlationId: 8,
    size: 180,
  });

  it('is true for the responses kafkajs retries by itself while topics and groups settle', () => {
    for (const error of [
      'This server is not the leader for that topic-partition',
      'There is no leader for this topic-partition as we are in the middle of a leadership election',
      "The coordinator is loading and hence can't process requests for this group",
      'The group coordinator is not available',
    ]) {
      expect(isRetriedResponseError(response(error)), error).toBe(true);
    }
  });

  it('is false for any other failed response, and for entries that are not about a response', () => {
    expect(
      isRetriedResponseError(response('Not authorized to access topics: [Topic authorization failed]')),
    ).toBe(false);
    expect(
      isRetriedResponseError(response('The request included a message larger than the max message size')),
    ).toBe(false);
    expect(
      isRetriedResponseError({
        message: 'Crash: KafkaJSNumberOfRetriesExceeded',
        error: 'This server is not the leader for that topic-partition',
      }),
    ).toBe(false);
    expect(isRetriedResponseError({ message: 'Response Produce(key: 0, version: 7)' })).toBe(false);
  });
});
