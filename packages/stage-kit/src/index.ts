export {
  decisionEnvelope,
  decideByKind,
  decisionEventId,
  defineStage,
  type RegistryBinding,
  type Decide,
  type KindHandlers,
  type Decision,
  type DecisionContext,
  type DecisionVersions,
  type StageDefinition,
  type StageInput,
} from './decision.js';
export { finishTask, type FinishTaskOptions } from './finish-task.js';
export {
  limitModelCalls,
  recordExchanges,
  replayExchanges,
  type ExchangeRecorder,
  type ExchangeReplay,
  type ModelLookup,
  type ReplayExchangesOptions,
  type UnrecordedModelCall,
} from './model-exchanges.js';
export {
  CeilingVariables,
  DEFAULT_CEILINGS,
  ceilingsOf,
  resolveCeilings,
  type CeilingEnv,
  type Ceilings,
} from './ceilings.js';
export { StageEnv, parseEnv } from './env.js';
export {
  DecisionDeferredError,
  EnvError,
  EventLogUnavailableError,
  InvalidDecisionError,
  StageConfigError,
  StageKitError,
} from './errors.js';
export { runStageWorker, type StageWorker, type StageWorkerOptions } from './run-worker.js';
export {
  closeOnSignal,
  type Closable,
  type ShutdownHandle,
  type ShutdownLogger,
  type ShutdownOptions,
  type ShutdownOutcome,
} from './shutdown.js';
export { startHealthServer, type HealthServer, type HealthServerOptions } from './health-server.js';
export {
  createStageRuntime,
  type RuntimeLogger,
  type RuntimeObserver,
  type StageRuntime,
  type StageRuntimeOptions,
  type StageState,
} from './stage-runtime.js';
