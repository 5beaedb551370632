export { HARD_CHECKS, HEURISTICS, runChecks, type Check, type CheckInput, type Finding } from './checks.js';
export {
  DEFAULT_FAILURES_BEFORE_DEGRADE,
  createResultEvaluatorDecide,
  resultEvaluatorDefinition,
  stepStatus,
  type ResultEvaluatorDefinitionOptions,
  type ResultEvaluatorOptions,
} from './decide.js';
export { Env, loadEnv } from './env.js';
