import { describe, expect, it } from 'vitest';
import { closeOnSignal, type Closable } from './shutdown.js';

function recorder() {
  const lines: { msg: string; obj: object }[] = [];
  const log = (obj: object, msg: string) => lines.push({ msg, obj });
  return { lines, logger: { info: log, warn: log, error: log } };
}

const closable = (name: string, order: string[], close?: () => Promise<void>): Closable => ({
  name,
  close: async () => {
    order.push(name);
    await close?.();
  },
});

/** closeOnSignal listening to no signal, over closables that record the order in which they are closed. */
function start(drainTimeoutMs: number, closables: (order: string[]) => Closable[]) {
  const order: string[] = [];
  const { logger, lines } = recorder();
  const telemetry = closable('telemetry', order);
  const handle = closeOnSignal({
    drainTimeoutMs,
    logger,
    signals: [],
    closables: closables(order),
    telemetry: { shutdown: async () => telemetry.close() },
  });
  return { handle, order, lines };
}

describe('closeOnSignal', () => {
  it('closes everything in the order given, the telemetry last, once however often it is asked', async () => {
    const { handle, order, lines } = start(1000, (order) => [
      closable('runtime', order),
      closable('mcp', order),
      closable('bus', order),
    ]);
    const [a, b] = await Promise.all([handle.shutdown('SIGTERM'), handle.shutdown('SIGINT')]);
    expect([a, b]).toEqual(['closed', 'closed']);
    expect(order).toEqual(['runtime', 'mcp', 'bus', 'telemetry']);
    expect(lines.filter((l) => l.msg === 'closed').map((l) => l.obj)).toEqual([
      { resource: 'runtime' },
      { resource: 'mcp' },
      { resource: 'bus' },
      { resource: 'telemetry' },
    ]);
  });

  it('still closes the rest when one fails, and reports the shutdown failed', async () => {
    const { handle, order, lines } = start(1000, (order) => [
      closable('runtime', order),
      closable('store', order, () => Promise.reject(new Error('pool already ended'))),
      closable('bus', order),
    ]);
    expect(await handle.shutdown('SIGTERM')).toBe('failed');
    expect(order).toEqual(['runtime', 'store', 'bus', 'telemetry']);
    expect(lines.find((l) => l.msg === 'failed to close')?.obj).toMatchObject({ resource: 'store' });
  });

  it('gives up at the drain time and says so', async () => {
    const { handle, order, lines } = start(50, (order) => [
      closable('runtime', order, () => new Promise(() => undefined)),
      closable('bus', order),
    ]);
    expect(await handle.shutdown('SIGTERM')).toBe('timeout');
    expect(order).toEqual(['runtime']);
    expect(lines.some((l) => l.msg.startsWith('drain timed out'))).toBe(true);
  });

  it('refuses a drain time that is not a positive integer', () => {
    const { logger } = recorder();
    expect(() => closeOnSignal({ drainTimeoutMs: 0, logger, signals: [], closables: [] })).toThrow(
      /drainTimeoutMs/,
    );
  });
});
