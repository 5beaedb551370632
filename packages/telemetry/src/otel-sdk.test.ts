// The SDK as the mains start it, against a local OTLP/HTTP receiver (JSON): what is exported, under which
// service name, with which trace ids, and that process.exit waits for the last export.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { metrics, propagation, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpServerMetrics } from './http-metrics.js';
import { otlpSignals, startTelemetry, type Telemetry } from './otel-sdk.js';
import { RUNTIME_METRICS } from './runtime-metrics.js';
import { withConsumerSpan, withProducerSpan } from './spans.js';
import { startOtlpReceiver, type OtlpReceiver } from './testing.js';
import { parseTraceparent } from './traceparent.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;
/** OTLP's span kinds are the API's plus one (0 is UNSPECIFIED there). */
const OTLP_PRODUCER = 4;
const OTLP_CONSUMER = 5;

const OTEL_VARIABLES = [
  'OTEL_SDK_DISABLED',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
  'OTEL_METRICS_EXPORTER',
  'OTEL_SERVICE_NAME',
  'OTEL_RESOURCE_ATTRIBUTES',
  'OTEL_TRACES_SAMPLER',
  'OTEL_TRACES_SAMPLER_ARG',
  'OTEL_PROPAGATORS',
  'OTEL_LOG_LEVEL',
];

let receiver: OtlpReceiver;
let telemetry: Telemetry | undefined;

beforeEach(async () => {
  for (const name of OTEL_VARIABLES) vi.stubEnv(name, undefined);
  // JSON, which the receiver decodes; exports only when flushed, so what arrives is what shutdown sent.
  vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http/json');
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '600000');
  vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '600000');
  vi.stubEnv('LOG_LEVEL', 'silent');
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await telemetry?.shutdown();
  telemetry = undefined;
  vi.unstubAllEnvs();
  await receiver.close();
});

describe('otlpSignals', () => {
  it.each([
    [{}, false, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false, false],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true, false],
    [{ OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: 'http://collector:4318/v1/metrics' }, false, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }, false, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_METRICS_EXPORTER: 'None' }, true, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }, false, false],
  ])('%j → traces %s, metrics %s', (env, traces, metricsOn) => {
    expect(otlpSignals(env)).toEqual({ traces, metrics: metricsOn });
  });
});

describe('startTelemetry', () => {
  it('without an endpoint starts nothing: spans do not record, no propagator or meter provider is registered', async () => {
    telemetry = await startTelemetry({ service: 'quiet' });
    expect(telemetry).toMatchObject({ traces: false, metrics: false });
    const span = trace.getTracer('t').startSpan('s');
    expect(span.isRecording()).toBe(false);
    span.end();
    expect(propagation.fields()).toEqual([]);
    expect(metrics.getMeterProvider()).not.toBeInstanceOf(MeterProvider);
    await telemetry.shutdown();
    expect(receiver.requests()).toEqual({});
  });

  it('exports spans that continue the message trace, under the service name, and the HTTP and runtime metrics', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    telemetry = await startTelemetry({ service: 'tool-decider', flushOnExit: false });
    expect(telemetry).toMatchObject({ traces: true, metrics: true });

    // As a stage handles a message: a CONSUMER span from the incoming traceparent, a PRODUCER span for the next hop.
    const sent = await withConsumerSpan(
      'signalbox.stage-kit',
      'tool_decider process',
      { traceparent: Buffer.from(TRACEPARENT) },
      { 'signalbox.stage': 'tool_decider' },
      (_span, ctx) => withProducerSpan('signalbox.stage-kit', 'next send', {}, (headers) => headers, ctx),
    );
    createHttpServerMetrics().record({ method: 'GET', route: '/livez', statusCode: 200, seconds: 0.002 });
    await telemetry.shutdown();

    const spans = receiver.spans();
    expect(spans.map((s) => s.name).sort()).toEqual(['next send', 'tool_decider process']);
    const consumer = spans.find((s) => s.kind === OTLP_CONSUMER)!;
    const producer = spans.find((s) => s.kind === OTLP_PRODUCER)!;
    expect(spans.every((s) => s.traceId === TRACE_ID)).toBe(true);
    expect(consumer.parentSpanId).toBe(PARENT_SPAN_ID);
    expect(producer.parentSpanId).toBe(consumer.spanId);
    expect(consumer).toMatchObject({
      service: 'tool-decider',
      scope: 'signalbox.stage-kit',
      attributes: { 'signalbox.stage': 'tool_decider', 'messaging.operation.type': 'process' },
    });
    expect(consumer.resource).toMatchObject({ 'telemetry.sdk.language': 'nodejs' });
    // The registered W3C propagator wrote the header the next stage reads: the producer span's context.
    expect(parseTraceparent(sent.traceparent ?? '')).toMatchObject({
      traceId: TRACE_ID,
      spanId: producer.spanId,
    });

    const points = receiver.points();
    expect(points.find((p) => p.metric === 'http.server.request.duration')).toMatchObject({
      service: 'tool-decider',
      unit: 's',
      type: 'histogram',
      count: 1,
      attributes: { 'http.route': '/livez', 'http.request.method': 'GET', 'http.response.status_code': 200 },
    });
    const rss = points.find((p) => p.metric === RUNTIME_METRICS.memoryUsage);
    expect(rss?.value).toBeGreaterThan(1024 * 1024);
    const heap = points.filter((p) => p.metric === RUNTIME_METRICS.heapUsed);
    expect(heap.map((p) => p.attributes['v8js.heap.space.name'])).toContain('old_space');
    expect(
      points.filter((p) => p.metric === RUNTIME_METRICS.cpuTime).map((p) => p.attributes['cpu.mode']),
    ).toEqual(expect.arrayContaining(['user', 'system']));
    const utilization = points.find((p) => p.metric === RUNTIME_METRICS.eventLoopUtilization)?.value;
    expect(utilization).toBeGreaterThanOrEqual(0);
    expect(utilization).toBeLessThanOrEqual(1);

    // After shutdown the API is back to no-ops.
    expect(trace.getTracer('t').startSpan('late').isRecording()).toBe(false);
  });

  it('OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win over the default name', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_SERVICE_NAME', 'signalbox-executor-canary');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name=ci,service.namespace=signalbox');
    telemetry = await startTelemetry({ service: 'executor', flushOnExit: false, runtimeMetrics: false });
    trace.getTracer('t').startSpan('one').end();
    await telemetry.shutdown();
    expect(receiver.spans()[0]?.resource).toMatchObject({
      'service.name': 'signalbox-executor-canary',
      'deployment.environment.name': 'ci',
      'service.namespace': 'signalbox',
    });
  });

  it('a service.name in OTEL_RESOURCE_ATTRIBUTES also wins over the default', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'service.name=from-attributes');
    telemetry = await startTelemetry({ service: 'executor', flushOnExit: false, runtimeMetrics: false });
    trace.getTracer('t').startSpan('one').end();
    await telemetry.shutdown();
    expect(receiver.spans()[0]?.service).toBe('from-attributes');
  });

  it('honours OTEL_TRACES_SAMPLER: always_off exports no span, yet the trace id still travels', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    telemetry = await startTelemetry({
      service: 'model-selector',
      flushOnExit: false,
      runtimeMetrics: false,
    });
    const sent = await withConsumerSpan('s', 'x process', { traceparent: TRACEPARENT }, {}, (_span, ctx) =>
      withProducerSpan('s', 'next send', {}, (headers) => headers, ctx),
    );
    await telemetry.shutdown();
    expect(receiver.spans()).toEqual([]);
    expect(parseTraceparent(sent.traceparent ?? '')).toMatchObject({ traceId: TRACE_ID, traceFlags: 0 });
  });

  it('with only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT exports traces there and no metrics', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', `${receiver.url}/v1/traces`);
    telemetry = await startTelemetry({ service: 'api', flushOnExit: false });
    expect(telemetry).toMatchObject({ traces: true, metrics: false });
    trace.getTracer('t').startSpan('one').end();
    createHttpServerMetrics().record({ method: 'GET', route: '/livez', statusCode: 200, seconds: 0.001 });
    await telemetry.shutdown();
    expect(receiver.requests()).toEqual({ '/v1/traces': 1 });
  });

  it('refuses a second start while one runs, and may start again after shutdown', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', receiver.url);
    telemetry = await startTelemetry({ service: 'api', flushOnExit: false, runtimeMetrics: false });
    await expect(startTelemetry({ service: 'api', flushOnExit: false })).rejects.toThrow(/already running/);
    await telemetry.shutdown();
    telemetry = await startTelemetry({ service: 'api', flushOnExit: false, runtimeMetrics: false });
    expect(telemetry.traces).toBe(true);
  });

  it('shutdown is bounded when the collector never answers, and never rejects', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer(() => undefined);
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      vi.stubEnv(
        'OTEL_EXPORTER_OTLP_ENDPOINT',
        `http://127.0.0.1:${String((silent.address() as AddressInfo).port)}`,
      );
      telemetry = await startTelemetry({ service: 'api', flushOnExit: false, shutdownTimeoutMs: 300 });
      trace.getTracer('t').startSpan('stuck').end();
      const started = Date.now();
      await expect(telemetry.shutdown()).resolves.toBeUndefined();
      expect(Date.now() - started).toBeLessThan(3000);
      await expect(telemetry.shutdown()).resolves.toBeUndefined();
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('process.exit waits for the flush, then exits with its code (no signal handler involved)', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./fixtures/exit-after-span.mjs', import.meta.url))],
      {
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
        env: {
          ...process.env,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
          OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
          OTEL_BSP_SCHEDULE_DELAY: '600000',
          OTEL_METRIC_EXPORT_INTERVAL: '600000',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(output).toContain('started traces=true');
    expect(code, output).toBe(3);
    expect(receiver.spans()).toMatchObject([{ name: 'last words', service: 'exit-fixture' }]);
  }, 60_000);
});
