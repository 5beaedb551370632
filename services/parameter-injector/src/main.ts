// Wiring only: environment → registry → model providers per profile → stage worker. The logic is in decide.ts.
import { providersForProfiles } from '@signalbox/providers';
import { loadRegistryDir } from '@signalbox/registry';
import { ceilingsOf, runStageWorker } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { parameterInjectorDefinition } from './decide.js';
import { loadEnv } from './env.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. It
// is shut down last by the worker's SIGTERM drain (closeOnSignal), which exports the last spans and metrics.
await startTelemetry({ service: 'parameter-injector' });
const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);

// IF-4: a profile with an OpenAI-compatible endpoint whose URL and key are configured gets a provider; every other
// profile (deterministic, or not configured here) runs the deterministic paths.
const providers = providersForProfiles(registry.content.profiles, process.env);

await runStageWorker({
  service: 'parameter-injector',
  env,
  definition: parameterInjectorDefinition({
    registry,
    model: (profileId) => providers.get(profileId),
    maxRevisions: env.SIGNALBOX_MAX_REVISIONS,
    ceilings: ceilingsOf(env),
    fieldPolicy: env.SIGNALBOX_FIELD_POLICY,
  }),
});
