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

/** What the executor keeps in PostgreSQL: idempotency keys and results, the read cache, large outputs. */
export interface ExecutorStore {
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
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
