/**
 * The minimal database interface the demo store needs: one parameterised statement at a time. `pg.Pool`,
 * `pg.Client` and PGlite all satisfy it, so the embedded demo runs the same SQL as production.
 */
export interface Queryable {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}
