// Wiring only: environment → registry → stage worker. The decision logic is in decide.ts.
import { loadRegistryDir } from '@signalbox/registry';
import { ceilingsOf, runStageWorker } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { modelSelectorDefinition } from './decide.js';
import { loadEnv } from './env.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. It
// is shut down last by the worker's SIGTERM drain (closeOnSignal), which exports the last spans and metrics.
await startTelemetry({ service: 'model-selector' });
const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
await runStageWorker({
  service: 'model-selector',
  env,
  definition: modelSelectorDefinition({
    registry,
    ...(env.SIGNALBOX_POLICY_ID ? { policyId: env.SIGNALBOX_POLICY_ID } : {}),
    tenants: env.SIGNALBOX_TENANT_MODEL_POLICIES,
    ceilings: ceilingsOf(env),
  }),
});
