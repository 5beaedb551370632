import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type EndpointSource, type TestEndpoints } from './endpoints.js';

/** What the resolver found, and how to give it back when the run ends. */
export interface ResolvedInfrastructure {
  endpoints: TestEndpoints;
  /** Stops what this run started; a no-op for infrastructure it found already running. */
  release(): Promise<void>;
  /** Seconds spent bringing the infrastructure up. */
  readySeconds: number;
}

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const infraScript = `${repoRoot}infra/local/infra.sh`;

const INSTALL_HINT =
  'Install Java 17+ and Apache Maven (infra/local runs Kafka and Apicurio from Maven Central) and PostgreSQL, ' +
  'or a Docker engine (testcontainers), or point KAFKA_BROKERS, SCHEMA_REGISTRY_URL and DATABASE_URL at running services.';

/**
 * Finds real infrastructure for a test run, in this order:
 * 1. the environment (`KAFKA_BROKERS` + `SCHEMA_REGISTRY_URL`, and `DATABASE_URL`),
 * 2. testcontainers, when a Docker engine answers,
 * 3. `infra/local` (JVM processes from Maven Central + the local PostgreSQL).
 * Throws with what to install when none works.
 */
export async function resolveInfrastructure(
  env: NodeJS.ProcessEnv = process.env,
): Promise<ResolvedInfrastructure> {
  const started = Date.now();
  const readySeconds = () => Math.round((Date.now() - started) / 100) / 10;
  if (env.KAFKA_BROKERS && env.SCHEMA_REGISTRY_URL && env.DATABASE_URL) {
    return {
      endpoints: endpoints(env.KAFKA_BROKERS, env.SCHEMA_REGISTRY_URL, env.DATABASE_URL, 'environment'),
      release: () => Promise.resolve(),
      readySeconds: readySeconds(),
    };
  }
  if (dockerAnswers()) {
    const resolved = await startContainers(env.DATABASE_URL);
    return { ...resolved, readySeconds: readySeconds() };
  }
  const resolved = await startLocal(env);
  return { ...resolved, readySeconds: readySeconds() };
}

function endpoints(
  kafkaBrokers: string,
  schemaRegistryUrl: string,
  databaseUrl: string,
  source: EndpointSource,
): TestEndpoints {
  return { kafkaBrokers, schemaRegistryUrl, databaseUrl, source };
}

function dockerAnswers(): boolean {
  const res = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], {
    timeout: 5000,
    encoding: 'utf8',
  });
  return res.status === 0 && res.stdout.trim().length > 0;
}

function runInfra(command: 'stop', env: NodeJS.ProcessEnv) {
  return spawnSync('bash', [infraScript, command], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** `infra.sh start`, its progress passed on to stderr as it comes and kept, to tell what it started. */
function startInfra(
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; log: string; error?: Error }> {
  return new Promise((resolve) => {
    const child = spawn('bash', [infraScript, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let log = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      process.stderr.write(chunk);
    });
    child.once('error', (error) => {
      resolve({ status: null, stdout, log, error });
    });
    child.once('close', (status) => {
      resolve({ status, stdout, log });
    });
  });
}

/** What one `infra.sh start` did, read from its log lines: what it started, and what was running before it. */
export interface LocalStart {
  /** Components this start launched (`kafka`, `registry`, `postgres`). */
  started: string[];
  /** Components `infra.sh stop` would stop that were running already (started by hand or by another run). */
  alreadyRunning: string[];
  /**
   * True when this run may stop infra/local when it ends: it started something, and everything `infra.sh stop` stops
   * was started by it. `stop` cannot stop one component alone, so a run that found any of them running stops none.
   */
  stopOnRelease: boolean;
}

/**
 * Reads `infra.sh start`'s log (stderr). The script says `starting kafka on …`, `starting apicurio registry on …`,
 * `starting postgres on …` for what it launches, and `kafka already running`, `registry already running`,
 * `postgres (started here) is running` for what it found; a PostgreSQL that answers at DATABASE_URL (`postgres answers
 * at …`) is not the script's and `stop` leaves it alone. Nothing else counts: whether `status` failed before says
 * nothing about who started what (it fails for a missing probe dependency or a slow answer too).
 */
export function readLocalStart(log: string): LocalStart {
  const lines = log.split('\n').map((l) => l.replace(/^\[infra\]\s*/, '').trim());
  const started: string[] = [];
  const alreadyRunning: string[] = [];
  const patterns: [string, RegExp, RegExp][] = [
    ['kafka', /^starting kafka on /, /^kafka already running$/],
    ['registry', /^starting apicurio registry on /, /^registry already running$/],
    ['postgres', /^starting postgres on /, /^postgres \(started here\) is running$/],
  ];
  for (const [name, start, running] of patterns) {
    if (lines.some((l) => start.test(l))) started.push(name);
    else if (lines.some((l) => running.test(l))) alreadyRunning.push(name);
  }
  return { started, alreadyRunning, stopOnRelease: started.length > 0 && alreadyRunning.length === 0 };
}

async function startLocal(env: NodeJS.ProcessEnv): Promise<Omit<ResolvedInfrastructure, 'readySeconds'>> {
  const res = await startInfra(env);
  // Only what this run started is stopped again — never infra that was running before it (see readLocalStart).
  const own = readLocalStart(res.log);
  const stopOwn = () => {
    if (own.stopOnRelease) runInfra('stop', env);
    else if (own.started.length > 0)
      console.warn(
        `[signalbox:test] infra/local: this run started ${own.started.join(', ')} but ${own.alreadyRunning.join(', ')} ` +
          'was running before it; infra.sh stop would stop both, so everything is left running',
      );
  };
  if (res.error || res.status !== 0) {
    stopOwn();
    throw new Error(
      `infra/local could not start real Kafka, the schema registry and PostgreSQL (exit ${String(res.status)}` +
        `${res.error ? `: ${res.error.message}` : ''}); logs are in infra/local/.run/logs. ${INSTALL_HINT}`,
    );
  }
  const exported = Object.fromEntries(
    [...res.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1] ?? '', m[2] ?? '']),
  );
  const { KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL } = exported;
  if (!KAFKA_BROKERS || !SCHEMA_REGISTRY_URL || !DATABASE_URL) {
    stopOwn();
    throw new Error(`infra/local start printed no endpoints: ${res.stdout}`);
  }
  return {
    endpoints: endpoints(KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL, 'infra/local'),
    release: () => {
      stopOwn();
      return Promise.resolve();
    },
  };
}

async function startContainers(
  databaseUrl: string | undefined,
): Promise<Omit<ResolvedInfrastructure, 'readySeconds'>> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const { KafkaContainer } = await import('@testcontainers/kafka');
  const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
  const [kafka, registry, postgres] = await Promise.all([
    new KafkaContainer('confluentinc/cp-kafka:7.9.0').withKraft().start(),
    new GenericContainer('apicurio/apicurio-registry:3.3.3')
      .withExposedPorts(8080)
      .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080).forStatusCode(200))
      .start(),
    databaseUrl ? Promise.resolve(undefined) : new PostgreSqlContainer('postgres:16-alpine').start(),
  ]);
  return {
    endpoints: endpoints(
      `${kafka.getHost()}:${String(kafka.getMappedPort(9093))}`,
      `http://${registry.getHost()}:${String(registry.getMappedPort(8080))}/apis/ccompat/v7`,
      databaseUrl ?? postgres?.getConnectionUri() ?? '',
      'testcontainers',
    ),
    release: async () => {
      await Promise.all([kafka.stop(), registry.stop(), postgres?.stop()]);
    },
  };
}

export { INSTALL_HINT };
