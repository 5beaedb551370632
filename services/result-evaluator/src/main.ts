// Wiring only: environment → registry → stage worker. The decision logic is in decide.ts.
import { loadRegistryDir } from '@signalbox/registry';
import { runStageWorker } from '@signalbox/stage-kit';
import { resultEvaluatorDefinition } from './decide.js';
import { loadEnv } from './env.js';

const env = loadEnv();
const registry = await loadRegistryDir(env.SIGNALBOX_REGISTRY_DIR);
await runStageWorker({
  service: 'result-evaluator',
  env,
  definition: resultEvaluatorDefinition({
    registry,
    ceilings: {
      maxReplans: env.SIGNALBOX_MAX_REPLANS,
      maxReinjections: env.SIGNALBOX_MAX_REINJECTIONS,
      maxDegradations: env.SIGNALBOX_MAX_DEGRADATIONS,
      maxSteps: env.SIGNALBOX_MAX_STEPS,
      maxWallTimeMs: env.SIGNALBOX_MAX_WALL_TIME_MS,
    },
  }),
});
