import {
  context,
  diag,
  DiagLogLevel,
  metrics,
  propagation,
  trace,
  type DiagLogger,
} from '@opentelemetry/api';
import type { Level } from 'pino';
import { createLogger } from './logger.js';
import { registerRuntimeMetrics } from './runtime-metrics.js';

// OB-2 / OB-3: the OpenTelemetry SDK of one process, started by a service's main only when an OTLP endpoint is
// configured. Everything else in this package uses the API alone, so without the SDK spans are no-ops and the trace
// id still travels in the `traceparent` of every message (see trace-context.ts).

type Env = Readonly<Record<string, string | undefined>>;

/** Which signals the environment asks to export over OTLP. */
export interface OtlpSignals {
  traces: boolean;
  metrics: boolean;
}

const isSet = (env: Env, name: string): boolean => (env[name]?.trim() ?? '') !== '';
const lists = (env: Env, name: string, value: string): boolean =>
  (env[name] ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .includes(value);

/**
 * Traces are exported when `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, metrics when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_METRICS_ENDPOINT` is; `OTEL_TRACES_EXPORTER=none` /
 * `OTEL_METRICS_EXPORTER=none` turn one off and `OTEL_SDK_DISABLED=true` both.
 */
export function otlpSignals(env: Env = process.env): OtlpSignals {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { traces: false, metrics: false };
  const shared = isSet(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return {
    traces:
      (shared || isSet(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) &&
      !lists(env, 'OTEL_TRACES_EXPORTER', 'none'),
    metrics:
      (shared || isSet(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT')) &&
      !lists(env, 'OTEL_METRICS_EXPORTER', 'none'),
  };
}

/** Options of {@link startTelemetry}. */
export interface TelemetryOptions {
  /** The service's own name: `service.name` unless `OTEL_SERVICE_NAME` or `OTEL_RESOURCE_ATTRIBUTES` sets one. */
  service: string;
  /** Report process and Node runtime metrics (`RUNTIME_METRICS`) when metrics are exported. @default true */
  runtimeMetrics?: boolean;
  /**
   * Flush before the process exits: `process.exit` (what every main's SIGTERM handler ends with) first shuts the SDK
   * down, within `shutdownTimeoutMs`, then exits with the code it was given; a process that ends on its own flushes
   * on `beforeExit`. No signal handler is added. @default true
   */
  flushOnExit?: boolean;
  /** The longest a shutdown waits for the last export. @default 5000 */
  shutdownTimeoutMs?: number;
}

/** The process's telemetry; {@link startTelemetry} returns it. */
export interface Telemetry {
  /** Spans are exported. */
  readonly traces: boolean;
  /** Metrics are exported. */
  readonly metrics: boolean;
  /**
   * Flushes what is buffered and stops the SDK, within `shutdownTimeoutMs`; the API falls back to no-ops. Idempotent;
   * never rejects (a failed export is logged). Resolves at once when nothing was started.
   */
  shutdown(): Promise<void>;
}

const NOT_STARTED: Telemetry = { traces: false, metrics: false, shutdown: () => Promise.resolve() };
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5000;
let running: Telemetry | undefined;

/**
 * Starts the OpenTelemetry Node SDK (`@opentelemetry/sdk-node`) when {@link otlpSignals} asks for traces or metrics,
 * configured by the standard `OTEL_*` variables (protocol, endpoints, headers, sampler, propagators, batch and export
 * intervals, resource attributes); otherwise loads nothing and returns a telemetry that does nothing. Call it first in
 * a main, before anything creates instruments. SDK diagnostics go to the service's JSON log (`OTEL_LOG_LEVEL`, default
 * `warn`). Throws when the SDK is already running in this process.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  const service = options.service.trim();
  if (!service) throw new RangeError('startTelemetry: service must not be empty');
  const signals = otlpSignals(process.env);
  if (!signals.traces && !signals.metrics) return NOT_STARTED;
  if (running) throw new Error('startTelemetry: the OpenTelemetry SDK is already running in this process');

  // Loaded only now: a process without an endpoint never pays for the SDK's modules.
  const [{ NodeSDK }, { defaultResource, resourceFromAttributes }, { ATTR_SERVICE_NAME }] = await Promise.all(
    [
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/semantic-conventions'),
    ],
  );
  const sdk = new NodeSDK({
    // The detectors' attributes are merged over this one, the environment's last: OTEL_SERVICE_NAME and a service.name
    // in OTEL_RESOURCE_ATTRIBUTES win over the default.
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: service })),
    ...(signals.traces ? {} : { spanProcessors: [] }),
    ...(signals.metrics ? {} : { metricReaders: [] }),
    // Logs stay pino JSON lines on standard output (OB-1); nothing writes through the OpenTelemetry logs API.
    logRecordProcessors: [],
  });
  // After the constructor, which installs a console logger when OTEL_LOG_LEVEL is set.
  useServiceLog(service);
  sdk.start();
  const stopRuntime =
    signals.metrics && options.runtimeMetrics !== false
      ? registerRuntimeMetrics(metrics.getMeter('signalbox.runtime'))
      : () => undefined;

  const timeoutMs = options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS;
  let uninstall: () => void = () => undefined;
  let stopping: Promise<void> | undefined;
  const telemetry: Telemetry = {
    ...signals,
    shutdown() {
      stopping ??= (async () => {
        try {
          if ((await within(sdk.shutdown(), timeoutMs)) === 'timeout')
            diag.warn(`shutdown: the last export did not finish within ${String(timeoutMs)} ms`);
        } catch (error) {
          diag.warn('shutdown failed', error);
        } finally {
          // After the final collection, which still reads the runtime metrics.
          stopRuntime();
          uninstall();
          for (const api of [trace, metrics, propagation, context]) api.disable();
          running = undefined;
        }
      })();
      return stopping;
    },
  };
  if (options.flushOnExit !== false) uninstall = flushBeforeExit(() => telemetry.shutdown());
  running = telemetry;
  return telemetry;
}

/**
 * Shuts down the telemetry {@link startTelemetry} started in this process (flushing the last spans and metrics), or
 * resolves at once when none runs. A process's shutdown (`closeOnSignal` of @signalbox/stage-kit) calls it last, so no
 * main has to.
 */
export function shutdownTelemetry(): Promise<void> {
  return running?.shutdown() ?? Promise.resolve();
}

/**
 * Makes `process.exit(code)` shut the SDK down first (bounded by its own deadline), then exit with `code`; the first
 * call wins, as it would have without this. Also flushes on `beforeExit`. Returns the undo.
 */
function flushBeforeExit(shutdown: () => Promise<void>): () => void {
  const exit = process.exit.bind(process);
  let exiting = false;
  const deferred = ((code?: number | string | null) => {
    if (exiting) return undefined as never;
    exiting = true;
    if (code !== undefined && code !== null) process.exitCode = code;
    void shutdown().finally(() => exit(code));
    return undefined as never;
  }) as typeof process.exit;
  const onBeforeExit = () => {
    void shutdown();
  };
  process.exit = deferred;
  process.once('beforeExit', onBeforeExit);
  return () => {
    if (process.exit === deferred) process.exit = exit;
    process.off('beforeExit', onBeforeExit);
  };
}

async function within(promise: Promise<unknown>, ms: number): Promise<'done' | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      resolve('timeout');
    }, ms);
  });
  try {
    return await Promise.race([promise.then(() => 'done' as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const DIAG_LEVELS: Readonly<Record<string, DiagLogLevel>> = {
  NONE: DiagLogLevel.NONE,
  ERROR: DiagLogLevel.ERROR,
  WARN: DiagLogLevel.WARN,
  INFO: DiagLogLevel.INFO,
  DEBUG: DiagLogLevel.DEBUG,
  VERBOSE: DiagLogLevel.VERBOSE,
  ALL: DiagLogLevel.ALL,
};
const PINO_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** SDK diagnostics (a failed export, a bad variable) as JSON lines of the service's log, `component: opentelemetry`. */
function useServiceLog(service: string): void {
  const level = process.env.LOG_LEVEL?.trim().toLowerCase() ?? 'info';
  const log = createLogger({
    service,
    level: PINO_LEVELS.has(level) ? (level as Level | 'silent') : 'info',
  }).child({ component: 'opentelemetry' });
  const line =
    (write: (fields: Record<string, unknown>, message: string) => void) =>
    (message: string, ...args: unknown[]) => {
      write(args.length > 0 ? { details: args.map(describe) } : {}, message);
    };
  const logger: DiagLogger = {
    error: line((f, m) => {
      log.error(f, m);
    }),
    warn: line((f, m) => {
      log.warn(f, m);
    }),
    info: line((f, m) => {
      log.info(f, m);
    }),
    debug: line((f, m) => {
      log.debug(f, m);
    }),
    verbose: line((f, m) => {
      log.trace(f, m);
    }),
  };
  const asked = DIAG_LEVELS[process.env.OTEL_LOG_LEVEL?.trim().toUpperCase() ?? ''];
  diag.setLogger(logger, { logLevel: asked ?? DiagLogLevel.WARN, suppressOverrideMessage: true });
}

/** A diagnostic argument as a short string: errors by name and message, nothing that could be a whole payload. */
function describe(arg: unknown): string {
  if (arg instanceof Error) return `${arg.name}: ${arg.message}`;
  const text = typeof arg === 'string' ? arg : json(arg);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

function json(value: unknown): string {
  // JSON.stringify gives undefined for these, and throws for a bigint or a cycle.
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return typeof value;
  try {
    return JSON.stringify(value);
  } catch {
    return typeof value;
  }
}
