import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { uniqueName } from '@signalbox/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineEventStoreContract, makeEvent, type ContractHarness } from './event-store-contract.js';
import type { EventStore } from './event-store.js';
import { createPgliteEventStore } from './pglite-event-store.js';

// Starting PGlite takes about a second, so the contract shares one in-memory instance and gives each test its own
// schema, exactly as the pg tests do.
let db: PGlite;
beforeAll(async () => {
  db = await PGlite.create();
});
afterAll(async () => {
  await db.close();
});

defineEventStoreContract('PGlite', (options): Promise<ContractHarness> => {
  const schema = uniqueName('event_log').replace(/[^a-z0-9]/g, '_');
  const stores: EventStore[] = [];
  const open = () => {
    const store = createPgliteEventStore({ pglite: db, schema, ...options });
    stores.push(store);
    return store;
  };
  return Promise.resolve({
    store: open(),
    another: open,
    sql: async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows,
    table: (name) => `"${schema}".${name}`,
    cleanup: async () => {
      await Promise.all(stores.map((s) => s.close()));
      await db.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  });
});

// Each test starts PGlite of its own (twice, for the restart), migrations included: 5.5 s under the CI's parallel load
// on a slow 2-core machine, over vitest's 5 s default.
describe('PGlite EventStore: own instance', { timeout: 30_000 }, () => {
  it('keeps events in dataDir across restarts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'signalbox-event-log-'));
    try {
      const first = createPgliteEventStore({ dataDir });
      await first.migrate();
      const [stored] = await first.append([
        makeEvent({ task_id: 'durable', causation_id: null }, { kept: true }),
      ]);
      await first.close();

      const second = createPgliteEventStore({ dataDir });
      await second.migrate();
      expect(await second.readTask('durable')).toEqual([stored!.event]);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('runs in memory without options', async () => {
    const store = createPgliteEventStore();
    try {
      await store.migrate();
      await store.append([makeEvent({ task_id: 'mem', causation_id: null })]);
      expect(await store.findTasks({})).toEqual(['mem']);
    } finally {
      await store.close();
    }
  });

  it('refuses dataDir together with an instance', () => {
    expect(() => createPgliteEventStore({ dataDir: '/tmp/x', pglite: db })).toThrow(TypeError);
  });
});
