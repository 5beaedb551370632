import { describe, expect, it } from 'vitest';
import { createComputeSandbox } from './compute-sandbox.js';
import { ToolCallError } from './errors.js';
import type { ToolInvocation } from './transport.js';

const sandbox = createComputeSandbox({ memoryLimitBytes: 4 * 1024 * 1024 });

async function failure(expression: string, timeoutMs = 300): Promise<ToolCallError> {
  try {
    await sandbox.evaluate(expression, {}, timeoutMs);
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
