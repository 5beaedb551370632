// Wiring only: environment → registry → model providers per profile (the judge) → stage worker. Logic: decide.ts.
import { providersForProfiles } from '@signalbox/providers';
import { loadRegistryDir } from '@signalbox/registry';
import { ceilingsOf, runStageWorker } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { resultEvaluatorDefinition } from './decide.js';
import { loadEnv } from './env.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. It
// is shut down last by the worker's SIGTERM drain (closeOnSignal), which exports the last spans and metrics.
await startTelemetry({ service: 'result-evaluator' });
const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
// EV-1 layer 3: the judge uses the task's model profile when its endpoint is configured; otherwise there is none.
const providers = providersForProfiles(registry.content.profiles, process.env);
await runStageWorker({
  service: 'result-evaluator',
  env,
  definition: resultEvaluatorDefinition({
    registry,
    judge: (profileId) => providers.get(profileId),
    ceilings: ceilingsOf(env),
  }),
});
