// Wiring only: environment → registry → semantic model → providers (when configured) → stage worker. Logic is in
// decide.ts.
import { providersForProfiles } from '@signalbox/providers';
import { loadRegistryDir } from '@signalbox/registry';
import { ceilingsOf, runStageWorker } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { toolDeciderDefinition } from './decide.js';
import { loadEnv } from './env.js';
import { semanticDeciderFromEnv } from './semantic-env.js';

// OB-2/OB-3: the OpenTelemetry SDK when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT), else nothing. It
// is shut down last by the worker's SIGTERM drain (closeOnSignal), which exports the last spans and metrics.
await startTelemetry({ service: 'tool-decider' });
const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
// TD-2: the offline embedding model; missing files stop the worker here, before it consumes anything.
const { semantic } = await semanticDeciderFromEnv(process.env);
// IF-4: a provider per openai_compatible profile whose endpoint variables are set; otherwise the deterministic path.
const providers = providersForProfiles(registry.content.profiles, process.env);
await runStageWorker({
  service: 'tool-decider',
  env,
  definition: toolDeciderDefinition({
    registry,
    semantic,
    providerFor: (id) => providers.get(id),
    ceilings: ceilingsOf(env),
    maxValidationRounds: env.SIGNALBOX_MAX_VALIDATION_ROUNDS,
  }),
});
