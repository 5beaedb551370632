export {
  HTTP_SERVER_DURATION_BUCKETS,
  createHttpServerMetrics,
  type HttpServerMetrics,
  type HttpServerRequest,
} from './http-metrics.js';
export { createLogger, withTask, type LoggerOptions, type TaskLogContext } from './logger.js';
export {
  LATENCY_BUCKETS_SECONDS,
  STAGE_METRICS,
  createStageMetrics,
  type MessageOutcome,
  type StageMetrics,
  type StageMetricsOptions,
} from './metrics.js';
export {
  otlpSignals,
  shutdownTelemetry,
  startTelemetry,
  type OtlpSignals,
  type Telemetry,
  type TelemetryOptions,
} from './otel-sdk.js';
export {
  PAYLOAD_KEYS,
  REDACTED,
  REDACT_DEPTH,
  SECRET_KEYS,
  pathsForKey,
  redactionPaths,
} from './redaction.js';
export { RUNTIME_METRICS } from './runtime-metrics.js';
export { withConsumerSpan, withProducerSpan } from './spans.js';
export {
  TRACEPARENT_HEADER,
  TRACESTATE_HEADER,
  extractTraceContext,
  injectTraceHeaders,
  type IncomingHeaders,
} from './trace-context.js';
export { formatTraceparent, parseTraceparent } from './traceparent.js';
