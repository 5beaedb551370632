export {
  createToolDeciderDecide,
  toolDeciderDefinition,
  type ToolDeciderDefinitionOptions,
  type ToolDeciderOptions,
} from './decide.js';
export { ToolDeciderConfigError, ToolDeciderError } from './errors.js';
export { Env, loadEnv } from './env.js';
export { type RequestIntent } from './intent.js';
export { readActs, toolActKind, type AskedActRead } from './acts.js';
export { PROPOSAL_SYSTEM_PROMPT, proposalRequest, proposeTools } from './model-proposals.js';
export {
  PLAN_RULES,
  PLAN_RULE_IDS,
  deleteConfirmation,
  dependsOn,
  duplicateStep,
  exclusiveWith,
  intentSideEffect,
  noCycles,
  normaliseArgument,
  normaliseUrl,
  preconditions,
  readsBeforeWrites,
  validatePlan,
  visibilityPermission,
  type DraftStep,
  type ExecutedStep,
  type PlanRule,
  type PlanRuleId,
  type RepeatReason,
  type ValidationContext,
  type Violation,
} from './plan-validator.js';
export {
  planTools,
  type PlanOutcome,
  type PlanRequest,
  type PlannerOptions,
  type ProposedCall,
} from './planner.js';
export {
  NAME_SIMILARITY_THRESHOLD,
  nameSimilarity,
  resolveToolName,
  type NameResolution,
} from './resolve-name.js';
export {
  GENERIC_VERBS,
  RETRIEVAL_CONFIG,
  createLexicalIndex,
  fitsRequest,
  nameHead,
  semanticFeatures,
  semanticFit,
  targetPhrase,
  targetTerms,
  type LexicalIndex,
  type SemanticFeatures,
  type SemanticInput,
  type ScoredTool,
} from './retrieval.js';
export { scoreScenes, type SceneScore } from './scene-router.js';
export {
  createSemanticScorer,
  meaningOf,
  toolTexts,
  type SemanticProvenance,
  type SemanticScorer,
  type SemanticScorerOptions,
  type Similarities,
} from './semantic.js';
export { calibrated, MODEL_ANCHORS, type Anchors } from './calibration.js';
export { semanticDeciderFromEnv } from './semantic-env.js';
export {
  QUALIFIER_CLASSES,
  adviceCue,
  argumentCoverage,
  qualifierConflict,
  qualifierSenses,
  requestValues,
  type RequestValues,
  type RequiredParameter,
} from './fit-features.js';
