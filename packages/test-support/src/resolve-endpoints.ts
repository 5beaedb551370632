import { spawnSync } from 'node:child_process';
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
  const resolved = startLocal(env);
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

function runInfra(command: 'start' | 'stop' | 'status', env: NodeJS.ProcessEnv) {
  return spawnSync('bash', [infraScript, command], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', command === 'status' ? 'pipe' : 'inherit'],
  });
}

function startLocal(env: NodeJS.ProcessEnv): Omit<ResolvedInfrastructure, 'readySeconds'> {
  const wasRunning = runInfra('status', env).status === 0;
  const res = runInfra('start', env);
  if (res.error || res.status !== 0) {
    if (!wasRunning) runInfra('stop', env);
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
    throw new Error(`infra/local start printed no endpoints: ${res.stdout}`);
  }
  return {
    endpoints: endpoints(KAFKA_BROKERS, SCHEMA_REGISTRY_URL, DATABASE_URL, 'infra/local'),
    release: () => {
      // Infrastructure a developer started by hand stays up; what this run started is stopped.
      if (!wasRunning) runInfra('stop', env);
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
