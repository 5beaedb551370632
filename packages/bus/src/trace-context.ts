import {
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import type { IncomingMessage } from './bus.js';

// W3C trace context travels in Kafka headers (OB-2). The bus only uses the OpenTelemetry API: with no SDK started
// the global propagator is a no-op and nothing is injected.

/** The W3C trace context header. */
export const TRACEPARENT_HEADER = 'traceparent';

const setter: TextMapSetter<Record<string, string>> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};

const getter: TextMapGetter<Record<string, string>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/**
 * Returns `headers` plus the trace context of `ctx` (the active context by default), unless `headers` already carry
 * a `traceparent`: a caller that set one explicitly (e.g. from the envelope) wins.
 */
export function injectTraceContext(
  headers: Readonly<Record<string, string>> = {},
  ctx: Context = context.active(),
): Record<string, string> {
  const out = { ...headers };
  if (out[TRACEPARENT_HEADER] !== undefined) return out;
  propagation.inject(ctx, out, setter);
  return out;
}

/**
 * The context a consumed message was published in, for starting a CONSUMER span as its child:
 * `tracer.startActiveSpan(name, { kind: SpanKind.CONSUMER }, extractTraceContext(message), fn)`.
 */
export function extractTraceContext(
  message: Pick<IncomingMessage, 'headers'>,
  base: Context = context.active(),
): Context {
  return propagation.extract(base, message.headers, getter);
}
