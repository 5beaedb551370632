import { randomBytes } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  propagation,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TextMapPropagator,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { withConsumerSpan, withProducerSpan } from './spans.js';
import { extractTraceContext, injectTraceHeaders } from './trace-context.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

/** What a recording span saw; a strict stand-in for the SDK, which this package must not depend on. */
interface Recorded {
  name: string;
  kind: SpanKind | undefined;
  attributes: Attributes;
  parent: SpanContext | undefined;
  context: SpanContext;
  exceptions: unknown[];
  status: SpanStatus | undefined;
  ended: boolean;
}

function recordingProvider(): { provider: TracerProvider; spans: Recorded[] } {
  const spans: Recorded[] = [];
  const tracer = {
    startSpan(name: string, options: SpanOptions = {}, ctx?: Context): Span {
      const parent = ctx ? trace.getSpanContext(ctx) : undefined;
      const record: Recorded = {
        name,
        kind: options.kind,
        attributes: { ...options.attributes },
        parent,
        context: {
          traceId: parent?.traceId ?? randomBytes(16).toString('hex'),
          spanId: randomBytes(8).toString('hex'),
          traceFlags: 1,
        },
        exceptions: [],
        status: undefined,
        ended: false,
      };
      spans.push(record);
      const span = {
        spanContext: () => record.context,
        recordException: (exception: unknown) => void record.exceptions.push(exception),
        setStatus: (status: SpanStatus) => ((record.status = status), span),
        end: () => void (record.ended = true),
        isRecording: () => !record.ended,
      };
      return span as unknown as Span;
    },
    startActiveSpan() {
      throw new Error('unexpected call: startActiveSpan');
    },
  } satisfies Pick<Tracer, 'startSpan' | 'startActiveSpan'>;
  return { provider: { getTracer: () => tracer }, spans };
}

afterEach(() => {
  trace.disable();
  propagation.disable();
});

describe('trace context in headers without an SDK (no-op propagator)', () => {
  it('round-trips through headers with the built-in W3C codec', () => {
    const ctx = extractTraceContext({ traceparent: Buffer.from(TRACEPARENT) }, ROOT_CONTEXT);
    expect(trace.getSpanContext(ctx)).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      isRemote: true,
    });
    expect(injectTraceHeaders({}, ctx)).toEqual({ traceparent: TRACEPARENT });
  });

  it('carries tracestate and finds a header whatever its case', () => {
    const ctx = extractTraceContext({ Traceparent: TRACEPARENT, tracestate: ['vendor=x'] }, ROOT_CONTEXT);
    expect(injectTraceHeaders({}, ctx)).toEqual({ traceparent: TRACEPARENT, tracestate: 'vendor=x' });
  });

  it('leaves the context alone for a missing or malformed traceparent, and injects nothing', () => {
    for (const headers of [{}, { traceparent: 'nope' }]) {
      const ctx = extractTraceContext(headers, ROOT_CONTEXT);
      expect(ctx).toBe(ROOT_CONTEXT);
      expect(injectTraceHeaders({ other: '1' }, ctx)).toEqual({ other: '1' });
    }
  });

  it('a consumer span passes the trace id on to what it produces', async () => {
    const headers = await withConsumerSpan(
      'test',
      'process',
      { traceparent: TRACEPARENT },
      {},
      (_span, ctx) => withProducerSpan('test', 'send', {}, (outgoing) => outgoing, ctx),
    );
    expect(headers.traceparent).toContain('4bf92f3577b34da6a3ce929d0e0e4736');
  });
});

describe('with a registered propagator', () => {
  it('uses it, and does not overwrite what it wrote', () => {
    const fields: TextMapPropagator = {
      inject: (_ctx, carrier) => void ((carrier as Record<string, string>).traceparent = 'from-propagator'),
      extract: (ctx) => ctx,
      fields: () => ['traceparent'],
    };
    propagation.setGlobalPropagator(fields);
    const ctx = extractTraceContext({ traceparent: TRACEPARENT }, ROOT_CONTEXT);
    expect(injectTraceHeaders({}, ctx)).toEqual({ traceparent: 'from-propagator' });
  });
});

describe('withConsumerSpan / withProducerSpan with a tracer', () => {
  it('starts a CONSUMER span as child of the context in the headers, and ends it', async () => {
    const { provider, spans } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    const result = await withConsumerSpan(
      'tool-decider',
      'signalbox.task.model_selected.v1 process',
      { traceparent: TRACEPARENT },
      { 'messaging.destination.name': 'signalbox.task.model_selected.v1' },
      (span, ctx) => {
        expect(trace.getSpanContext(ctx)).toBe(span.spanContext());
        return 'decided';
      },
    );
    expect(result).toBe('decided');
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      kind: SpanKind.CONSUMER,
      parent: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' },
      context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736' },
      attributes: {
        'messaging.destination.name': 'signalbox.task.model_selected.v1',
        'messaging.operation.type': 'process',
      },
      status: undefined,
      ended: true,
    });
  });

  it('records a thrown error with status ERROR, ends the span and rethrows', async () => {
    const { provider, spans } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    const boom = new Error('registry unavailable');
    await expect(
      withConsumerSpan('executor', 'process', { traceparent: TRACEPARENT }, {}, () => Promise.reject(boom)),
    ).rejects.toBe(boom);
    expect(spans[0]).toMatchObject({
      exceptions: [boom],
      status: { code: SpanStatusCode.ERROR, message: 'registry unavailable' },
      ended: true,
    });
  });

  it('a PRODUCER span is a child of the consumer span and its headers carry the producer span id', async () => {
    const { provider, spans } = recordingProvider();
    trace.setGlobalTracerProvider(provider);
    const headers = await withConsumerSpan(
      'tool-decider',
      'process',
      { traceparent: TRACEPARENT },
      {},
      (_s, ctx) =>
        withProducerSpan(
          'tool-decider',
          'send',
          { 'messaging.system': 'kafka' },
          (outgoing) => outgoing,
          ctx,
        ),
    );
    const [consumer, producer] = spans;
    expect(producer).toMatchObject({ kind: SpanKind.PRODUCER, parent: consumer!.context, ended: true });
    expect(headers).toEqual({
      traceparent: `00-4bf92f3577b34da6a3ce929d0e0e4736-${producer!.context.spanId}-01`,
    });
  });
});
