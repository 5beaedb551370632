import { context, propagation, trace, type Context, type TextMapGetter } from '@opentelemetry/api';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

/** Headers as they arrive from Kafka or HTTP: values may be strings, Buffers or repeated. */
export type IncomingHeaders = Readonly<
  Record<string, string | Buffer | readonly (string | Buffer)[] | undefined>
>;

/** The W3C header names. */
export const TRACEPARENT_HEADER = 'traceparent';
export const TRACESTATE_HEADER = 'tracestate';

function headerValue(headers: IncomingHeaders, name: string): string | undefined {
  let raw = headers[name];
  if (raw === undefined) {
    // Kafka header keys are case-sensitive bytes; a producer outside our code may have written "Traceparent".
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    raw = key === undefined ? undefined : headers[key];
  }
  const first: string | Buffer | undefined = Array.isArray(raw)
    ? (raw as (string | Buffer)[])[0]
    : (raw as string | Buffer | undefined);
  return first === undefined ? undefined : first.toString();
}

const getter: TextMapGetter<IncomingHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => headerValue(carrier, key.toLowerCase()),
};

/**
 * Writes the trace context of `ctx` (default: the active context) into `headers` and returns them. Uses the
 * registered propagator; when none is registered (no SDK) and `ctx` holds a valid span context, writes
 * `traceparent`/`tracestate` with the built-in W3C codec so the trace id still flows between stages.
 */
export function injectTraceHeaders(
  headers: Record<string, string>,
  ctx: Context = context.active(),
): Record<string, string> {
  propagation.inject(ctx, headers);
  if (headers[TRACEPARENT_HEADER] === undefined) {
    const spanContext = trace.getSpanContext(ctx);
    if (spanContext && trace.isSpanContextValid(spanContext)) {
      headers[TRACEPARENT_HEADER] = formatTraceparent(spanContext);
      const state = spanContext.traceState?.serialize();
      if (state) headers[TRACESTATE_HEADER] = state;
    }
  }
  return headers;
}

/**
 * The context carried by `headers`, as a child of `base` (default: the active context). Uses the registered
 * propagator, falling back to the built-in W3C codec; a missing or malformed `traceparent` yields `base`
 * unchanged (a new trace then starts at the next span).
 */
export function extractTraceContext(headers: IncomingHeaders, base: Context = context.active()): Context {
  const extracted = propagation.extract(base, headers, getter);
  if (trace.getSpanContext(extracted) !== trace.getSpanContext(base)) return extracted;
  const traceparent = headerValue(headers, TRACEPARENT_HEADER);
  const remote = traceparent
    ? parseTraceparent(traceparent, headerValue(headers, TRACESTATE_HEADER))
    : undefined;
  return remote ? trace.setSpanContext(base, remote) : base;
}
