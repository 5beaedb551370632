import { PGlite } from '@electric-sql/pglite';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoStore, type DemoStore } from './demo-store.js';
import { DemoToolsConfigError, ToolFailure } from './errors.js';
import type { Queryable } from './queryable.js';

// The same behaviour on real PostgreSQL (production) and PGlite (the embedded demo).

interface Harness {
  db: Queryable;
  schema: string;
}

function defineStoreContract(
  label: string,
  setup: () => Promise<Harness>,
  teardown: () => Promise<void>,
): void {
  describe(`DemoStore on ${label}`, () => {
    let store: DemoStore;
    let db: Queryable;

    beforeAll(async () => {
      const harness = await setup();
      db = harness.db;
      store = createDemoStore(db, { schema: harness.schema });
      await store.migrate();
      await store.seed();
    });
    afterAll(teardown);

    it('migrate and seed are idempotent: running them again changes nothing', async () => {
      const count = async (): Promise<number> => {
        const { rows } = await db.query(
          `SELECT (SELECT count(*) FROM "${store.schema}".orders) + (SELECT count(*) FROM "${store.schema}".minutes) AS n`,
        );
        return Number((rows[0] as { n: number | string }).n);
      };
      const before = await count();
      await store.migrate();
      await store.seed();
      expect(await count()).toBe(before);
      expect(before).toBe(6 + 3);
    });

    it('reads the seeded late order and the Friday minutes, nothing on the weekend', async () => {
      expect(await store.order('1234')).toMatchObject({
        status: 'in_transit',
        promised_date: '2026-11-20',
        refundable: true,
      });
      expect(await store.minutes({ date_from: '2026-11-28', date_to: '2026-11-29' })).toEqual([]);
      const friday = await store.minutes({
        date_from: '2026-11-27',
        date_to: '2026-11-27',
        project: 'atlas',
      });
      expect(friday.map((m) => m.minutes_id)).toEqual(['MIN-2026-11-27-ATLAS']);
      expect(friday[0]!.action_items[0]).toEqual({
        owner: 'Li Wei',
        task: 'Write the release notes',
        due: '2026-12-04',
      });
    });

    it('runIdempotent acts once per key, replays the answer, refuses a reused key with other arguments', async () => {
      let acts = 0;
      const act = async () => {
        acts += 1;
        const ticket = await store.createTicket({
          title: 't',
          priority: 'low',
          category: 'other',
          contact: undefined,
          idempotency_key: 'k1',
          at: new Date('2026-11-30T09:00:00Z'),
        });
        return { status: 200, body: ticket };
      };
      const first = await store.runIdempotent('create_ticket', 'k1', 'h1', act);
      const second = await store.runIdempotent('create_ticket', 'k1', 'h1', act);
      expect(first.replayed).toBe(false);
      expect(second).toEqual({ ...first, replayed: true });
      expect(acts).toBe(1);
      expect(await store.countActions('ticket_created', { idempotencyKey: 'k1' })).toBe(1);
      await expect(store.runIdempotent('create_ticket', 'k1', 'h2', act)).rejects.toMatchObject({
        code: 'idempotency_key_reused',
      });
      // Another tool may use the same key: keys are scoped per tool.
      const other = await store.runIdempotent('message_send', 'k1', 'h2', () =>
        Promise.resolve({ status: 200, body: 'x' }),
      );
      expect(other.replayed).toBe(false);
    });

    it('a failure that is not a refusal releases the key, so a retry acts', async () => {
      await expect(
        store.runIdempotent('refund_create', 'k2', 'h', () =>
          Promise.reject(new ToolFailure(503, 'payment_gateway_unavailable', 'down')),
        ),
      ).rejects.toBeInstanceOf(ToolFailure);
      const retry = await store.runIdempotent('refund_create', 'k2', 'h', () =>
        Promise.resolve({ status: 200, body: { ok: 1 } }),
      );
      expect(retry).toEqual({ status: 200, body: { ok: 1 }, replayed: false });
    });

    it('creates a refund, moves the order to refunding and counts the act, in one statement', async () => {
      const refund = await store.createRefund({
        order_id: '1234',
        reason: 'late_delivery',
        amount_cents: 29900,
        comment: undefined,
        fully_refunded: true,
        idempotency_key: 'k3',
        at: new Date('2026-11-30T09:00:00Z'),
      });
      expect(refund).toMatchObject({
        order_id: '1234',
        status: 'pending',
        amount_cents: 29900,
        currency: 'CNY',
      });
      expect(refund.created_at).toBe('2026-11-30T09:00:00.000Z');
      expect(await store.order('1234')).toMatchObject({ status: 'refunding', refundable: false });
      expect(await store.refundedCents('1234')).toBe(29900);
      expect(await store.countActions('refund_created', { idempotencyKey: 'k3' })).toBe(1);
    });
  });
}

let pgSchema: IsolatedSchema;
defineStoreContract(
  'PostgreSQL',
  async () => {
    pgSchema = await createIsolatedSchema(testEndpoints().databaseUrl, 'demo_store');
    return { db: pgSchema.pool, schema: pgSchema.name };
  },
  () => pgSchema.drop(),
);

let lite: PGlite;
defineStoreContract(
  'PGlite',
  async () => {
    lite = await PGlite.create();
    return { db: lite, schema: uniqueName('demo_lite').replace(/[^a-z0-9]/g, '_') };
  },
  () => lite.close(),
);

describe('createDemoStore options', () => {
  it('refuses a schema name that is not a plain identifier, before touching the database', () => {
    const db: Queryable = { query: () => Promise.reject(new Error('must not be called')) };
    expect(() => createDemoStore(db, { schema: 'x; DROP TABLE y' })).toThrow(DemoToolsConfigError);
    expect(() => createDemoStore(db, { inProgressWaitMs: -1 })).toThrow(DemoToolsConfigError);
    expect(createDemoStore(db).schema).toBe('demo_tools');
  });
});
