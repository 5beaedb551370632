import pg from 'pg';
import { RegistryStoreError, RegistryVersionNotFoundError } from './errors.js';
import { createRegistry, RegistryContent, type Registry } from './registry.js';

/** Options of {@link createRegistryStore}. */
export interface RegistryStoreOptions {
  /** PostgreSQL connection string; ignored when `pool` is given. */
  connectionString?: string;
  /** An existing pool (the store does not close it). */
  pool?: pg.Pool;
  /**
   * Schema holding the tables, created by `migrate()` when missing; unset means unqualified names resolved by the
   * connection's `search_path`. Lets tests and tenants isolate their registries.
   */
  schema?: string;
  /** Pool size when the store creates its own pool. @default 4 */
  maxConnections?: number;
  /**
   * Told when an idle connection of the pool the store created fails (PostgreSQL restarted: SQLSTATE 57P01); the pool
   * replaces it either way. A given `pool` is its owner's to listen to. A pino logger fits. @default silent
   */
  logger?: { warn(fields: Record<string, unknown>, message: string): void };
}

/** One publication of a registry (RG-3). */
export interface Publication {
  /** Position in the append-only history of all publications. */
  seq: number;
  /** Which registry (a pack name such as `after-sales`). */
  registry: string;
  registry_version: string;
  profiles_version: string;
  policy_version: string;
  /** True when this content had never been published before (by any registry name). */
  new_content: boolean;
  label: string | null;
  published_at: string;
}

/** A stored version, loaded back. */
export interface StoredRegistry {
  publication: Omit<Publication, 'new_content'>;
  registry: Registry;
}

/** Append-only registry history in PostgreSQL. */
export interface RegistryStore {
  /** Creates the schema and tables (idempotent). */
  migrate(): Promise<void>;
  /**
   * Stores a registry under `name`. Content is addressed by its version: publishing the same content twice yields
   * the same version (and one more history entry, so "latest" follows the last publication).
   */
  publish(name: string, registry: Registry, options?: { label?: string }): Promise<Publication>;
  /** Loads `latest`, an exact version, a unique version prefix (≥ 8 hex digits) or a label. */
  load(name: string, ref?: string): Promise<StoredRegistry>;
  /** Every publication of `name`, oldest first. */
  history(name: string): Promise<Omit<Publication, 'new_content'>[]>;
  close(): Promise<void>;
}

const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;
const NAME = /^[a-z][a-z0-9_.-]{0,127}$/;

function classify(error: unknown, action: string): RegistryStoreError {
  const e = error as { code?: string; message?: string };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const retriable =
    code !== undefined &&
    (code.startsWith('08') ||
      code === '57P01' ||
      code === '57P02' ||
      code === '57P03' ||
      code === '53300' ||
      ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE'].includes(code));
  return new RegistryStoreError(`${action} failed: ${e.message ?? String(error)}`, {
    cause: error,
    retriable,
    sqlState: code && /^[0-9A-Z]{5}$/.test(code) ? code : undefined,
  });
}

/** Creates a registry store; bad options throw before any connection is made. */
export function createRegistryStore(options: RegistryStoreOptions): RegistryStore {
  if (!options.pool && !options.connectionString)
    throw new TypeError('createRegistryStore needs `pool` or `connectionString`');
  if (options.schema !== undefined && !IDENT.test(options.schema))
    throw new TypeError(`schema "${options.schema}" must be a lower-case identifier`);
  const ownsPool = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({ connectionString: options.connectionString, max: options.maxConnections ?? 4 });
  if (ownsPool) {
    // An idle client whose backend went away (PostgreSQL restarting) makes the pool emit 'error': unheard, that is an
    // uncaught exception and the process dies. The pool has dropped the client and opens a new one for the next query.
    const { logger } = options;
    pool.on('error', (error: Error & { code?: unknown }) => {
      logger?.warn(
        { pool: 'registry', err: { name: error.name, message: error.message, code: error.code } },
        'an idle PostgreSQL connection failed; the pool replaces it',
      );
    });
  }
  const q = options.schema ? `"${options.schema}".` : '';
  const contents = `${q}registry_contents`;
  const publications = `${q}registry_publications`;

  const query = async <R extends pg.QueryResultRow>(action: string, text: string, params: unknown[] = []) => {
    try {
      return await pool.query<R>(text, params);
    } catch (error) {
      throw classify(error, action);
    }
  };

  const toPublication = (row: Record<string, unknown>): Omit<Publication, 'new_content'> => ({
    seq: Number(row.seq),
    registry: row.registry as string,
    registry_version: row.registry_version as string,
    profiles_version: row.profiles_version as string,
    policy_version: row.policy_version as string,
    label: (row.label as string | null) ?? null,
    published_at: (row.published_at as Date).toISOString(),
  });

  const select = `SELECT p.seq, p.registry, p.registry_version, c.profiles_version, c.policy_version, p.label, p.published_at
    FROM ${publications} p JOIN ${contents} c ON c.registry_version = p.registry_version`;

  return {
    async migrate() {
      const client = await pool.connect().catch((error: unknown) => {
        throw classify(error, 'registry migrate');
      });
      try {
        await client.query('BEGIN');
        // Serialises concurrent migrations (several services starting at once).
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [
          `signalbox-registry-migrate:${options.schema ?? ''}`,
        ]);
        if (options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
        const exists = await client.query<{ t: string | null }>('SELECT to_regclass($1) AS t', [contents]);
        if (!exists.rows[0]?.t) {
          await client.query(`
CREATE TABLE ${contents} (
  registry_version text PRIMARY KEY CHECK (registry_version ~ '^sha256:[0-9a-f]{64}$'),
  profiles_version text NOT NULL,
  policy_version   text NOT NULL,
  tool_hashes      jsonb NOT NULL,
  content          jsonb NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE ${publications} (
  seq              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  registry         text NOT NULL,
  registry_version text NOT NULL REFERENCES ${contents} (registry_version),
  label            text,
  published_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX registry_publications_registry_seq_idx ON ${publications} (registry, seq DESC);
CREATE FUNCTION ${q}registry_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the registry history is append-only: % on %.% is refused', TG_OP, TG_TABLE_SCHEMA, TG_TABLE_NAME
    USING ERRCODE = 'restrict_violation', HINT = 'Publish a new version instead.';
END;
$$;
CREATE TRIGGER registry_contents_refuse_change BEFORE UPDATE OR DELETE ON ${contents}
  FOR EACH ROW EXECUTE FUNCTION ${q}registry_refuse_change();
CREATE TRIGGER registry_contents_refuse_truncate BEFORE TRUNCATE ON ${contents}
  FOR EACH STATEMENT EXECUTE FUNCTION ${q}registry_refuse_change();
CREATE TRIGGER registry_publications_refuse_change BEFORE UPDATE OR DELETE ON ${publications}
  FOR EACH ROW EXECUTE FUNCTION ${q}registry_refuse_change();
CREATE TRIGGER registry_publications_refuse_truncate BEFORE TRUNCATE ON ${publications}
  FOR EACH STATEMENT EXECUTE FUNCTION ${q}registry_refuse_change();
REVOKE UPDATE, DELETE, TRUNCATE ON ${contents}, ${publications} FROM PUBLIC;
`);
        }
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw classify(error, 'registry migrate');
      } finally {
        client.release();
      }
    },

    async publish(name, registry, publishOptions = {}) {
      if (!NAME.test(name))
        throw new TypeError(`registry name "${name}" must be lower-case letters, digits, "_", "-" or "."`);
      const v = registry.versions;
      // One statement, so the content row and the publication are written together or not at all.
      const result = await query<Record<string, unknown>>(
        'registry publish',
        `WITH inserted AS (
           INSERT INTO ${contents} (registry_version, profiles_version, policy_version, tool_hashes, content)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (registry_version) DO NOTHING RETURNING registry_version
         ), published AS (
           INSERT INTO ${publications} (registry, registry_version, label) VALUES ($6, $1, $7)
           RETURNING seq, registry, registry_version, label, published_at
         )
         SELECT p.*, $2::text AS profiles_version, $3::text AS policy_version,
                EXISTS (SELECT 1 FROM inserted) AS new_content
         FROM published p`,
        [
          v.registry_version,
          v.profiles_version,
          v.policy_version,
          JSON.stringify(v.tool_hashes),
          JSON.stringify(registry.content),
          name,
          publishOptions.label ?? null,
        ],
      );
      const row = result.rows[0];
      if (!row) throw new RegistryStoreError('registry publish returned no row', { retriable: false });
      return { ...toPublication(row), new_content: row.new_content === true };
    },

    async load(name, ref = 'latest') {
      let rows: Record<string, unknown>[];
      if (ref === 'latest') {
        rows = (
          await query('registry load', `${select} WHERE p.registry = $1 ORDER BY p.seq DESC LIMIT 1`, [name])
        ).rows;
      } else {
        const prefix = ref.startsWith('sha256:')
          ? ref
          : /^[0-9a-f]{8,64}$/.test(ref)
            ? `sha256:${ref}`
            : undefined;
        rows = prefix
          ? (
              await query(
                'registry load',
                `${select} WHERE p.registry = $1 AND starts_with(p.registry_version, $2) ORDER BY p.seq DESC`,
                [name, prefix],
              )
            ).rows
          : [];
        if (new Set(rows.map((r) => r.registry_version)).size > 1)
          throw new RegistryStoreError(
            `version prefix "${ref}" is ambiguous in registry "${name}"; give more digits`,
            {
              retriable: false,
            },
          );
        if (rows.length === 0) {
          rows = (
            await query(
              'registry load',
              `${select} WHERE p.registry = $1 AND p.label = $2 ORDER BY p.seq DESC LIMIT 1`,
              [name, ref],
            )
          ).rows;
        }
      }
      const row = rows[0];
      if (!row) throw new RegistryVersionNotFoundError(name, ref);
      const content = await query<{ content: unknown }>(
        'registry load',
        `SELECT content FROM ${contents} WHERE registry_version = $1`,
        [row.registry_version],
      );
      return {
        publication: toPublication(row),
        registry: createRegistry(RegistryContent.parse(content.rows[0]?.content)),
      };
    },

    async history(name) {
      return (
        await query('registry history', `${select} WHERE p.registry = $1 ORDER BY p.seq`, [name])
      ).rows.map(toPublication);
    },

    async close() {
      if (ownsPool) await pool.end();
    },
  };
}
