// `signalbox up` / `signalbox down` on the real infrastructure (Kafka, the schema registry, PostgreSQL as the test
// setup finds them): the stack starts, a submitted task finishes, `down` leaves no process behind — checked in the
// process table by a marker variable every process of the run inherits — and the infrastructure, which `up` found
// running, keeps running; a run after `up` was SIGKILLed leaves nothing either. A third run finds nothing at a private
// set of infra/local ports: `up` starts Kafka and the registry there and `down` stops them. Each run is isolated: free
// ports, its own PostgreSQL schema, topic prefix, consumer groups and $SIGNALBOX_HOME; the file cleans up after itself
// however it ends (processes, schemas, a private infra/local; prefixed topics stay, as every suite's do, until
// `infra/local/infra.sh reset`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEndpoints, uniqueName } from '@signalbox/test-support';
import { runCli } from '../cli.js';
import { readDevServer } from '../dev/dev-server-file.js';
import { bufferIo } from '../io.js';
import { UsageError } from '../errors.js';
import {
  UP_PROCESSES,
  createLineFormatter,
  down,
  planInfra,
  readUpState,
  up,
  upStateFile,
  withSearchPath,
  type UpOptions,
} from './up.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('planInfra: what up does about the infrastructure', () => {
  const ok = { answers: true, foreign: false };
  const down_ = { answers: false, foreign: false };
  it('uses what answers and starts nothing', () => {
    expect(planInfra({ kafka: ok, registry: ok, postgres: ok })).toEqual({ action: 'reuse' });
  });
  it('starts infra/local when Kafka and the registry are down, and stops it again at the end', () => {
    expect(planInfra({ kafka: down_, registry: down_, postgres: ok })).toEqual({
      action: 'start',
      stopsInfra: true,
    });
  });
  it('starts only the missing part and leaves it all running when part of it was up', () => {
    expect(planInfra({ kafka: ok, registry: down_, postgres: ok })).toEqual({
      action: 'start',
      stopsInfra: false,
    });
  });
  it('cannot start something at an address infra/local does not serve', () => {
    const plan = planInfra({ kafka: { answers: false, foreign: true }, registry: ok, postgres: ok });
    expect(plan.action).toBe('fail');
    expect(plan.action === 'fail' && plan.message).toMatch(/^Kafka did not answer at the given address/);
  });
});

describe('the output of the processes', () => {
  it('prefixes each line with the process name and shows a pino line as level, message and fields', () => {
    const format = createLineFormatter();
    expect(
      format('api', '{"level":30,"time":1,"pid":7,"service":"api","port":8090,"msg":"api started"}'),
    ).toBe('api                | info  api started port=8090');
    expect(format('executor', 'not json')).toBe('executor           | not json');
    expect(createLineFormatter({ raw: true })('api', '{"level":30,"msg":"x"}')).toBe(
      'api                | {"level":30,"msg":"x"}',
    );
  });

  it("leaves out the supervisor's own probe requests, also the second line of a fastify request log", () => {
    const format = createLineFormatter();
    expect(format('api', '{"level":30,"route":"/livez","status_code":200,"msg":"request"}')).toBeUndefined();
    const tools = 'demo-tools';
    expect(
      format(tools, '{"level":30,"reqId":"req-1","req":{"url":"/healthz"},"msg":"incoming request"}'),
    ).toBe(undefined);
    expect(
      format(tools, '{"level":30,"reqId":"req-1","res":{"statusCode":200},"msg":"request completed"}'),
    ).toBe(undefined);
    expect(
      format(tools, '{"level":30,"reqId":"req-2","req":{"url":"/reach/tickets"},"msg":"incoming request"}'),
    ).toMatch(/incoming request/);
    expect(format('api', '{"level":30,"route":"/v1/tasks","status_code":202,"msg":"request"}')).toMatch(
      /\/v1\/tasks/,
    );
  });

  it('selects the schema of a run through the connection string', () => {
    expect(withSearchPath('postgres://u@h:5432/db', 'run_1')).toBe(
      'postgres://u@h:5432/db?options=-c+search_path%3Drun_1',
    );
    expect(withSearchPath('postgres://u@h:5432/db', undefined)).toBe('postgres://u@h:5432/db');
  });
});

const options = (o: Partial<UpOptions> = {}): UpOptions => ({
  port: 18_590,
  toolsPort: 18_591,
  pack: 'reach',
  logLevel: 'info',
  graceMs: 1000,
  startTimeout: 10,
  ...o,
});

describe('what up refuses before it starts anything', () => {
  let home = '';
  const io = () => bufferIo(process.cwd(), { SIGNALBOX_HOME: home });
  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'signalbox-up-refuse-'));
  });
  afterAll(() => {
    rmSync(home, { recursive: true, force: true });
  });

  it('a taken port, naming the flag that moves it', async () => {
    const server = createServer();
    const port = await new Promise<number>((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        resolve((server.address() as { port: number }).port);
      });
    });
    try {
      await expect(up(io(), options({ port }))).rejects.toThrow(
        new UsageError(`port ${String(port)} on 127.0.0.1 is taken; choose another with --port`),
      );
    } finally {
      server.close();
    }
    expect(existsSync(upStateFile({ SIGNALBOX_HOME: home }))).toBe(false);
  });

  it('an unknown pack, a bad schema name, one port for both', async () => {
    await expect(up(io(), options({ pack: 'nope' }))).rejects.toThrow(
      /unknown pack "nope" \(known: after-sales/,
    );
    await expect(up(io(), options({ schema: 'Bad-Name' }))).rejects.toThrow(
      /--schema must be a lower-case SQL/,
    );
    await expect(up(io(), options({ port: 18_600, toolsPort: 18_600 }))).rejects.toThrow(
      '--port and --tools-port must differ',
    );
  });

  it('down with nothing up says so and succeeds', async () => {
    const result = await down(io());
    expect(result.exitCode).toBe(0);
    expect(result.text[0]).toMatch(/^signalbox up is not running/);
  });
});

// --- on the real infrastructure ---------------------------------------------------------------------------------

const endpoints = testEndpoints();
const MARK = 'SIGNALBOX_UP_TEST_RUN';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

/** Pids of live processes whose environment holds `MARK=<mark>`: the up process and everything it started. */
function markedProcesses(mark: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.includes(`${MARK}=${mark}`)) found.push(Number(entry));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * The marked processes (pid and command line) still there after a moment: a process signalled or killed a moment ago may not have left the
 * process table yet (nor the helper processes of a killed one, which end when their parent's pipe closes).
 */
async function noneLeft(mark: string): Promise<string[]> {
  const deadline = Date.now() + 5000;
  let left = markedProcesses(mark);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    left = markedProcesses(mark);
  }
  return left.map((pid) => {
    try {
      return `${String(pid)} ${readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
        .split('\0')
        .join(' ')}`;
    } catch {
      return String(pid);
    }
  });
}

interface UpRun {
  child: ChildProcess;
  home: string;
  mark: string;
  out: () => string;
  exited: Promise<number | null>;
}

const runs: UpRun[] = [];
const schemas: string[] = [];
/** The settings of each private infra/local (its own ports and run directory) a test had `up` start. */
const privateInfras: Record<string, string>[] = [];

afterAll(async () => {
  // A private infra/local that a failed test left running: stopped by its own pid files, its folder removed.
  for (const settings of privateInfras) {
    spawnSync('bash', [join(repoRoot, 'infra/local/infra.sh'), 'stop'], {
      env: { ...process.env, ...settings },
    });
    rmSync(settings.SIGNALBOX_RUN_DIR!, { recursive: true, force: true });
  }
  // Whatever a failed test left running: killed, then the run's data dropped.
  for (const run of runs) {
    for (const pid of markedProcesses(run.mark)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    rmSync(run.home, { recursive: true, force: true });
  }
  const client = new pg.Client({ connectionString: endpoints.databaseUrl });
  await client.connect();
  try {
    for (const s of schemas) {
      await client.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      await client.query(`DROP SCHEMA IF EXISTS ${s}_demo_tools CASCADE`);
    }
  } finally {
    await client.end();
  }
}, 120_000);

/** `signalbox up` as a user runs it, in a process of its own; resolves once it printed that it is up. */
interface StartOptions {
  schema: string;
  prefix: string;
  /** @default 20000 */
  graceMs?: number;
  /** On top of the test's endpoints; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
}

/** A fresh schema and topic prefix for one run, dropped (the schema) after the file. */
function isolation(): { schema: string; prefix: string } {
  const schema = uniqueName('up').replace(/[^a-z0-9]/g, '_');
  schemas.push(schema);
  return { schema, prefix: `${uniqueName('up')}.` };
}

async function startUp(port: number, toolsPort: number, options: StartOptions): Promise<UpRun> {
  const { schema, prefix, graceMs = 20_000 } = options;
  const home = mkdtempSync(join(tmpdir(), 'signalbox-up-home-'));
  const mark = randomUUID();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SIGNALBOX_HOME: home,
    KAFKA_BROKERS: endpoints.kafkaBrokers,
    SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
    DATABASE_URL: endpoints.databaseUrl,
    ...options.env,
    [MARK]: mark,
  };
  for (const [name, value] of Object.entries(env)) if (value === undefined) Reflect.deleteProperty(env, name);
  // The deterministic pipeline: no model endpoint of the developer's environment.
  delete env.SIGNALBOX_LLM_BASE_URL;
  delete env.SIGNALBOX_LLM_API_KEY;
  const child = spawn(
    process.execPath,
    [
      '--conditions=@signalbox/source',
      '--import',
      'tsx',
      'packages/cli/src/main.ts',
      'up',
      ...['--pack', 'reach', '--port', String(port), '--tools-port', String(toolsPort)],
      ...['--schema', schema, '--topic-prefix', prefix, '--grace-ms', String(graceMs)],
    ],
    { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  const run: UpRun = { child, home, mark, out: () => out, exited };
  runs.push(run);
  const deadline = Date.now() + 240_000;
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  while (!out.includes('Ctrl-C or `signalbox down` stops it.')) {
    if (code !== undefined)
      throw new Error(`signalbox up exited (${String(code)}) before it was up:\n${out}`);
    if (Date.now() > deadline) throw new Error(`signalbox up was not up within 240 s:\n${out.slice(-6000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return run;
}

/** Submits the weather request through `signalbox submit` with the recorded API and key; waits until it finished. */
async function submitAndWait(
  run: UpRun,
  record: { url: string; api_key: string },
): Promise<{ taskId: string; view: { state: string; result: { status: string } | null } | undefined }> {
  const io = bufferIo(process.cwd(), { SIGNALBOX_HOME: run.home });
  const submitted = await runCli(
    [
      'submit',
      'What is the weather in Berlin today?',
      ...['--agent', 'reach_agent', '--api-url', record.url, '--api-key', record.api_key, '--json'],
    ],
    io,
  );
  expect(submitted, io.err.join('')).toBe(0);
  const taskId = (JSON.parse(io.out.join('')) as { task_id: string }).task_id;
  const t = Date.now();
  let view: { state: string; result: { status: string } | null } | undefined;
  while (Date.now() - t < 90_000) {
    const res = await fetch(`${record.url}/v1/tasks/${taskId}`, {
      headers: { authorization: `Bearer ${record.api_key}` },
    });
    view = (await res.json()) as typeof view;
    if (view?.state === 'finished') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  expect(view?.state, run.out().slice(-4000)).toBe('finished');
  return { taskId, view };
}

const probe = (what: string, address: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'infra/local/probe.mjs'), what, address]).status === 0;

/** The shared infrastructure the test setup found answers. */
function infraAnswers(): boolean {
  return (
    probe('kafka', endpoints.kafkaBrokers) &&
    probe('registry', endpoints.schemaRegistryUrl) &&
    probe('postgres', endpoints.databaseUrl)
  );
}

describe('signalbox up / down on the real infrastructure', { timeout: 420_000 }, () => {
  it('starts everything, a submitted task finishes, down leaves no process behind and the infrastructure up', async () => {
    const [port, toolsPort] = [await freePort(), await freePort()];
    const { schema, prefix } = isolation();
    const t0 = Date.now();
    const run = await startUp(port, toolsPort, { schema, prefix });
    const startedMs = Date.now() - t0;
    const env = { SIGNALBOX_HOME: run.home };

    // Where it is, for the other commands: the API, the key it printed, the event log in the run's schema.
    const record = readDevServer(env);
    expect(record).toMatchObject({ url: `http://127.0.0.1:${String(port)}`, pid: run.child.pid });
    expect(run.out()).toContain(`API key  ${record!.api_key}`);
    expect(run.out()).toContain(`API      http://127.0.0.1:${String(port)}/v1`);
    expect(run.out()).toContain(
      `    export SIGNALBOX_API_URL=${record!.url} SIGNALBOX_API_KEY=${record!.api_key} ` +
        `KAFKA_BROKERS=${endpoints.kafkaBrokers} SCHEMA_REGISTRY_URL=${endpoints.schemaRegistryUrl} ` +
        `SIGNALBOX_TOPIC_PREFIX=${prefix}\n`,
    );
    expect(new URL(record!.database_url!).searchParams.get('options')).toBe(`-c search_path=${schema}`);
    // Seven processes, each recorded for down, each running, each one's output under its name.
    const state = readUpState(env)!;
    expect(Object.keys(state.processes).sort()).toEqual([...UP_PROCESSES].sort());
    for (const [name, p] of Object.entries(state.processes)) {
      expect(readFileSync(`/proc/${String(p.pid)}/cmdline`, 'utf8')).toContain(
        `services/${name}/src/main.ts`,
      );
    }
    expect(run.out()).toMatch(/^api +\| info {2}api started port=/m);
    expect(run.out()).toMatch(/^demo-tools +\| info {2}demo-tools listening/m);
    for (const worker of UP_PROCESSES.slice(2)) {
      expect(run.out()).toMatch(new RegExp(`^${worker} +\\| info {2}worker started port=\\d+`, 'm'));
    }
    // The up process and the seven (each may have a helper of its own: the esbuild service of tsx).
    expect(markedProcesses(run.mark)).toEqual(
      expect.arrayContaining([run.child.pid, ...Object.values(state.processes).map((p) => p.pid)]),
    );

    // A task through the API it printed, with the key it recorded; it runs through all five stages.
    const t1 = Date.now();
    const { taskId, view } = await submitAndWait(run, record!);
    const taskMs = Date.now() - t1;
    expect(view?.result?.status).toBe('success');
    // `trace` finds the event log by the record alone (no DATABASE_URL here), in the run's schema.
    const traceIo = bufferIo(process.cwd(), env);
    expect(await runCli(['trace', taskId], traceIo), traceIo.err.join('')).toBe(0);
    const trace = traceIo.out.join('');
    for (const stage of [
      'model_selector',
      'tool_decider',
      'parameter_injector',
      'executor',
      'result_evaluator',
    ]) {
      expect(trace).toContain(stage);
    }
    expect(trace).toMatch(/task_finished/);

    // down: up drains and stops them all, exits 0, removes its records.
    const t2 = Date.now();
    const downIo = bufferIo(process.cwd(), env);
    expect(await runCli(['down'], downIo)).toBe(0);
    expect(downIo.out.join('')).toContain(`stopped signalbox up (pid ${String(run.child.pid)})`);
    expect(await run.exited).toBe(0);
    const downMs = Date.now() - t2;
    expect(await noneLeft(run.mark)).toEqual([]);
    expect(run.out()).toMatch(/stopped 7 processes in \d+ ms/);
    expect(run.out()).toMatch(/^api +\| info {2}shutting down reason=SIGTERM/m);
    expect(existsSync(upStateFile(env))).toBe(false);
    expect(readDevServer(env)).toBeUndefined();
    // up found the infrastructure running: it is still running.
    expect(infraAnswers()).toBe(true);
    console.log(
      `signalbox up: ready in ${String(startedMs)} ms, task finished in ${String(taskMs)} ms, down in ${String(downMs)} ms`,
    );
  });

  it('down stops what a killed up left behind, from the pids it recorded', async () => {
    const [port, toolsPort] = [await freePort(), await freePort()];
    const run = await startUp(port, toolsPort, { ...isolation(), graceMs: 5000 });
    const env = { SIGNALBOX_HOME: run.home };
    run.child.kill('SIGKILL');
    await run.exited;
    // The seven processes run on in sessions of their own.
    const left = Object.values(readUpState(env)!.processes).map((p) => p.pid);
    expect(left).toHaveLength(7);
    expect(markedProcesses(run.mark)).toEqual(expect.arrayContaining(left));
    const downIo = bufferIo(process.cwd(), env);
    expect(await runCli(['down'], downIo)).toBe(0);
    const said = downIo.out.join('');
    expect(said).toContain(`signalbox up (pid ${String(run.child.pid)}) is gone; stopping what it left`);
    // Drained, or killed after the grace period: the API, its stdout gone with up, does not finish its SIGTERM
    // drain (seen here: it stays until SIGKILL, the workers and the demo tools exit).
    for (const name of UP_PROCESSES) {
      expect(said).toMatch(new RegExp(`^${name} (stopped|killed after 5000 ms)$`, 'm'));
    }
    expect(await noneLeft(run.mark)).toEqual([]);
    expect(existsSync(upStateFile(env))).toBe(false);
    expect(infraAnswers()).toBe(true);
  });
  // No test may stop the shared infrastructure: `up` finds nothing at a private set of infra/local ports (and a run
  // directory of its own), starts Kafka and the registry there, and `down` stops them again.
  it('starts infra/local when nothing answers and stops it again with down', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 6; i++) ports.push(await freePort());
    const [port, toolsPort, kafkaPort, controllerPort, registryPort, managementPort] = ports.map(String);
    const settings = {
      SIGNALBOX_KAFKA_PORT: kafkaPort!,
      SIGNALBOX_KAFKA_CONTROLLER_PORT: controllerPort!,
      SIGNALBOX_REGISTRY_PORT: registryPort!,
      SIGNALBOX_REGISTRY_MANAGEMENT_PORT: managementPort!,
      SIGNALBOX_RUN_DIR: mkdtempSync(join(tmpdir(), 'signalbox-up-infra-')),
    };
    privateInfras.push(settings);
    const kafka = `127.0.0.1:${kafkaPort!}`;
    const registry = `http://127.0.0.1:${registryPort!}/apis/ccompat/v7`;
    const { schema, prefix } = isolation();
    const run = await startUp(Number(port), Number(toolsPort), {
      schema,
      prefix,
      // PostgreSQL is the shared server (what infra/local uses when one answers); Kafka and the registry are
      // whatever infra/local serves on the private ports.
      env: { ...settings, KAFKA_BROKERS: undefined, SCHEMA_REGISTRY_URL: undefined },
    });
    const env = { SIGNALBOX_HOME: run.home };
    expect(run.out()).toContain('[up] infrastructure does not answer: starting infra/local');
    expect(run.out()).toContain(`KAFKA_BROKERS=${kafka} SCHEMA_REGISTRY_URL=${registry} `);
    expect(readUpState(env)!.stops_infra).toBe(true);
    expect(probe('kafka', kafka) && probe('registry', registry)).toBe(true);
    // Kafka and the registry it started carry the run's marker too.
    const java = markedProcesses(run.mark).filter((pid) =>
      readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8').includes('java'),
    );
    expect(java).toHaveLength(2);
    const { view } = await submitAndWait(run, readDevServer(env)!);
    expect(view?.result?.status).toBe('success');

    const downIo = bufferIo(process.cwd(), env);
    expect(await runCli(['down'], downIo)).toBe(0);
    expect(await run.exited).toBe(0);
    expect(run.out()).toContain('[up] stopping infra/local (this run started it)');
    expect(run.out()).toMatch(/^stopped infra\/local$/m);
    expect(await noneLeft(run.mark)).toEqual([]);
    expect(probe('kafka', kafka) || probe('registry', registry)).toBe(false);
    expect(infraAnswers()).toBe(true);
  });
});
