// Wiring only: environment → bus, event log, registry → the HTTP API. The routes are in app.ts.
import { basename } from 'node:path';
import { hostname } from 'node:os';
import { createKafkaBus } from '@signalbox/bus';
import { createPgEventStore } from '@signalbox/event-log';
import { createRegistryStore, loadRegistryDir } from '@signalbox/registry';
import { closeOnSignal } from '@signalbox/stage-kit';
import { createLogger, startTelemetry } from '@signalbox/telemetry';
import { createApiApp } from './app.js';
import { loadEnv } from './env.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. Started
// before the app, whose HTTP metrics it exports; closeOnSignal shuts it down last (the last spans and metrics).
await startTelemetry({ service: 'api' });
const env = loadEnv();
const logger = createLogger({ service: 'api', level: env.LOG_LEVEL });
const registry = env.SIGNALBOX_REGISTRY_DIR ? await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR) : undefined;
const registryNames =
  env.SIGNALBOX_REGISTRY_NAMES ?? (env.SIGNALBOX_REGISTRY_DIR ? [basename(env.SIGNALBOX_REGISTRY_DIR)] : []);
const bus = createKafkaBus({
  brokers: env.KAFKA_BROKERS,
  clientId: `api-${hostname()}-${String(process.pid)}`,
  schemaRegistryUrl: env.SCHEMA_REGISTRY_URL,
  topicPrefix: env.SIGNALBOX_TOPIC_PREFIX,
  logger,
});
const store = createPgEventStore({ connectionString: env.DATABASE_URL, logger });
const registryStore = createRegistryStore({ connectionString: env.DATABASE_URL, maxConnections: 2, logger });
const app = createApiApp({
  bus,
  store,
  apiKeys: env.SIGNALBOX_API_KEYS,
  bodyLimitBytes: env.SIGNALBOX_API_BODY_LIMIT_BYTES,
  publishTimeoutMs: env.SIGNALBOX_API_PUBLISH_TIMEOUT_MS,
  ...(registry ? { registry } : {}),
  registryStore,
  registryNames,
  logger,
});
await app.listen({ port: env.HTTP_PORT, host: env.HTTP_HOST });
logger.info({ port: env.HTTP_PORT, tenants: new Set(env.SIGNALBOX_API_KEYS.values()).size }, 'api started');

// SIGTERM: stop accepting, finish in-flight requests, then close the bus and the pools, within DRAIN_TIMEOUT_MS.
closeOnSignal({
  drainTimeoutMs: env.DRAIN_TIMEOUT_MS,
  logger,
  closables: [
    { name: 'http server', close: () => app.close() },
    { name: 'bus', close: () => bus.close() },
    { name: 'event log', close: () => store.close() },
    { name: 'registry store', close: () => registryStore.close() },
  ],
});
