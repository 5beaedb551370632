import pg from 'pg';
import type { StepResult } from '@signalbox/contracts';
import { ExecutorConfigError, ExecutorStoreError } from './errors.js';

/** Options of {@link createExecutorStore}. Give exactly one of `connectionString` and `pool`. */
export interface ExecutorStoreOptions {
  connectionString?: string;
  /** An existing pool; left open on `close()`. */
  pool?: pg.Pool;
  /** Schema of the executor's tables (created by `migrate()`). @default the connection's `search_path` */
  schema?: string;
  /** @default 4 */
  maxConnections?: number;
  /**
   * Told when an idle connection of the pool the store created fails (PostgreSQL restarted: SQLSTATE 57P01); the pool
   * replaces it either way. A given `pool` is its owner's to listen to. A pino logger fits. @default silent
   */
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
}

/** The state of one idempotency key (EX-3). */
export type CallClaim =
  /** This caller owns the key now: it must call the tool, then `finish` or `release`. */
  | { state: 'claimed' }
  /** An earlier call started and never finished (or failed after it may have acted). */
  | { state: 'in_doubt'; sendCount: number; startedAt: Date; recorded: StepResult | null }
  /** The call finished: the recorded result, to return instead of acting again. */
  | { state: 'finished'; result: StepResult };

/**
 * The state of the per-tool limits that every executor replica shares (EX-4, issue 21 item 3): one token bucket row
 * per tool, refilled and taken in one atomic statement on PostgreSQL's clock, and one lease row per concurrency slot,
 * with an expiry so a replica that died frees its slots by itself.
 */
export interface LimiterStore {
  /**
   * Refills the tool's bucket (`capacity` tokens at most, `perSecond` tokens a second since its last refill) and takes
   * one token when at least one is there. `tokens` is what is left after the take (or without it, when refused).
   */
  takeToken(tool: string, capacity: number, perSecond: number): Promise<{ granted: boolean; tokens: number }>;
  /** Takes one free (or expired) slot of `slots` for `ttlMs`; undefined when all are held. */
  acquireLease(tool: string, slots: number, holder: string, ttlMs: number): Promise<number | undefined>;
  /** Extends the holder's lease; false when it is not the holder's any more (it expired and was taken). */
  renewLease(tool: string, slot: number, holder: string, ttlMs: number): Promise<boolean>;
  /** Frees the holder's slot (a no-op when it is not the holder's any more). */
  releaseLease(tool: string, slot: number, holder: string): Promise<void>;
}

/** What the executor keeps in PostgreSQL: idempotency keys and results, the read cache, large outputs, limits. */
export interface ExecutorStore extends LimiterStore {
  /** Creates the tables (idempotent; safe from several processes at once). */
  migrate(): Promise<void>;
  /** Claims an idempotency key as `started` (EX-3), or reports what an earlier call left. */
  claim(entry: {
    tenant_id: string;
    key: string;
    task_id: string;
    step_index: number;
    tool: string;
    arguments_hash: string;
  }): Promise<CallClaim>;
  /** Counts one more send of an in-doubt key (re-sent with the same key to a tool that dedupes by it). */
  markResent(tenantId: string, key: string): Promise<void>;
  /** Records the final result of a claimed key: `succeeded`, or `failed` after the tool may have acted. */
  finish(tenantId: string, key: string, result: StepResult): Promise<void>;
  /** Drops a claim whose call certainly did not act (refused before sending), so a later attempt may run. */
  release(tenantId: string, key: string): Promise<void>;
  /** A fresh read-cache entry (EX-6), or undefined. */
  cacheGet(tenantScope: string, key: string): Promise<{ output: unknown; fetched_at: Date } | undefined>;
  cachePut(
    tenantScope: string,
    key: string,
    tool: string,
    output: unknown,
    fetchedAt: Date,
    ttlSeconds: number,
  ): Promise<void>;
  /** Stores a large output once (claim check, EL-3). */
  putOutput(tenantId: string, ref: string, output: unknown, sizeBytes: number): Promise<void>;
  /** Reads a claim-checked output back; undefined when unknown for this tenant. */
  getOutput(tenantId: string, ref: string): Promise<unknown>;
  close(): Promise<void>;
}

const MIGRATIONS: readonly ((s: string) => string)[] = [
  (s) => `
    CREATE TABLE IF NOT EXISTS ${s}executor_calls (
      tenant_id       text        NOT NULL,
      idempotency_key text        NOT NULL,
      task_id         text        NOT NULL,
      step_index      integer     NOT NULL,
      tool            text        NOT NULL,
      arguments_hash  text        NOT NULL,
      status          text        NOT NULL CHECK (status IN ('started', 'succeeded', 'failed')),
      result          jsonb,
      send_count      integer     NOT NULL DEFAULT 1,
      started_at      timestamptz NOT NULL DEFAULT now(),
      finished_at     timestamptz,
      PRIMARY KEY (tenant_id, idempotency_key)
    );
    CREATE INDEX IF NOT EXISTS executor_calls_task ON ${s}executor_calls (tenant_id, task_id);
    CREATE TABLE IF NOT EXISTS ${s}executor_cache (
      tenant_scope text        NOT NULL,
      cache_key    text        NOT NULL,
      tool         text        NOT NULL,
      output       jsonb       NOT NULL,
      fetched_at   timestamptz NOT NULL,
      expires_at   timestamptz NOT NULL,
      PRIMARY KEY (tenant_scope, cache_key)
    );
    CREATE TABLE IF NOT EXISTS ${s}executor_outputs (
      tenant_id  text        NOT NULL,
      ref        text        NOT NULL,
      output     jsonb       NOT NULL,
      size_bytes integer     NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (tenant_id, ref)
    );`,
  // 2: the per-tool limits shared by every executor replica (issue 21 item 3). A tool's limit protects its backend,
  // which all tenants share, so the rows are per tool, not per tenant (they hold no tenant data).
  (s) => `
    CREATE TABLE IF NOT EXISTS ${s}executor_rate_buckets (
      tool        text             PRIMARY KEY,
      tokens      double precision NOT NULL,
      refilled_at timestamptz      NOT NULL,
      granted     boolean          NOT NULL
    );
    CREATE TABLE IF NOT EXISTS ${s}executor_leases (
      tool       text        NOT NULL,
      slot       integer     NOT NULL,
      holder     text        NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (tool, slot)
    );`,
];

/**
 * The executor's PostgreSQL tables, in the event-log database (own tables, own migrations, RS-5: every key is
 * scoped by tenant). Connection failures surface as retriable {@link ExecutorStoreError}s.
 */
export function createExecutorStore(options: ExecutorStoreOptions): ExecutorStore {
  if ((options.connectionString === undefined) === (options.pool === undefined))
    throw new ExecutorConfigError('createExecutorStore needs exactly one of `connectionString` and `pool`');
  if (options.schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(options.schema))
    throw new ExecutorConfigError(`schema must be a lower-case identifier, got "${options.schema}"`);
  const prefix = options.schema ? `${options.schema}.` : '';
  const ownsPool = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 4 });
  // An idle client whose server went away (PostgreSQL restarting) makes the pool emit 'error': unheard, that is an
  // uncaught exception and the process dies. The pool has dropped the client; the next query reports a retriable error
  // while the server is down, or gets a new connection.
  if (ownsPool) {
    const { logger } = options;
    pool.on('error', (error: Error & { code?: unknown }) => {
      logger?.warn(
        { pool: 'executor', err: { name: error.name, message: error.message, code: error.code } },
        'an idle PostgreSQL connection failed; the pool replaces it',
      );
    });
  }

  async function q<R extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<R[]> {
    try {
      return (await pool.query<R>(text, params)).rows;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      // Connection-level and server-shutdown failures pass; SQL errors are bugs and are not retried.
      if (typeof code === 'string' && !/^(08|57P)/.test(code) && code.length === 5) throw err;
      throw new ExecutorStoreError('the executor store is unreachable', { cause: err });
    }
  }

  return {
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`SELECT pg_advisory_xact_lock(hashtext('signalbox.executor.migrate'))`);
        if (options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${prefix}executor_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
        );
        const done = await client.query<{ version: number }>(
          `SELECT version FROM ${prefix}executor_migrations`,
        );
        const applied = new Set(done.rows.map((r) => r.version));
        for (const [index, migration] of MIGRATIONS.entries()) {
          const version = index + 1;
          if (applied.has(version)) continue;
          await client.query(migration(prefix));
          await client.query(`INSERT INTO ${prefix}executor_migrations (version) VALUES ($1)`, [version]);
        }
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async claim(e) {
      const inserted = await q(
        `INSERT INTO ${prefix}executor_calls (tenant_id, idempotency_key, task_id, step_index, tool, arguments_hash, status)
         VALUES ($1, $2, $3, $4, $5, $6, 'started') ON CONFLICT DO NOTHING RETURNING 1`,
        [e.tenant_id, e.key, e.task_id, e.step_index, e.tool, e.arguments_hash],
      );
      if (inserted.length > 0) return { state: 'claimed' };
      const rows = await q<{
        status: string;
        result: StepResult | null;
        send_count: number;
        started_at: Date;
      }>(
        `SELECT status, result, send_count, started_at FROM ${prefix}executor_calls WHERE tenant_id = $1 AND idempotency_key = $2`,
        [e.tenant_id, e.key],
      );
      const row = rows[0];
      // Released between our insert and select: claim again.
      if (!row) return this.claim(e);
      if (row.status === 'succeeded' && row.result) return { state: 'finished', result: row.result };
      return {
        state: 'in_doubt',
        sendCount: row.send_count,
        startedAt: row.started_at,
        recorded: row.result,
      };
    },
    async markResent(tenantId, key) {
      await q(
        `UPDATE ${prefix}executor_calls SET send_count = send_count + 1, started_at = now() WHERE tenant_id = $1 AND idempotency_key = $2`,
        [tenantId, key],
      );
    },
    async finish(tenantId, key, result) {
      await q(
        `UPDATE ${prefix}executor_calls SET status = $3, result = $4, finished_at = now() WHERE tenant_id = $1 AND idempotency_key = $2`,
        [tenantId, key, result.ok ? 'succeeded' : 'failed', JSON.stringify(result)],
      );
    },
    async release(tenantId, key) {
      await q(
        `DELETE FROM ${prefix}executor_calls WHERE tenant_id = $1 AND idempotency_key = $2 AND status <> 'succeeded'`,
        [tenantId, key],
      );
    },
    async cacheGet(scope, key) {
      const rows = await q<{ output: unknown; fetched_at: Date }>(
        `SELECT output, fetched_at FROM ${prefix}executor_cache WHERE tenant_scope = $1 AND cache_key = $2 AND expires_at > now()`,
        [scope, key],
      );
      return rows[0];
    },
    async cachePut(scope, key, tool, output, fetchedAt, ttlSeconds) {
      await q(
        `INSERT INTO ${prefix}executor_cache (tenant_scope, cache_key, tool, output, fetched_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $5::timestamptz + make_interval(secs => $6))
         ON CONFLICT (tenant_scope, cache_key) DO UPDATE SET output = EXCLUDED.output, fetched_at = EXCLUDED.fetched_at,
           expires_at = EXCLUDED.expires_at`,
        [scope, key, tool, JSON.stringify(output), fetchedAt, ttlSeconds],
      );
    },
    async putOutput(tenantId, ref, output, sizeBytes) {
      await q(
        `INSERT INTO ${prefix}executor_outputs (tenant_id, ref, output, size_bytes) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [tenantId, ref, JSON.stringify(output), sizeBytes],
      );
    },
    async getOutput(tenantId, ref) {
      const rows = await q<{ output: unknown }>(
        `SELECT output FROM ${prefix}executor_outputs WHERE tenant_id = $1 AND ref = $2`,
        [tenantId, ref],
      );
      return rows[0]?.output;
    },
    async takeToken(tool, capacity, perSecond) {
      // One statement: the row lock orders concurrent takes, and every replica reads the same (the server's) clock.
      // `now()` of a statement that waited for the lock may be older than the last refill: GREATEST keeps time from
      // running backwards, so no token is made twice. `granted` tells this statement's caller what it got.
      const available = `LEAST($2::float8, b.tokens + GREATEST(0, EXTRACT(EPOCH FROM now() - b.refilled_at))::float8 * $3::float8)`;
      const rows = await q<{ granted: boolean; tokens: number }>(
        `INSERT INTO ${prefix}executor_rate_buckets AS b (tool, tokens, refilled_at, granted)
         VALUES ($1, $2::float8 - 1, now(), true)
         ON CONFLICT (tool) DO UPDATE SET
           tokens = ${available} - CASE WHEN ${available} >= 1 THEN 1 ELSE 0 END,
           refilled_at = GREATEST(b.refilled_at, now()),
           granted = ${available} >= 1
         RETURNING granted, tokens`,
        [tool, capacity, perSecond],
      );
      const row = rows[0];
      return { granted: row?.granted === true, tokens: row?.tokens ?? 0 };
    },
    async acquireLease(tool, slots, holder, ttlMs) {
      // A random free slot; two replicas that pick the same one meet on its primary key, and the conflict's WHERE
      // (re-checked on the row as committed) lets only one of them have it — the other gets no row and tries again.
      const rows = await q<{ slot: number }>(
        `WITH free AS (
           SELECT s.slot FROM generate_series(0, $2::int - 1) AS s(slot)
           WHERE NOT EXISTS (SELECT 1 FROM ${prefix}executor_leases l
                             WHERE l.tool = $1 AND l.slot = s.slot AND l.expires_at > now())
           ORDER BY random() LIMIT 1)
         INSERT INTO ${prefix}executor_leases AS l (tool, slot, holder, expires_at)
         SELECT $1, slot, $3, now() + make_interval(secs => $4::float8 / 1000) FROM free
         ON CONFLICT (tool, slot) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
           WHERE l.expires_at <= now()
         RETURNING slot`,
        [tool, slots, holder, ttlMs],
      );
      return rows[0]?.slot;
    },
    async renewLease(tool, slot, holder, ttlMs) {
      const rows = await q(
        `UPDATE ${prefix}executor_leases SET expires_at = now() + make_interval(secs => $4::float8 / 1000)
         WHERE tool = $1 AND slot = $2 AND holder = $3 RETURNING 1`,
        [tool, slot, holder, ttlMs],
      );
      return rows.length > 0;
    },
    async releaseLease(tool, slot, holder) {
      await q(`DELETE FROM ${prefix}executor_leases WHERE tool = $1 AND slot = $2 AND holder = $3`, [
        tool,
        slot,
        holder,
      ]);
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
