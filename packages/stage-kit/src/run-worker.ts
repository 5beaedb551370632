import { hostname } from 'node:os';
import { createKafkaBus, type Bus } from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import { createLogger, createStageMetrics } from '@signalbox/telemetry';
import type { StageDefinition } from './decision.js';
import type { StageEnv } from './env.js';
import { startHealthServer, type HealthServer } from './health-server.js';
import { closeOnSignal, type Closable, type ShutdownOutcome } from './shutdown.js';
import { createStageRuntime, type StageRuntime } from './stage-runtime.js';

/** What {@link runStageWorker} needs: the stage, its parsed environment and the service name for logs. */
export interface StageWorkerOptions {
  service: string;
  definition: StageDefinition;
  env: StageEnv;
  /** Run the event-log migrations at start (development; production runs the migration job). @default false */
  migrate?: boolean;
  /**
   * What the service's decisions use besides the bus and the event log (tool clients, its own stores), closed in
   * this order on shutdown: after the stage runtime has drained and committed, before the bus and the event log.
   * The worker owns SIGTERM: a service adds no signal listener of its own. @default none
   */
  closables?: readonly Closable[];
}

/** A running stage worker. */
export interface StageWorker {
  runtime: StageRuntime;
  health: HealthServer;
  /** Drains and closes everything; resolves when done or when the drain timeout passed. */
  shutdown(reason: string): Promise<ShutdownOutcome>;
}

/**
 * The `main` of every stage service: Kafka bus, PostgreSQL event log, logger, metrics, the stage runtime and the
 * liveness/readiness/metrics server, with SIGTERM/SIGINT draining within `DRAIN_TIMEOUT_MS` (OP-3): the runtime
 * stops and commits, then the service's `closables`, the bus, the event log and the health server close, in order.
 */
export async function runStageWorker(options: StageWorkerOptions): Promise<StageWorker> {
  const { env, definition, service } = options;
  const logger = createLogger({ service, level: env.LOG_LEVEL });
  const metrics = createStageMetrics({ stage: definition.stage });
  const bus: Bus = createKafkaBus({
    brokers: env.KAFKA_BROKERS,
    clientId: `${service}-${hostname()}-${String(process.pid)}`,
    schemaRegistryUrl: env.SCHEMA_REGISTRY_URL,
    topicPrefix: env.SIGNALBOX_TOPIC_PREFIX,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: Math.max(1000, Math.floor(env.KAFKA_SESSION_TIMEOUT_MS / 5)),
    commitIntervalMs: env.KAFKA_COMMIT_INTERVAL_MS,
    maxWaitTimeMs: env.KAFKA_MAX_WAIT_MS,
    lingerMs: env.KAFKA_LINGER_MS,
    logger,
  });
  const store: EventStore = createPgEventStore({
    connectionString: env.DATABASE_URL,
    appendLingerMs: env.EVENT_LOG_APPEND_LINGER_MS,
  });
  if (options.migrate) await store.migrate();
  const runtime = createStageRuntime({
    definition,
    bus,
    store,
    groupId: env.SIGNALBOX_GROUP_ID ?? `signalbox.${definition.stage}`,
    concurrency: env.STAGE_CONCURRENCY,
    partitionsConcurrently: env.PARTITIONS_CONCURRENTLY,
    modelConcurrency: env.MODEL_CONCURRENCY,
    logger,
    observer: {
      onMessage(outcome, seconds, decision) {
        const eventType = decision?.event_type ?? 'failed';
        metrics.recordMessage(eventType, outcome === 'decided' ? 'ok' : outcome, seconds);
        if (outcome === 'dead_lettered') metrics.recordDeadLetter('handler_failed');
      },
      onRetry(what) {
        metrics.recordRetry(what === 'decide' ? 'transient' : 'event_log');
      },
      onInFlight(count) {
        metrics.setInFlight(count);
      },
    },
  });
  const health = await startHealthServer({
    port: env.HTTP_PORT,
    host: env.HTTP_HOST,
    live: () => runtime.state !== 'failed',
    ready: () => runtime.isReady(),
    metrics: () => metrics.metricsText(),
    status: () => ({ service, stage: definition.stage, state: runtime.state, ready: runtime.isReady() }),
  });
  await runtime.start();
  logger.info({ port: health.port, stage: definition.stage }, 'worker started');

  const shutdown = closeOnSignal({
    drainTimeoutMs: env.DRAIN_TIMEOUT_MS,
    logger,
    closables: [
      { name: 'stage runtime', close: () => runtime.stop() },
      ...(options.closables ?? []),
      { name: 'bus', close: () => bus.close() },
      { name: 'event log', close: () => store.close() },
      // Last: the probes answer while the stage drains (readiness already false).
      { name: 'health server', close: () => health.close() },
    ],
  });
  return { runtime, health, shutdown: (reason) => shutdown.shutdown(reason) };
}
