// Issue 21 item 3: the limiter of a tool shared by executor replicas, on real PostgreSQL. Two limiters on one store
// stand for two replicas (each process has its own limiter object; the store is what they share).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { createExecutorStore, type ExecutorStore, type LimiterStore } from './executor-store.js';
import { ExecutorStoreError, ToolCallError } from './errors.js';
import { createSharedToolLimiter } from './limits.js';

let schema: IsolatedSchema;
let store: ExecutorStore;
let seq = 0;
const toolName = () => `tool_${String(++seq)}`;

beforeAll(async () => {
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'shared_limits');
  store = createExecutorStore({ pool: schema.pool });
  await store.migrate();
});
afterAll(async () => {
  await store.close();
  await schema.drop();
});

async function refusal(p: Promise<unknown>): Promise<ToolCallError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ToolCallError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('shared tool limiter', () => {
  it('a concurrency slot held by one replica is not given to another until it is released', async () => {
    const tool = toolName();
    const a = createSharedToolLimiter({ concurrency: 1 }, { store });
    const b = createSharedToolLimiter({ concurrency: 1 }, { store });
    const release = await a.acquire(tool, 1000);
    const refused = await refusal(b.acquire(tool, 200));
    expect(refused).toMatchObject({ errorClass: 'rate_limited', code: 'concurrency_limit' });
    expect(refused.message).toContain('across executor replicas');
    const waiting = b.acquire(tool, 5000);
    release();
    const releaseB = await waiting;
    releaseB();
  });

  it("a dead replica's slot (a lease never renewed) is free again once its lease expired", async () => {
    const tool = toolName();
    // The dead replica took the one slot for 400 ms and will never renew or release it.
    expect(await store.acquireLease(tool, 1, 'dead-replica', 400)).toBe(0);
    const live = createSharedToolLimiter({ concurrency: 1 }, { store, leaseMs: 400 });
    const t0 = Date.now();
    const release = await live.acquire(tool, 5000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    release();
  });

  it('a running call renews its lease, so a slow call keeps its slot past the lease time', async () => {
    const tool = toolName();
    const a = createSharedToolLimiter({ concurrency: 1 }, { store, leaseMs: 300 });
    const b = createSharedToolLimiter({ concurrency: 1 }, { store, leaseMs: 300 });
    const release = await a.acquire(tool, 1000);
    await new Promise((r) => setTimeout(r, 900));
    expect((await refusal(b.acquire(tool, 100))).code).toBe('concurrency_limit');
    release();
    (await b.acquire(tool, 2000))();
  });

  it('the rate bucket is one for all replicas: a burst of `requests` in all, then refused', async () => {
    const tool = toolName();
    const limits = { rate_limit: { requests: 3, per_seconds: 60 } };
    const replicas = [1, 2, 3].map(() => createSharedToolLimiter(limits, { store }));
    const outcomes = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => replicas[i % 3]!.acquire(tool, 0)),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as ToolCallError] : []));
    expect(reasons).toHaveLength(6);
    for (const r of reasons) {
      expect(r).toMatchObject({ errorClass: 'rate_limited', code: 'rate_limit' });
      // 1 token every 20 s: the next one is due within 20 s.
      expect(r.retryAfterMs).toBeGreaterThan(0);
      expect(r.retryAfterMs).toBeLessThanOrEqual(20_000);
    }
  });

  it('tokens come back at the declared rate', async () => {
    const tool = toolName();
    const limiter = createSharedToolLimiter({ rate_limit: { requests: 1, per_seconds: 0.5 } }, { store });
    (await limiter.acquire(tool, 0))();
    const t0 = Date.now();
    (await limiter.acquire(tool, 3000))();
    const waited = Date.now() - t0;
    expect(waited).toBeGreaterThanOrEqual(400);
    expect(waited).toBeLessThan(2000);
  });

  it('PostgreSQL unreachable is a transient limiter_unavailable (not sent, waited out as an outage)', async () => {
    const down: LimiterStore = {
      takeToken: () => Promise.reject(new ExecutorStoreError('the executor store is unreachable')),
      acquireLease: () => Promise.reject(new ExecutorStoreError('the executor store is unreachable')),
      renewLease: () => Promise.resolve(false),
      releaseLease: () => Promise.resolve(),
    };
    for (const limits of [{ concurrency: 1 }, { rate_limit: { requests: 1, per_seconds: 1 } }]) {
      const err = await refusal(createSharedToolLimiter(limits, { store: down }).acquire('t', 1000));
      expect(err).toMatchObject({
        errorClass: 'transient',
        code: 'limiter_unavailable',
        mayHaveActed: false,
      });
    }
  });

  it('a tool without limits never touches the store', async () => {
    const untouched: LimiterStore = {
      takeToken: () => Promise.reject(new Error('called')),
      acquireLease: () => Promise.reject(new Error('called')),
      renewLease: () => Promise.reject(new Error('called')),
      releaseLease: () => Promise.reject(new Error('called')),
    };
    (await createSharedToolLimiter({}, { store: untouched }).acquire('t', 0))();
  });
});
