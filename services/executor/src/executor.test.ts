// The gateway against a real local HTTP tool server that injects faults, with its state in real PostgreSQL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { ToolDefinition, type ToolDefinitionInput } from '@signalbox/registry';
import { createExecutorStore, type ExecutorStore } from './executor-store.js';
import { ExecutionAbortedError } from './errors.js';
import { createExecutor, type ExecutionRequest, type Executor } from './executor.js';
import { createHttpTransport } from './http-transport.js';
import { httpTool, startFaultServer, type FaultServer } from './testing.js';
import { createSsrfGuard } from './ssrf-guard.js';

let schema: IsolatedSchema;
let store: ExecutorStore;
let server: FaultServer;
let executor: Executor;
let seq = 0;

beforeAll(async () => {
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'executor');
  store = createExecutorStore({ pool: schema.pool });
  await store.migrate();
  await store.migrate(); // a second run is a no-op
  server = await startFaultServer();
  executor = createExecutor({
    store,
    // The test server runs on 127.0.0.1, so it is allow-listed explicitly (host and port).
    transports: {
      http: createHttpTransport({ guard: createSsrfGuard({ allow: [`127.0.0.1:${String(server.port)}`] }) }),
    },
    inlineOutputBytes: 16 * 1024,
    breaker: { failureThreshold: 3, openMs: 60_000 },
    // These tests are about one call's own attempts and the breaker; waiting out an outage has tests of its own.
    outageBudgetMs: 0,
  });
});
afterAll(async () => {
  await server.close();
  await store.close();
  await schema.drop();
});

function request(
  tool: ToolDefinitionInput,
  args: Record<string, unknown> = { q: 'x' },
  extra: Partial<ExecutionRequest> = {},
): ExecutionRequest {
  seq++;
  return {
    tenant_id: 'acme',
    task_id: `task-${String(seq)}`,
    step_index: 0,
    tool: ToolDefinition.parse(tool),
    arguments: args,
    needs_fresh_data: false,
    ...extra,
  };
}

const retrying = { max_attempts: 3, initial_backoff_ms: 20, max_backoff_ms: 100 };

describe('HTTP faults map to EX-5 classes with the right retry behaviour', () => {
  it('a 200 is a success with the tool evidence level, fetched_at and the idempotency key sent as a header', async () => {
    const r = await executor.execute(request(httpTool('ok_read', `${server.url}/ok`, { evidence: 'lead' })));
    expect(r).toMatchObject({
      ok: true,
      output: { value: 42 },
      output_kind: 'lead',
      attempts: 1,
      cache_hit: false,
      error_class: null,
    });
    expect(r.fetched_at).not.toBeNull();
    expect(r.idempotency_key).toMatch(/^idem_[0-9a-f]{64}$/);
    expect(server.seen.at(-1)?.headers['idempotency-key']).toBe(r.idempotency_key);
  });

  it('500 is transient: retried up to max_attempts, then failed without a stack trace', async () => {
    const before = server.hits('/500');
    const r = await executor.execute(
      request(httpTool('boom_read', `${server.url}/500`, { retry: retrying })),
    );
    expect(r).toMatchObject({ ok: false, error_class: 'transient', attempts: 3, output_kind: 'failure' });
    expect(server.hits('/500') - before).toBe(3);
    expect(r.error_message).toContain('retriable=true');
    expect(r.error_message).not.toMatch(/\n|app\.js/);
  });

  it('503 twice then 200 recovers on the third attempt', async () => {
    const r = await executor.execute(
      request(httpTool('flaky_read', `${server.url}/503-then-ok`, { retry: retrying })),
    );
    expect(r).toMatchObject({ ok: true, attempts: 3, output: { value: 'recovered' } });
  });

  it('429 honours Retry-After before the next attempt', async () => {
    const r = await executor.execute(
      request(httpTool('limited_read', `${server.url}/429-then-ok`, { retry: retrying })),
    );
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    const hits = server.seen.filter((s) => s.path === '/429-then-ok');
    expect(hits[1]!.at - hits[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it("a call over the tool's declared rate limit is rate_limited without reaching the tool", async () => {
    const before = server.hits('/slow');
    const tool = httpTool('tight_read', `${server.url}/slow`, {
      limits: { rate_limit: { requests: 1, per_seconds: 60 } },
      timeout_ms: 500,
    });
    const results = await Promise.all([1, 2].map(() => executor.execute(request(tool))));
    expect(results.map((x) => x.error_class).sort()).toEqual([null, 'rate_limited'].sort());
    expect(server.hits('/slow') - before).toBe(1);
  });

  it('concurrency limit: calls over it wait for a slot', async () => {
    const tool = httpTool('serial_read', `${server.url}/slow`, {
      limits: { concurrency: 1 },
      timeout_ms: 2000,
    });
    const t0 = Date.now();
    const results = await Promise.all([1, 2].map(() => executor.execute(request(tool))));
    expect(results.every((x) => x.ok)).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(580);
  });

  it('a timeout is transient and retried; the slow-but-in-time response succeeds', async () => {
    const before = server.hits('/hang');
    const t0 = Date.now();
    const r = await executor.execute(
      request(
        httpTool('hang_read', `${server.url}/hang`, {
          timeout_ms: 200,
          retry: { max_attempts: 2, initial_backoff_ms: 10, max_backoff_ms: 10 },
        }),
      ),
    );
    expect(r).toMatchObject({ ok: false, error_class: 'transient', attempts: 2 });
    expect(server.hits('/hang') - before).toBe(2);
    expect(Date.now() - t0).toBeLessThan(2000);
    const slow = await executor.execute(
      request(httpTool('slow_read', `${server.url}/slow`, { timeout_ms: 2000 })),
    );
    expect(slow).toMatchObject({ ok: true, output: { value: 'slow' } });
    expect(slow.duration_ms).toBeGreaterThanOrEqual(250);
  });

  it('403 is permission and never retried', async () => {
    const before = server.hits('/403');
    const r = await executor.execute(
      request(httpTool('forbidden_read', `${server.url}/403`, { retry: retrying })),
    );
    expect(r).toMatchObject({ ok: false, error_class: 'permission', attempts: 1 });
    expect(server.hits('/403') - before).toBe(1);
  });

  it('an empty 200 (no body, or []) is empty for a read', async () => {
    for (const path of ['/empty', '/empty-list']) {
      const r = await executor.execute(
        request(httpTool(`empty_read${path.length}`, `${server.url}${path}`, { retry: retrying })),
      );
      expect(r).toMatchObject({ ok: false, error_class: 'empty', attempts: 1 });
    }
  });

  it("a declared error code takes the tool's declared class", async () => {
    const r = await executor.execute(
      request(
        httpTool('order_read', `${server.url}/declared`, {
          errors: [
            { code: 'order_not_found', meaning: 'No such order.', retriable: false, class: 'parameter' },
          ],
        }),
      ),
    );
    expect(r).toMatchObject({ ok: false, error_class: 'parameter' });
    expect(r.error_message).toContain('order_not_found');
  });

  it('opens the circuit breaker after repeated failures and stops calling the tool', async () => {
    const tool = httpTool('breaker_read', `${server.url}/500`);
    for (let i = 0; i < 3; i++) await executor.execute(request(tool));
    expect(executor.breakerState('breaker_read')).toBe('open');
    const before = server.hits('/500');
    const r = await executor.execute(request(tool));
    expect(r).toMatchObject({ ok: false, error_class: 'transient' });
    expect(r.error_message).toContain('circuit breaker open');
    expect(server.hits('/500')).toBe(before);
  });

  it('sends a large output by reference and stores it once (claim check)', async () => {
    const r = await executor.execute(request(httpTool('big_read', `${server.url}/big`)));
    expect(r).toMatchObject({ ok: true, output: null });
    expect(r.output_ref).toMatch(/^executor-output:sha256:/);
    const stored = (await executor.readOutput('acme', r.output_ref!)) as { rows: unknown[] };
    expect(stored.rows).toHaveLength(2000);
    expect(await executor.readOutput('other-tenant', r.output_ref!)).toBeUndefined();
  });

  it('sends GET arguments as query parameters and a bearer token from the named variable', async () => {
    process.env.EXECUTOR_TEST_TOKEN = 's3cret-token';
    try {
      const tool = httpTool('echo_read', `${server.url}/echo`, {
        transport: {
          kind: 'http',
          method: 'GET',
          url: `${server.url}/echo`,
          auth_secret_env: 'EXECUTOR_TEST_TOKEN',
        },
      });
      const r = await executor.execute(request(tool, { city: 'Zürich', days: 3 }));
      expect(r.ok).toBe(true);
      expect(server.seen.at(-1)?.headers.authorization).toBe('Bearer s3cret-token');
      expect(JSON.stringify(r)).not.toContain('s3cret-token');
      expect((r.output as { query: string }).query).toContain('days=3');
    } finally {
      delete process.env.EXECUTOR_TEST_TOKEN;
    }
  });
});

describe('SSRF guard in the HTTP adapter (RS-6)', () => {
  it('refuses a loopback tool URL unless allow-listed', async () => {
    const strict = createExecutor({
      store,
      transports: { http: createHttpTransport({ guard: createSsrfGuard() }) },
    });
    const before = server.hits('/ok');
    const r = await strict.execute(request(httpTool('ssrf_read', `${server.url}/ok`)));
    expect(r).toMatchObject({ ok: false, error_class: 'permission' });
    expect(r.error_message).toContain('loopback');
    expect(server.hits('/ok')).toBe(before);
    const viaLocalhost = await strict.execute(
      request(httpTool('ssrf_read2', `http://localhost:${String(server.port)}/ok`)),
    );
    expect(viaLocalhost.error_class).toBe('permission');
  });
});

/** A tool server that can go away (its port refuses connections) and come back on the same port. */
async function startRestartableServer(handle: http.RequestListener) {
  let server: http.Server | undefined;
  let port = 0;
  let hits = 0;
  const up = async () => {
    const s = http.createServer((req, res) => {
      hits++;
      handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', resolve);
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  };
  const down = async () => {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  };
  await up();
  return { url: () => `http://127.0.0.1:${String(port)}`, port: () => port, hits: () => hits, up, down };
}

// Issue 21: a fault run saw calls fail for ~30 s (openMs) after the tool was already back.
describe('circuit breaker recovery (EX-4, half-open probe)', () => {
  const answer: http.RequestListener = (req, res) => {
    req.resume();
    const delay = req.url === '/slow' ? 300 : 0;
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ value: 'up' }));
    }, delay);
  };

  it('a tool that was refusing connections serves the first call after one short cool-down, not after openMs', async () => {
    const tools = await startRestartableServer(answer);
    const gateway = createExecutor({
      store,
      transports: {
        http: createHttpTransport({
          guard: createSsrfGuard({ allow: [`127.0.0.1:${String(tools.port())}`] }),
        }),
      },
      breaker: { failureThreshold: 2, openMs: 30_000 },
      // Each call reports its failure at once, so the test can watch the breaker between calls.
      outageBudgetMs: 0,
    });
    const tool = httpTool('recovering_read', `${tools.url()}/ok`);
    try {
      expect((await gateway.execute(request(tool))).ok).toBe(true);
      await tools.down();
      for (let i = 0; i < 2; i++) {
        const r = await gateway.execute(request(tool));
        expect(r).toMatchObject({ ok: false, error_class: 'transient' });
        expect(r.error_message).toContain('ECONNREFUSED');
      }
      expect(gateway.breakerState('recovering_read')).toBe('open');
      await tools.up(); // back on the same port
      const back = Date.now();
      const hitsBefore = tools.hits();
      let served: Awaited<ReturnType<Executor['execute']>> | undefined;
      while (Date.now() - back < 4000) {
        const r = await gateway.execute(request(tool));
        if (r.ok) {
          served = r;
          break;
        }
        expect(r.error_message).toContain('circuit breaker open');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const waited = Date.now() - back;
      expect(served).toMatchObject({ ok: true, output: { value: 'up' } });
      expect(waited).toBeLessThan(2000);
      // Refused calls never reached the tool: the one that did was the probe.
      expect(tools.hits() - hitsBefore).toBe(1);
      expect(gateway.breakerState('recovering_read')).toBe('closed');
      expect((await gateway.execute(request(tool))).ok).toBe(true);
    } finally {
      await tools.down();
    }
  });

  it('half-open lets exactly one concurrent probe reach the tool; its success closes the breaker', async () => {
    let failing = true;
    const tools = await startRestartableServer((req, res) => {
      if (failing) {
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":"down"}');
        return;
      }
      answer(req, res);
    });
    const gateway = createExecutor({
      store,
      transports: {
        http: createHttpTransport({
          guard: createSsrfGuard({ allow: [`127.0.0.1:${String(tools.port())}`] }),
        }),
      },
      breaker: { failureThreshold: 2, openMs: 30_000 },
      outageBudgetMs: 0,
    });
    const tool = httpTool('probed_read', `${tools.url()}/slow`, { timeout_ms: 2000 });
    try {
      for (let i = 0; i < 2; i++) expect((await gateway.execute(request(tool))).ok).toBe(false);
      expect(gateway.breakerState('probed_read')).toBe('open');
      failing = false;
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(gateway.breakerState('probed_read')).toBe('half_open');
      const hitsBefore = tools.hits();
      const results = await Promise.all(Array.from({ length: 5 }, () => gateway.execute(request(tool))));
      expect(tools.hits() - hitsBefore).toBe(1);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const refused = results.filter((r) => !r.ok);
      expect(refused).toHaveLength(4);
      for (const r of refused) expect(r.error_message).toContain('probe call is in flight');
      expect(gateway.breakerState('probed_read')).toBe('closed');
      const after = await Promise.all(Array.from({ length: 3 }, () => gateway.execute(request(tool))));
      expect(after.every((r) => r.ok)).toBe(true);
    } finally {
      await tools.down();
    }
  });
});

// Issue 21, "a brief outage delays, it does not fail": the demo tools cut for 6–10 s failed tasks whose calls met
// refused connections and then the open breaker, though the tools were back seconds later.
describe('a brief tool outage delays a call, it does not fail it', () => {
  const answer: http.RequestListener = (req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ value: 'up', key: req.headers['idempotency-key'], body }));
    });
  };
  const gatewayFor = (
    tools: Awaited<ReturnType<typeof startRestartableServer>>,
    extra: Partial<Parameters<typeof createExecutor>[0]> = {},
  ) =>
    createExecutor({
      store,
      transports: {
        http: createHttpTransport({
          guard: createSsrfGuard({ allow: [`127.0.0.1:${String(tools.port())}`] }),
        }),
      },
      // Cool-downs of 1 s, then 2 s at most: the probe that finds the tool back comes within 2 s of it.
      breaker: { failureThreshold: 2, openMs: 2000 },
      ...extra,
    });
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it(
    'a read whose tool refuses connections for ~3 s succeeds once it is back, through one half-open probe',
    { timeout: 20_000 },
    async () => {
      const tools = await startRestartableServer(answer);
      // The default budget (30 s), as the executor runs.
      const gateway = gatewayFor(tools);
      const tool = httpTool('outage_read', `${tools.url()}/ok`);
      try {
        await tools.down();
        const began = Date.now();
        const calls = Array.from({ length: 4 }, (_, i) =>
          gateway.execute(request(tool, { q: `q${String(i)}` })),
        );
        await sleep(3000);
        expect(gateway.breakerState('outage_read')).not.toBe('closed');
        const hitsBefore = tools.hits();
        await tools.up();
        const results = await Promise.all(calls);
        const waited = Date.now() - began;
        for (const r of results) {
          expect(r).toMatchObject({ ok: true, error_class: null, output: { value: 'up' } });
          expect(r.attempts).toBeGreaterThan(1);
        }
        // Back within a cool-down and a backoff, far inside the budget.
        expect(waited).toBeLessThan(3000 + 2000 + 4500);
        // Refused connections never reached it: each call reached the tool once, when it was back.
        expect(tools.hits() - hitsBefore).toBe(4);
        expect(gateway.breakerState('outage_read')).toBe('closed');
      } finally {
        await tools.down();
      }
    },
  );

  it(
    'a write to a tool that is not idempotent is sent exactly once, when the tool is back',
    { timeout: 20_000 },
    async () => {
      const tools = await startRestartableServer(answer);
      const gateway = gatewayFor(tools);
      const tool = httpTool('outage_write', `${tools.url()}/write`, {
        action: 'write',
        permission: 'write',
        idempotent: false,
        evidence: 'action_receipt',
        retry: retrying,
      });
      try {
        await tools.down();
        const call = gateway.execute(request(tool, { amount: 21 }));
        await sleep(1500);
        await tools.up();
        const r = await call;
        expect(r).toMatchObject({ ok: true, output_kind: 'action_receipt', output: { value: 'up' } });
        expect(tools.hits()).toBe(1);
        const row = await schema.pool.query<{ send_count: number; status: string }>(
          'SELECT send_count, status FROM executor_calls WHERE idempotency_key = $1',
          [r.idempotency_key],
        );
        expect(row.rows[0]).toEqual({ send_count: 1, status: 'succeeded' });
      } finally {
        await tools.down();
      }
    },
  );

  it('reports the transient failure as before once the budget is spent', { timeout: 20_000 }, async () => {
    const tools = await startRestartableServer(answer);
    const gateway = gatewayFor(tools, { outageBudgetMs: 1200 });
    const tool = httpTool('long_outage_read', `${tools.url()}/ok`);
    try {
      await tools.down();
      const began = Date.now();
      const r = await gateway.execute(request(tool));
      const took = Date.now() - began;
      expect(r).toMatchObject({ ok: false, error_class: 'transient', output_kind: 'failure' });
      expect(r.attempts).toBeGreaterThan(1);
      expect(took).toBeGreaterThanOrEqual(1200);
      expect(took).toBeLessThan(1200 + 2500);
    } finally {
      await tools.down();
    }
  });

  it('does not wait on a failure that reached the tool (a 500 is its answer, not an outage)', async () => {
    const gateway = createExecutor({
      store,
      transports: {
        http: createHttpTransport({
          guard: createSsrfGuard({ allow: [`127.0.0.1:${String(server.port)}`] }),
        }),
      },
    });
    const began = Date.now();
    const r = await gateway.execute(
      request(httpTool('answered_500_read', `${server.url}/500`, { retry: retrying })),
    );
    expect(r).toMatchObject({ ok: false, error_class: 'transient', attempts: 3 });
    expect(Date.now() - began).toBeLessThan(1500);
  });

  it(
    "the caller's signal ends the wait at once; the write's key is released and runs once when the request comes again",
    { timeout: 20_000 },
    async () => {
      const tools = await startRestartableServer(answer);
      const gateway = gatewayFor(tools);
      const tool = httpTool('abandoned_write', `${tools.url()}/write`, {
        action: 'write',
        permission: 'write',
        idempotent: false,
        evidence: 'action_receipt',
      });
      const req = request(tool, { amount: 22 });
      try {
        await tools.down();
        const stop = new AbortController();
        const call = gateway.execute(req, { signal: stop.signal });
        await sleep(700);
        const abortedAt = Date.now();
        stop.abort();
        await expect(call).rejects.toBeInstanceOf(ExecutionAbortedError);
        expect(Date.now() - abortedAt).toBeLessThan(500);
        const rows = await schema.pool.query(
          'SELECT status FROM executor_calls WHERE tenant_id = $1 AND task_id = $2',
          [req.tenant_id, req.task_id],
        );
        expect(rows.rows).toEqual([]);
        await tools.up();
        const again = await gateway.execute({ ...req });
        expect(again).toMatchObject({ ok: true, output: { value: 'up' } });
        expect(tools.hits()).toBe(1);
      } finally {
        await tools.down();
      }
    },
  );
});

// Issue 21, kill storm: the demo tools SIGKILLed with a call in flight reset its connection after the request was
// sent; that was taken as the tool's answer, and reads and idempotent writes failed though the tool was back at once.
describe('a connection reset after the request was sent', () => {
  // Reads each request in full, then destroys the socket without answering the first time a path is called (the
  // tool killed mid-call); answers normally after that.
  async function startResettingServer() {
    const seen = new Map<string, string[]>();
    const s = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const path = req.url ?? '/';
        const keys = seen.get(path) ?? [];
        keys.push(String(req.headers['idempotency-key']));
        seen.set(path, keys);
        if (keys.length === 1) {
          req.socket.destroy();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ value: 'up' }));
      });
    });
    await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    const port = (s.address() as AddressInfo).port;
    return {
      url: `http://127.0.0.1:${String(port)}`,
      port,
      keys: (path: string) => seen.get(path) ?? [],
      close: () => new Promise((resolve) => s.close(resolve)),
    };
  }
  let tools: Awaited<ReturnType<typeof startResettingServer>>;
  let gateway: Executor;
  // One attempt of its own: only the outage budget may send it again.
  const once = { max_attempts: 1, initial_backoff_ms: 20, max_backoff_ms: 100 };
  beforeAll(async () => {
    tools = await startResettingServer();
    gateway = createExecutor({
      store,
      transports: {
        http: createHttpTransport({ guard: createSsrfGuard({ allow: [`127.0.0.1:${String(tools.port)}`] }) }),
      },
      breaker: { failureThreshold: 3, openMs: 2000 },
      outageBudgetMs: 5000,
    });
  });
  afterAll(async () => {
    await tools.close();
  });

  it('a read is an outage to wait out: sent again with the same key, it succeeds', async () => {
    const r = await gateway.execute(request(httpTool('reset_read', `${tools.url}/read`, { retry: once })));
    expect(r).toMatchObject({ ok: true, error_class: null, output: { value: 'up' }, attempts: 2 });
    const keys = tools.keys('/read');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toBe(r.idempotency_key);
  });

  it('an idempotent write is sent again with the same Idempotency-Key and succeeds', async () => {
    const tool = httpTool('reset_idem_write', `${tools.url}/idem-write`, {
      action: 'write',
      permission: 'write',
      idempotent: true,
      evidence: 'action_receipt',
      retry: once,
    });
    const r = await gateway.execute(request(tool, { amount: 31 }));
    expect(r).toMatchObject({ ok: true, output_kind: 'action_receipt', output: { value: 'up' } });
    const keys = tools.keys('/idem-write');
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[0]).toBe(r.idempotency_key);
    const row = await schema.pool.query<{ status: string }>(
      'SELECT status FROM executor_calls WHERE idempotency_key = $1',
      [r.idempotency_key],
    );
    expect(row.rows).toEqual([{ status: 'succeeded' }]);
  });

  it('a write that is not idempotent is not sent again, and its result says the outcome is unknown', async () => {
    const tool = httpTool('reset_plain_write', `${tools.url}/plain-write`, {
      action: 'write',
      permission: 'write',
      idempotent: false,
      evidence: 'action_receipt',
      retry: retrying,
    });
    const r = await gateway.execute(request(tool, { amount: 32 }));
    expect(r).toMatchObject({ ok: false, error_class: 'transient', output_kind: 'failure', attempts: 1 });
    // One sentence naming what happened; the error was not one to try again, whatever its class's flag.
    expect(r.error_message).toMatch(
      /^\[transient; retriable=false; next=replan\] reset_plain_write: outcome unknown, .+ after the request may have reached the tool; it is not idempotent by key, so it was not sent again$/,
    );
    expect(tools.keys('/plain-write')).toHaveLength(1);
  });
});

describe('read cache (EX-6)', () => {
  const cached = (name: string, extra: Partial<ToolDefinitionInput> = {}) =>
    httpTool(name, `${server.url}/ok`, { cache: { enabled: true, freshness: 'minutes' }, ...extra });

  it('serves the second identical call from the cache with the first fetched_at; fresh data bypasses it', async () => {
    const first = await executor.execute(request(cached('cached_read'), { q: 'same' }));
    const before = server.hits('/ok');
    const second = await executor.execute(request(cached('cached_read'), { q: 'same' }));
    expect(second).toMatchObject({
      ok: true,
      cache_hit: true,
      attempts: 0,
      output: first.output,
      fetched_at: first.fetched_at,
    });
    expect(server.hits('/ok')).toBe(before);
    const fresh = await executor.execute(
      request(cached('cached_read'), { q: 'same' }, { needs_fresh_data: true }),
    );
    expect(fresh.cache_hit).toBe(false);
    expect(server.hits('/ok')).toBe(before + 1);
  });

  it('keeps tenants apart, and different arguments miss', async () => {
    await executor.execute(request(cached('tenant_read'), { q: 't' }));
    const other = await executor.execute(request(cached('tenant_read'), { q: 't' }, { tenant_id: 'globex' }));
    expect(other.cache_hit).toBe(false);
    const otherArgs = await executor.execute(request(cached('tenant_read'), { q: 'u' }));
    expect(otherArgs.cache_hit).toBe(false);
  });

  it('never caches writes or realtime reads', async () => {
    await executor.execute(
      request(cached('rt_read', { cache: { enabled: true, freshness: 'realtime' } }), { q: 'r' }),
    );
    const again = await executor.execute(
      request(cached('rt_read', { cache: { enabled: true, freshness: 'realtime' } }), { q: 'r' }),
    );
    expect(again.cache_hit).toBe(false);
  });
});

describe('idempotency (EX-3)', () => {
  const write = (extra: Partial<ToolDefinitionInput> = {}) =>
    httpTool('receipt_write', `${server.url}/write`, {
      action: 'write',
      permission: 'write',
      idempotent: true,
      evidence: 'action_receipt',
      ...extra,
    });

  it('a side-effecting call whose key already ran returns the recorded result and never acts twice', async () => {
    const req = request(write(), { amount: 10 });
    const acted = server.acted();
    const writes = server.hits('/write');
    const first = await executor.execute(req);
    const again = await executor.execute({ ...req });
    expect(first).toMatchObject({ ok: true, output_kind: 'action_receipt' });
    expect(again).toEqual(first);
    expect(server.acted() - acted).toBe(1);
    expect(server.hits('/write') - writes).toBe(1);
  });

  it('a different step or different arguments is a different key', async () => {
    const req = request(write(), { amount: 11 });
    const a = await executor.execute(req);
    const b = await executor.execute({ ...req, step_index: 1 });
    const c = await executor.execute({ ...req, arguments: { amount: 12 } });
    expect(new Set([a.idempotency_key, b.idempotency_key, c.idempotency_key]).size).toBe(3);
  });

  it('a started-but-unfinished key of an idempotent tool is re-sent with the same key; the tool dedupes', async () => {
    const req = request(write(), { amount: 13 });
    // What a crashed worker leaves: the key claimed, the tool called, nothing recorded.
    const first = await executor.execute(req);
    await schema.pool.query(
      `UPDATE executor_calls SET status = 'started', result = NULL, started_at = now() - interval '1 hour' WHERE idempotency_key = $1`,
      [first.idempotency_key],
    );
    const acted = server.acted();
    const resent = await executor.execute({ ...req });
    expect(resent).toMatchObject({ ok: true, output: first.output });
    expect(server.acted()).toBe(acted);
    const row = await schema.pool.query<{ send_count: number; status: string }>(
      'SELECT send_count, status FROM executor_calls WHERE idempotency_key = $1',
      [first.idempotency_key],
    );
    expect(row.rows[0]).toEqual({ send_count: 2, status: 'succeeded' });
  });

  it('a started-but-unfinished key of a non-idempotent tool is not sent again (outcome in doubt)', async () => {
    const tool = write({ name: 'once_write', idempotent: false });
    const req = request(tool, { amount: 14 });
    const first = await executor.execute(req);
    await schema.pool.query(
      `UPDATE executor_calls SET status = 'started', result = NULL, started_at = now() - interval '1 hour' WHERE idempotency_key = $1`,
      [first.idempotency_key],
    );
    const writes = server.hits('/write');
    const r = await executor.execute({ ...req });
    expect(r).toMatchObject({ ok: false, error_class: 'internal' });
    expect(r.error_message).toContain('outcome in doubt');
    expect(server.hits('/write')).toBe(writes);
  });

  it('a non-idempotent write that timed out is not retried (it may have acted)', async () => {
    const tool = httpTool('hang_write', `${server.url}/hang`, {
      action: 'write',
      permission: 'write',
      timeout_ms: 150,
      retry: retrying,
    });
    const before = server.hits('/hang');
    const r = await executor.execute(request(tool));
    expect(r).toMatchObject({ ok: false, error_class: 'transient', attempts: 1 });
    expect(server.hits('/hang') - before).toBe(1);
  });

  it('scopes keys by tenant (RS-5)', async () => {
    const req = request(write(), { amount: 15 });
    const a = await executor.execute(req);
    const b = await executor.execute({ ...req, tenant_id: 'globex' });
    expect(a.idempotency_key).not.toBe(b.idempotency_key);
  });
});
