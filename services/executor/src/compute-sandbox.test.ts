import { describe, expect, it } from 'vitest';
import { createComputeSandbox } from './compute-sandbox.js';
import { ToolCallError } from './errors.js';
import type { ToolInvocation } from './transport.js';

const sandbox = createComputeSandbox({ memoryLimitBytes: 4 * 1024 * 1024 });

async function failure(expression: string, timeoutMs = 300, box = sandbox): Promise<ToolCallError> {
  try {
    await box.evaluate(expression, {}, timeoutMs);
  } catch (err) {
    if (err instanceof ToolCallError) return err;
    throw err;
  }
  throw new Error(`expected ${expression} to fail`);
}

describe('compute sandbox (QuickJS)', () => {
  it('evaluates a program over the inputs and returns the JSON value of its last expression', async () => {
    await expect(
      sandbox.evaluate('inputs.gb_per_s * 1000 - inputs.mb_per_s', { gb_per_s: 3.2, mb_per_s: 2800 }, 1000),
    ).resolves.toBe(400);
    await expect(
      sandbox.evaluate('const xs = [1, 2, 3]; ({ sum: xs.reduce((a, b) => a + b, 0) })', {}, 1000),
    ).resolves.toEqual({ sum: 6 });
  });

  it('as a tool, answers the value together with the program that produced it', async () => {
    const invocation: ToolInvocation = {
      tool: { name: 'sandbox_compute' } as ToolInvocation['tool'],
      arguments: { expression: 'inputs.a / inputs.b', inputs: { a: 3, b: 2 } },
      idempotencyKey: 'k',
      timeoutMs: 500,
      tenantId: 'default',
    };
    await expect(sandbox.call(invocation)).resolves.toEqual({
      value: 1.5,
      expression: 'inputs.a / inputs.b',
    });
  });

  it('stops a program at its time limit', async () => {
    const t0 = Date.now();
    const err = await failure('while (true) {}', 200);
    expect(err.code).toBe('sandbox_timeout');
    expect(err.errorClass).toBe('parameter');
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('stops a program at its memory limit', async () => {
    // Large arrays reach the limit in a few allocations; many small ones take seconds of WASM GC on a busy machine.
    const err = await failure(
      'const a = []; for (let i = 0; ; i++) a.push(new Array(1000000).fill(i))',
      10_000,
    );
    expect(err.code).toBe('sandbox_memory');
  });

  it('has no I/O: no require, fetch, process, std/os modules or timers', async () => {
    await expect(
      sandbox.evaluate(
        '[typeof require, typeof fetch, typeof process, typeof XMLHttpRequest, typeof setTimeout, typeof std, typeof os]',
        {},
        500,
      ),
    ).resolves.toEqual(Array(7).fill('undefined'));
    expect((await failure('require("fs").readFileSync("/etc/passwd")')).message).toContain('require');
  });

  it('cannot reach the host through the inputs (they arrive as a frozen JSON copy)', async () => {
    await expect(
      sandbox.evaluate('Object.isFrozen(inputs) && typeof inputs.f', { f: 'x' }, 500),
    ).resolves.toBe('string');
  });

  it('survives deep recursion and keeps working afterwards', async () => {
    expect((await failure('function f() { return f(); } f()')).message).toContain('stack overflow');
    await expect(sandbox.evaluate('1 + 1', {}, 500)).resolves.toBe(2);
  });

  it('reports a thrown error without its stack', async () => {
    const err = await failure('throw new Error("bad input")');
    expect(err.message).toBe('compute: sandbox_error: Error: bad input');
  });
});

describe('compute sandbox isolation (issue 21, hole 5)', () => {
  const MiB = 1024 * 1024;
  const big = createComputeSandbox({ memoryLimitBytes: 32 * MiB });

  it('stops an allocation loop under 32 MiB / 1 s within 2 s, and the host keeps its memory', async () => {
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 20);
    const t0 = Date.now();
    const err = await failure('const a = []; for (;;) a.push(new Array(1e6).fill(1.5))', 1000, big);
    const elapsed = Date.now() - t0;
    clearInterval(sampler);
    const rssAfter = process.memoryUsage().rss;
    rssPeak = Math.max(rssPeak, rssAfter);
    const figures = `${String(elapsed)} ms, ${String(err.code)}; host RSS +${String(Math.round((rssPeak - rssBefore) / MiB))} MiB at peak, +${String(Math.round((rssAfter - rssBefore) / MiB))} MiB after`;
    expect(['sandbox_memory', 'sandbox_error', 'sandbox_timeout'], figures).toContain(err.code);
    expect(err.errorClass).toBe('parameter');
    expect(elapsed, figures).toBeLessThan(2000);
    expect(rssAfter - rssBefore, figures).toBeLessThan(300 * MiB);
  }, 30_000);

  it('stops a program stuck in long built-in calls at its deadline (the host terminates the worker)', async () => {
    const t0 = Date.now();
    const err = await failure('for (;;) new Array(1e6).fill(1.5)', 1000, big);
    const elapsed = Date.now() - t0;
    expect(err.code, `${String(elapsed)} ms`).toBe('sandbox_timeout');
    expect(err.message).toBe('compute: sandbox_timeout: the computation exceeded 1000 ms');
    expect(elapsed, `${String(elapsed)} ms`).toBeLessThan(2000);
    // The sandbox works normally afterwards.
    await expect(big.evaluate('6 * 7', {}, 1000)).resolves.toBe(42);
  }, 60_000);

  it('does not block the host event loop while a program runs', async () => {
    await sandbox.evaluate('1', {}, 1000); // warm: whatever loads once has loaded
    const t0 = Date.now();
    let timerAt: number | undefined;
    let settledAt: number | undefined;
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        timerAt = Date.now() - t0;
        resolve();
      }, 50),
    );
    const call = failure('while (true) {}', 1000).then((err) => {
      settledAt = Date.now() - t0;
      return err;
    });
    const [err] = await Promise.all([call, timer]);
    const figures = `timer at ${String(timerAt)} ms, call settled at ${String(settledAt)} ms`;
    expect(err.code).toBe('sandbox_timeout');
    expect(timerAt).toBeDefined();
    expect(settledAt).toBeDefined();
    expect(timerAt!, figures).toBeLessThan(settledAt!);
    expect(timerAt!, figures).toBeLessThan(500);
  });

  it('fixes time and randomness per call: the same program and inputs give the same result', async () => {
    const program = '[Date.now(), new Date().getTime(), Date(), Math.random(), Math.random(), inputs.n]';
    const first = (await sandbox.evaluate(program, { n: 1 }, 1000)) as unknown[];
    const second = (await sandbox.evaluate(program, { n: 1 }, 1000)) as unknown[];
    expect(second).toEqual(first);
    // The clock stands at the epoch (no `fixedTimeMs` option); Math.random still varies within a call.
    expect(first.slice(0, 2)).toEqual([0, 0]);
    expect(first[3]).not.toBe(first[4]);
    for (const r of first.slice(3, 5)) {
      expect(typeof r).toBe('number');
      expect(r).toBeGreaterThanOrEqual(0);
      expect(r).toBeLessThan(1);
    }
    // The seed is a function of the program and inputs: other inputs, another sequence.
    const other = (await sandbox.evaluate(program, { n: 2 }, 1000)) as unknown[];
    expect(other.slice(3, 5)).not.toEqual(first.slice(3, 5));
    // Local time is UTC whatever the host's time zone, so date arithmetic is reproducible too.
    await expect(
      sandbox.evaluate(
        '[new Date(0).getTimezoneOffset(), new Date(0).getHours(), String(new Date(0))]',
        {},
        1000,
      ),
    ).resolves.toEqual([0, 0, 'Thu Jan 01 1970 00:00:00 GMT+0000']);
  });

  it('fixes the clock at the instant the sandbox was given', async () => {
    const at = Date.UTC(2024, 4, 1, 12, 30);
    const fixed = createComputeSandbox({ memoryLimitBytes: 4 * MiB, fixedTimeMs: at });
    await expect(fixed.evaluate('[Date.now(), new Date().toISOString()]', {}, 1000)).resolves.toEqual([
      at,
      '2024-05-01T12:30:00.000Z',
    ]);
  });
});
