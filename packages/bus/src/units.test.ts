import { describe, expect, it } from 'vitest';
import { forEachByKey } from './for-each-by-key.js';
import { backoffDelay, isRetriable, resolveBackoff } from './retry.js';
import { decodeWire, encodeWire } from './wire-format.js';

describe('wire format', () => {
  it('round-trips the schema id and payload, and refuses other magic bytes and short values', () => {
    const bytes = encodeWire(70_000, Buffer.from('{}'));
    expect([...bytes.subarray(0, 5)]).toEqual([0, 0, 1, 0x11, 0x70]);
    expect(decodeWire(bytes)).toEqual({ schemaId: 70_000, payload: Buffer.from('{}') });
    expect(() => decodeWire(Buffer.from([1, 0, 0, 0, 1, 123]))).toThrow(/magic byte 1/);
    expect(() => decodeWire(Buffer.from([0, 0]))).toThrow(/fewer than/);
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
