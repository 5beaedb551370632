// The demo tools as a process (main.ts): PostgreSQL restarting terminates the pool's idle connections (SQLSTATE 57P01).
// Before the pool had an 'error' listener that event was an uncaught exception and the process died; now it is
// logged, the pool replaces the connection and the next tool call is served. SIGTERM is the last test: the process's
// shutdown goes through closeOnSignal, which closes what it holds in order and its telemetry last.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { testEndpoints, uniqueName } from '@signalbox/test-support';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOOLS } from './tools/catalog.js';
import { VALID_SAMPLES } from './tools/samples.js';

const root = resolve(import.meta.dirname, '../../..');
const applicationName = uniqueName('demo-tools-main');
const schema = applicationName.replace(/[^a-z0-9]/g, '_');

async function admin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testEndpoints().databaseUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

let child: ChildProcess;
let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
const lines: Record<string, unknown>[] = [];
let baseUrl: string;

async function waitForLine(
  match: (line: Record<string, unknown>) => boolean,
  what: string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.find(match);
    if (found) return found;
    if (exited) throw new Error(`demo-tools exited (${JSON.stringify(exited)}) before ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

beforeAll(async () => {
  const url = new URL(testEndpoints().databaseUrl);
  url.searchParams.set('application_name', applicationName);
  child = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=@signalbox/source', resolve(import.meta.dirname, 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: url.toString(),
        DEMO_TOOLS_SCHEMA: schema,
        HTTP_PORT: '0',
        HTTP_HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      lines.push({ msg: line });
    }
  });
  const listening = await waitForLine(
    (l) => l.msg === 'demo-tools listening',
    'demo-tools to listen',
    60_000,
  );
  baseUrl = String(listening.address);
}, 90_000);

afterAll(async () => {
  if (!exited) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  await admin((c) => c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
}, 30_000);

describe('demo-tools main', () => {
  it('survives PostgreSQL terminating its idle connections and serves the next call', async () => {
    const tool = DEMO_TOOLS.find((t) => t.name === 'order_status_query');
    if (!tool) throw new Error('no order_status_query');
    const call = () =>
      fetch(`${baseUrl}${tool.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(VALID_SAMPLES.order_status_query),
      });
    expect((await call()).status).toBe(200);

    const terminated = await admin(async (c) => {
      const { rows } = await c.query<{ pid: number }>(
        'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      for (const { pid } of rows) await c.query('SELECT pg_terminate_backend($1)', [pid]);
      return rows.length;
    });
    expect(terminated).toBeGreaterThan(0);
    const warned = await waitForLine(
      (l) => l.msg === 'an idle PostgreSQL connection failed; the pool replaces it',
      'the pool error to be logged',
    );
    expect(warned).toMatchObject({ err: { code: '57P01' } });

    const again = await call();
    expect(again.status).toBe(200);
    expect(exited).toBeUndefined();
  }, 30_000);

  it('on SIGTERM closes the server, the pool and last its telemetry through the one shutdown owner, then exits 0', async () => {
    const done = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await done;
    expect(exited).toEqual({ code: 0, signal: null });
    const closed = lines.filter((l) => l.msg === 'closed').map((l) => l.resource);
    expect(closed).toEqual(['http server', 'postgresql pool', 'telemetry']);
    expect(lines.find((l) => l.msg === 'shut down')).toMatchObject({ outcome: 'closed' });
  }, 30_000);
});
