// Wiring only: environment → registry → stage worker. The decision logic is in decide.ts.
import { loadRegistryDir } from '@signalbox/registry';
import { runStageWorker } from '@signalbox/stage-kit';
import { modelSelectorDefinition } from './decide.js';
import { loadEnv } from './env.js';

const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
await runStageWorker({
  service: 'model-selector',
  env,
  definition: modelSelectorDefinition({
    registry,
    ...(env.SIGNALBOX_POLICY_ID ? { policyId: env.SIGNALBOX_POLICY_ID } : {}),
    tenants: env.SIGNALBOX_TENANT_MODEL_POLICIES,
    maxDegradations: env.SIGNALBOX_MAX_DEGRADATIONS,
  }),
});
