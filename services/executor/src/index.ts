export {
  checkConfirmation,
  confirmationsIn,
  needsConfirmation,
  type Confirmation,
  type ConfirmationCheck,
} from './confirmation.js';
export { createComputeSandbox, type ComputeSandbox, type ComputeSandboxOptions } from './compute-sandbox.js';
export { createExecutorDecide, executorDefinition, type ExecutorDecideOptions } from './decide.js';
export { declaredError, reportedError, type ReportedError } from './declared-errors.js';
export { Env, loadEnv } from './env.js';
export { ERROR_CLASSES, eventErrorMessage, type ErrorClassInfo, type NextAction } from './error-classes.js';
export {
  ExecutionAbortedError,
  ExecutorConfigError,
  ExecutorError,
  ExecutorStoreError,
  SsrfRefusedError,
  ToolCallError,
} from './errors.js';
export {
  createExecutorStore,
  type CallClaim,
  type ExecutorStore,
  type ExecutorStoreOptions,
  type LimiterStore,
} from './executor-store.js';
export {
  FRESHNESS_TTL_SECONDS,
  createExecutor,
  isEmptyOutput,
  type ExecuteOptions,
  type ExecutionRequest,
  type Executor,
  type ExecutorOptions,
} from './executor.js';
export {
  classifyStatus,
  createHttpTransport,
  parseRetryAfter,
  type HttpTransportOptions,
} from './http-transport.js';
export { argumentHash, cacheKey, idempotencyKey, outputRef, type IdempotencyKeyParts } from './keys.js';
export {
  createCircuitBreaker,
  createSharedToolLimiter,
  createToolLimiter,
  type BreakerOptions,
  type BreakerPermit,
  type BreakerState,
  type CircuitBreaker,
  type SharedLimiterOptions,
  type ToolLimiter,
} from './limits.js';
export {
  McpServerConfig,
  McpServers,
  createMcpTransport,
  mcpOutput,
  type McpTransport,
  type McpTransportOptions,
} from './mcp-transport.js';
export {
  backoffMs,
  outageBackoffMs,
  realClock,
  withRetry,
  type OutageWait,
  type RetryClock,
  type RetryOutcome,
} from './retry.js';
export {
  createSsrfGuard,
  type HostResolver,
  type ResolvedAddress,
  type SsrfGuard,
  type SsrfGuardOptions,
} from './ssrf-guard.js';
export type { ToolInvocation, TransportAdapter, Transports } from './transport.js';
export { recheckVisibility, type VisibilitySubject, type VisibilityVerdict } from './visibility-check.js';
