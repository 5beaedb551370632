// Wiring only: environment → registry → transports → gateway → stage worker. The decision logic is in decide.ts.
import { loadRegistryDir } from '@signalbox/registry';
import { runStageWorker } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { createComputeSandbox } from './compute-sandbox.js';
import { executorDefinition } from './decide.js';
import { loadEnv } from './env.js';
import { createExecutorStore } from './executor-store.js';
import { createExecutor } from './executor.js';
import { createHttpTransport } from './http-transport.js';
import { createMcpTransport } from './mcp-transport.js';
import { createSsrfGuard } from './ssrf-guard.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. It
// is shut down last by the worker's SIGTERM drain (closeOnSignal), which exports the last spans and metrics.
await startTelemetry({ service: 'executor' });
const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
const store = createExecutorStore({
  connectionString: env.DATABASE_URL,
  ...(env.SIGNALBOX_EXECUTOR_SCHEMA ? { schema: env.SIGNALBOX_EXECUTOR_SCHEMA } : {}),
});
if (env.SIGNALBOX_EXECUTOR_MIGRATE) await store.migrate();
const guard = createSsrfGuard({ allow: env.SIGNALBOX_EXECUTOR_ALLOW_HOSTS });
const mcp = createMcpTransport({ servers: env.SIGNALBOX_EXECUTOR_MCP_SERVERS, guard });
const executor = createExecutor({
  store,
  transports: {
    http: createHttpTransport({ guard }),
    mcp,
    builtin: {
      compute: createComputeSandbox({ memoryLimitBytes: env.SIGNALBOX_EXECUTOR_COMPUTE_MEMORY_BYTES }),
    },
  },
  inlineOutputBytes: env.SIGNALBOX_EXECUTOR_INLINE_OUTPUT_BYTES,
  outageBudgetMs: env.SIGNALBOX_EXECUTOR_OUTAGE_BUDGET_MS,
  limits: { leaseMs: env.SIGNALBOX_EXECUTOR_LEASE_MS },
  breaker: {
    failureThreshold: env.SIGNALBOX_EXECUTOR_BREAKER_THRESHOLD,
    openMs: env.SIGNALBOX_EXECUTOR_BREAKER_OPEN_MS,
    probeAfterMs: env.SIGNALBOX_EXECUTOR_BREAKER_PROBE_MS,
  },
});
// The worker owns SIGTERM: it drains the stage (in-flight calls finish and are committed), then closes the MCP
// clients and the executor's store, then the bus and the event log.
await runStageWorker({
  service: 'executor',
  env,
  definition: executorDefinition({ registry, executor }),
  migrate: env.SIGNALBOX_MIGRATE_EVENT_LOG,
  closables: [
    { name: 'mcp clients', close: () => mcp.close() },
    { name: 'executor store', close: () => store.close() },
  ],
});
