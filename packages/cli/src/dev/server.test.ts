// Issue 22 items 1 and 2, on the real parts: PGlite, the production stages, the real executor, the HTTP API.
// 1. `signalbox dev` as a process on a free port: `signalbox submit` reaches it, `signalbox trace` (another process's
//    view, through the dev server's PostgreSQL-protocol door) shows the task; after a restart on the same --data the
//    trace is still there, and with the server stopped `trace --data` opens the folder itself.
// 2. A user's registry folder (`--registry`) with one HTTP tool served by the test: called through the executor,
//    an edit is picked up, a broken edit is reported and the last good registry keeps serving.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDirs } from '@signalbox/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { bufferIo } from '../io.js';
import { devServerFile, readDevServer } from './dev-server-file.js';
import { DATA_LOCK_FILE } from './event-log-source.js';
import { startDevServer, type DevServer } from './server.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const temps = tempDirs();
const temp = (prefix: string) => temps.make(prefix);
afterAll(() => temps.removeAll());

/** Runs `signalbox <argv>` in this process, as another CLI invocation would. */
async function cli(argv: string[], env: NodeJS.ProcessEnv) {
  const io = bufferIo(repoRoot, env);
  const code = await runCli(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

interface DevProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `signalbox dev` as its own process and waits until it has run the demo and printed its banner. */
async function startDevProcess(args: string[], env: NodeJS.ProcessEnv): Promise<DevProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', 'packages/cli/src/main.ts', 'dev', ...args],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  let code: number | null | undefined;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (c) => {
      code = c;
      resolve(c);
    }),
  );
  const deadline = Date.now() + 150_000;
  while (readDevServer(env)?.pid !== child.pid || !out.includes('Try: signalbox submit')) {
    if (code !== undefined) throw new Error(`signalbox dev exited (${String(code)}) before serving:\n${out}`);
    if (Date.now() > deadline)
      throw new Error(`signalbox dev did not serve within 150 s:\n${out.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => out, exited };
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} within ${String(ms)} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('signalbox dev as a server, driven by the CLI', { timeout: 420_000 }, () => {
  const running: DevProcess[] = [];
  afterEach(() => {
    for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  });

  it('serves submit and trace, drains on SIGTERM, and keeps the trace across a restart on the same --data', async () => {
    const home = await temp('signalbox-home-');
    const data = join(await temp('signalbox-data-'), 'pglite');
    const env: NodeJS.ProcessEnv = { ...process.env, SIGNALBOX_HOME: home };
    // The deterministic pipeline: no model endpoint of the developer's environment.
    delete env.SIGNALBOX_LLM_BASE_URL;
    delete env.SIGNALBOX_LLM_API_KEY;
    // And no PostgreSQL or Kafka: the dev server is where the data is.
    delete env.DATABASE_URL;
    delete env.KAFKA_BROKERS;
    delete env.SCHEMA_REGISTRY_URL;

    const first = await startDevProcess(['--port', '0', '--data', data, '--pack', 'reach'], env);
    running.push(first);
    const record = readDevServer(env);
    expect(record?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(record?.database_url).toMatch(/^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
    // The demo ran first, with today's timelines, and the banner names the viewer, the key and the event log.
    expect(first.output()).toContain('── SP-4 weather · dev-reach-1 · agent reach_agent · success');
    expect(first.output()).toContain(`viewer:     ${String(record?.url)}/viewer`);
    expect(first.output()).toContain(`API key:    ${String(record?.api_key)}`);
    expect(existsSync(join(data, DATA_LOCK_FILE))).toBe(true);

    const submitted = await cli(
      [
        'submit',
        'What is the weather in Berlin today?',
        '--agent',
        'reach_agent',
        '--api-url',
        String(record?.url),
        '--api-key',
        String(record?.api_key),
        '--json',
      ],
      env,
    );
    expect(submitted.code, submitted.err).toBe(0);
    const taskId = (JSON.parse(submitted.out) as { task_id: string }).task_id;
    expect(taskId).toMatch(/^task_/);

    // No --database-url, no DATABASE_URL: trace finds the running dev server's event log by its record.
    const finished = await waitFor('the submitted task finished', async () => {
      const shown = await cli(['trace', taskId, '--json'], env);
      if (shown.code !== 0) return undefined;
      const { timeline } = JSON.parse(shown.out) as { timeline: { state: string; status: string | null } };
      return timeline.state === 'finished' ? timeline : undefined;
    });
    expect(finished.status).toBe('success');
    const text = await cli(['trace', taskId], env);
    expect(text.out).toContain(`${taskId} · agent reach_agent · success`);
    expect(text.out).toMatch(/executor\s+step_executed/);
    // --data names the same folder: while the server runs, trace goes through it (the folder is its process's).
    expect((await cli(['trace', taskId, '--data', data], env)).out).toContain(taskId);

    // redrive with no Kafka configured: recorded in the dev server's event log, published onto its bus.
    const redriven = await cli(['redrive', taskId, '--json'], env);
    expect(redriven.code, redriven.err).toBe(0);
    expect(JSON.parse(redriven.out)).toMatchObject({ task_id: `${taskId}~redrive-1`, redrive_of: taskId });
    const again1 = await waitFor('the re-driven task finished', async () => {
      const shown = await cli(['trace', `${taskId}~redrive-1`, '--json'], env);
      if (shown.code !== 0) return undefined;
      const { timeline } = JSON.parse(shown.out) as { timeline: { state: string; status: string | null } };
      return timeline.state === 'finished' ? timeline : undefined;
    });
    expect(again1.status).toBe('success');

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('SIGTERM: draining the stages and closing');
    expect(existsSync(devServerFile(env))).toBe(false);
    expect(existsSync(join(data, DATA_LOCK_FILE))).toBe(false);

    // No server: trace opens the folder itself.
    const offline = await cli(['trace', taskId, '--data', data], env);
    expect(offline.code, offline.err).toBe(0);
    expect(offline.out).toContain(`${taskId} · agent reach_agent · success`);
    const nowhere = await cli(['trace', taskId], env);
    expect(nowhere.code).toBe(2);
    expect(nowhere.err).toContain('no event log');

    const second = await startDevProcess(['--port', '0', '--data', data, '--pack', 'reach'], env);
    running.push(second);
    // The demo's fixed task ids are in the folder: not run again, and said so.
    expect(second.output()).toContain('The demo ran on this data folder before');
    expect(second.output()).not.toContain('── SP-4 weather · dev-reach-1');
    const again = await cli(['trace', taskId], env);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toContain(`${taskId} · agent reach_agent · success`);
    expect((await cli(['trace', 'dev-reach-1'], env)).out).toContain(
      'dev-reach-1 · agent reach_agent · success',
    );
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  });
});

/** The test's own weather service: answers every call and remembers which path it was called on. */
async function weatherService(): Promise<{ server: Server; url: string; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      calls.push(request.url ?? '');
      const args = (body ? JSON.parse(body) : {}) as { city?: string };
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          city: args.city ?? 'unknown',
          conditions: 'sunny',
          temperature: 21,
          unit: 'celsius',
          observed_at: '2026-11-30T09:00:00.000Z',
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`, calls };
}

describe('signalbox dev --registry: a user pack', { timeout: 240_000 }, () => {
  let dev: DevServer | undefined;
  let service: Awaited<ReturnType<typeof weatherService>> | undefined;
  afterEach(async () => {
    await dev?.close();
    service?.server.close();
  });

  it('calls the pack HTTP tool through the executor, picks up an edit, and keeps the last good one on a broken edit', async () => {
    service = await weatherService();
    const weather = service;
    // The reach pack's files as a user's own folder: their own agent, and the weather tool at the test's service.
    const dir = await temp('signalbox-user-pack-');
    await cp(join(repoRoot, 'registry', 'packs', 'reach'), dir, { recursive: true });
    const toolsFile = join(dir, 'tools.yaml');
    const rename = async (file: string) =>
      writeFile(
        join(dir, file),
        (await readFile(join(dir, file), 'utf8')).replaceAll('reach_agent', 'my_agent'),
      );
    for (const file of ['agents.yaml', 'scenes.yaml', 'tools.yaml']) await rename(file);
    const pointAt = async (path: string) =>
      writeFile(
        toolsFile,
        (await readFile(toolsFile, 'utf8')).replace(
          /url: [^,]*weather[^,]*, base_url_env: SIGNALBOX_DEMO_TOOLS_URL|url: http:\/\/127\.0\.0\.1:\d+\/[a-z0-9-]+/,
          `url: ${weather.url}${path}`,
        ),
      );
    await pointAt('/weather-v1');

    const lines: string[] = [];
    dev = await startDevServer({
      port: 0,
      packs: [],
      runDemo: false,
      registryDirs: [dir],
      allowHosts: [new URL(weather.url).host],
      reloadDebounceMs: 100,
      env: { ...process.env, SIGNALBOX_LLM_BASE_URL: undefined, SIGNALBOX_LLM_API_KEY: undefined },
      log: (line) => lines.push(line),
    });
    const server = dev;
    const headers = { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' };
    const status = async () =>
      (await (await fetch(`${server.url}/dev/status`, { headers })).json()) as {
        registries: { state: string; registry_version: string | null; problems: string[] }[];
        pipelines: { agents: string[] }[];
      };
    const ask = async (request: string) => {
      const submitted = await fetch(`${server.url}/v1/tasks`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ agent_id: 'my_agent', request }),
      });
      expect(submitted.status).toBe(202);
      const { task_id } = (await submitted.json()) as { task_id: string };
      return waitFor(`${task_id} finished`, async () => {
        const task = (await (await fetch(`${server.url}/v1/tasks/${task_id}`, { headers })).json()) as {
          state: string;
          result?: { status: string } | null;
        };
        return task.state === 'finished' ? task : undefined;
      });
    };

    const first = await status();
    expect(first.registries[0]?.state).toBe('serving');
    expect(first.pipelines[0]?.agents).toEqual(['my_agent']);
    expect(lines.join('\n')).toContain(`serving ${dir}`);
    expect((await fetch(`${server.url}/dev/status`)).status).toBe(401);

    await ask('What is the weather in Berlin today?');
    expect(weather.calls).toEqual(['/weather-v1']);

    // An edit: the tool moved. The folder is read again and its stages restart under the new registry.
    const before = first.registries[0]?.registry_version;
    await pointAt('/weather-v2');
    await waitFor('the edit was loaded', async () => {
      const s = await status();
      return s.registries[0]?.registry_version !== before ? s : undefined;
    });
    await ask('What is the weather in Paris today?');
    expect(weather.calls).toEqual(['/weather-v1', '/weather-v2']);

    // A broken edit: reported (printed and in the status), and the last good registry keeps serving.
    const good = (await status()).registries[0]?.registry_version;
    await writeFile(toolsFile, `${await readFile(toolsFile, 'utf8')}\n  - name: [unclosed\n`);
    const broken = await waitFor('the broken edit was reported', async () => {
      const s = await status();
      return s.registries[0]?.state === 'stale' ? s : undefined;
    });
    expect(broken.registries[0]?.registry_version).toBe(good);
    expect(broken.registries[0]?.problems.join('\n')).toMatch(/tools\.yaml:\d+:\d+: YAML syntax error/);
    expect(lines.join('\n')).toContain('the last good registry keeps serving');
    await ask('What is the weather in Rome today?');
    expect(weather.calls).toEqual(['/weather-v1', '/weather-v2', '/weather-v2']);
  });
});

describe('signalbox dev: what it refuses', { timeout: 60_000 }, () => {
  it('names the port and the flag when the port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      await expect(
        startDevServer({ port, runDemo: false, packs: ['reach'], semantic: null }),
      ).rejects.toThrow(
        `port ${String(port)} on 127.0.0.1 is already in use (another signalbox dev, or another program): stop it, or pass --port <n>`,
      );
    } finally {
      taken.close();
    }
  });

  it('refuses server settings with the one-off run, and a registry folder that does not exist', async () => {
    const once = await cli(['dev', '--once', '--port', '9999'], { ...process.env });
    expect(once.code).toBe(2);
    expect(once.err).toContain(
      '--port is a setting of the dev server; the one-off run (--once, --record) has none',
    );
    const missing = join(await temp('signalbox-missing-'), 'nope');
    await expect(startDevServer({ port: 0, registryDirs: [missing], semantic: null })).rejects.toThrow(
      `--registry ${missing}: no such folder`,
    );
  });
});
