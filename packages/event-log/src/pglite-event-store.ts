import { PGlite } from '@electric-sql/pglite';
import type { EventStore } from './event-store.js';
import { resolveNames } from './internal/names.js';
import type { SqlDriver, SqlSession } from './internal/sql-driver.js';
import { createSqlEventStore, resolveClaimCheckThreshold } from './internal/sql-event-store.js';
import { createSqlRetention } from './internal/sql-retention.js';
import type { EventLogRetention } from './retention.js';

/** Options of {@link createPgliteEventStore}. */
export interface PgliteEventStoreOptions {
  /**
   * Directory where PGlite keeps the database; ignored with `pglite`.
   * @default in memory (gone when the store closes)
   */
  dataDir?: string;
  /** An existing PGlite instance to use (e.g. shared with other embedded components); left open on `close()`. */
  pglite?: PGlite;
  /**
   * Schema holding the event log's tables; `migrate()` creates it when missing.
   * @default `public`
   */
  schema?: string;
  /**
   * Payloads whose JSON text is longer than this many bytes are stored once and referenced (claim check, EL-3).
   * @default 65536
   */
  claimCheckThresholdBytes?: number;
}

/**
 * The EventStore for embedded runs (`signalbox dev`, tests without a server): PostgreSQL compiled to WebAssembly,
 * running the same migrations and the same SQL as {@link createPgEventStore}. One process, one connection.
 */
export function createPgliteEventStore(options: PgliteEventStoreOptions = {}): EventStore {
  if (options.pglite !== undefined && options.dataDir !== undefined) {
    throw new TypeError('createPgliteEventStore takes `dataDir` or `pglite`, not both');
  }
  const names = resolveNames(options.schema);
  const claimCheckThresholdBytes = resolveClaimCheckThreshold(options.claimCheckThresholdBytes);
  const ownsDb = options.pglite === undefined;
  const db = options.pglite ?? new PGlite(options.dataDir);
  return createSqlEventStore(createPgliteDriver(db, ownsDb), { names, claimCheckThresholdBytes });
}

/** Options of {@link createPgliteEventLogRetention}. */
export interface PgliteEventLogRetentionOptions {
  /** The PGlite instance holding the log (left open on `close()`). */
  pglite: PGlite;
  /**
   * Schema holding the event log's tables.
   * @default `public`
   */
  schema?: string;
}

/** Archive and prune of whole months (EL-4) on an embedded event log: the same SQL as the PostgreSQL one. */
export function createPgliteEventLogRetention(options: PgliteEventLogRetentionOptions): EventLogRetention {
  return createSqlRetention(createPgliteDriver(options.pglite, false), resolveNames(options.schema));
}

function sessionOf(db: Pick<PGlite, 'query' | 'exec'>): SqlSession {
  return {
    async query<Row>(text: string, params?: readonly unknown[]) {
      const result = await db.query<Row>(text, params as unknown[] | undefined);
      return result.rows;
    },
    async exec(text: string) {
      await db.exec(text);
    },
  };
}

function createPgliteDriver(db: PGlite, ownsDb: boolean): SqlDriver {
  return {
    ...sessionOf(db),
    transaction: (work) => db.transaction((tx) => work(sessionOf(tx))),
    async close() {
      if (ownsDb) await db.close();
    },
  };
}
