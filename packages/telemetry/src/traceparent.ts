import { TraceFlags, type SpanContext } from '@opentelemetry/api';

// A tiny W3C Trace Context (traceparent) codec. The OpenTelemetry API's global propagator is a no-op until an SDK
// registers one, and the SDK starts only in a service's main when configured (OB-2) — so without this, tests and
// unconfigured services would drop the trace id at every hop. https://www.w3.org/TR/trace-context/#traceparent-header

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const INVALID_TRACE_ID = '0'.repeat(32);
const INVALID_SPAN_ID = '0'.repeat(16);

/**
 * Parses a `traceparent` header into a remote span context; undefined when it is malformed, uses the forbidden
 * version `ff`, has an all-zero id, or is version 00 with trailing fields. Unknown higher versions are read by
 * their first four fields, as the specification asks.
 */
export function parseTraceparent(value: string, tracestate?: string): SpanContext | undefined {
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (!version || !traceId || !spanId || !flags) return undefined;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === INVALID_TRACE_ID || spanId === INVALID_SPAN_ID) return undefined;
  const context: SpanContext = {
    traceId,
    spanId,
    // Only the sampled bit is defined; other bits are reserved and must not be propagated as set.
    traceFlags: Number.parseInt(flags, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  if (tracestate) context.traceState = parseTraceState(tracestate);
  return context;
}

/** Formats a span context as a version-00 `traceparent` header value. */
export function formatTraceparent(context: Pick<SpanContext, 'traceId' | 'spanId' | 'traceFlags'>): string {
  const flags = (context.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** A read-only `tracestate` carried through unchanged (the fallback never edits vendor entries). */
function parseTraceState(raw: string): NonNullable<SpanContext['traceState']> {
  const entries = new Map<string, string>();
  for (const member of raw.split(',')) {
    const at = member.indexOf('=');
    if (at > 0) entries.set(member.slice(0, at).trim(), member.slice(at + 1).trim());
  }
  const build = (map: Map<string, string>): NonNullable<SpanContext['traceState']> => ({
    get: (key) => map.get(key),
    set: (key, value) => build(new Map([[key, value], ...[...map].filter(([k]) => k !== key)])),
    unset: (key) => build(new Map([...map].filter(([k]) => k !== key))),
    serialize: () => [...map].map(([k, v]) => `${k}=${v}`).join(','),
  });
  return build(entries);
}
