import { DemoToolsConfigError, ToolFailure } from './errors.js';
import type { Queryable } from './queryable.js';
import {
  SEED_CONTACTS,
  SEED_INVOICES,
  SEED_MINUTES,
  SEED_ORDERS,
  SEED_REFUNDS,
  SEED_REPAIRS,
  SEED_SHIPMENTS,
  SEED_TRACKING_EVENTS,
} from './seed-data.js';

/** Side effects the store counts (one row per act, never per replayed request). */
export const ACTION_KINDS = [
  'refund_created',
  'invoice_issued',
  'repair_booked',
  'message_sent',
  'email_sent',
  'ticket_created',
] as const;

/** One of {@link ACTION_KINDS}. */
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Options of {@link createDemoStore}. */
export interface DemoStoreOptions {
  /** PostgreSQL schema holding the demo tables; created by `migrate()` when missing. @default 'demo_tools' */
  schema?: string;
  /**
   * How long a request waits for a concurrent request with the same Idempotency-Key to finish before answering
   * `idempotency_in_progress`. @default 2000
   */
  inProgressWaitMs?: number;
}

/** The stored answer of a write, replayed for every later request with the same Idempotency-Key. */
export interface StoredOutcome {
  status: number;
  body: unknown;
}

/** An order row as the tools see it. */
export interface OrderRow {
  order_id: string;
  status: string;
  paid_amount_cents: number;
  currency: string;
  refundable: boolean;
  product: string;
  delivered_at: string | null;
  warranty_until: string | null;
  carrier: string | null;
  tracking_number: string | null;
  promised_date: string | null;
}

export interface RefundRow {
  refund_id: string;
  order_id: string;
  status: string;
  amount_cents: number;
  currency: string;
  created_at: string;
  updated_at: string;
}

export interface InvoiceRow {
  invoice_id: string;
  order_id: string;
  invoice_type: string;
  status: string;
}

export interface RepairRow {
  repair_id: string;
  order_id: string;
  status: string;
  scheduled_date: string;
  expected_return: string;
}

export interface MinutesRow {
  minutes_id: string;
  title: string;
  project: string;
  date: string;
  summary: string;
  decisions: string[];
  action_items: { owner: string; task: string; due: string }[];
  open_questions: string[];
}

export interface ContactRow {
  name: string;
  kind: 'person' | 'group';
  email: string;
  chat_id: string;
  members: string[];
}

export interface TicketRow {
  ticket_id: string;
  status: string;
  priority: string;
}

/** The demo backends' PostgreSQL state: orders, refunds, minutes, contacts, sent messages, tickets and the acts log. */
export interface DemoStore {
  /** The schema the tables live in. */
  readonly schema: string;
  /** Creates the schema and tables (idempotent; safe to run on every start). */
  migrate(): Promise<void>;
  /** Inserts the deterministic demo rows that are missing (idempotent; never overwrites changed rows). */
  seed(): Promise<void>;
  /** How many times a side effect happened, optionally only under one Idempotency-Key. */
  countActions(kind: ActionKind, filter?: { idempotencyKey?: string }): Promise<number>;
  /**
   * Runs `act` at most once per (`scope`, `key`): the first request claims the key, acts and stores its answer;
   * later requests with the same key get the stored answer (`replayed: true`) without acting. A key reused with a
   * different `hash` of the arguments is refused (`idempotency_key_reused`).
   */
  runIdempotent(
    scope: string,
    key: string,
    hash: string,
    act: () => Promise<StoredOutcome>,
  ): Promise<StoredOutcome & { replayed: boolean }>;

  order(orderId: string): Promise<OrderRow | undefined>;
  trackingEvents(trackingNumber: string): Promise<{ time: string; location: string; description: string }[]>;
  refundedCents(orderId: string): Promise<number>;
  createRefund(input: {
    order_id: string;
    reason: string;
    amount_cents: number;
    comment: string | undefined;
    fully_refunded: boolean;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<RefundRow>;
  refunds(filter: { refund_id?: string; order_id?: string; status?: string }): Promise<RefundRow[]>;
  createInvoice(input: {
    order_id: string;
    invoice_type: string;
    title: string;
    tax_id: string | undefined;
    email: string | undefined;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<InvoiceRow>;
  invoices(filter: { invoice_id?: string; order_id?: string }): Promise<InvoiceRow[]>;
  createRepair(input: {
    order_id: string;
    issue: string;
    pickup: boolean;
    scheduled_date: string;
    expected_return: string;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<RepairRow>;
  repairs(filter: { repair_id?: string; order_id?: string }): Promise<RepairRow[]>;
  minutes(filter: { date_from: string; date_to: string; project?: string }): Promise<MinutesRow[]>;
  minutesById(ids: readonly string[]): Promise<MinutesRow[]>;
  contacts(query: string): Promise<ContactRow[]>;
  contactsByChatId(chatIds: readonly string[]): Promise<ContactRow[]>;
  contactsByEmail(emails: readonly string[]): Promise<ContactRow[]>;
  recordMessage(input: {
    chat_ids: readonly string[];
    text: string;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<string>;
  recordEmail(input: {
    to: readonly string[];
    subject: string;
    body: string;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<string>;
  createTicket(input: {
    title: string;
    priority: string;
    category: string;
    contact: string | undefined;
    idempotency_key: string | undefined;
    at: Date;
  }): Promise<TicketRow>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** ISO-8601 UTC text of a timestamp as pg (Date) or PGlite (Date or text) returns it. */
function iso(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

function migrations(s: string): string[][] {
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${s}.orders (
        order_id text PRIMARY KEY, status text NOT NULL, paid_amount_cents integer NOT NULL, currency text NOT NULL,
        refundable boolean NOT NULL, product text NOT NULL, ordered_at timestamptz NOT NULL,
        delivered_at timestamptz, warranty_until date)`,
      `CREATE TABLE IF NOT EXISTS ${s}.shipments (
        order_id text PRIMARY KEY REFERENCES ${s}.orders, carrier text NOT NULL, tracking_number text NOT NULL UNIQUE,
        promised_date date NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${s}.tracking_events (
        tracking_number text NOT NULL, time timestamptz NOT NULL, location text NOT NULL, description text NOT NULL,
        PRIMARY KEY (tracking_number, time))`,
      `CREATE SEQUENCE IF NOT EXISTS ${s}.receipt_seq`,
      `CREATE TABLE IF NOT EXISTS ${s}.refunds (
        refund_id text PRIMARY KEY, order_id text NOT NULL REFERENCES ${s}.orders, status text NOT NULL,
        amount_cents integer NOT NULL, reason text NOT NULL, comment text, created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${s}.invoices (
        invoice_id text PRIMARY KEY, order_id text NOT NULL REFERENCES ${s}.orders, invoice_type text NOT NULL,
        title text NOT NULL, tax_id text, email text, status text NOT NULL, created_at timestamptz)`,
      `CREATE TABLE IF NOT EXISTS ${s}.repairs (
        repair_id text PRIMARY KEY, order_id text NOT NULL REFERENCES ${s}.orders, issue text NOT NULL,
        pickup boolean NOT NULL DEFAULT true, status text NOT NULL, scheduled_date date NOT NULL,
        expected_return date NOT NULL, created_at timestamptz)`,
      `CREATE TABLE IF NOT EXISTS ${s}.minutes (
        minutes_id text PRIMARY KEY, title text NOT NULL, project text NOT NULL, date date NOT NULL,
        summary text NOT NULL, decisions jsonb NOT NULL, action_items jsonb NOT NULL, open_questions jsonb NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${s}.contacts (
        contact_id text PRIMARY KEY, name text NOT NULL, kind text NOT NULL, email text NOT NULL UNIQUE,
        chat_id text NOT NULL UNIQUE, members jsonb NOT NULL)`,
      `ALTER TABLE ${s}.contacts ADD COLUMN IF NOT EXISTS local_name text`,
      `CREATE TABLE IF NOT EXISTS ${s}.messages (
        message_id text PRIMARY KEY, chat_ids jsonb NOT NULL, text text NOT NULL, sent_at timestamptz NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${s}.emails (
        email_id text PRIMARY KEY, recipients jsonb NOT NULL, subject text NOT NULL, body text NOT NULL,
        sent_at timestamptz NOT NULL)`,
      `CREATE TABLE IF NOT EXISTS ${s}.tickets (
        ticket_id text PRIMARY KEY, title text NOT NULL, priority text NOT NULL, category text NOT NULL,
        contact text, status text NOT NULL, created_at timestamptz NOT NULL)`,
      // One row per real act; replays of an Idempotency-Key add none, which is what tests count.
      `CREATE TABLE IF NOT EXISTS ${s}.actions (
        id bigserial PRIMARY KEY, kind text NOT NULL, ref_id text NOT NULL, idempotency_key text,
        at timestamptz NOT NULL)`,
      `CREATE INDEX IF NOT EXISTS actions_kind_key ON ${s}.actions (kind, idempotency_key)`,
      `CREATE TABLE IF NOT EXISTS ${s}.idempotency_keys (
        scope text NOT NULL, key text NOT NULL, request_hash text NOT NULL, state text NOT NULL,
        status integer, body jsonb, created_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (scope, key))`,
    ],
  ];
}

/**
 * Creates the demo tools' store over any {@link Queryable} (`pg.Pool` in production, PGlite in the embedded demo).
 * Nothing touches the database until `migrate()`. Throws {@link DemoToolsConfigError} on a bad schema name.
 */
export function createDemoStore(db: Queryable, options: DemoStoreOptions = {}): DemoStore {
  const schema = options.schema ?? 'demo_tools';
  if (!IDENTIFIER.test(schema)) {
    throw new DemoToolsConfigError(
      `createDemoStore: schema ${JSON.stringify(schema)} is not a lower-case SQL identifier`,
    );
  }
  const inProgressWaitMs = options.inProgressWaitMs ?? 2000;
  if (!Number.isFinite(inProgressWaitMs) || inProgressWaitMs < 0) {
    throw new DemoToolsConfigError('createDemoStore: inProgressWaitMs must be a non-negative number');
  }
  const s = `"${schema}"`;

  async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
    const result = await db.query(text, params);
    return result.rows as T[];
  }

  async function receiptId(prefix: string): Promise<string> {
    const [row] = await rows<{ n: number }>(`SELECT nextval('${s}.receipt_seq')::int AS n`);
    return `${prefix}-${String(row?.n ?? 0).padStart(6, '0')}`;
  }

  async function recordAction(
    kind: ActionKind,
    refId: string,
    key: string | undefined,
    at: Date,
  ): Promise<void> {
    await db.query(`INSERT INTO ${s}.actions (kind, ref_id, idempotency_key, at) VALUES ($1, $2, $3, $4)`, [
      kind,
      refId,
      key ?? null,
      at,
    ]);
  }

  async function runIdempotent(
    scope: string,
    key: string,
    hash: string,
    act: () => Promise<StoredOutcome>,
  ): Promise<StoredOutcome & { replayed: boolean }> {
    const claimed = await rows(
      `INSERT INTO ${s}.idempotency_keys (scope, key, request_hash, state) VALUES ($1, $2, $3, 'started')
         ON CONFLICT DO NOTHING RETURNING key`,
      [scope, key, hash],
    );
    if (claimed.length === 1) {
      let outcome: StoredOutcome;
      try {
        outcome = await act();
      } catch (error) {
        // A refusal is the answer for this key (like a real payment API); anything else releases the key so a
        // retry can act — nothing was written under it.
        if (error instanceof ToolFailure && !error.retriable) {
          outcome = {
            status: error.status,
            body: { error: { code: error.code, message: error.message, ...error.details } },
          };
        } else {
          await db.query(`DELETE FROM ${s}.idempotency_keys WHERE scope = $1 AND key = $2`, [scope, key]);
          throw error;
        }
      }
      await db.query(
        `UPDATE ${s}.idempotency_keys SET state = 'done', status = $3, body = $4 WHERE scope = $1 AND key = $2`,
        [scope, key, outcome.status, JSON.stringify(outcome.body)],
      );
      return { ...outcome, replayed: false };
    }
    const deadline = Date.now() + inProgressWaitMs;
    for (;;) {
      const [row] = await rows<{ request_hash: string; state: string; status: number | null; body: unknown }>(
        `SELECT request_hash, state, status, body FROM ${s}.idempotency_keys WHERE scope = $1 AND key = $2`,
        [scope, key],
      );
      if (!row) return runIdempotent(scope, key, hash, act); // released by a failed first attempt
      if (row.request_hash !== hash) {
        throw new ToolFailure(
          422,
          'idempotency_key_reused',
          `Idempotency-Key ${key} was already used for ${scope} with different arguments`,
          { retriable: false },
        );
      }
      if (row.state === 'done') return { status: row.status ?? 200, body: row.body, replayed: true };
      if (Date.now() >= deadline) {
        throw new ToolFailure(
          409,
          'idempotency_in_progress',
          `a request with Idempotency-Key ${key} is still being processed`,
          { retriable: true },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  const toRefund = (r: Record<string, unknown>): RefundRow => ({
    refund_id: String(r.refund_id),
    order_id: String(r.order_id),
    status: String(r.status),
    amount_cents: Number(r.amount_cents),
    currency: String(r.currency),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  });

  const toMinutes = (r: Record<string, unknown>): MinutesRow => ({
    minutes_id: String(r.minutes_id),
    title: String(r.title),
    project: String(r.project),
    date: String(r.date),
    summary: String(r.summary),
    decisions: r.decisions as string[],
    action_items: r.action_items as MinutesRow['action_items'],
    open_questions: r.open_questions as string[],
  });

  const toContact = (r: Record<string, unknown>): ContactRow => ({
    name: String(r.name),
    kind: r.kind === 'group' ? 'group' : 'person',
    email: String(r.email),
    chat_id: String(r.chat_id),
    members: r.members as string[],
  });

  const contactColumns = 'name, kind, email, chat_id, members';
  const minutesColumns =
    'minutes_id, title, project, date::text AS date, summary, decisions, action_items, open_questions';
  const refundColumns = `r.refund_id, r.order_id, r.status, r.amount_cents, o.currency, r.created_at, r.updated_at`;

  return {
    schema,

    async migrate() {
      await db.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await db.query(
        `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      const applied = new Set(
        (await rows<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`)).map((r) => r.version),
      );
      // PGlite's query() runs one statement at a time, so each migration is a list of statements.
      for (const [index, statements] of migrations(s).entries()) {
        const version = index + 1;
        if (applied.has(version)) continue;
        for (const statement of statements) await db.query(statement);
        await db.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1) ON CONFLICT DO NOTHING`, [
          version,
        ]);
      }
    },

    async seed() {
      for (const o of SEED_ORDERS) {
        await db.query(
          `INSERT INTO ${s}.orders (order_id, status, paid_amount_cents, currency, refundable, product, ordered_at,
             delivered_at, warranty_until) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING`,
          [
            o.order_id,
            o.status,
            o.paid_amount_cents,
            o.currency,
            o.refundable,
            o.product,
            o.ordered_at,
            o.delivered_at,
            o.warranty_until,
          ],
        );
      }
      for (const sh of SEED_SHIPMENTS) {
        await db.query(
          `INSERT INTO ${s}.shipments (order_id, carrier, tracking_number, promised_date) VALUES ($1, $2, $3, $4)
           ON CONFLICT DO NOTHING`,
          [sh.order_id, sh.carrier, sh.tracking_number, sh.promised_date],
        );
      }
      for (const e of SEED_TRACKING_EVENTS) {
        await db.query(
          `INSERT INTO ${s}.tracking_events (tracking_number, time, location, description) VALUES ($1, $2, $3, $4)
           ON CONFLICT DO NOTHING`,
          [e.tracking_number, e.time, e.location, e.description],
        );
      }
      for (const r of SEED_REFUNDS) {
        await db.query(
          `INSERT INTO ${s}.refunds (refund_id, order_id, status, amount_cents, reason, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [r.refund_id, r.order_id, r.status, r.amount_cents, r.reason, r.created_at, r.updated_at],
        );
      }
      for (const i of SEED_INVOICES) {
        await db.query(
          `INSERT INTO ${s}.invoices (invoice_id, order_id, invoice_type, title, status) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT DO NOTHING`,
          [i.invoice_id, i.order_id, i.invoice_type, i.title, i.status],
        );
      }
      for (const r of SEED_REPAIRS) {
        await db.query(
          `INSERT INTO ${s}.repairs (repair_id, order_id, issue, status, scheduled_date, expected_return)
           VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
          [r.repair_id, r.order_id, r.issue, r.status, r.scheduled_date, r.expected_return],
        );
      }
      for (const m of SEED_MINUTES) {
        await db.query(
          `INSERT INTO ${s}.minutes (minutes_id, title, project, date, summary, decisions, action_items, open_questions)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
          [
            m.minutes_id,
            m.title,
            m.project,
            m.date,
            m.summary,
            JSON.stringify(m.decisions),
            JSON.stringify(m.action_items),
            JSON.stringify(m.open_questions),
          ],
        );
      }
      for (const c of SEED_CONTACTS) {
        await db.query(
          `INSERT INTO ${s}.contacts (contact_id, name, kind, email, chat_id, members, local_name)
           VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
          [c.contact_id, c.name, c.kind, c.email, c.chat_id, JSON.stringify(c.members), c.local_name],
        );
      }
    },

    async countActions(kind, filter = {}) {
      const params: unknown[] = [kind];
      let where = 'kind = $1';
      if (filter.idempotencyKey !== undefined) {
        params.push(filter.idempotencyKey);
        where += ' AND idempotency_key = $2';
      }
      const [row] = await rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${s}.actions WHERE ${where}`,
        params,
      );
      return row?.n ?? 0;
    },

    runIdempotent,

    async order(orderId) {
      const [row] = await rows<Record<string, unknown>>(
        `SELECT o.order_id, o.status, o.paid_amount_cents, o.currency, o.refundable, o.product, o.delivered_at,
                o.warranty_until::text AS warranty_until, sh.carrier, sh.tracking_number,
                sh.promised_date::text AS promised_date
           FROM ${s}.orders o LEFT JOIN ${s}.shipments sh ON sh.order_id = o.order_id
          WHERE o.order_id = $1`,
        [orderId],
      );
      if (!row) return undefined;
      return {
        order_id: String(row.order_id),
        status: String(row.status),
        paid_amount_cents: Number(row.paid_amount_cents),
        currency: String(row.currency),
        refundable: row.refundable === true,
        product: String(row.product),
        delivered_at: row.delivered_at === null ? null : iso(row.delivered_at),
        warranty_until: (row.warranty_until as string | null) ?? null,
        carrier: (row.carrier as string | null) ?? null,
        tracking_number: (row.tracking_number as string | null) ?? null,
        promised_date: (row.promised_date as string | null) ?? null,
      };
    },

    async trackingEvents(trackingNumber) {
      const found = await rows<{ time: unknown; location: string; description: string }>(
        `SELECT time, location, description FROM ${s}.tracking_events WHERE tracking_number = $1 ORDER BY time`,
        [trackingNumber],
      );
      return found.map((e) => ({ time: iso(e.time), location: e.location, description: e.description }));
    },

    async refundedCents(orderId) {
      const [row] = await rows<{ n: number }>(
        `SELECT coalesce(sum(amount_cents), 0)::int AS n FROM ${s}.refunds WHERE order_id = $1 AND status <> 'rejected'`,
        [orderId],
      );
      return row?.n ?? 0;
    },

    async createRefund(input) {
      const refundId = await receiptId('RF');
      // One statement, so the refund, the order's new state and the counted act commit together.
      const [row] = await rows<Record<string, unknown>>(
        `WITH r AS (
           INSERT INTO ${s}.refunds (refund_id, order_id, status, amount_cents, reason, comment, created_at, updated_at)
           VALUES ($1, $2, 'pending', $3, $4, $5, $6, $6) RETURNING *),
         o AS (
           UPDATE ${s}.orders SET status = 'refunding', refundable = NOT $7::boolean WHERE order_id = $2
           RETURNING currency),
         a AS (
           INSERT INTO ${s}.actions (kind, ref_id, idempotency_key, at) SELECT 'refund_created', refund_id, $8, $6 FROM r)
         SELECT r.refund_id, r.order_id, r.status, r.amount_cents, o.currency, r.created_at, r.updated_at
           FROM r, o`,
        [
          refundId,
          input.order_id,
          input.amount_cents,
          input.reason,
          input.comment ?? null,
          input.at,
          input.fully_refunded,
          input.idempotency_key ?? null,
        ],
      );
      if (!row) throw new Error(`refund for order ${input.order_id} was not created`);
      return toRefund(row);
    },

    async refunds(filter) {
      const found = await rows<Record<string, unknown>>(
        `SELECT ${refundColumns} FROM ${s}.refunds r JOIN ${s}.orders o ON o.order_id = r.order_id
          WHERE ($1::text IS NULL OR r.refund_id = $1) AND ($2::text IS NULL OR r.order_id = $2)
            AND ($3::text IS NULL OR r.status = $3)
          ORDER BY r.created_at DESC, r.refund_id`,
        [filter.refund_id ?? null, filter.order_id ?? null, filter.status ?? null],
      );
      return found.map(toRefund);
    },

    async createInvoice(input) {
      const invoiceId = await receiptId('INV');
      await db.query(
        `INSERT INTO ${s}.invoices (invoice_id, order_id, invoice_type, title, tax_id, email, status, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'issued', $7)`,
        [
          invoiceId,
          input.order_id,
          input.invoice_type,
          input.title,
          input.tax_id ?? null,
          input.email ?? null,
          input.at,
        ],
      );
      await recordAction('invoice_issued', invoiceId, input.idempotency_key, input.at);
      return {
        invoice_id: invoiceId,
        order_id: input.order_id,
        invoice_type: input.invoice_type,
        status: 'issued',
      };
    },

    async invoices(filter) {
      return rows<InvoiceRow>(
        `SELECT invoice_id, order_id, invoice_type, status FROM ${s}.invoices
          WHERE ($1::text IS NULL OR invoice_id = $1) AND ($2::text IS NULL OR order_id = $2) ORDER BY invoice_id`,
        [filter.invoice_id ?? null, filter.order_id ?? null],
      );
    },

    async createRepair(input) {
      const repairId = await receiptId('RP');
      await db.query(
        `INSERT INTO ${s}.repairs (repair_id, order_id, issue, pickup, status, scheduled_date, expected_return, created_at)
         VALUES ($1, $2, $3, $4, 'booked', $5, $6, $7)`,
        [
          repairId,
          input.order_id,
          input.issue,
          input.pickup,
          input.scheduled_date,
          input.expected_return,
          input.at,
        ],
      );
      await recordAction('repair_booked', repairId, input.idempotency_key, input.at);
      return {
        repair_id: repairId,
        order_id: input.order_id,
        status: 'booked',
        scheduled_date: input.scheduled_date,
        expected_return: input.expected_return,
      };
    },

    async repairs(filter) {
      return rows<RepairRow>(
        `SELECT repair_id, order_id, status, scheduled_date::text AS scheduled_date,
                expected_return::text AS expected_return
           FROM ${s}.repairs
          WHERE ($1::text IS NULL OR repair_id = $1) AND ($2::text IS NULL OR order_id = $2) ORDER BY repair_id`,
        [filter.repair_id ?? null, filter.order_id ?? null],
      );
    },

    async minutes(filter) {
      const found = await rows<Record<string, unknown>>(
        `SELECT ${minutesColumns} FROM ${s}.minutes
          WHERE date BETWEEN $1::date AND $2::date AND ($3::text IS NULL OR lower(project) = lower($3))
          ORDER BY date DESC, minutes_id`,
        [filter.date_from, filter.date_to, filter.project ?? null],
      );
      return found.map(toMinutes);
    },

    async minutesById(ids) {
      const found = await rows<Record<string, unknown>>(
        `SELECT ${minutesColumns} FROM ${s}.minutes WHERE minutes_id = ANY($1::text[]) ORDER BY date, minutes_id`,
        [ids],
      );
      return found.map(toMinutes);
    },

    async contacts(query) {
      // Every word must appear in the name, so "project group" finds both project groups; or the query stands in the
      // name colleagues write in Chinese (Atlas项目组, 李伟).
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const found = await rows<Record<string, unknown>>(
        `SELECT ${contactColumns} FROM ${s}.contacts c
          WHERE (SELECT bool_and(position(w IN lower(c.name)) > 0) FROM unnest($1::text[]) AS w)
             OR (c.local_name IS NOT NULL AND position($2 IN lower(c.local_name)) > 0)
          ORDER BY kind DESC, name`,
        [words, query.toLowerCase().replace(/\s+/g, '')],
      );
      return found.map(toContact);
    },

    async contactsByChatId(chatIds) {
      const found = await rows<Record<string, unknown>>(
        `SELECT ${contactColumns} FROM ${s}.contacts WHERE chat_id = ANY($1::text[])`,
        [chatIds],
      );
      return found.map(toContact);
    },

    async contactsByEmail(emails) {
      const found = await rows<Record<string, unknown>>(
        `SELECT ${contactColumns} FROM ${s}.contacts WHERE lower(email) = ANY($1::text[])`,
        [emails.map((e) => e.toLowerCase())],
      );
      return found.map(toContact);
    },

    async recordMessage(input) {
      const messageId = await receiptId('MSG');
      await db.query(
        `INSERT INTO ${s}.messages (message_id, chat_ids, text, sent_at) VALUES ($1, $2, $3, $4)`,
        [messageId, JSON.stringify(input.chat_ids), input.text, input.at],
      );
      await recordAction('message_sent', messageId, input.idempotency_key, input.at);
      return messageId;
    },

    async recordEmail(input) {
      const emailId = await receiptId('EML');
      await db.query(
        `INSERT INTO ${s}.emails (email_id, recipients, subject, body, sent_at) VALUES ($1, $2, $3, $4, $5)`,
        [emailId, JSON.stringify(input.to), input.subject, input.body, input.at],
      );
      await recordAction('email_sent', emailId, input.idempotency_key, input.at);
      return emailId;
    },

    async createTicket(input) {
      const ticketId = await receiptId('TK');
      await db.query(
        `INSERT INTO ${s}.tickets (ticket_id, title, priority, category, contact, status, created_at)
         VALUES ($1, $2, $3, $4, $5, 'created', $6)`,
        [ticketId, input.title, input.priority, input.category, input.contact ?? null, input.at],
      );
      await recordAction('ticket_created', ticketId, input.idempotency_key, input.at);
      return { ticket_id: ticketId, status: 'created', priority: input.priority };
    },
  };
}
