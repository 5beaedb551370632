import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';

/**
 * A `pg.Pool`-shaped view of one PGlite instance, for components of the embedded run that take a pool (the
 * executor's store). PGlite is one connection: "clients" share it, and a statement list without parameters runs
 * through `exec` (a prepared statement holds one command).
 */
export function pglitePool(db: PGlite): pg.Pool {
  const query = async (text: string, params?: unknown[]) => {
    if ((params === undefined || params.length === 0) && text.includes(';')) {
      const results = await db.exec(text);
      const last = results.at(-1);
      return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? last?.rows.length ?? 0 };
    }
    const result = await db.query(text, params);
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  };
  const client = { query, release: () => undefined };
  return {
    query,
    connect: () => Promise.resolve(client),
    on: () => undefined,
    end: () => Promise.resolve(),
  } as unknown as pg.Pool;
}
