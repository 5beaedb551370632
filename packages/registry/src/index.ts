export {
  RegistryError,
  RegistryImportError,
  RegistryLoadError,
  RegistryStoreError,
  RegistryVersionNotFoundError,
  UnknownVisibilitySubjectError,
} from './errors.js';
export { formatProblem, type ItemKind, type Problem, type SourceLocation } from './problem.js';
export {
  jsonSchemaIssues,
  NORMALIZER_NAMES,
  parameterHints,
  stripExtensions,
  validateAgainstSchema,
  type DateDirection,
  type JsonSchema,
  type JsonSchemaIssue,
  type NormalizerName,
  type ParameterHints,
} from './json-schema.js';
export {
  CachePolicy,
  DeclaredError,
  Dependency,
  Deprecation,
  ErrorClass,
  EvidenceLevel,
  FreshnessClass,
  Identifier,
  parameterNames,
  Permission,
  PERMISSION_RANK,
  Precondition,
  requiredParameters,
  RetryPolicy,
  StructuredDescription,
  ToolAction,
  ToolDefinition,
  ToolDescription,
  ToolLimits,
  ToolName,
  ToolOrigin,
  TransportBinding,
  type ToolDefinitionInput,
} from './tool-definition.js';
export { descriptionText, parseDescription, renderDescription } from './description.js';
export {
  sensitiveArgumentPaths,
  sensitiveParameterPaths,
  stageBinding,
  type StageRegistryBinding,
} from './sensitive-paths.js';
export { ModelCapability, ModelProfile, ProviderEndpoint, TaskLabel } from './model-profile.js';
export { RoutingPolicy, RoutingRule } from './policy.js';
export { AgentDefinition, RegistrySettings, SceneTemplate, TenantPolicy } from './scene.js';
export { createRegistry, RegistryContent, type Registry } from './registry.js';
export {
  loadRegistryDir,
  loadRegistrySources,
  parseRegistrySources,
  readRegistryDir,
  type Declaration,
  type Locator,
  type ParsedRegistry,
  type RegistrySource,
} from './load.js';
export {
  formatFinding,
  lintRegistry,
  lintRules,
  lintSources,
  LintOptionsError,
  resolveLintOptions,
  type LintFinding,
  type LintOptions,
  type LintReport,
} from './lint/lint.js';
export { LINT_RULES, NAMING_VERBS } from './lint/rules.js';
export type { LintRule, LintThresholds, RawFinding, RuleContext, Severity } from './lint/rule.js';
export {
  compareSnapshots,
  toolsFor,
  toolsForAnyScenario,
  toolsForScene,
  visibilitySnapshot,
  type ExclusionReason,
  type VisibilityDrift,
  type VisibilityQuery,
  type VisibilitySnapshot,
  type VisibleToolSet,
} from './visibility.js';
export {
  canonicalJson,
  computeVersions,
  contentHash,
  diffRegistries,
  toolHash,
  type RegistryDiff,
  type RegistryVersions,
  type ToolChange,
} from './version.js';
export {
  createRegistryStore,
  type Publication,
  type RegistryStore,
  type RegistryStoreOptions,
  type StoredRegistry,
} from './store.js';
export { importOpenAITools, type OpenAIImportOptions } from './import/openai.js';
export { effectsFromAnnotations, importMcpTools, type McpImportOptions } from './import/mcp.js';
export {
  BFCL_TYPE_MAP,
  bfclSchemaToJsonSchema,
  importBfcl,
  type BfclCase,
  type BfclImportOptions,
  type BfclImportResult,
} from './import/bfcl.js';
export type { ImportResult, SideEffectAssumption } from './import/shared.js';
export { exportMcpTools, exportOpenAITools, type McpTool, type OpenAITool } from './export.js';
export { toolsToYaml } from './yaml-output.js';
