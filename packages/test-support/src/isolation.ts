import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  const admin = quiet(new pg.Client({ connectionString: databaseUrl }));
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${name}`);
  const pool = new pg.Pool({ connectionString: url.toString(), max: 4 });
  // An idle client whose backend goes away (PostgreSQL restarting, a test terminating backends) makes the pool emit
  // 'error': unheard, that is an uncaught exception failing the whole test file. The pool drops the client and opens
  // a new one for the next query; the event is only reported.
  pool.on('error', (error: Error & { code?: string }) => {
    console.warn(
      `[test-support] an idle connection of schema ${name}'s pool failed (${error.code ?? error.name}: ` +
        `${error.message}); the pool replaces it`,
    );
  });
  return {
    name,
    pool,
    url: url.toString(),
    async drop() {
      await pool.end();
      const client = quiet(new pg.Client({ connectionString: databaseUrl }));
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A short-lived client with an 'error' listener: its failure reaches the awaited query or `connect()` anyway, and an
 * unheard 'error' event (the server going away between two statements) would be an uncaught exception.
 */
function quiet(client: pg.Client): pg.Client {
  client.on('error', () => undefined);
  return client;
}

/** The temporary directories of one test file: made as it goes, removed together when it is done. */
export interface TempDirs {
  /** A new empty directory under the OS's temp directory, its name starting with `prefix`. */
  make(prefix: string): Promise<string>;
  /** Removes every directory made (for `afterAll`). */
  removeAll(): Promise<void>;
}

/** {@link TempDirs} for one test file. */
export function tempDirs(): TempDirs {
  const made: string[] = [];
  return {
    async make(prefix) {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll() {
      for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
    },
  };
}
