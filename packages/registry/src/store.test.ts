import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryVersionNotFoundError } from './errors.js';
import { sourcesOf, validRegistryObject } from './internal/fixtures.js';
import { loadRegistrySources } from './load.js';
import { createRegistryStore, type RegistryStore } from './store.js';

describe('registry store (RG-3, PostgreSQL)', () => {
  let schema: IsolatedSchema;
  let store: RegistryStore;

  beforeAll(async () => {
    schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'registry');
    store = createRegistryStore({ pool: schema.pool });
    await store.migrate();
    await store.migrate(); // idempotent
  });
  afterAll(async () => {
    await store.close();
    await schema.drop();
  });

  it('publishing the same content twice yields the same version; latest follows the last publication', async () => {
    const r = validRegistryObject();
    const a = loadRegistrySources(sourcesOf(r));
    (r.tools[0]!.description as Record<string, string>).purpose =
      'Look up one order: its state and refundability.';
    const b = loadRegistrySources(sourcesOf(r));

    const first = await store.publish('pack', a, { label: 'v1' });
    const again = await store.publish('pack', a);
    expect(again.registry_version).toBe(first.registry_version);
    expect([first.new_content, again.new_content]).toEqual([true, false]);

    const second = await store.publish('pack', b);
    expect(second.registry_version).not.toBe(first.registry_version);
    expect((await store.load('pack')).publication.registry_version).toBe(second.registry_version);

    await store.publish('pack', a);
    const latest = await store.load('pack', 'latest');
    expect(latest.publication.registry_version).toBe(first.registry_version);
    expect(latest.registry.versions).toEqual(a.versions);
    expect(latest.registry.tool('refund_create')).toEqual(a.tool('refund_create'));

    expect((await store.load('pack', 'v1')).publication.registry_version).toBe(first.registry_version);
    const prefix = second.registry_version.slice('sha256:'.length, 'sha256:'.length + 10);
    expect((await store.load('pack', prefix)).publication.registry_version).toBe(second.registry_version);
    expect((await store.history('pack')).map((p) => p.registry_version)).toEqual([
      first.registry_version,
      first.registry_version,
      second.registry_version,
      first.registry_version,
    ]);
  });

  it('keeps registries apart by name and reports an unknown version', async () => {
    await expect(store.load('other-pack')).rejects.toBeInstanceOf(RegistryVersionNotFoundError);
    await expect(store.load('pack', 'no-such-label')).rejects.toThrow(
      /no published version matching "no-such-label"/,
    );
  });

  it('refuses UPDATE, DELETE and TRUNCATE of the history in the database itself', async () => {
    await store.publish('pack', loadRegistrySources(sourcesOf(validRegistryObject())));
    for (const sql of [
      "UPDATE registry_publications SET label = 'x'",
      'DELETE FROM registry_contents',
      'TRUNCATE registry_publications CASCADE',
    ]) {
      await expect(schema.pool.query(sql)).rejects.toThrow(/append-only/);
    }
  });

  it('creates and uses its own schema when given the `schema` option', async () => {
    const name = uniqueName('registry_opt').replace(/[^a-z0-9]/g, '_');
    const url = testEndpoints().databaseUrl;
    const own = createRegistryStore({ connectionString: url, schema: name, maxConnections: 1 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await own.migrate();
      const registry = loadRegistrySources(sourcesOf(validRegistryObject()));
      const publication = await own.publish('pack', registry);
      const rows = await admin.query(`SELECT registry_version FROM "${name}".registry_publications`);
      expect(rows.rows).toEqual([{ registry_version: publication.registry_version }]);
    } finally {
      await own.close();
      await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await admin.end();
    }
  });

  it('rejects bad options before connecting', () => {
    expect(() => createRegistryStore({})).toThrow(/pool` or `connectionString/);
    expect(() => createRegistryStore({ connectionString: 'postgres://x', schema: 'Bad-Name' })).toThrow(
      /schema/,
    );
  });
});
