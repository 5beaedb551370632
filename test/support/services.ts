import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { testEndpoints } from '@signalbox/test-support';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The five stages as services/ names them, in pipeline order. */
export const WORKER_SERVICES = [
  'model-selector',
  'tool-decider',
  'parameter-injector',
  'executor',
  'result-evaluator',
] as const;
export type WorkerService = (typeof WORKER_SERVICES)[number];

/** Where a worker finds the test's infrastructure: Kafka, the schema registry, its schema, its topic prefix, its registry. */
export interface WorkerEnvOptions {
  /** The test's topic prefix (ending in `.`). */
  prefix: string;
  /** The test's PostgreSQL schema (the worker connects through its `url`). */
  schema: { url: string };
  /** The registry folder the worker loads, relative to the repository root or absolute. */
  registryDir: string;
}

/** The environment every worker of a test shares (a test adds its group ids and per-service settings). */
export function workerEnv(options: WorkerEnvOptions): Record<string, string> {
  const endpoints = testEndpoints();
  return {
    KAFKA_BROKERS: endpoints.kafkaBrokers,
    SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
    DATABASE_URL: options.schema.url,
    SIGNALBOX_TOPIC_PREFIX: options.prefix,
    SIGNALBOX_REGISTRY_DIR: options.registryDir,
    // The least the stages accept (the default is 10 s): a worker that is gone gives its partitions up sooner.
    KAFKA_SESSION_TIMEOUT_MS: '6000',
  };
}

/** A service's real `src/main.ts` running as a child process. */
export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  /** Resolves when the worker logged `worker started`; rejects if it exits first. */
  started: Promise<void>;
  output(): string;
}

/** How long a worker may take to start (tsx compile, registry load, consumer join) on a loaded machine. */
const STARTUP_DEADLINE_MS = 60_000;

/**
 * Starts `services/<service>/src/main.ts` with the given extra environment, from the repository root. The
 * deterministic paths run: no LLM endpoint of this machine reaches the child (a test may pass one explicitly).
 */
export function startServiceProcess(service: string, env: Record<string, string>): ServiceProcess {
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.SIGNALBOX_LLM_BASE_URL;
  delete inherited.SIGNALBOX_LLM_API_KEY;
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', `services/${service}/src/main.ts`],
    {
      cwd: root,
      env: { ...inherited, LOG_LEVEL: 'info', HTTP_PORT: '0', HTTP_HOST: '127.0.0.1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let markStarted: () => void = () => undefined;
  let deadline: NodeJS.Timeout | undefined;
  const started = new Promise<void>((resolve, reject) => {
    markStarted = () => {
      clearTimeout(deadline);
      resolve();
    };
    child.once('exit', (code) => {
      clearTimeout(deadline);
      reject(new Error(`${service} exited (${String(code)}) before it started:\n${out}`));
    });
    // A worker stuck in its startup fails the caller with what it logged, instead of a bare test timeout.
    deadline = setTimeout(() => {
      reject(
        new Error(
          `${service} did not log "worker started" within ${String(STARTUP_DEADLINE_MS)} ms:\n${out}`,
        ),
      );
    }, STARTUP_DEADLINE_MS);
    deadline.unref();
  });
  // A caller that stops a service before awaiting `started` must not see an unhandled rejection.
  started.catch(() => undefined);
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    if (out.includes('worker started')) markStarted();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  return { name: service, child, started, output: () => out };
}

/** SIGTERM, then SIGKILL if the worker has not drained within `graceMs`. */
export async function stopServiceProcess(service: ServiceProcess, graceMs = 15_000): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const state = { exited: false };
  const exited = new Promise<void>((resolve) => {
    service.child.once('exit', () => {
      state.exited = true;
      resolve();
    });
  });
  service.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  if (!state.exited) service.child.kill('SIGKILL');
}
