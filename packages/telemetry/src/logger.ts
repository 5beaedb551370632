import { hostname } from 'node:os';
import { trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Level, type Logger } from 'pino';
import { REDACTED, redactionPaths } from './redaction.js';
import { findSensitive, maskSensitiveValues } from './sensitive-text.js';
import { parseTraceparent } from './traceparent.js';

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  /** The service name, written on every line as `service`. */
  service: string;
  /** The lowest level written. @default 'info' */
  level?: Level | 'silent';
  /** Extra pino redaction paths, added to the central list (which cannot be shortened). @default [] */
  redact?: readonly string[];
  /**
   * Log message and tool payloads (`payload`, `arguments`, `output`, …). Secrets are redacted regardless.
   * Meant for local debugging only (OB-1). @default false
   */
  logPayloads?: boolean;
  /** Where lines go. @default standard output */
  destination?: DestinationStream;
}

const LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/**
 * OB-1: a pino logger writing one JSON object a line, with `service`, an ISO `time`, the level as a label, and
 * the central redaction list applied (secrets always; payloads unless `logPayloads`). Throws `RangeError` for an
 * empty service or an unknown level.
 */
export function createLogger(options: LoggerOptions): Logger {
  const service = options.service.trim();
  if (!service) throw new RangeError('createLogger: service must not be empty');
  const level = options.level ?? 'info';
  if (!LEVELS.has(level)) throw new RangeError(`createLogger: unknown level ${level}`);
  return pino(
    {
      level,
      base: { service, pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names, not numbers: log pipelines and people filter on "error", not 50.
      formatters: { level: (label) => ({ level: label }) },
      redact: {
        paths: redactionPaths({ includePayloads: !options.logPayloads, extra: options.redact ?? [] }),
        censor: REDACTED,
      },
      // RS-6: a sensitive value in free text (a message quoting the request, an error quoting a tool's output) is
      // masked in every line, whatever key it is under.
      hooks: { streamWrite: maskSensitiveLine },
    },
    // Standard output written synchronously, as Node writes it to a pipe: pino's asynchronous stdout leaves the line
    // written just before process.exit in flight, and when the reader of the pipe is gone (`signalbox up` stopped
    // first, a closed terminal) sonic-boom's exit-time flushSync retries that EPIPE write for ever — the process never
    // exits on SIGTERM. Written synchronously, an EPIPE arrives at once and pino stops logging (its broken-pipe guard).
    options.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * A serialized log line with every sensitive value in its strings masked (`[phone#1]`, see `sensitive-text.ts`).
 * Lines without one — nearly all — are returned as they are; others are parsed, masked string by string (so the JSON
 * stays valid) and written again. A line that is not one JSON object is masked as text.
 */
export function maskSensitiveLine(line: string): string {
  if (findSensitive(line).length === 0) return line;
  const body = line.endsWith('\n') ? line.slice(0, -1) : line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return maskSensitiveValues(line);
  }
  return `${JSON.stringify(maskSensitiveValues(parsed))}${body === line ? '' : '\n'}`;
}

/** Identifiers bound to a task's log lines. Identifiers only — never payloads. */
export interface TaskLogContext {
  task_id: string;
  /** The message's W3C traceparent; its trace and span ids are bound as `trace_id` and `span_id`. */
  traceparent?: string | null;
  event_id?: string;
  tenant_id?: string;
  agent_id?: string;
}

/**
 * A child logger whose lines carry `task_id` and `trace_id` (OB-1). The trace id comes from `traceparent`, else
 * from the active OpenTelemetry span; when neither has one, `trace_id` is omitted rather than invented.
 */
export function withTask(logger: Logger, context: TaskLogContext): Logger {
  const { traceparent } = context;
  const spanContext =
    (traceparent ? parseTraceparent(traceparent) : undefined) ?? trace.getActiveSpan()?.spanContext();
  const bindings: Record<string, string> = {};
  for (const key of ['task_id', 'event_id', 'tenant_id', 'agent_id'] as const) {
    const value = context[key];
    if (value !== undefined) bindings[key] = value;
  }
  if (spanContext && trace.isSpanContextValid(spanContext)) {
    bindings.trace_id = spanContext.traceId;
    bindings.span_id = spanContext.spanId;
  }
  return logger.child(bindings);
}
