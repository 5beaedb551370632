import { describe, expect, it } from 'vitest';
import { backoffCeiling, resolveBackoff } from './backoff.js';
import { isProgrammerError, isRetriable, retriableFlag, retryAfterMsOf } from './retriable.js';
import { RetriesExhaustedError, retry } from './retry.js';

const flagged = (message: string, retriable: boolean) => Object.assign(new Error(message), { retriable });

describe('what is retriable (one meaning, as data on the error)', () => {
  it('follows the error’s own flag, and takes an error that says nothing as retriable', () => {
    expect(isRetriable(flagged('broker busy', true))).toBe(true);
    expect(isRetriable(flagged('bad input', false))).toBe(false);
    expect(isRetriable(new Error('connection reset'))).toBe(true);
    expect(retriableFlag(new Error('unsaid'))).toBeUndefined();
  });

  it('never retries a programmer error, whatever it claims, but a fetch TypeError with a network cause is not one', () => {
    expect(isRetriable(Object.assign(new TypeError('x is undefined'), { retriable: true }))).toBe(false);
    expect(isRetriable(new RangeError('bad length'))).toBe(false);
    const fetchFailed = new TypeError('fetch failed', {
      cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
    });
    expect(isProgrammerError(fetchFailed)).toBe(false);
    expect(isRetriable(fetchFailed)).toBe(true);
  });

  it('reads how long an error asks to wait', () => {
    expect(retryAfterMsOf(Object.assign(new Error('429'), { retryAfterMs: 1500 }))).toBe(1500);
    expect(retryAfterMsOf(Object.assign(new Error('429'), { retryAfterMs: -1 }))).toBeUndefined();
  });
});

describe('retry', () => {
  const fast = { initialMs: 1, maxMs: 2 };

  it('tries again until the call succeeds', async () => {
    let calls = 0;
    const retried: number[] = [];
    const value = await retry(
      (attempt) => {
        calls++;
        return attempt < 3 ? Promise.reject(flagged('busy', true)) : Promise.resolve('ok');
      },
      { ...fast, attempts: 5, onRetry: (_e, attempt) => retried.push(attempt) },
    );
    expect(value).toBe('ok');
    expect(calls).toBe(3);
    expect(retried).toEqual([1, 2]);
  });

  it('throws an error that is not retriable at once, as it is', async () => {
    let calls = 0;
    const bug = new TypeError('cannot read undefined');
    await expect(
      retry(() => {
        calls++;
        return Promise.reject(bug);
      }, fast),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
  });

  it('gives up after the attempts with an error that keeps the last failure as its cause', async () => {
    const last = flagged('still down', true);
    const err = await retry(() => Promise.reject(last), { ...fast, attempts: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhaustedError);
    expect(err).toMatchObject({ attempts: 3, cause: last, retriable: false });
    expect((err as Error).message).toBe('gave up after 3 attempts: still down');
  });

  it('stops waiting when its signal aborts, with the error it was retrying', async () => {
    const controller = new AbortController();
    const failure = flagged('down', true);
    const pending = retry(() => Promise.reject(failure), {
      initialMs: 10_000,
      maxMs: 10_000,
      attempts: 5,
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toBe(failure);
  });

  it('waits at least what the error asks for', async () => {
    const waits: number[] = [];
    let calls = 0;
    await retry(
      () =>
        calls++ === 0
          ? Promise.reject(Object.assign(new Error('429'), { retryAfterMs: 30 }))
          : Promise.resolve(1),
      { ...fast, onRetry: (_e, _a, delay) => waits.push(delay) },
    );
    expect(waits).toEqual([30]);
  });

  it('refuses attempts that are not a positive integer, and a backoff that makes no sense', async () => {
    await expect(retry(() => Promise.resolve(1), { attempts: 0 })).rejects.toThrow(RangeError);
    expect(() => resolveBackoff({ initialMs: 10, maxMs: 5 })).toThrow(RangeError);
    expect(backoffCeiling(4, resolveBackoff({ initialMs: 100, maxMs: 500 }))).toBe(500);
  });
});
