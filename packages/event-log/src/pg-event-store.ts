import { createHash } from 'node:crypto';
import pg from 'pg';
import type { EventStore } from './event-store.js';
import { resolveNames } from './internal/names.js';
import type { QueryOptions, SqlDriver, SqlSession } from './internal/sql-driver.js';
import {
  createSqlEventStore,
  resolveAppendLinger,
  resolveClaimCheckThreshold,
} from './internal/sql-event-store.js';
import { createSqlRetention } from './internal/sql-retention.js';
import type { EventLogRetention } from './retention.js';

/** The one logger method the PostgreSQL adapters use (a pino logger fits). */
export interface PgPoolLogger {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Listens for the 'error' a pool emits when one of its idle clients fails — its backend was terminated (PostgreSQL
 * restarting or shutting down: SQLSTATE 57P01 admin_shutdown) or its socket broke. Unheard, that event is an uncaught
 * exception and kills the process. The pool has already dropped the client and opens a new one for the next query
 * (which, while the server is down, fails as a retriable error): this only logs it.
 */
function logIdleClientErrors(pool: pg.Pool, name: string, logger: PgPoolLogger | undefined): void {
  pool.on('error', (error: Error & { code?: unknown }) => {
    logger?.warn(
      { pool: name, err: { name: error.name, message: error.message, code: error.code } },
      'an idle PostgreSQL connection failed; the pool replaces it',
    );
  });
}

/** Options of {@link createPgEventStore}. Give exactly one of `connectionString` and `pool`. */
export interface PgEventStoreOptions {
  /** PostgreSQL connection string; the store creates a pool and ends it on `close()`. */
  connectionString?: string;
  /**
   * An existing pool; the store uses it and leaves it open on `close()` (its owner ends it). Give its connections
   * `options: '-c plan_cache_mode=force_generic_plan -c jit=off'` as the store's own pool has, or every append is
   * planned anew and may be JIT-compiled (tens of milliseconds each).
   */
  pool?: pg.Pool;
  /**
   * Schema holding the event log's tables; `migrate()` creates it when missing. A lower-case identifier.
   * @default the connection's `search_path` (normally `public`)
   */
  schema?: string;
  /**
   * Payloads whose JSON text is longer than this many bytes are stored once in `payload_blobs` and referenced
   * (claim check, EL-3).
   * @default 65536
   */
  claimCheckThresholdBytes?: number;
  /**
   * Size of the pool the store creates from `connectionString`; ignored with `pool`.
   * @default 10
   */
  maxConnections?: number;
  /**
   * How long the first append of an idle store waits for other appends to share its statement (0–1000). Appends made
   * while a statement is out wait for it anyway; this matters when decisions trickle in: fewer, fuller statements,
   * each of which costs a round trip, a commit and CPU here and in PostgreSQL. 0 sends such an append at once.
   * @default 5
   */
  appendLingerMs?: number;
  /**
   * Told when an idle connection of the pool the store created fails (PostgreSQL restarted: 57P01); the pool replaces
   * it either way. A given `pool` is its owner's to listen to. @default silent
   */
  logger?: PgPoolLogger;
}

/**
 * The production EventStore on PostgreSQL through `pg`. Options are checked here, before any connection is made;
 * call `migrate()` once before the first append.
 */
export function createPgEventStore(options: PgEventStoreOptions): EventStore {
  if ((options.connectionString === undefined) === (options.pool === undefined)) {
    throw new TypeError('createPgEventStore needs exactly one of `connectionString` and `pool`');
  }
  const names = resolveNames(options.schema);
  const claimCheckThresholdBytes = resolveClaimCheckThreshold(options.claimCheckThresholdBytes);
  const appendLingerMs = resolveAppendLinger(options.appendLingerMs, 5);
  const maxConnections = options.maxConnections ?? 10;
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) {
    throw new RangeError(`maxConnections must be a positive integer, got ${String(options.maxConnections)}`);
  }

  const ownsPool = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: maxConnections,
      // Hot statements are prepared once per connection (see sessionOf); PostgreSQL would still plan them anew on
      // every call (their custom plans look cheaper to it), which took a third to half of a small append's time.
      // Their generic plans prune partitions at run time. Only on connections this store owns; its other statements
      // (trace queries, planned per call) get generic estimates too. No JIT: the append's plan estimates per-row
      // look-ups for a hundred rows, which crosses jit_above_cost, and compiling it took 80 ms of every append.
      options: '-c plan_cache_mode=force_generic_plan -c jit=off',
    });
  if (ownsPool) logIdleClientErrors(pool, 'event-log', options.logger);
  return createSqlEventStore(createPgDriver(pool, ownsPool), {
    names,
    claimCheckThresholdBytes,
    appendLingerMs,
  });
}

/** Options of {@link createPgEventLogRetention}. Give exactly one of `connectionString` and `pool`. */
export type PgEventLogRetentionOptions = Pick<
  PgEventStoreOptions,
  'connectionString' | 'pool' | 'schema' | 'logger'
>;

/**
 * Archive and prune of whole months (EL-4) on the PostgreSQL event log of `schema`, migrated to 0004. The pool from
 * `connectionString` is ended on `close()`; a given `pool` is left open.
 */
export function createPgEventLogRetention(options: PgEventLogRetentionOptions): EventLogRetention {
  if ((options.connectionString === undefined) === (options.pool === undefined)) {
    throw new TypeError('createPgEventLogRetention needs exactly one of `connectionString` and `pool`');
  }
  const names = resolveNames(options.schema);
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString, max: 2 });
  if (ownsPool) logIdleClientErrors(pool, 'event-log retention', options.logger);
  return createSqlRetention(createPgDriver(pool, ownsPool), names);
}

function sessionOf(client: pg.Pool | pg.PoolClient): SqlSession {
  return {
    async query<Row>(text: string, params?: readonly unknown[], options?: QueryOptions) {
      const values = params as unknown[] | undefined;
      const result = await (options?.hot
        ? client.query({ name: statementName(text), text, values })
        : client.query(text, values));
      return result.rows as Row[];
    },
    async exec(text: string) {
      // No parameters: pg uses the simple query protocol, which accepts several statements.
      await client.query(text);
    },
  };
}

const statementNames = new Map<string, string>();

/**
 * The name a hot statement is prepared under: derived from its text, so stores of different schemas sharing a pool
 * never give one name two texts (pg refuses that).
 */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `signalbox_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

function createPgDriver(pool: pg.Pool, ownsPool: boolean): SqlDriver {
  return {
    ...sessionOf(pool),
    async transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(sessionOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackError) {
          // The connection is unusable; release it destroyed rather than back into the pool.
          broken = rollbackError;
        }
        throw error;
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
