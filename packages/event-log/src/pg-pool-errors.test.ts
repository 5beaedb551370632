// An idle pooled connection whose backend goes away (PostgreSQL restarting: SQLSTATE 57P01 admin_shutdown) makes the
// pool emit 'error'. Without a listener that is an uncaught exception and the process dies; with the store's own
// listener it is logged, the pool drops the client, and the next query gets a new connection.
import { createIsolatedSchema, testEndpoints, uniqueName } from '@signalbox/test-support';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgEventLogRetention, createPgEventStore } from './pg-event-store.js';

const databaseUrl = () => testEndpoints().databaseUrl;

/** The connection string with an application_name, so the test can find (and terminate) exactly its backends. */
function tagged(url: string, applicationName: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', applicationName);
  return u.toString();
}

/** Terminates every backend of `applicationName` from a second connection, as a PostgreSQL shutdown does. */
async function terminateBackends(applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: databaseUrl() });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    const { rows } = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()`,
      [applicationName],
    );
    for (const { pid } of rows) await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    return rows.length;
  } finally {
    await admin.end();
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface Logged {
  fields: Record<string, unknown>;
  message: string;
}

let uncaught: unknown[];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught = [];
  process.on('uncaughtException', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
});

describe('a pooled connection terminated while idle (PostgreSQL restarting)', () => {
  it('is logged by the event store, and its pool serves the next query', async () => {
    const name = uniqueName('pool-error-store');
    const logged: Logged[] = [];
    const store = createPgEventStore({
      connectionString: tagged(databaseUrl(), name),
      logger: { warn: (fields, message) => logged.push({ fields, message }) },
    });
    try {
      await store.ping(); // checks a client out and releases it: it is idle in the pool now
      expect(await terminateBackends(name)).toBe(1);
      await waitFor(() => logged.length > 0, "the pool's 'error'");
      expect(logged[0]?.fields).toMatchObject({ pool: 'event-log', err: { code: '57P01' } });
      expect(logged[0]?.message).toMatch(/idle PostgreSQL connection/);
      await store.ping();
      expect(uncaught).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('is logged by the retention pool too', async () => {
    const name = uniqueName('pool-error-retention');
    const schema = name.replace(/[^a-z0-9]/g, '_');
    const logged: Logged[] = [];
    const store = createPgEventStore({ connectionString: databaseUrl(), schema });
    const retention = createPgEventLogRetention({
      connectionString: tagged(databaseUrl(), name),
      schema,
      logger: { warn: (fields, message) => logged.push({ fields, message }) },
    });
    try {
      await store.migrate();
      await retention.partitions();
      expect(await terminateBackends(name)).toBe(1);
      await waitFor(() => logged.length > 0, "the pool's 'error'");
      expect(logged[0]?.fields).toMatchObject({ pool: 'event-log retention', err: { code: '57P01' } });
      expect((await retention.partitions()).length).toBeGreaterThan(0);
      expect(uncaught).toEqual([]);
    } finally {
      await retention.close();
      const admin = new pg.Client({ connectionString: databaseUrl() });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      await store.close();
    }
  });

  it("does not kill a test whose isolated schema's pool loses a connection (test-support)", async () => {
    const name = uniqueName('pool-error-isolated');
    const schema = await createIsolatedSchema(tagged(databaseUrl(), name), 'pool_error');
    try {
      await schema.pool.query('SELECT 1');
      expect(await terminateBackends(name)).toBe(1);
      // No logger to wait for: give the error event time to arrive, then use the pool.
      await new Promise((r) => setTimeout(r, 300));
      expect((await schema.pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      expect(uncaught).toEqual([]);
    } finally {
      await schema.drop();
    }
  });
});
