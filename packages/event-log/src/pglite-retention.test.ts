import { PGlite } from '@electric-sql/pglite';
import { uniqueName } from '@signalbox/test-support';
import { afterAll, beforeAll } from 'vitest';
import { defineRetentionContract, type RetentionHarness } from './retention-contract.js';
import { createPgliteEventLogRetention, createPgliteEventStore } from './pglite-event-store.js';

// PGlite (PostgreSQL 18 in WebAssembly) partitions like the server does, so the embedded log is partitioned too.
let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

defineRetentionContract('PGlite', (): Promise<RetentionHarness> => {
  const schema = uniqueName('event_log_ret').replace(/[^a-z0-9]/g, '_');
  const store = createPgliteEventStore({ pglite: db, schema });
  return Promise.resolve({
    schema,
    store,
    retention: createPgliteEventLogRetention({ pglite: db, schema }),
    sql: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
    exec: async (text) => {
      await db.exec(text);
    },
    cleanup: async () => {
      await store.close();
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  });
});
