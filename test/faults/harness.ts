// The fault suite's rig: the deployed shape on one machine. Five worker processes, the API and the demo tools, each
// its real services/<name>/src/main.ts in its own Node process with the environment its Deployment gets, on real
// Kafka (a private broker by default, so it can be killed), the shared schema registry and the shared PostgreSQL —
// isolated by a topic prefix, consumer groups and PostgreSQL schemas of their own.
//
//   load ──HTTP──► api ─┐                    ┌──► demo-tools proxy ──► demo-tools ──► PostgreSQL (direct)
//                       ├─► Kafka (private) ◄┤
//   workers ×5 ─────────┘                    └── executor
//   api + workers ──► PostgreSQL proxy ──► PostgreSQL (event log, executor store)
//
// The two proxies are where scenarios cut a dependency: the PostgreSQL server is shared and cannot be stopped, and the
// demo tools are cut at the network, as a backend outage looks to the executor. The demo tools reach PostgreSQL
// directly: they stand for an outside system with its own database, and cutting Signalbox's database must not
// double as a tool outage.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import type pg from 'pg';
import { TOPICS, allTopicNames, deadLetterTopicOf } from '@signalbox/contracts';
import { createKafkaBus, createSchemaRegistry, prefixTopic, registerTopicSchemas } from '@signalbox/bus';
import { createPgEventStore } from '@signalbox/event-log';
import { createIsolatedSchema, uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import {
  createSupervisor,
  type ManagedProcess,
  type ServiceSpec,
  type Supervisor,
} from '@signalbox/cli/supervisor';
import { WORKER_SERVICES, type WorkerService } from '../support/services.js';
import { createPrivateKafka, kafkaLibsDir, type PrivateKafka } from './private-kafka.js';
import { freePort, startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** The five stages as services/ names them, in pipeline order (scenarios.ts picks its victims from them). */
export const WORKERS = WORKER_SERVICES;
export type WorkerName = WorkerService;

const PIPELINE_STAGES = [
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'executor',
  'result_evaluator',
] as const;

export interface RigEndpoints {
  /** The shared broker (used only when `privateBroker` is false). */
  kafkaBrokers: string;
  schemaRegistryUrl: string;
  databaseUrl: string;
}

export interface RigOptions {
  endpoints: RigEndpoints;
  /** Run on a private Kafka (needed to kill the broker). @default true when the Kafka jars are cached */
  privateBroker?: boolean;
  /** The scenario pack the pipeline serves. @default reach */
  pack?: string;
  /** Where process logs go; kept after the run. @default a new folder under the OS temp dir */
  logDir?: string;
  /** Extra environment for every service (e.g. SIGNALBOX_EMBEDDINGS=off). */
  env?: Record<string, string>;
  /** Progress lines (stderr in the CLI). */
  log?: (line: string) => void;
}

export interface Rig {
  prefix: string;
  schema: IsolatedSchema;
  executorSchema: string;
  demoSchema: string;
  apiUrl: string;
  apiKey: string;
  brokers: string;
  kafka: PrivateKafka | undefined;
  pgProxy: TcpProxy;
  toolsProxy: TcpProxy;
  supervisor: Supervisor;
  logDir: string;
  /** The direct (not proxied) pool on the rig's event-log schema, for the checker. */
  db: pg.Pool;
  /** Starts another replica of a stage in the same consumer group (`<worker>+<n>`). */
  addReplica(worker: WorkerName): ManagedProcess;
  /** The processes of the deployed shape and any extra replicas now running. */
  processes(): ManagedProcess[];
  /** Waits until every running process logged ready and answers its readiness probe. */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Messages on the five dead-letter topics (sum of high watermarks). */
  deadLetterCount(): Promise<number>;
  close(): Promise<void>;
}

/** sha256 hex, as SIGNALBOX_API_KEYS wants each key. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function withSearchPath(base: string, schema: string, hostPort?: { host: string; port: number }): string {
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  if (hostPort) {
    url.hostname = hostPort.host;
    url.port = String(hostPort.port);
  }
  return url.toString();
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const log = options.log ?? (() => undefined);
  const pack = options.pack ?? 'reach';
  const { endpoints } = options;
  const privateBroker = options.privateBroker ?? kafkaLibsDir() !== undefined;
  const logDir = options.logDir ?? (await mkdtemp(join(tmpdir(), 'signalbox-faults-logs-')));
  await mkdir(logDir, { recursive: true });
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  };

  try {
    const schema = await createIsolatedSchema(endpoints.databaseUrl, 'faults');
    const executorSchema = `${schema.name}_executor`;
    const demoSchema = `${schema.name}_demo`;
    cleanups.push(async () => {
      await schema.pool.query(`DROP SCHEMA IF EXISTS "${executorSchema}" CASCADE`);
      await schema.pool.query(`DROP SCHEMA IF EXISTS "${demoSchema}" CASCADE`);
      await schema.drop();
    });
    const store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
    await store.migrate();
    await store.close();

    let kafka: PrivateKafka | undefined;
    let brokers = endpoints.kafkaBrokers;
    if (privateBroker) {
      const runDir = await mkdtemp(join(tmpdir(), 'signalbox-faults-kafka-'));
      kafka = createPrivateKafka({ dir: runDir, port: await freePort(), controllerPort: await freePort() });
      const k = kafka;
      cleanups.push(() => k.destroy());
      const t = Date.now();
      await kafka.start();
      brokers = kafka.brokers;
      log(`private Kafka on ${brokers} ready in ${String(Date.now() - t)} ms (run dir ${runDir})`);
    }

    const prefix = `${uniqueName('faults')}.`;
    const bus = createKafkaBus({
      brokers: brokers.split(','),
      clientId: 'faults-setup',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
      autoRegisterSchemas: true,
    });
    await bus.ensureTopics(allTopicNames());
    // Deploy-time step (`signalbox topics create`): the services do not register schemas themselves.
    await registerTopicSchemas(
      createSchemaRegistry({ url: endpoints.schemaRegistryUrl }),
      Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
    );
    await bus.close();

    const pgUrl = new URL(endpoints.databaseUrl);
    const pgProxy = await startTcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    cleanups.push(() => pgProxy.close());
    const proxiedDb = withSearchPath(endpoints.databaseUrl, schema.name, {
      host: '127.0.0.1',
      port: pgProxy.port,
    });

    // The demo tools: direct PostgreSQL, their own schema, behind the tools proxy.
    const toolsPort = await freePort();
    const toolsProxy = await startTcpProxy({ host: '127.0.0.1', port: toolsPort });
    cleanups.push(() => toolsProxy.close());

    // The pipeline runs deterministic: a model endpoint in the caller's environment is not handed on.
    const supervisor = createSupervisor({
      logDir,
      withoutEnv: ['SIGNALBOX_LLM_BASE_URL', 'SIGNALBOX_LLM_API_KEY'],
    });
    cleanups.push(() => supervisor.stopAll());
    const toolsUrl = `http://127.0.0.1:${String(toolsProxy.port)}`;
    const common = {
      KAFKA_BROKERS: brokers,
      SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
      DATABASE_URL: proxiedDb,
      SIGNALBOX_TOPIC_PREFIX: prefix,
      SIGNALBOX_REGISTRY_DIR: `registry/packs/${pack}`,
      SIGNALBOX_DEMO_TOOLS_URL: toolsUrl,
      ...options.env,
    };
    const specs: ServiceSpec[] = [
      {
        name: 'demo-tools',
        service: 'demo-tools',
        env: {
          DATABASE_URL: endpoints.databaseUrl,
          DEMO_TOOLS_SCHEMA: demoSchema,
          HTTP_PORT: String(toolsPort),
          ...options.env,
        },
        readyMessage: 'demo-tools listening',
        healthPort: toolsPort,
        livenessPath: '/healthz',
        readinessPath: '/healthz',
      },
    ];
    const apiKey = `sk-faults-${randomBytes(12).toString('hex')}`;
    const apiPort = await freePort();
    specs.push({
      name: 'api',
      service: 'api',
      env: {
        ...common,
        HTTP_PORT: String(apiPort),
        SIGNALBOX_API_KEYS: JSON.stringify({ [sha256(apiKey)]: 'default' }),
      },
      readyMessage: 'api started',
      healthPort: apiPort,
    });
    const workerEnv = (worker: WorkerName): Record<string, string> => ({
      ...common,
      HTTP_PORT: '0',
      SIGNALBOX_GROUP_ID: `${prefix}${worker}`,
      ...(worker === 'executor'
        ? {
            SIGNALBOX_EXECUTOR_SCHEMA: executorSchema,
            // The SSRF allow-list names exactly the tools proxy's host and port.
            SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(toolsUrl).host,
          }
        : {}),
    });
    for (const worker of WORKERS) {
      specs.push({ name: worker, service: worker, env: workerEnv(worker), readyMessage: 'worker started' });
    }
    const t = Date.now();
    // The demo tools migrate their schema first; the executor migrates its own at start.
    const tools = supervisor.start(specs[0]!);
    await withDeadline(tools.ready(), 90_000, () => `demo-tools did not start:\n${tools.tail()}`);
    const started = specs.slice(1).map((s) => supervisor.start(s));
    for (const p of started) {
      await withDeadline(p.ready(), 120_000, () => `${p.name} did not start:\n${p.tail()}`);
    }
    log(`7 processes ready in ${String(Date.now() - t)} ms (logs in ${logDir})`);
    if (kafka) {
      const k = kafka;
      supervisor.track('kafka', () => k.pid());
    }

    const replicas = new Map<WorkerName, number>();
    const apiUrl = `http://127.0.0.1:${String(apiPort)}`;
    const rig: Rig = {
      prefix,
      schema,
      executorSchema,
      demoSchema,
      apiUrl,
      apiKey,
      brokers,
      kafka,
      pgProxy,
      toolsProxy,
      supervisor,
      logDir,
      db: schema.pool,
      addReplica(worker) {
        const n = (replicas.get(worker) ?? 0) + 1;
        replicas.set(worker, n);
        return supervisor.start({
          name: `${worker}+${String(n)}`,
          service: worker,
          env: workerEnv(worker),
          readyMessage: 'worker started',
        });
      },
      processes: () => supervisor.all(),
      async waitHealthy(timeoutMs = 120_000) {
        try {
          await supervisor.waitHealthy(timeoutMs);
        } catch (error) {
          throw new Error(`the rig is ${(error as Error).message}`);
        }
      },
      async deadLetterCount() {
        const client = new Kafka({
          clientId: 'faults-dlq',
          brokers: brokers.split(','),
          logLevel: logLevel.NOTHING,
          connectionTimeout: 3000,
        });
        const admin = client.admin();
        await admin.connect();
        try {
          let total = 0;
          for (const stage of PIPELINE_STAGES) {
            const offsets = await admin.fetchTopicOffsets(`${prefix}${deadLetterTopicOf(stage)}`);
            for (const o of offsets) total += Number(o.high);
          }
          return total;
        } finally {
          await admin.disconnect();
        }
      },
      close: cleanup,
    };
    return rig;
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function withDeadline<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(new Error(message()));
        }, ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Removes the log folder of a run that passed (kept when something failed, for the report). */
export async function removeLogs(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}
