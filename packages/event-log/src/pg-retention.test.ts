import { testEndpoints, uniqueName } from '@signalbox/test-support';
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { defineRetentionContract, type RetentionHarness } from './retention-contract.js';
import { createPgEventLogRetention, createPgEventStore } from './pg-event-store.js';

defineRetentionContract('pg', (): Promise<RetentionHarness> => {
  const url = testEndpoints().databaseUrl;
  const schema = uniqueName('event_log_ret').replace(/[^a-z0-9]/g, '_');
  // A backend flushes its table statistics when it exits (an idle one only every 10 s): pools that close idle
  // connections at once make the statistics of finished work visible quickly.
  const pool = () => new pg.Pool({ connectionString: url, max: 2, idleTimeoutMillis: 1 });
  const admin = pool();
  const storePool = pool();
  const store = createPgEventStore({ pool: storePool, schema });
  const retentionPool = pool();
  const retention = createPgEventLogRetention({ pool: retentionPool, schema });
  const sql = async (text: string, params?: unknown[]) =>
    (await admin.query(text, params)).rows as Record<string, unknown>[];
  return Promise.resolve({
    schema,
    store,
    retention,
    sql,
    exec: async (text) => {
      await admin.query(text);
    },
    // The cumulative statistics are flushed by each backend at most once a second: wait until they show the
    // inserts the test made, so the zero updates and deletes beside them are a real observation.
    async tupleStats(minInserted) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (let attempt = 0; ; attempt++) {
          await client.query('SELECT pg_stat_clear_snapshot()');
          const { rows } = await client.query<{ relname: string; ins: number; upd: number; del: number }>(
            `SELECT relname, n_tup_ins::integer AS ins, n_tup_upd::integer AS upd, n_tup_del::integer AS del
             FROM pg_stat_user_tables WHERE schemaname = $1 ORDER BY relname`,
            [schema],
          );
          if (rows.reduce((sum, r) => sum + r.ins, 0) >= minInserted) return rows;
          if (attempt > 100)
            throw new Error(`statistics show fewer than ${minInserted} inserts: ${JSON.stringify(rows)}`);
          await sleep(100);
        }
      } finally {
        await client.end();
      }
    },
    cleanup: async () => {
      await store.close();
      await retention.close();
      await Promise.all([storePool.end(), retentionPool.end()]);
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  });
});
