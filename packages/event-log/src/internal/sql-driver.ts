// The little a store needs from a PostgreSQL client, so that the pg adapter and the PGlite adapter run exactly the
// same SQL (src/internal/statements.ts) through exactly the same store logic (src/internal/sql-event-store.ts).

/** How a statement is run. */
export interface QueryOptions {
  /**
   * A statement a store runs for every batch (append, lookup by id): a driver that can keeps it prepared on each
   * connection and plans it once, instead of planning it on every call.
   */
  hot?: boolean;
}

/** A connection (or a pool) that runs statements. */
export interface SqlSession {
  /** One parameterised statement; resolves to its rows. */
  query<Row>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<Row[]>;
  /** Several `;`-separated statements without parameters (migrations). */
  exec(text: string): Promise<void>;
}

/** A database a store runs on. Errors it throws are raw driver errors; the store classifies them. */
export interface SqlDriver extends SqlSession {
  /** Runs `work` inside BEGIN … COMMIT on one connection, rolling back when it throws. */
  transaction<T>(work: (session: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
