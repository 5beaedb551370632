export {
  ModelSelectorConfigError,
  createModelSelectorDecide,
  modelSelectorDefinition,
  type ModelSelectorOptions,
} from './decide.js';
export {
  CONTEXT_RESERVE_TOKENS,
  HARD_FILTERS,
  applyHardFilters,
  type HardFilter,
  type TenantModelPolicy,
} from './hard-filters.js';
export { estimateCost } from './cost.js';
export { Env, loadEnv } from './env.js';
export { LONG_CONTEXT_TOKENS, analyseTask, type TaskAnalysis } from './task-analysis.js';
