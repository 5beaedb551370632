// Where `signalbox trace`, `redecide` and `redrive` find the event log: `--database-url`, else `--data DIR` (a dev
// server's PGlite folder), else $DATABASE_URL, else the running dev server's (its record, dev-server-file.ts). A
// PGlite folder is one process's: while a dev server serves it, the folder holds a lock naming the server's
// PostgreSQL-protocol address (pglite-wire.ts), which the command then uses; with no server it opens the folder.
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import type { Bus, OutgoingMessage } from '@signalbox/bus';
import { createPgEventStore, createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { UsageError } from '../errors.js';
import { readDevServer } from './dev-server-file.js';
import { pidAlive, readRecord } from './record-file.js';

/** The lock a dev server keeps in its `--data` folder while it serves it. */
export const DATA_LOCK_FILE = 'signalbox-dev.lock.json';

const DataLock = z.object({
  pid: z.number().int().positive(),
  url: z.url(),
  api_key: z.string().min(1),
  database_url: z.string().min(1).optional(),
});
export type DataLock = z.infer<typeof DataLock>;

/** The lock of a live dev server serving `dir`, or undefined (none, unreadable, or its process is gone). */
export function readDataLock(dir: string): DataLock | undefined {
  const lock = readRecord(join(dir, DATA_LOCK_FILE), DataLock);
  return lock && pidAlive(lock.pid) ? lock : undefined;
}

/** Records that this process serves `dir` (readable by the user only: it holds the API key). */
export function writeDataLock(dir: string, lock: DataLock): void {
  const file = join(dir, DATA_LOCK_FILE);
  writeFileSync(file, `${JSON.stringify(DataLock.parse(lock), null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Removes the lock if it is this process's. */
export function removeDataLock(dir: string, pid: number = process.pid): void {
  try {
    const lock = JSON.parse(readFileSync(join(dir, DATA_LOCK_FILE), 'utf8')) as { pid?: unknown };
    if (lock.pid === pid) rmSync(join(dir, DATA_LOCK_FILE), { force: true });
  } catch {
    // nothing of ours
  }
}

/** Where the event log is, as resolved from flags, environment and a running dev server. */
export type EventLogSource =
  | {
      kind: 'postgres';
      connectionString: string;
      /** The dev server that serves this event log (its API takes what `redrive` publishes), if one does. */
      devServer?: { url: string; api_key: string };
    }
  | { kind: 'pglite'; dataDir: string };

/** The options of a command that reads the event log. */
export interface EventLogFlags {
  databaseUrl?: string;
  /** `--data DIR`: a dev server's PGlite folder. */
  data?: string;
}

const NO_EVENT_LOG =
  'no event log: pass --database-url or set DATABASE_URL (PostgreSQL), start `signalbox dev` (its event log is ' +
  'found by itself while it runs), or pass --data DIR (the folder of `signalbox dev --data DIR`)';

/** Resolves where the event log is (see the file comment for the order). */
export function resolveEventLog(
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
  flags: EventLogFlags,
): EventLogSource {
  if (flags.databaseUrl !== undefined && flags.data !== undefined)
    throw new UsageError('give --database-url or --data, not both');
  if (flags.databaseUrl !== undefined) return { kind: 'postgres', connectionString: flags.databaseUrl };
  if (flags.data !== undefined) {
    const dir = resolve(cwd, flags.data);
    const lock = readDataLock(dir);
    if (lock) {
      if (!lock.database_url)
        throw new UsageError(
          `a dev server (pid ${String(lock.pid)}) serves ${dir} without its event log on the PostgreSQL protocol ` +
            `(--database-port); stop it to read the folder directly`,
        );
      return {
        kind: 'postgres',
        connectionString: lock.database_url,
        devServer: { url: lock.url, api_key: lock.api_key },
      };
    }
    return { kind: 'pglite', dataDir: dir };
  }
  const fromEnv = env.DATABASE_URL?.trim();
  if (fromEnv) return { kind: 'postgres', connectionString: fromEnv };
  const server = readDevServer(env);
  if (server?.database_url)
    return {
      kind: 'postgres',
      connectionString: server.database_url,
      devServer: { url: server.url, api_key: server.api_key },
    };
  throw new UsageError(NO_EVENT_LOG);
}

/** Opens the event store of `source` (`schema` applies to PostgreSQL and PGlite alike). */
export function openEventLog(source: EventLogSource, schema?: string): EventStore {
  const schemaOption = schema ? { schema } : {};
  return source.kind === 'postgres'
    ? createPgEventStore({ connectionString: source.connectionString, ...schemaOption })
    : createPgliteEventStore({ dataDir: source.dataDir, ...schemaOption });
}

/**
 * A bus that publishes through the dev server's `POST /dev/publish` onto its in-memory bus (where its stages
 * consume): how `redrive` reaches the stages of a dev server. It only publishes.
 */
export function devServerBus(server: { url: string; api_key: string }): Bus {
  return {
    ensureTopics: () => Promise.resolve(),
    async publish(messages: readonly OutgoingMessage[]) {
      let response: Response;
      try {
        response = await fetch(new URL('/dev/publish', server.url), {
          method: 'POST',
          headers: { authorization: `Bearer ${server.api_key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            messages: messages.map((m) => ({
              topic: m.topic.name,
              key: m.key,
              value: m.value,
              ...(m.headers ? { headers: m.headers } : {}),
            })),
          }),
        });
      } catch (error) {
        throw new UsageError(`the dev server at ${server.url} does not answer: ${(error as Error).message}`);
      }
      if (response.status !== 202) {
        const text = await response.text();
        throw new UsageError(
          `the dev server at ${server.url} refused the publish (${String(response.status)}): ${text.slice(0, 300)}`,
        );
      }
    },
    consume: () => Promise.reject(new TypeError("the dev server's publish door does not consume")),
    close: () => Promise.resolve(),
  };
}
