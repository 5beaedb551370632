import {
  context,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { extractTraceContext, injectTraceHeaders, type IncomingHeaders } from './trace-context.js';

/**
 * Runs `fn` inside a CONSUMER span that continues the trace carried by `headers` (OB-2: one span per message).
 * `fn` gets the span and its context; pass that context on (e.g. to {@link withProducerSpan}) — without an SDK
 * there is no context manager, so the active context does not follow the span by itself. A thrown error is
 * recorded on the span with status ERROR and rethrown; success leaves the status unset, as OpenTelemetry asks of
 * instrumentation. The span always ends.
 */
export async function withConsumerSpan<T>(
  tracerName: string,
  spanName: string,
  headers: IncomingHeaders,
  attributes: Attributes,
  fn: (span: Span, ctx: Context) => Promise<T> | T,
): Promise<T> {
  const parent = extractTraceContext(headers);
  return runInSpan(
    tracerName,
    spanName,
    SpanKind.CONSUMER,
    { 'messaging.operation.type': 'process', ...attributes },
    parent,
    (span, ctx) => fn(span, ctx),
  );
}

/**
 * Runs `fn` inside a PRODUCER span, child of `parent` (default: the active context), and hands it the headers to
 * publish with: the span's trace context is already injected. Errors are recorded and rethrown as in
 * {@link withConsumerSpan}.
 */
export async function withProducerSpan<T>(
  tracerName: string,
  spanName: string,
  attributes: Attributes,
  fn: (headers: Record<string, string>, span: Span) => Promise<T> | T,
  parent: Context = context.active(),
): Promise<T> {
  return runInSpan(
    tracerName,
    spanName,
    SpanKind.PRODUCER,
    { 'messaging.operation.type': 'send', ...attributes },
    parent,
    (span, ctx) => fn(injectTraceHeaders({}, ctx), span),
  );
}

async function runInSpan<T>(
  tracerName: string,
  spanName: string,
  kind: SpanKind,
  attributes: Attributes,
  parent: Context,
  fn: (span: Span, ctx: Context) => Promise<T> | T,
): Promise<T> {
  const span = trace.getTracer(tracerName).startSpan(spanName, { kind, attributes }, parent);
  const ctx = trace.setSpan(parent, span);
  try {
    return await context.with(ctx, () => fn(span, ctx));
  } catch (error) {
    const exception = error instanceof Error ? error : new Error(String(error));
    span.recordException(exception);
    span.setStatus({ code: SpanStatusCode.ERROR, message: exception.message });
    throw error;
  } finally {
    span.end();
  }
}
