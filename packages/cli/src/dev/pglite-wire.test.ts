// The dev server's PostgreSQL-protocol door to PGlite, with the `pg` client the CLI's commands use, while the same
// PGlite is busy in-process (as the dev server's stages keep it).
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { servePgliteWire, type PgliteWire } from './pglite-wire.js';

describe('servePgliteWire', { timeout: 60_000 }, () => {
  let db: PGlite;
  let wire: PgliteWire;
  beforeEach(async () => {
    db = new PGlite();
    await db.exec('CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)');
    wire = await servePgliteWire({ db });
  });
  afterEach(async () => {
    await wire.close();
    await db.close();
  });

  it('serves pg clients on loopback, named statements and all, while in-process transactions run', async () => {
    expect(wire.url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    const run = { stop: false };
    // In-process transactions, each of two statements: a client's statement between them would see or break them.
    const inProcess = (async () => {
      let n = 0;
      while (!run.stop) {
        await db.transaction(async (tx) => {
          await tx.query('INSERT INTO t VALUES ($1, $2)', [n, 'in']);
          await tx.query('UPDATE t SET v = $2 WHERE id = $1', [n, 'in-done']);
        });
        n++;
        await new Promise((r) => setImmediate(r));
      }
      return n;
    })();
    const pool = new pg.Pool({ connectionString: wire.url, max: 3 });
    try {
      await Promise.all(
        [1, 2, 3].map(async (k) => {
          for (let j = 0; j < 20; j++) {
            // A named prepared statement, as the event store prepares its hot reads, on three connections at once.
            const seen = await pool.query<{ half: number }>({
              name: 'half-done',
              text: 'SELECT count(*)::int AS half FROM t WHERE v = $1',
              values: ['in'],
            });
            // No in-process transaction is ever seen half done.
            expect(seen.rows[0]?.half).toBe(0);
            const client = await pool.connect();
            try {
              await client.query('BEGIN');
              await client.query('INSERT INTO t VALUES ($1, $2)', [100_000 + k * 1000 + j, 'out']);
              await client.query('COMMIT');
            } finally {
              client.release();
            }
          }
        }),
      );
    } finally {
      run.stop = true;
      await pool.end();
    }
    const transactions = await inProcess;
    const { rows } = await db.query<{ v: string; n: number }>(
      'SELECT v, count(*)::int AS n FROM t GROUP BY v ORDER BY v',
    );
    expect(rows).toEqual([
      { v: 'in-done', n: transactions },
      { v: 'out', n: 60 },
    ]);

    // Another process's pool later prepares the same statement name: the names are each connection's own.
    const later = new pg.Client({ connectionString: wire.url });
    await later.connect();
    try {
      const again = await later.query<{ half: number }>({
        name: 'half-done',
        text: 'SELECT count(*)::int AS half FROM t WHERE v = $1',
        values: ['out'],
      });
      expect(again.rows[0]?.half).toBe(60);
      await expect(later.query('SELECT nope FROM t')).rejects.toThrow(/column "nope" does not exist/);
      expect((await later.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await later.end();
    }
  });

  it('rolls back the transaction of a client that goes away, and lets the database go on', async () => {
    const client = new pg.Client({ connectionString: wire.url });
    await client.connect();
    await client.query('BEGIN');
    await client.query('INSERT INTO t VALUES (1, $1)', ['left open']);
    // While it is open, in-process statements wait for it (they would otherwise run inside it).
    let inProcessDone = false;
    const waiting = db.query('INSERT INTO t VALUES (2, $1)', ['in']).then(() => {
      inProcessDone = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(inProcessDone).toBe(false);
    // The client vanishes (a killed CLI process), without ROLLBACK or Terminate.
    client.on('error', () => undefined);
    client.connection.stream.destroy();
    await waiting;
    const { rows } = await db.query<{ id: number }>('SELECT id FROM t ORDER BY id');
    expect(rows).toEqual([{ id: 2 }]);
    expect(db.isInTransaction()).toBe(false);
  });
});
