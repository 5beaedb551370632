import { createIsolatedSchema, testEndpoints, uniqueName } from '@signalbox/test-support';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventStoreQueryError, EventStoreUnavailableError } from './errors.js';
import { defineEventStoreContract, makeEvent, type ContractHarness } from './event-store-contract.js';
import type { EventStore } from './event-store.js';
import { createPgEventStore } from './pg-event-store.js';
import { resolveNames } from './internal/names.js';
import { buildStatements } from './internal/statements.js';

const databaseUrl = () => testEndpoints().databaseUrl;

// Unqualified table names, resolved through the pool's search_path (how a deployment with its own database runs).
defineEventStoreContract('pg, search_path', async (options): Promise<ContractHarness> => {
  const schema = await createIsolatedSchema(databaseUrl(), 'event_log');
  const stores: EventStore[] = [];
  const open = (config: { pool?: pg.Pool; connectionString?: string }) => {
    const store = createPgEventStore({ ...config, ...options, maxConnections: 2 });
    stores.push(store);
    return store;
  };
  return {
    store: open({ pool: schema.pool }),
    another: () => open({ connectionString: schema.url }),
    sql: async (text, params) => (await schema.pool.query(text, params)).rows as Record<string, unknown>[],
    table: (name) => name,
    cleanup: async () => {
      await Promise.all(stores.map((s) => s.close()));
      await schema.drop();
    },
  };
});

// The `schema` option: every name qualified, the schema created by migrate().
defineEventStoreContract('pg, schema option', (options): Promise<ContractHarness> => {
  const name = uniqueName('event_log_opt').replace(/[^a-z0-9]/g, '_');
  const admin = new pg.Pool({ connectionString: databaseUrl(), max: 2 });
  const stores: EventStore[] = [];
  const open = () => {
    const store = createPgEventStore({
      connectionString: databaseUrl(),
      schema: name,
      ...options,
      maxConnections: 2,
    });
    stores.push(store);
    return store;
  };
  return Promise.resolve({
    store: open(),
    another: open,
    sql: async (text, params) => (await admin.query(text, params)).rows as Record<string, unknown>[],
    table: (table) => `"${name}".${table}`,
    cleanup: async () => {
      await Promise.all(stores.map((s) => s.close()));
      await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await admin.end();
    },
  });
});

describe('pg EventStore: append linger', () => {
  let schema: Awaited<ReturnType<typeof createIsolatedSchema>>;
  beforeEach(async () => {
    schema = await createIsolatedSchema(databaseUrl(), 'event_log');
  });
  afterEach(async () => {
    await schema.drop();
  });

  it('lets appends made within the linger of an idle store share its statement (one transaction)', async () => {
    const store = createPgEventStore({ connectionString: schema.url, appendLingerMs: 200 });
    try {
      await store.migrate();
      await store.ping();
      const first = store.append([makeEvent({ task_id: 'linger-a', causation_id: 'c1' })]);
      await new Promise((r) => setTimeout(r, 20));
      const second = store.append([makeEvent({ task_id: 'linger-b', causation_id: 'c1' })]);
      const [[a], [b]] = await Promise.all([first, second]);
      // now() is the transaction's start: one statement, one recorded_at.
      expect(a?.inserted && b?.inserted).toBe(true);
      expect(b?.event.recorded_at).toEqual(a?.event.recorded_at);
    } finally {
      await store.close();
    }
    // Without a linger the first append goes out at once: the second, made later, is its own transaction.
    const eager = createPgEventStore({ connectionString: schema.url, appendLingerMs: 0 });
    try {
      const [a] = await eager.append([makeEvent({ task_id: 'eager-a', causation_id: 'c1' })]);
      const [b] = await eager.append([makeEvent({ task_id: 'eager-b', causation_id: 'c1' })]);
      expect(b?.event.recorded_at).not.toEqual(a?.event.recorded_at);
    } finally {
      await eager.close();
    }
  });

  it('appends what lingers when the store is closed, and refuses a linger out of range', async () => {
    const store = createPgEventStore({ connectionString: schema.url, appendLingerMs: 1_000 });
    await store.migrate();
    const appending = store.append([makeEvent({ task_id: 'linger-close', causation_id: 'c1' })]);
    await store.close();
    await expect(appending).resolves.toMatchObject([{ inserted: true }]);
    const rows = await schema.pool.query(
      `SELECT count(*)::int AS n FROM events WHERE task_id = 'linger-close'`,
    );
    expect(rows.rows[0]).toEqual({ n: 1 });
    expect(() => createPgEventStore({ connectionString: schema.url, appendLingerMs: 1_001 })).toThrow(
      /appendLingerMs/,
    );
  });
});

describe('pg EventStore: concurrency and failures', () => {
  let schema: Awaited<ReturnType<typeof createIsolatedSchema>>;
  let writers: EventStore[];

  beforeEach(async () => {
    schema = await createIsolatedSchema(databaseUrl(), 'event_log');
    writers = Array.from({ length: 4 }, () =>
      createPgEventStore({ connectionString: schema.url, maxConnections: 3 }),
    );
    await writers[0]!.migrate();
  });
  afterEach(async () => {
    await Promise.all(writers.map((w) => w.close()));
    await schema.drop();
  });

  it('numbers one task 1..n without collisions when several connections append to it at once', async () => {
    const perWriter = 12;
    const batchSize = 5;
    await Promise.all(writers.map((w) => w.ping()));
    const results = await Promise.all(
      writers.flatMap((writer, w) =>
        [0, 1, 2].map(async (lane) => {
          const stored = [];
          for (let b = 0; b < perWriter / 3; b++) {
            const batch = Array.from({ length: batchSize }, (_, i) =>
              makeEvent({ task_id: 'hot-task', causation_id: `w${w}-l${lane}-b${b}-${i}` }),
            );
            stored.push(...(await writer.append(batch)));
          }
          return stored;
        }),
      ),
    );
    const all = results.flat();
    const total = writers.length * perWriter * batchSize;
    expect(all).toHaveLength(total);
    expect(all.every((r) => r.inserted)).toBe(true);

    const task = await writers[0]!.readTask('hot-task');
    expect(task.map((e) => e.stream_version)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    // Within each batch the events keep their input order.
    for (const lane of results) {
      for (let start = 0; start < lane.length; start += batchSize) {
        const versions = lane.slice(start, start + batchSize).map((r) => r.event.stream_version);
        expect(versions).toEqual([...versions].sort((a, b) => a - b));
      }
    }
  });

  it('stores one row per event id when several connections append the same events at once', async () => {
    const batch = Array.from({ length: 10 }, (_, i) =>
      makeEvent({ task_id: 'dup-task', causation_id: `c${i}` }),
    );
    // Open every writer's connection first so that the appends really overlap.
    await Promise.all(writers.map((w) => w.ping()));
    const results = await Promise.all(writers.map((w) => w.append(batch)));

    for (let i = 0; i < batch.length; i++) {
      const forEvent = results.map((r) => r[i]!);
      expect(forEvent.filter((r) => r.inserted)).toHaveLength(1);
      expect(new Set(forEvent.map((r) => r.event.global_position)).size).toBe(1);
    }
    const task = await writers[0]!.readTask('dup-task');
    expect(task.map((e) => e.stream_version)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  });

  it('reports an unreachable database as a retriable EventStoreUnavailableError', async () => {
    // Port 1 is never PostgreSQL: the connection is refused at once.
    const store = createPgEventStore({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' });
    try {
      const error: unknown = await store.ping().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EventStoreUnavailableError);
      expect((error as EventStoreUnavailableError).retriable).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('reports a missing table as a non-retriable EventStoreQueryError', async () => {
    const other = await createIsolatedSchema(databaseUrl(), 'event_log_empty');
    const store = createPgEventStore({ pool: other.pool });
    try {
      const error: unknown = await store
        .append([makeEvent({ task_id: 't', causation_id: null })])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EventStoreQueryError);
      expect((error as EventStoreQueryError).retriable).toBe(false);
      expect((error as EventStoreQueryError).sqlState).toBe('42P01');
    } finally {
      await store.close();
      await other.drop();
    }
  });

  it('refuses bad options before connecting', () => {
    expect(() => createPgEventStore({})).toThrow(TypeError);
    expect(() => createPgEventStore({ connectionString: databaseUrl(), pool: schema.pool })).toThrow(
      TypeError,
    );
    expect(() => createPgEventStore({ connectionString: databaseUrl(), schema: 'Bad-Name' })).toThrow(
      RangeError,
    );
    expect(() =>
      createPgEventStore({ connectionString: databaseUrl(), claimCheckThresholdBytes: 0 }),
    ).toThrow(RangeError);
  });
});

describe('pg EventStore: the plans of its hot statements', () => {
  // The store prepares its hot statements once per connection with a generic plan, usually while the log is small.
  // A plan that hashes or scans event_keys or an events partition then reads the whole table on every call once the
  // log has grown (an append took 108 ms at 200,000 events instead of 0.4 ms). Each hot statement must reach
  // stored rows through index look-ups only, whatever the table sizes were when it was planned.
  interface PlanNode {
    'Node Type': string;
    'Relation Name'?: string;
    'Index Cond'?: string;
    Plans?: PlanNode[];
  }
  const scansOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(scansOf)];

  it.each(['append', 'findByEventIds', 'findByEventIdsWithSecrets'] as const)(
    '%s reaches event_keys and events only through index look-ups, planned on an empty log',
    async (statement) => {
      const schema = await createIsolatedSchema(databaseUrl(), 'event_log_plan');
      const store = createPgEventStore({ connectionString: schema.url, maxConnections: 1 });
      const client = new pg.Client({
        connectionString: schema.url,
        options: '-c plan_cache_mode=force_generic_plan -c jit=off',
      });
      try {
        await store.migrate();
        await client.connect();
        const text = buildStatements(resolveNames(undefined))[statement];
        const count = Math.max(...[...text.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));
        // Empty arguments: a JSON array text for the jsonb parameters, an empty array for the others.
        const args = Array.from({ length: count }, (_, i) =>
          text.includes(`$${String(i + 1)}::jsonb)`) ? '[]' : '{}',
        );
        await client.query({ name: 'probe', text, values: args });
        const explained = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) EXECUTE probe(${args.map((a) => `'${a}'`).join(', ')})`,
        );
        const scans = scansOf(explained.rows[0]!['QUERY PLAN'][0].Plan).filter(
          (n) =>
            n['Node Type'].endsWith('Scan') &&
            /^(event_keys|events(_\d{4}_\d{2})?)$/.test(n['Relation Name'] ?? ''),
        );
        expect(scans.length).toBeGreaterThan(0);
        for (const scan of scans) {
          expect(`${scan['Node Type']} on ${scan['Relation Name']!}`).toMatch(/^(Index|Index Only) Scan/);
          expect(scan['Index Cond'], `${scan['Node Type']} on ${scan['Relation Name']!}`).toBeDefined();
        }
      } finally {
        await client.end().catch(() => undefined);
        await store.close();
        await schema.drop();
      }
    },
  );
});
