// The HTTP adapter's keep-alive pool against a real local server that resets reused connections (issue 21): a dead
// pooled connection must not fail a call that can safely go out again, nor leave its siblings in the pool.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolDefinition, type ToolDefinitionInput } from '@signalbox/registry';
import { ToolCallError } from './errors.js';
import { classifyStatus, createHttpTransport } from './http-transport.js';
import { httpTool } from './testing.js';
import { createSsrfGuard } from './ssrf-guard.js';
import type { ToolInvocation, TransportAdapter } from './transport.js';

interface Seen {
  path: string;
  key: string;
  /** 1 for the first request on its connection. */
  nth: number;
}

let server: http.Server;
let base: string;
const seen: Seen[] = [];
const sockets = new Set<Socket>();
const served = new WeakMap<Socket, number>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const nth = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, nth);
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({ path, key: String(req.headers['idempotency-key'] ?? ''), nth });
    req.resume();
    req.on('end', () => {
      // What a restarted tool (or one closing an idle connection just then) looks like from a pooled connection.
      if (path === '/reset-reused' && nth > 1) {
        req.socket.destroy();
        return;
      }
      setTimeout(
        () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ value: 'ok', nth }));
        },
        path === '/slow' ? 100 : 0,
      );
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let seq = 0;
function invocation(tool: ToolDefinitionInput): ToolInvocation {
  seq++;
  return {
    tool: ToolDefinition.parse(tool),
    arguments: { n: seq },
    idempotencyKey: `idem_test_${String(seq)}`,
    timeoutMs: 2000,
    tenantId: 'acme',
  };
}

function transport(): TransportAdapter {
  return createHttpTransport({ guard: createSsrfGuard({ allow: [new URL(base).host] }) });
}

async function failure(call: Promise<unknown>): Promise<ToolCallError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ToolCallError) return err;
    throw err;
  }
  throw new Error('the call succeeded');
}

const write = (name: string, idempotent: boolean) =>
  httpTool(name, `${base}/reset-reused`, { action: 'write', permission: 'write', idempotent });

describe('HTTP adapter: a pooled connection that turned out dead', () => {
  it('a read is sent once more on a fresh connection and succeeds', async () => {
    const adapter = transport();
    try {
      const tool = httpTool('pooled_read', `${base}/reset-reused`);
      expect(await adapter.call(invocation(tool))).toMatchObject({ value: 'ok' });
      const before = seen.length;
      // The second call goes out on the pooled connection, which the server resets.
      expect(await adapter.call(invocation(tool))).toMatchObject({ value: 'ok', nth: 1 });
      expect(seen.slice(before).map((s) => s.nth)).toEqual([2, 1]);
    } finally {
      await adapter.close?.();
    }
  });

  it('an idempotent write goes out once more on a fresh connection with the same Idempotency-Key', async () => {
    const adapter = transport();
    try {
      await adapter.call(invocation(write('pooled_idem_write', true)));
      const before = seen.length;
      const call = invocation(write('pooled_idem_write', true));
      expect(await adapter.call(call)).toMatchObject({ value: 'ok' });
      expect(seen.slice(before).map((s) => s.key)).toEqual([call.idempotencyKey, call.idempotencyKey]);
    } finally {
      await adapter.close?.();
    }
  });

  it('a non-idempotent write that was sent is not sent again: the failure says it may have acted', async () => {
    const adapter = transport();
    try {
      await adapter.call(invocation(write('pooled_once_write', false)));
      const before = seen.length;
      const err = await failure(adapter.call(invocation(write('pooled_once_write', false))));
      expect(err).toMatchObject({ errorClass: 'transient', mayHaveActed: true });
      expect(err.message).toContain('ECONNRESET');
      expect(seen.length - before).toBe(1);
    } finally {
      await adapter.close?.();
    }
  });

  it('the failure closes the other idle pooled connections to that tool', async () => {
    const adapter = transport();
    try {
      const slow = httpTool('pool_slow_read', `${base}/slow`);
      await Promise.all([adapter.call(invocation(slow)), adapter.call(invocation(slow))]);
      const pooled = [...sockets];
      expect(pooled.length).toBeGreaterThanOrEqual(2);
      // One of the two idle connections is reused and reset by the server.
      expect(
        await adapter.call(invocation(httpTool('pool_reset_read', `${base}/reset-reused`))),
      ).toMatchObject({
        value: 'ok',
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pooled.filter((s) => !s.destroyed)).toEqual([]);
    } finally {
      await adapter.close?.();
    }
  });

  it('a refused connection is not retried by the adapter (the breaker and retry policy decide)', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const adapter = createHttpTransport({ guard: createSsrfGuard({ allow: [`127.0.0.1:${String(port)}`] }) });
    try {
      const err = await failure(
        adapter.call(
          invocation(httpTool('refused_write', `http://127.0.0.1:${String(port)}/x`, { action: 'write' })),
        ),
      );
      expect(err).toMatchObject({ errorClass: 'transient', mayHaveActed: false });
      expect(err.message).toContain('ECONNREFUSED');
    } finally {
      await adapter.close?.();
    }
  });
});

describe('classifyStatus', () => {
  it('reads a 409 as a key still in flight (transient), other refusals by their status', () => {
    expect(classifyStatus(409)).toBe('transient');
    expect(classifyStatus(422)).toBe('parameter');
    expect(classifyStatus(400)).toBe('parameter');
    expect(classifyStatus(403)).toBe('permission');
    expect(classifyStatus(429)).toBe('rate_limited');
    expect(classifyStatus(503)).toBe('transient');
  });
});
