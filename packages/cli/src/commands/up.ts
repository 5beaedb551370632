// `signalbox up` / `signalbox down` (issue 22, item 4): the real stack on one machine without Docker — what
// docker-compose.yml runs, as child processes of this command:
//   1. infrastructure: Kafka, the schema registry and PostgreSQL at the given endpoints (flags, then KAFKA_BROKERS,
//      SCHEMA_REGISTRY_URL, DATABASE_URL), else where infra/local serves them (`infra.sh env`). What answers is used
//      as it is; when something of infra/local's does not answer, `infra.sh start` starts it;
//   2. the deploy-time steps of the compose `init` job: `topics create` and `migrate`;
//   3. the demo tools, then the API and the five workers, each its services/<name>/src/main.ts in a Node process of
//      its own (the supervisor the fault suite uses: a process that dies is restarted), each waited for until it
//      logged that it started and its readiness probe answers 200 (`/readyz`; the demo tools: `/healthz`).
// Every line they print goes to stdout prefixed by the process name. It then records where it is for the other
// commands (`$SIGNALBOX_HOME/dev-server.json`, as `signalbox dev` does: `submit`, `trace` … find the API, its key and
// the event log there) and its processes for `down` (`$SIGNALBOX_HOME/up.json`), prints the API URL and its
// development key, and runs until Ctrl-C (SIGINT), SIGTERM, SIGHUP or `signalbox down`.
//
// Stopping drains: SIGTERM to the API first (no new tasks), then to the five workers (each finishes and commits
// what it holds), then to the demo tools (the executor may call them while it drains); a process still there after
// the grace period gets SIGKILL. The processes run in sessions of their own, so a Ctrl-C reaches this command only,
// which stops them in that order; a second Ctrl-C kills them at once.
//
// Infrastructure is stopped only when `up` started all of it: when Kafka and the registry both did not answer,
// `up` starts infra/local and stops it again (`infra.sh stop`) when it stops, unless `--keep-infra`. Infrastructure
// that was running before — started by hand, by a test run, by another tool — is never stopped by `up` or `down`
// (stop it with `bash infra/local/infra.sh stop`). When only part of it answered, `up` starts the rest and leaves
// it all running.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { z } from 'zod';
import { DEMO_REQUESTS, PACK_NAMES } from '../dev/scenarios.js';
import { devServerFile, readDevServer, removeDevServer, writeDevServer } from '../dev/dev-server-file.js';
import { pidAlive, readRecord } from '../dev/record-file.js';
import { CliError, UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';
import {
  createSupervisor,
  type ManagedProcess,
  type ServiceSpec,
  type Supervisor,
} from '../processes/supervisor.js';
import { migrate, topicsCreate } from './ops.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const INFRA_SH = join(repoRoot, 'infra/local/infra.sh');
const PROBE = join(repoRoot, 'infra/local/probe.mjs');

/** The five stages as services/ names them, in pipeline order. */
export const UP_WORKERS = [
  'model-selector',
  'tool-decider',
  'parameter-injector',
  'executor',
  'result-evaluator',
] as const;

/** Every process `up` runs, in the order it starts them. */
export const UP_PROCESSES = ['demo-tools', 'api', ...UP_WORKERS] as const;

/** The API's default port: the embedded dev server (`signalbox dev`) has 8080. */
export const UP_DEFAULT_PORT = 8090;
/** The demo tools' default port (next to the API's). */
export const UP_DEFAULT_TOOLS_PORT = 8091;

/** Thrown when the stack cannot be brought up (infrastructure missing, a process that does not start). */
export class UpError extends CliError {
  readonly exitCode = 1;
}

// --- the state file of `down` -----------------------------------------------------------------------------------

const UpState = z.object({
  /** The `signalbox up` process. */
  pid: z.number().int().positive(),
  started_at: z.string(),
  /** The API's base URL. */
  url: z.string(),
  /** How long each process is given to drain before SIGKILL. */
  grace_ms: z.number().int().nonnegative(),
  /** Whether `up` started infra/local and stops it when it stops. */
  stops_infra: z.boolean(),
  /** The current pid of each process (updated on every restart), for `down` when `up` itself is gone. */
  processes: z.record(z.string(), z.object({ service: z.string(), pid: z.number().int().positive() })),
});
export type UpState = z.infer<typeof UpState>;

type Env = Readonly<Record<string, string | undefined>>;

/** `$SIGNALBOX_HOME/up.json`, next to the dev-server record (default `~/.signalbox/up.json`). */
export function upStateFile(env: Env): string {
  return join(dirname(devServerFile(env)), 'up.json');
}

/** The recorded state, whether or not its processes still run (undefined when none is recorded or it is unreadable). */
export function readUpState(env: Env): UpState | undefined {
  return readRecord(upStateFile(env), UpState);
}

function writeUpState(env: Env, state: UpState): void {
  const file = upStateFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

// Where /proc exists (Linux), a recorded pid counts as ours only while its command line still names what we started:
// a pid may have been reused since. Elsewhere the pid alone decides.
function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
      .split('\0')
      .join(' ');
  } catch {
    return existsSync('/proc/self') ? '' : undefined;
  }
}

function isServiceProcess(pid: number, service: string): boolean {
  if (!pidAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === undefined || cmd.includes(`services/${service}/src/main.ts`);
}

function isUpProcess(pid: number): boolean {
  if (!pidAlive(pid)) return false;
  const cmd = commandLine(pid);
  return cmd === undefined || cmd.split(' ').includes('up');
}

// --- infrastructure ---------------------------------------------------------------------------------------------

/** Where Kafka, the schema registry and PostgreSQL are. */
export interface UpEndpoints {
  kafkaBrokers: string;
  schemaRegistryUrl: string;
  databaseUrl: string;
}

type Component = 'kafka' | 'registry' | 'postgres';
const COMPONENT_LABEL: Record<Component, string> = {
  kafka: 'Kafka',
  registry: 'the schema registry',
  postgres: 'PostgreSQL',
};

/** One component as `up` found it. */
export interface ComponentState {
  /** It answered a real request (a Kafka metadata call, HTTP 200 from the registry, `SELECT 1`). */
  answers: boolean;
  /** Its address was given (flag or environment) and is not the one infra/local serves. */
  foreign: boolean;
}

/** What to do about the infrastructure; from {@link planInfra}. */
export type InfraPlan =
  { action: 'reuse' } | { action: 'start'; stopsInfra: boolean } | { action: 'fail'; message: string };

/**
 * The rule of `up` for infrastructure: use what answers; start infra/local when something it serves does not answer;
 * stop it again at the end only when `up` started all of it (Kafka and the registry both did not answer).
 * Something at an address infra/local does not serve cannot be started here.
 */
export function planInfra(found: Record<Component, ComponentState>): InfraPlan {
  const down = (Object.keys(found) as Component[]).filter((c) => !found[c].answers);
  if (down.length === 0) return { action: 'reuse' };
  const foreign = down.filter((c) => found[c].foreign);
  if (foreign.length > 0) {
    return {
      action: 'fail',
      message: `${foreign.map((c) => COMPONENT_LABEL[c]).join(' and ')} did not answer at the given address; start it, or unset the flag / variable to let \`signalbox up\` run infra/local`,
    };
  }
  return { action: 'start', stopsInfra: !found.kafka.answers && !found.registry.answers };
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onStderr?: (line: string) => void,
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString();
      stderr += text;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onStderr?.(line);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (pending) onStderr?.(pending);
      resolvePromise({ code: code ?? 1, stdout, stderr });
    });
  });
}

/** The endpoints infra/local serves (`infra.sh env`: its ports, and the PostgreSQL it uses). */
async function infraLocalEndpoints(env: NodeJS.ProcessEnv): Promise<UpEndpoints> {
  const result = await run('bash', [INFRA_SH, 'env'], env);
  if (result.code !== 0) throw new UpError(`infra/local/infra.sh env failed: ${result.stderr.trim()}`);
  const value = (name: string) => {
    const m = new RegExp(`^export ${name}=(.*)$`, 'm').exec(result.stdout);
    if (!m?.[1]) throw new UpError(`infra/local/infra.sh env printed no ${name}`);
    return m[1].trim();
  };
  return {
    kafkaBrokers: value('KAFKA_BROKERS'),
    schemaRegistryUrl: value('SCHEMA_REGISTRY_URL'),
    databaseUrl: value('DATABASE_URL'),
  };
}

async function answers(env: NodeJS.ProcessEnv, component: Component, address: string): Promise<boolean> {
  return (await run(process.execPath, [PROBE, component, address], env)).code === 0;
}

// --- options ----------------------------------------------------------------------------------------------------

/** Options of {@link up}, as the command line gives them. */
export interface UpOptions {
  /** The API's port on 127.0.0.1. @default 8090 */
  port: number;
  /** The demo tools' port on 127.0.0.1. @default 8091 */
  toolsPort: number;
  /** A scenario pack: a folder of registry/packs/. @default after-sales */
  pack: string;
  /** A registry directory of one's own instead of a pack. */
  registryDir?: string;
  kafkaBrokers?: string;
  schemaRegistryUrl?: string;
  databaseUrl?: string;
  /** The PostgreSQL schema of the event log and the executor's tables. @default the connection's search_path */
  schema?: string;
  /** Namespace of every topic, subject and consumer group. @default '' */
  topicPrefix?: string;
  /** The development API key. @default a new random key per run */
  apiKey?: string;
  /** LOG_LEVEL of every process. @default info */
  logLevel: string;
  /** Drain time of each process before SIGKILL. @default 30000 (the workers drain within 25 s) */
  graceMs: number;
  /** How long the processes may take to become ready. @default 180 */
  startTimeout: number;
  /** Leave infra/local running at the end even when `up` started it. */
  keepInfra?: boolean;
  /** Print the processes' JSON log lines as they are. */
  rawLogs?: boolean;
  /** `--json`: stdout is kept for the one JSON object at the end; the output of the processes goes to stderr. */
  json?: boolean;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,40}$/;
const TOPIC_PREFIX = /^[A-Za-z0-9._-]*$/;
const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** With `options=-c search_path=<schema>`: what every service's DATABASE_URL and the dev-server record carry. */
export function withSearchPath(databaseUrl: string, schema: string | undefined): string {
  if (!schema) return databaseUrl;
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => {
      resolvePromise(true);
    });
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.close(() => {
        resolvePromise(false);
      });
    });
  });
}

// --- output -----------------------------------------------------------------------------------------------------

const PINO_LEVELS: Record<number, string> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};
const PINO_OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'service', 'name']);
const NAME_WIDTH = Math.max(...UP_PROCESSES.map((n) => n.length));

const PROBE_PATHS = new Set(['/livez', '/readyz', '/healthz']);

/**
 * Turns what the processes print into terminal lines: `<name> | <level> <message> key=value …` for a pino JSON line
 * (the line as it is with `raw`, or when it is not JSON). The request logs of the supervisor's own liveness and
 * readiness probes (every 10 s per process) are left out: the API logs them with their `route`, the demo tools
 * (fastify's request log) with `req.url` on the first line and only the `reqId` on the second.
 */
export function createLineFormatter(
  options: { raw?: boolean } = {},
): (name: string, line: string) => string | undefined {
  const probeRequests = new Set<string>();
  return (name, line) => {
    const prefix = `${name.padEnd(NAME_WIDTH)} | `;
    if (!line.startsWith('{')) return `${prefix}${line}`;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return `${prefix}${line}`;
    }
    const reqId = typeof record.reqId === 'string' ? `${name} ${record.reqId}` : undefined;
    const url = (record.req as { url?: unknown } | undefined)?.url;
    if (typeof record.route === 'string' && PROBE_PATHS.has(record.route)) return undefined;
    if (reqId && typeof url === 'string' && PROBE_PATHS.has(url)) {
      // Bounded: a request whose completion line never comes is not remembered for ever.
      if (probeRequests.size > 1000) probeRequests.clear();
      probeRequests.add(reqId);
      return undefined;
    }
    if (reqId && probeRequests.has(reqId)) {
      if (record.res !== undefined) probeRequests.delete(reqId);
      return undefined;
    }
    if (options.raw) return `${prefix}${line}`;
    const level =
      typeof record.level === 'number'
        ? (PINO_LEVELS[record.level] ?? String(record.level))
        : typeof record.level === 'string'
          ? record.level
          : '';
    const fields = Object.entries(record)
      .filter(([k]) => !PINO_OMITTED.has(k))
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
    const text = [typeof record.msg === 'string' ? record.msg : '', ...fields].filter(Boolean).join(' ');
    return `${prefix}${level.padEnd(5)} ${text.length > 2000 ? `${text.slice(0, 1997)}...` : text}`;
  };
}

// --- up ---------------------------------------------------------------------------------------------------------

/** Resolves when a stop was asked for (a signal, or `down` sending SIGTERM). */
interface StopSignal {
  promise: Promise<void>;
  asked(): boolean;
  /** A second signal: kill at once. */
  onForce(listener: () => void): void;
  dispose(): void;
}

function listenForStop(io: CliIo): StopSignal {
  let count = 0;
  let resolveStop: () => void = () => undefined;
  const promise = new Promise<void>((r) => {
    resolveStop = r;
  });
  const forced: (() => void)[] = [];
  let first = 0;
  const handler = (signal: NodeJS.Signals) => {
    // Run through pnpm and tsx, one Ctrl-C may arrive twice (the terminal signals the whole process group, and a
    // wrapper relays it): only a second signal a second later or more kills at once.
    if (count > 0 && Date.now() - first < 1000) return;
    count++;
    if (count === 1) {
      first = Date.now();
      io.stderr(`[up] ${signal}: stopping (again to kill at once)\n`);
      resolveStop();
    } else {
      io.stderr(`[up] ${signal} again: killing every process\n`);
      for (const f of forced) f();
    }
  };
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, handler);
  return {
    promise,
    asked: () => count > 0,
    onForce: (listener) => forced.push(listener),
    dispose: () => {
      for (const s of signals) process.off(s, handler);
    },
  };
}

class Stopped extends Error {}

/** Waits for `p`'s ready message; fails when it exits first, when time runs out or when a stop is asked for. */
async function untilStarted(p: ManagedProcess, deadline: number, stop: StopSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const crashed = new Promise<never>((_, reject) => {
    timer = setInterval(() => {
      const crash = p.stats.crashes[0];
      if (crash) {
        const tail = crash.tail.trimEnd().split('\n').slice(-25).join('\n');
        reject(
          new UpError(
            `${p.name} exited (${crash.signal ?? `code ${String(crash.code)}`}) before it was ready; its last lines:\n${tail}`,
          ),
        );
      } else if (Date.now() > deadline) {
        reject(new UpError(`${p.name} was not ready in time; its last lines:\n${p.tail().slice(-3000)}`));
      }
    }, 200);
  });
  try {
    await Promise.race([
      p.ready(),
      crashed,
      stop.promise.then(() => {
        throw new Stopped();
      }),
    ]);
  } finally {
    clearInterval(timer);
  }
}

/** Runs the real stack until a stop is asked for; see the file comment. */
export async function up(io: CliIo, opts: UpOptions): Promise<CommandResult> {
  const t0 = Date.now();
  const env = io.env;
  // --- checks before any side effect
  for (const [flag, port] of [
    ['--port', opts.port],
    ['--tools-port', opts.toolsPort],
  ] as const) {
    if (!Number.isInteger(port) || port < 1 || port > 65_535)
      throw new UsageError(`${flag} must be a TCP port (1-65535), got ${String(port)}`);
  }
  if (opts.port === opts.toolsPort) throw new UsageError('--port and --tools-port must differ');
  if (opts.schema !== undefined && !SCHEMA_NAME.test(opts.schema))
    throw new UsageError(
      `--schema must be a lower-case SQL identifier of at most 41 characters, got "${opts.schema}"`,
    );
  const prefix = opts.topicPrefix ?? env.SIGNALBOX_TOPIC_PREFIX ?? '';
  if (!TOPIC_PREFIX.test(prefix))
    throw new UsageError(`--topic-prefix may hold letters, digits, ".", "_" and "-" only, got "${prefix}"`);
  if (!(LOG_LEVELS as readonly string[]).includes(opts.logLevel))
    throw new UsageError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${opts.logLevel}"`);
  let registryDir: string;
  if (opts.registryDir) {
    registryDir = resolve(io.cwd, opts.registryDir);
    if (!existsSync(registryDir)) throw new UsageError(`--registry-dir ${registryDir} does not exist`);
  } else {
    if (!(PACK_NAMES as readonly string[]).includes(opts.pack))
      throw new UsageError(`unknown pack "${opts.pack}" (known: ${PACK_NAMES.join(', ')})`);
    registryDir = join(repoRoot, 'registry/packs', opts.pack);
  }
  const previous = readUpState(env);
  if (previous && isUpProcess(previous.pid))
    throw new UsageError(
      `signalbox up is already running (pid ${String(previous.pid)}, API at ${previous.url}); stop it with \`signalbox down\``,
    );
  if (previous && Object.values(previous.processes).some((p) => isServiceProcess(p.pid, p.service)))
    throw new UsageError(
      'processes of an earlier `signalbox up` that did not stop are still running; stop them with `signalbox down`',
    );
  const devServer = readDevServer(env);
  if (devServer)
    throw new UsageError(
      `a dev server is running (pid ${String(devServer.pid)}, ${devServer.url}) and recorded in ${devServerFile(env)}: ` +
        'the CLI would not know which one to talk to; stop it first (or give this run another $SIGNALBOX_HOME)',
    );
  for (const [flag, port] of [
    ['--port', opts.port],
    ['--tools-port', opts.toolsPort],
  ] as const) {
    if (await portTaken(port))
      throw new UsageError(`port ${String(port)} on 127.0.0.1 is taken; choose another with ${flag}`);
  }

  const say = (line: string) => {
    io.stderr(`[up] ${line}\n`);
  };
  const print = (text: string) => {
    if (opts.json) io.stderr(text);
    else io.stdout(text);
  };
  const stop = listenForStop(io);
  let stopsInfra = false;
  let supervisor: Supervisor | undefined;
  const pids: UpState['processes'] = {};
  const apiUrl = `http://127.0.0.1:${String(opts.port)}`;
  const state = (): UpState => ({
    pid: process.pid,
    started_at: new Date(t0).toISOString(),
    url: apiUrl,
    grace_ms: opts.graceMs,
    stops_infra: stopsInfra && !opts.keepInfra,
    processes: pids,
  });
  // A last resort when this process ends without stopping them (an uncaught error): the processes run in sessions of
  // their own and would outlive it.
  const killAll = () => {
    for (const p of supervisor?.all() ?? []) {
      const pid = p.pid();
      if (pid === undefined) continue;
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  };
  process.once('exit', killAll);
  writeUpState(env, state());

  const shutdown = async (): Promise<string[]> => {
    const notes: string[] = [];
    if (supervisor) {
      const s = supervisor;
      const byName = (names: readonly string[]) =>
        s.all().filter((p) => names.includes(p.name.replace(/\+\d+$/, '')));
      stop.onForce(() => {
        for (const p of s.all()) void p.stop(0);
      });
      const t = Date.now();
      for (const group of [['api'], UP_WORKERS, ['demo-tools']]) {
        const ps = byName(group);
        if (ps.length > 0) say(`stopping ${ps.map((p) => p.name).join(', ')}`);
        await Promise.all(ps.map((p) => p.stop(opts.graceMs)));
      }
      await s.stopAll();
      const crashes = s.stats().reduce((n, st) => n + st.crashes.length, 0);
      notes.push(
        `stopped ${String(s.stats().length)} processes in ${String(Date.now() - t)} ms` +
          (crashes > 0 ? ` (${String(crashes)} restart(s) after a crash while up)` : ''),
      );
    }
    removeDevServer(env, process.pid);
    if (stopsInfra && !opts.keepInfra) {
      say('stopping infra/local (this run started it)');
      const result = await run('bash', [INFRA_SH, 'stop'], env, (line) => {
        io.stderr(`${line}\n`);
      });
      notes.push(result.code === 0 ? 'stopped infra/local' : 'infra/local/infra.sh stop failed');
    } else if (stopsInfra) {
      notes.push('infra/local left running (--keep-infra); stop it with `bash infra/local/infra.sh stop`');
    }
    rmSync(upStateFile(env), { force: true });
    process.off('exit', killAll);
    stop.dispose();
    return notes;
  };

  try {
    // --- 1. infrastructure
    const infraEnv: NodeJS.ProcessEnv = { ...env };
    const local = await infraLocalEndpoints(infraEnv);
    const given = {
      kafka: opts.kafkaBrokers ?? env.KAFKA_BROKERS,
      registry: opts.schemaRegistryUrl ?? env.SCHEMA_REGISTRY_URL,
      postgres: opts.databaseUrl ?? env.DATABASE_URL,
    };
    let endpoints: UpEndpoints = {
      kafkaBrokers: given.kafka ?? local.kafkaBrokers,
      schemaRegistryUrl: given.registry ?? local.schemaRegistryUrl,
      databaseUrl: given.postgres ?? local.databaseUrl,
    };
    const [kafka, registry, postgres] = await Promise.all([
      answers(infraEnv, 'kafka', endpoints.kafkaBrokers),
      answers(infraEnv, 'registry', endpoints.schemaRegistryUrl),
      answers(infraEnv, 'postgres', endpoints.databaseUrl),
    ]);
    const plan = planInfra({
      kafka: { answers: kafka, foreign: given.kafka !== undefined && given.kafka !== local.kafkaBrokers },
      registry: {
        answers: registry,
        foreign: given.registry !== undefined && given.registry !== local.schemaRegistryUrl,
      },
      postgres: {
        answers: postgres,
        foreign: given.postgres !== undefined && given.postgres !== local.databaseUrl,
      },
    });
    if (plan.action === 'fail') throw new UpError(plan.message);
    if (plan.action === 'start') {
      say('infrastructure does not answer: starting infra/local (bash infra/local/infra.sh start)');
      stopsInfra = plan.stopsInfra;
      writeUpState(env, state());
      const result = await run('bash', [INFRA_SH, 'start'], infraEnv, (line) => {
        io.stderr(`${line}\n`);
      });
      if (result.code !== 0) {
        // A failed start stops what it started (infra.sh's own rule).
        stopsInfra = false;
        throw new UpError('infra/local/infra.sh start failed (its output is above)');
      }
      const started = await infraLocalEndpoints(infraEnv);
      endpoints = {
        kafkaBrokers: given.kafka ?? started.kafkaBrokers,
        schemaRegistryUrl: given.registry ?? started.schemaRegistryUrl,
        databaseUrl: given.postgres ?? started.databaseUrl,
      };
    } else {
      say(
        `infrastructure answers (used as it is, left running at the end): Kafka ${endpoints.kafkaBrokers}, ` +
          `registry ${endpoints.schemaRegistryUrl}, PostgreSQL ${redact(endpoints.databaseUrl)}`,
      );
    }
    if (stop.asked()) throw new Stopped();

    // --- 2. topics, schemas, migrations (the compose `init` job)
    const topics = await topicsCreate(io, {
      kafkaBrokers: endpoints.kafkaBrokers,
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      prefix,
    });
    say(
      `topics create: ${String((topics.json.topics as unknown[]).length)} topics, ` +
        `${String((topics.json.schemas as unknown[]).length)} schemas (BACKWARD)${prefix ? ` under prefix "${prefix}"` : ''}`,
    );
    await migrate(io, {
      databaseUrl: endpoints.databaseUrl,
      ...(opts.schema ? { schema: opts.schema } : {}),
    });
    say(`migrate: event log and registry store${opts.schema ? ` in schema ${opts.schema}` : ''}`);
    if (stop.asked()) throw new Stopped();

    // --- 3. the processes
    const apiKey = opts.apiKey ?? `sk-dev-${randomBytes(16).toString('hex')}`;
    const databaseUrl = withSearchPath(endpoints.databaseUrl, opts.schema);
    const toolsUrl = `http://127.0.0.1:${String(opts.toolsPort)}`;
    const common: Record<string, string> = {
      KAFKA_BROKERS: endpoints.kafkaBrokers,
      SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
      DATABASE_URL: databaseUrl,
      SIGNALBOX_TOPIC_PREFIX: prefix,
      SIGNALBOX_REGISTRY_DIR: registryDir,
      SIGNALBOX_DEMO_TOOLS_URL: toolsUrl,
      LOG_LEVEL: opts.logLevel,
    };
    const specs: ServiceSpec[] = [
      {
        name: 'demo-tools',
        service: 'demo-tools',
        env: {
          // The demo tools stand for an outside system: their own schema, the server's database.
          DATABASE_URL: endpoints.databaseUrl,
          DEMO_TOOLS_SCHEMA: opts.schema ? `${opts.schema}_demo_tools` : 'demo_tools',
          HTTP_PORT: String(opts.toolsPort),
          LOG_LEVEL: opts.logLevel,
        },
        readyMessage: 'demo-tools listening',
        healthPort: opts.toolsPort,
        livenessPath: '/healthz',
        readinessPath: '/healthz',
      },
      {
        name: 'api',
        service: 'api',
        env: {
          ...common,
          HTTP_PORT: String(opts.port),
          // Only the key's hash is configured (the API's rule); the key itself is printed and recorded below.
          SIGNALBOX_API_KEYS: JSON.stringify({ [sha256(apiKey)]: 'default' }),
        },
        readyMessage: 'api started',
        healthPort: opts.port,
      },
      ...UP_WORKERS.map((worker): ServiceSpec => ({
        name: worker,
        service: worker,
        env: {
          ...common,
          // The health server on a port the OS picks; the worker logs it with its ready message.
          HTTP_PORT: '0',
          // Several environments on one cluster keep their consumer groups apart too: the prefix before the
          // default group (`signalbox.<stage>`).
          ...(prefix ? { SIGNALBOX_GROUP_ID: `${prefix}signalbox.${worker.replace(/-/g, '_')}` } : {}),
          // The SSRF allow-list names exactly the demo tools' host and port.
          ...(worker === 'executor'
            ? { SIGNALBOX_EXECUTOR_ALLOW_HOSTS: `127.0.0.1:${String(opts.toolsPort)}` }
            : {}),
        },
        readyMessage: 'worker started',
      })),
    ];
    const format = createLineFormatter({ raw: opts.rawLogs === true });
    supervisor = createSupervisor({
      env,
      detached: true,
      onLine: (name, line) => {
        const shown = format(name, line);
        if (shown !== undefined) print(`${shown}\n`);
      },
      onSpawn: (name, pid) => {
        const spec = specs.find((s) => s.name === name);
        pids[name] = { service: spec?.service ?? name, pid };
        writeUpState(env, state());
      },
    });
    const deadline = Date.now() + opts.startTimeout * 1000;
    // The demo tools first: they create and seed their schema, and the executor calls them.
    const [toolsSpec, ...restSpecs] = specs;
    if (toolsSpec) await untilStarted(supervisor.start(toolsSpec), deadline, stop);
    const s = supervisor;
    const rest = restSpecs.map((spec) => s.start(spec));
    await Promise.all(rest.map((p) => untilStarted(p, deadline, stop)));
    await Promise.race([
      supervisor.waitHealthy(Math.max(1000, deadline - Date.now())),
      stop.promise.then(() => {
        throw new Stopped();
      }),
    ]);

    writeDevServer(env, {
      url: apiUrl,
      api_key: apiKey,
      database_url: databaseUrl,
      pid: process.pid,
      started_at: new Date().toISOString(),
    });
    // submit takes the API from SIGNALBOX_API_URL / SIGNALBOX_API_KEY; redrive publishes through Kafka.
    const cliExports = [
      `SIGNALBOX_API_URL=${apiUrl}`,
      `SIGNALBOX_API_KEY=${apiKey}`,
      `KAFKA_BROKERS=${endpoints.kafkaBrokers}`,
      `SCHEMA_REGISTRY_URL=${endpoints.schemaRegistryUrl}`,
      ...(prefix ? [`SIGNALBOX_TOPIC_PREFIX=${prefix}`] : []),
    ];
    const example = DEMO_REQUESTS.find((r) => !opts.registryDir && r.pack === opts.pack);
    const banner = [
      '',
      `Signalbox is up in ${((Date.now() - t0) / 1000).toFixed(1)} s — the real stack: Kafka, the schema registry, PostgreSQL, ${String(specs.length)} processes`,
      `  API      ${apiUrl}/v1`,
      `  viewer   ${apiUrl}/viewer`,
      `  API key  ${apiKey}   (a development key; Authorization: Bearer <key>)`,
      `  registry ${opts.registryDir ? registryDir : `registry/packs/${opts.pack}`}   demo tools ${toolsUrl}`,
      `  trace and redecide find its event log by themselves (recorded in ${devServerFile(env)})`,
      '  the CLI in another terminal (submit, redrive):',
      `    export ${cliExports.join(' ')}`,
      ...(example
        ? [`  try      signalbox submit --agent ${example.agent_id} ${JSON.stringify(example.request)}`]
        : []),
      '  Ctrl-C or `signalbox down` stops it.',
      '',
    ];
    print(`${banner.join('\n')}\n`);

    await stop.promise;
    const notes = await shutdown();
    return {
      exitCode: 0,
      json: { ok: true, url: apiUrl, stopped: true, notes },
      text: notes,
    };
  } catch (error) {
    const notes = await shutdown();
    if (error instanceof Stopped) {
      return { exitCode: 0, json: { ok: true, stopped: true, started: false, notes }, text: notes };
    }
    if (error instanceof UpError) {
      return {
        exitCode: 1,
        json: { ok: false, error: error.message, notes },
        text: [`error: ${error.message}`, ...notes],
      };
    }
    throw error;
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable url>';
  }
}

// --- down -------------------------------------------------------------------------------------------------------

async function waitGone(isAlive: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (isAlive()) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  for (const target of [-pid, pid]) {
    try {
      process.kill(target, signal);
      return;
    } catch {
      // Not a group leader (or gone): try the process itself.
    }
  }
}

/**
 * Stops a running `signalbox up`: SIGTERM to it (it drains its processes in order and stops infrastructure it
 * started), then waits. When it is gone already — killed — or does not stop, its processes are stopped directly
 * (SIGTERM, SIGKILL after the grace period) from the pids it recorded.
 */
export async function down(io: CliIo): Promise<CommandResult> {
  const env = io.env;
  const state = readUpState(env);
  if (!state) {
    return {
      exitCode: 0,
      json: { ok: true, running: false },
      text: [`signalbox up is not running (nothing recorded in ${upStateFile(env)})`],
    };
  }
  const lines: string[] = [];
  let orphans = true;
  if (isUpProcess(state.pid)) {
    io.stderr(`[down] stopping signalbox up (pid ${String(state.pid)}, ${state.url})\n`);
    process.kill(state.pid, 'SIGTERM');
    // Its processes drain one group after another (API, workers, demo tools), infrastructure may stop too.
    if (await waitGone(() => pidAlive(state.pid), 3 * state.grace_ms + 60_000)) {
      lines.push(`stopped signalbox up (pid ${String(state.pid)})`);
      orphans = false;
    } else {
      process.kill(state.pid, 'SIGKILL');
      lines.push(`signalbox up (pid ${String(state.pid)}) did not stop; killed it`);
    }
  } else {
    lines.push(`signalbox up (pid ${String(state.pid)}) is gone; stopping what it left`);
  }
  if (orphans) {
    const left = Object.entries(state.processes).filter(([, p]) => isServiceProcess(p.pid, p.service));
    for (const [, p] of left) signalGroup(p.pid, 'SIGTERM');
    const gone = await Promise.all(
      left.map(async ([name, p]) => {
        if (await waitGone(() => isServiceProcess(p.pid, p.service), state.grace_ms))
          return `${name} stopped`;
        signalGroup(p.pid, 'SIGKILL');
        await waitGone(() => pidAlive(p.pid), 5000);
        return `${name} killed after ${String(state.grace_ms)} ms`;
      }),
    );
    lines.push(...gone);
    if (state.stops_infra) {
      const result = await run('bash', [INFRA_SH, 'stop'], env, (line) => {
        io.stderr(`${line}\n`);
      });
      lines.push(result.code === 0 ? 'stopped infra/local' : 'infra/local/infra.sh stop failed');
    }
    removeDevServer(env, state.pid);
    rmSync(upStateFile(env), { force: true });
  }
  return { exitCode: 0, json: { ok: true, running: true, lines }, text: lines };
}

// --- registration -----------------------------------------------------------------------------------------------

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65_535)
    throw new InvalidArgumentError('expected a TCP port (1-65535)');
  return n;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

export function registerUp(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('up')
    .description(
      'the real stack without Docker: infra/local (started when down), topics + migrations, the five workers, the API ' +
        'and the demo tools as processes, until Ctrl-C or `signalbox down`',
    )
    .option('--port <n>', "the API's port on 127.0.0.1", port, UP_DEFAULT_PORT)
    .option('--tools-port <n>', "the demo tools' port on 127.0.0.1", port, UP_DEFAULT_TOOLS_PORT)
    .option('--pack <name>', `the scenario pack served: ${PACK_NAMES.join(', ')}`, 'after-sales')
    .option('--registry-dir <dir>', 'a registry directory of your own instead of a pack')
    .option('--kafka-brokers <list>', 'host:port[,…] (default: $KAFKA_BROKERS, else infra/local)')
    .option('--schema-registry-url <url>', 'the registry (default: $SCHEMA_REGISTRY_URL, else infra/local)')
    .option('--database-url <url>', 'PostgreSQL (default: $DATABASE_URL, else infra/local)')
    .option(
      '--schema <name>',
      "PostgreSQL schema of the event log and the executor's tables (default: search_path)",
    )
    .option(
      '--topic-prefix <prefix>',
      'namespace of topics, schemas and groups (default: $SIGNALBOX_TOPIC_PREFIX)',
    )
    .option('--api-key <key>', 'the development API key (default: a new random one, printed)')
    .option('--log-level <level>', `LOG_LEVEL of every process: ${LOG_LEVELS.join(', ')}`, 'info')
    .option('--grace-ms <ms>', 'drain time of each process before SIGKILL', count, 30_000)
    .option('--start-timeout <s>', 'how long the processes may take to become ready', count, 180)
    .option('--keep-infra', 'leave infra/local running at the end even when up started it')
    .option('--raw-logs', "print the processes' JSON log lines as they are")
    .action(async (opts: UpOptions) => {
      done(await up(io, { ...opts, json: program.opts<{ json?: boolean }>().json === true }));
    });
  program
    .command('down')
    .description(
      'stop a running `signalbox up`: every process it started (drained, then killed after the grace period) and ' +
        'infra/local when up started it',
    )
    .action(async () => {
      done(await down(io));
    });
}
