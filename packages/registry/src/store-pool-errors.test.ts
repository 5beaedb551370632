// PostgreSQL restarting terminates the registry store's idle pooled connection (SQLSTATE 57P01): the pool's 'error' is
// logged instead of being an uncaught exception that kills the process, and the next query gets a new connection.
import { testEndpoints, uniqueName } from '@signalbox/test-support';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistryStore } from './store.js';

let uncaught: unknown[];
const onUncaught = (error: unknown) => uncaught.push(error);
beforeEach(() => {
  uncaught = [];
  process.on('uncaughtException', onUncaught);
});
afterEach(() => {
  process.off('uncaughtException', onUncaught);
});

describe('the registry store when PostgreSQL terminates its idle connection', () => {
  it('logs the pool error and serves the next query', async () => {
    const applicationName = uniqueName('registry-pool-error');
    const schema = applicationName.replace(/[^a-z0-9]/g, '_');
    const url = new URL(testEndpoints().databaseUrl);
    url.searchParams.set('application_name', applicationName);
    const logged: { fields: Record<string, unknown>; message: string }[] = [];
    const store = createRegistryStore({
      connectionString: url.toString(),
      schema,
      maxConnections: 1,
      logger: { warn: (fields, message) => logged.push({ fields, message }) },
    });
    const admin = new pg.Client({ connectionString: testEndpoints().databaseUrl });
    admin.on('error', () => undefined);
    await admin.connect();
    try {
      await store.migrate();
      expect(await store.history('after-sales')).toEqual([]);
      const { rows } = await admin.query<{ pid: number }>(
        'SELECT pg_terminate_backend(pid) AS terminated, pid FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      expect(rows).toHaveLength(1);
      const deadline = Date.now() + 5000;
      while (logged.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(logged[0]).toMatchObject({
        fields: { pool: 'registry', err: { code: '57P01' } },
        message: 'an idle PostgreSQL connection failed; the pool replaces it',
      });
      expect(await store.history('after-sales')).toEqual([]);
      expect(uncaught).toEqual([]);
    } finally {
      await store.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });
});
