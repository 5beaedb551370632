// How the CLI finds a running `signalbox dev` server: while it serves, the dev server writes where it is (API URL,
// its development API key, and the PostgreSQL-protocol address of its event log when it offers one) to
// `$SIGNALBOX_HOME/dev-server.json` (default `~/.signalbox/dev-server.json`, mode 0600), and removes the file when
// it stops. `signalbox submit`, `trace`, `redecide`, `redrive` and `replay` use it when no URL, key or database is
// given by flag or environment. A file left by a server that is no longer running (its pid is gone) is ignored.
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { pidAlive, readRecord } from './record-file.js';

const DevServerInfo = z.object({
  /** Base URL of the dev server, e.g. `http://127.0.0.1:8080` (API under `/v1`, viewer under `/viewer`). */
  url: z.url(),
  /** The development API key (`Authorization: Bearer <key>`). */
  api_key: z.string().min(1),
  /** A `postgres://` URL that reaches the dev server's event log, when it serves one. */
  database_url: z.string().min(1).optional(),
  pid: z.number().int().positive(),
  started_at: z.string(),
});
export type DevServerInfo = z.infer<typeof DevServerInfo>;

type Env = Readonly<Record<string, string | undefined>>;

/** `$SIGNALBOX_HOME/dev-server.json`, default `~/.signalbox/dev-server.json`. */
export function devServerFile(env: Env): string {
  const home = env.SIGNALBOX_HOME?.trim() || join(homedir(), '.signalbox');
  return join(home, 'dev-server.json');
}

/** The running dev server's address, or undefined when none is recorded, the file is unreadable or its pid is gone. */
export function readDevServer(env: Env): DevServerInfo | undefined {
  const info = readRecord(devServerFile(env), DevServerInfo);
  return info && pidAlive(info.pid) ? info : undefined;
}

/** Records the dev server's address (readable by the user only: it holds an API key). */
export function writeDevServer(env: Env, info: DevServerInfo): void {
  const file = devServerFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(DevServerInfo.parse(info), null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** Removes the record if it is this process's (another dev server may have replaced it). */
export function removeDevServer(env: Env, pid: number = process.pid): void {
  const file = devServerFile(env);
  try {
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown };
    if (recorded.pid === pid) rmSync(file, { force: true });
  } catch {
    // Nothing recorded, or unreadable: nothing of ours to remove.
  }
}
