// Test helpers (`@signalbox/telemetry/testing`): a local OTLP/HTTP receiver that decodes what the SDK exports as
// JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), and an in-memory meter provider for reading recorded metrics.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { metrics } from '@opentelemetry/api';
import {
  DataPointType,
  MeterProvider,
  MetricReader,
  type CollectionResult,
} from '@opentelemetry/sdk-metrics';

/** A decoded attribute value: string, number, boolean, or arrays / objects of them. */
export type AttributeValue =
  string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };
export type AttributeMap = Record<string, AttributeValue>;

/** One span as received, with its resource and instrumentation scope. */
export interface ReceivedSpan {
  /** The resource's `service.name`. */
  service: string | undefined;
  resource: AttributeMap;
  scope: string;
  traceId: string;
  spanId: string;
  /** Undefined for a root span. */
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: AttributeMap;
  status: { code: number; message: string | undefined };
}

/** One data point as received, with its metric's name, unit and type. */
export interface ReceivedPoint {
  service: string | undefined;
  resource: AttributeMap;
  scope: string;
  metric: string;
  unit: string;
  type: 'sum' | 'gauge' | 'histogram' | 'exponentialHistogram' | 'summary';
  attributes: AttributeMap;
  /** Sums and gauges. */
  value: number | undefined;
  /** Histograms. */
  count: number | undefined;
  sum: number | undefined;
  explicitBounds: number[] | undefined;
}

/** A local OTLP/HTTP (JSON) receiver. Point `OTEL_EXPORTER_OTLP_ENDPOINT` at {@link OtlpReceiver.url}. */
export interface OtlpReceiver {
  /** The base URL (`http://127.0.0.1:<port>`); exporters append `/v1/traces`, `/v1/metrics`. */
  readonly url: string;
  spans(): ReceivedSpan[];
  points(): ReceivedPoint[];
  /** Export requests received, by path. */
  requests(): Record<string, number>;
  close(): Promise<void>;
}

interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  bytesValue?: string;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
}
interface OtlpKeyValue {
  key: string;
  value?: OtlpAnyValue;
}
interface OtlpResource {
  attributes?: OtlpKeyValue[];
}
interface OtlpScope {
  name?: string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind?: number;
  attributes?: OtlpKeyValue[];
  status?: { code?: number; message?: string };
}
interface OtlpPoint {
  attributes?: OtlpKeyValue[];
  asInt?: number | string;
  asDouble?: number;
  count?: number | string;
  sum?: number;
  explicitBounds?: number[];
}
interface OtlpMetric {
  name: string;
  unit?: string;
  sum?: { dataPoints?: OtlpPoint[] };
  gauge?: { dataPoints?: OtlpPoint[] };
  histogram?: { dataPoints?: OtlpPoint[] };
  exponentialHistogram?: { dataPoints?: OtlpPoint[] };
  summary?: { dataPoints?: OtlpPoint[] };
}
interface TracesRequest {
  resourceSpans?: { resource?: OtlpResource; scopeSpans?: { scope?: OtlpScope; spans?: OtlpSpan[] }[] }[];
}
interface MetricsRequest {
  resourceMetrics?: {
    resource?: OtlpResource;
    scopeMetrics?: { scope?: OtlpScope; metrics?: OtlpMetric[] }[];
  }[];
}

function anyValue(value: OtlpAnyValue | undefined): AttributeValue {
  if (value === undefined) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.bytesValue !== undefined) return value.bytesValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(anyValue);
  if (value.kvlistValue !== undefined) return attributes(value.kvlistValue.values);
  return null;
}

function attributes(list: readonly OtlpKeyValue[] | undefined): AttributeMap {
  const out: AttributeMap = {};
  for (const { key, value } of list ?? []) out[key] = anyValue(value);
  return out;
}

const POINT_TYPES = ['sum', 'gauge', 'histogram', 'exponentialHistogram', 'summary'] as const;

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
}

/**
 * Starts an OTLP/HTTP receiver on 127.0.0.1 (a free port) that accepts JSON exports on `/v1/traces` and
 * `/v1/metrics` and keeps them decoded. Anything but JSON is refused with 415, so an exporter left on protobuf fails
 * loudly instead of being counted.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const points: ReceivedPoint[] = [];
  const requests: Record<string, number> = {};
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    void (async () => {
      try {
        if (
          request.method !== 'POST' ||
          !(request.headers['content-type'] ?? '').startsWith('application/json')
        ) {
          response.writeHead(415).end();
          return;
        }
        const text = await body(request);
        requests[path] = (requests[path] ?? 0) + 1;
        if (path === '/v1/traces') collectSpans(JSON.parse(text) as TracesRequest, spans);
        else if (path === '/v1/metrics') collectPoints(JSON.parse(text) as MetricsRequest, points);
        else {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        response.writeHead(400).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    spans: () => [...spans],
    points: () => [...points],
    requests: () => ({ ...requests }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => {
          if (error) reject(error);
          else resolve();
        });
      }),
  };
}

function collectSpans(request: TracesRequest, into: ReceivedSpan[]): void {
  for (const rs of request.resourceSpans ?? []) {
    const resource = attributes(rs.resource?.attributes);
    const service = typeof resource['service.name'] === 'string' ? resource['service.name'] : undefined;
    for (const ss of rs.scopeSpans ?? []) {
      for (const span of ss.spans ?? []) {
        into.push({
          service,
          resource,
          scope: ss.scope?.name ?? '',
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ? span.parentSpanId : undefined,
          name: span.name,
          kind: span.kind ?? 0,
          attributes: attributes(span.attributes),
          status: { code: span.status?.code ?? 0, message: span.status?.message },
        });
      }
    }
  }
}

function collectPoints(request: MetricsRequest, into: ReceivedPoint[]): void {
  for (const rm of request.resourceMetrics ?? []) {
    const resource = attributes(rm.resource?.attributes);
    const service = typeof resource['service.name'] === 'string' ? resource['service.name'] : undefined;
    for (const sm of rm.scopeMetrics ?? []) {
      for (const metric of sm.metrics ?? []) {
        for (const type of POINT_TYPES) {
          for (const point of metric[type]?.dataPoints ?? []) {
            const raw = point.asInt ?? point.asDouble;
            into.push({
              service,
              resource,
              scope: sm.scope?.name ?? '',
              metric: metric.name,
              unit: metric.unit ?? '',
              type,
              attributes: attributes(point.attributes),
              value: raw === undefined ? undefined : Number(raw),
              count: point.count === undefined ? undefined : Number(point.count),
              sum: point.sum,
              explicitBounds: point.explicitBounds,
            });
          }
        }
      }
    }
  }
}

/** What {@link captureMetrics} returns. */
export interface MetricsCapture {
  /** Every data point recorded so far (cumulative), optionally of one metric. */
  points(metric?: string): Promise<ReceivedPoint[]>;
  /** Unregisters the provider (the API falls back to no-ops) and shuts it down. */
  stop(): Promise<void>;
}

const POINT_TYPE: Record<DataPointType, ReceivedPoint['type']> = {
  [DataPointType.HISTOGRAM]: 'histogram',
  [DataPointType.EXPONENTIAL_HISTOGRAM]: 'exponentialHistogram',
  [DataPointType.GAUGE]: 'gauge',
  [DataPointType.SUM]: 'sum',
};

class ManualReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Registers the SDK's `MeterProvider` as the global one, read on demand: instruments created through the API (e.g.
 * {@link createHttpServerMetrics}) record into it. Call `stop` after the test.
 */
export function captureMetrics(): MetricsCapture {
  const reader = new ManualReader();
  const provider = new MeterProvider({ readers: [reader] });
  if (!metrics.setGlobalMeterProvider(provider)) {
    throw new Error('captureMetrics: a global meter provider is already registered');
  }
  return {
    async points(metric) {
      const result: CollectionResult = await reader.collect();
      const out: ReceivedPoint[] = [];
      for (const scope of result.resourceMetrics.scopeMetrics) {
        for (const data of scope.metrics) {
          if (metric !== undefined && data.descriptor.name !== metric) continue;
          for (const point of data.dataPoints) {
            const value = point.value as unknown;
            const histogram =
              typeof value === 'object' && value !== null
                ? (value as { count?: number; sum?: number; buckets?: { boundaries?: number[] } })
                : undefined;
            out.push({
              service: undefined,
              resource: {},
              scope: scope.scope.name,
              metric: data.descriptor.name,
              unit: data.descriptor.unit,
              type: POINT_TYPE[data.dataPointType],
              attributes: point.attributes as AttributeMap,
              value: typeof value === 'number' ? value : undefined,
              count: histogram?.count,
              sum: histogram?.sum,
              explicitBounds: histogram?.buckets?.boundaries,
            });
          }
        }
      }
      return out;
    },
    async stop() {
      metrics.disable();
      await provider.shutdown();
    },
  };
}
