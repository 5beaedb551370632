import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A name no other test (or earlier run) uses: `<prefix>-<time>-<random>`, safe for topics and consumer groups. */
export function uniqueName(prefix: string): string {
  const safe = prefix.toLowerCase().replace(/[^a-z0-9.]+/g, '-');
  return `${safe}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** A PostgreSQL schema owned by one test; `drop()` removes it with everything in it. */
export interface IsolatedSchema {
  /** The schema's name (a valid unquoted identifier). */
  name: string;
  /** A pool whose connections use this schema as their `search_path`. */
  pool: pg.Pool;
  /** Connection string that selects the schema through `options=-c search_path=…`. */
  url: string;
  drop(): Promise<void>;
}

/** Creates a fresh schema in the database at `databaseUrl` and a pool bound to it. */
export async function createIsolatedSchema(databaseUrl: string, prefix = 'test'): Promise<IsolatedSchema> {
  const name = uniqueName(prefix).replace(/[^a-z0-9]/g, '_');
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  return {
    name,
    pool,
    url: url.toString(),
    async drop() {
      await pool.end();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
