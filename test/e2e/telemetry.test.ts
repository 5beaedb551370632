// Issue 21 (operability): OpenTelemetry through the real mains. The API, the five workers and the demo tools run as
// their own processes (each service's src/main.ts) on real Kafka + schema registry + PostgreSQL, exporting over
// OTLP/HTTP (JSON) to a receiver in this process. One task is submitted through the API; the assertion is that the
// spans of all five stages arrived with exactly one trace id — the one the API gave the task — forming one tree,
// each under its service's name, and that every main exported its metrics. Batches and metric exports are set far
// beyond the test's life, so everything that arrives was flushed by the SIGTERM shutdown of each process.
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, allTopicNames } from '@signalbox/contracts';
import { createKafkaBus, createSchemaRegistry, prefixTopic, registerTopicSchemas } from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import { RUNTIME_METRICS, parseTraceparent } from '@signalbox/telemetry';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '@signalbox/telemetry/testing';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import { startServiceProcess, stopServiceProcess, type ServiceProcess } from '../support/services.js';
import { finishedEvents } from '../support/e2e-tasks.js';
import { waitFor } from '../support/workers.js';

const endpoints = testEndpoints();
const API_KEY = 'sk-telemetry-e2e-0123456789';
/** Stage name (the span's `signalbox.stage`) → the service whose main runs it (its default `service.name`). */
const STAGES = {
  model_selector: 'model-selector',
  tool_decider: 'tool-decider',
  parameter_injector: 'parameter-injector',
  executor: 'executor',
  result_evaluator: 'result-evaluator',
} as const;
const WORKERS: readonly string[] = Object.values(STAGES);
const ALL_SERVICES = ['api', 'demo-tools', ...WORKERS].sort();

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

describe('OpenTelemetry across the real mains: one task, one trace, five stages', () => {
  let receiver: OtlpReceiver;
  let schema: IsolatedSchema;
  let store: EventStore;
  let apiUrl: string;
  let processes: ServiceProcess[] = [];
  const exits = new Map<string, { code: number | null; signal: NodeJS.Signals | null }>();

  const logs = () => processes.map((p) => `--- ${p.name}\n${p.output().slice(-3000)}`).join('\n');

  async function stopAll(): Promise<void> {
    await Promise.all(
      processes.map(async (p) => {
        await stopServiceProcess(p, 30_000);
        exits.set(p.name, { code: p.child.exitCode, signal: p.child.signalCode });
      }),
    );
  }

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    schema = await createIsolatedSchema(endpoints.databaseUrl, 'e2e_otel');
    store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
    await store.migrate();
    const prefix = `${uniqueName('e2eotel')}.`;
    const bus = createKafkaBus({
      brokers: endpoints.kafkaBrokers.split(','),
      clientId: 'e2e-otel',
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
    });
    await bus.ensureTopics(allTopicNames());
    await bus.close();
    // Deploy-time step: the services do not auto-register schemas.
    await registerTopicSchemas(
      createSchemaRegistry({ url: endpoints.schemaRegistryUrl }),
      Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
    );

    const [apiPort, demoPort] = [await freePort(), await freePort()];
    apiUrl = `http://127.0.0.1:${String(apiPort)}`;
    const demoUrl = `http://127.0.0.1:${String(demoPort)}`;
    const otel = {
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Nothing is exported before shutdown: what the receiver holds is what each SIGTERM flushed.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
      OTEL_METRIC_EXPORT_INTERVAL: '600000',
    };
    const pipeline = {
      ...otel,
      KAFKA_BROKERS: endpoints.kafkaBrokers,
      SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
      DATABASE_URL: schema.url,
      SIGNALBOX_TOPIC_PREFIX: prefix,
      SIGNALBOX_REGISTRY_DIR: 'registry/packs/after-sales',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
      SIGNALBOX_DEMO_TOOLS_URL: demoUrl,
      SIGNALBOX_EXECUTOR_SCHEMA: `${schema.name}_executor`,
      SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(demoUrl).host,
      // The lexical decider: this test is about the telemetry, not the embedding model, and the machine is shared.
      SIGNALBOX_EMBEDDINGS: 'off',
    };
    processes = [
      startServiceProcess('demo-tools', {
        ...otel,
        DATABASE_URL: endpoints.databaseUrl,
        DEMO_TOOLS_SCHEMA: `${schema.name}_demo`,
        HTTP_PORT: String(demoPort),
      }),
      startServiceProcess('api', {
        ...pipeline,
        HTTP_PORT: String(apiPort),
        SIGNALBOX_API_KEYS: JSON.stringify({
          [createHash('sha256').update(API_KEY).digest('hex')]: 'tenant-otel',
        }),
      }),
      ...WORKERS.map((s) => startServiceProcess(s, { ...pipeline, SIGNALBOX_GROUP_ID: uniqueName(s) })),
    ];
    try {
      // The workers log "worker started" once consuming; the API and the demo tools answer their probes.
      await Promise.all(processes.filter((p) => WORKERS.includes(p.name)).map((p) => p.started));
      await waitFor(() => answers(`${apiUrl}/readyz`), 'the API to be ready', 60_000);
      await waitFor(() => answers(`${demoUrl}/healthz`), 'the demo tools to be ready', 60_000);
    } catch (error) {
      await stopAll();
      throw new Error(`${String(error)}\n${logs()}`);
    }
  });

  afterAll(async () => {
    await stopAll();
    await receiver.close();
    await store.close();
    await schema.pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_demo" CASCADE`);
    await schema.pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_executor" CASCADE`);
    await schema.drop();
  });

  it('the receiver gets the spans of all five stages with the one trace id the API gave the task', async () => {
    const submitted = await fetch(`${apiUrl}/v1/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        request: 'My order 1234 is late and I want a refund.',
        agent_id: 'refund_agent',
        reference_time: '2026-11-30T09:00:00.000Z',
      }),
    });
    expect(submitted.status, await submitted.clone().text()).toBe(202);
    const taskId = ((await submitted.json()) as { task_id: string }).task_id;

    const events = await finishedEvents(store, taskId, 60_000, logs);
    const stagesInLog = new Set(events.map((e) => e.envelope.stage));
    const path = events.map(
      (e) => `${e.envelope.stage}:${e.envelope.event_type} (${e.envelope.decision_reason})`,
    );
    expect([...stagesInLog].sort(), path.join('\n')).toEqual(['api', ...Object.keys(STAGES)].sort());

    // SIGTERM every process: each drains, flushes its SDK, and exits 0 (not killed at the grace deadline).
    await stopAll();
    for (const name of ALL_SERVICES)
      expect(exits.get(name), `${name}\n${logs()}`).toEqual({ code: 0, signal: null });

    const root = parseTraceparent(events.find((e) => e.envelope.stage === 'api')?.envelope.traceparent ?? '');
    expect(root, 'the API gave the task a traceparent').toBeDefined();
    const spans: ReceivedSpan[] = receiver
      .spans()
      .filter((s) => s.attributes['signalbox.task_id'] === taskId);

    // All five stages, exactly one trace id: the submission's.
    expect([...new Set(spans.map((s) => s.attributes['signalbox.stage']))].sort()).toEqual(
      Object.keys(STAGES).sort(),
    );
    expect([...new Set(spans.map((s) => s.traceId))]).toEqual([root?.traceId]);
    // Each under its own service's name, as a CONSUMER span of the stage runtime.
    for (const span of spans) {
      expect(span.service).toBe(STAGES[span.attributes['signalbox.stage'] as keyof typeof STAGES]);
      expect(span).toMatchObject({ scope: 'signalbox.stage-kit', kind: 5 });
    }
    // One tree: every span's parent is the submission or another span of the task.
    const ids = new Set(spans.map((s) => s.spanId));
    for (const span of spans) {
      expect(span.parentSpanId === root?.spanId || ids.has(span.parentSpanId ?? ''), span.name).toBe(true);
    }
    expect(spans.filter((s) => s.parentSpanId === root?.spanId).map((s) => s.name)).toEqual([
      'model_selector process',
    ]);
    // One span per decision, and each decision in the log carries its span's context.
    const decisions = events.filter((e) => e.envelope.stage !== 'api');
    expect(spans).toHaveLength(decisions.length);
    for (const event of decisions) {
      expect(ids.has(parseTraceparent(event.envelope.traceparent ?? '')?.spanId ?? '')).toBe(true);
    }

    // Metrics: the API's request duration by route and status code, and every main's runtime metrics.
    const points = receiver.points();
    const submitPoint = points.find(
      (p) =>
        p.service === 'api' &&
        p.metric === 'http.server.request.duration' &&
        p.attributes['http.route'] === '/v1/tasks',
    );
    expect(submitPoint).toMatchObject({
      unit: 's',
      count: 1,
      attributes: { 'http.request.method': 'POST', 'http.response.status_code': 202 },
    });
    const reporting = new Set(
      points
        .filter((p) => p.metric === RUNTIME_METRICS.memoryUsage && (p.value ?? 0) > 0)
        .map((p) => p.service),
    );
    expect([...reporting].sort()).toEqual(ALL_SERVICES);
  }, 180_000);
});
