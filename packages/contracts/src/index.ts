export {
  checkBackwardCompatible,
  type CompatibilityIssue,
  type CompatibilityIssueKind,
  type CompatibilityResult,
} from './compatibility.js';
export { argumentsHash, canonicalHash, canonicalJson } from './canonical-json.js';
export { CONTRACT_VERSION, Envelope, InputSource, Traceparent, deterministicEventId } from './envelope.js';
export {
  AnswerAccepted,
  AnswerRequest,
  Confirmation,
  ErrorResponse,
  FieldError,
  Liveness,
  ModelCallsSummary,
  PendingConfirmation,
  Readiness,
  RegistryVersionsResponse,
  SubmitTaskRequest,
  TASK_EVENT_TYPES,
  TaskAccepted,
  TaskAnswer,
  TaskLinks,
  TaskResult,
  TaskState,
  TaskStatus,
  TimelineEntry,
  TimelineLoops,
  TraceEventDetail,
  TraceList,
  TraceListItem,
  TraceTimeline,
  type TaskEventType,
} from './http-api.js';
export { compileForJson, jsonParser } from './json-parser.js';
export { MAX_DECISION_REASON, MAX_ID, TASK_FINISHED_LIMITS } from './limits.js';
export { JSON_SCHEMA_DRAFT, allTopicJsonSchemas, topicJsonSchema, type JsonSchema } from './json-schema.js';
export { messageKindsOf } from './message-kinds.js';
export {
  DegradeRequested,
  ModelSelected,
  NextStepRequested,
  ReinjectRequested,
  ReplanRequested,
  StepExecuted,
  StepPrepared,
  TaskFinished,
  TaskPlanned,
  TaskSubmitted,
} from './messages.js';
export { PIPELINE_STAGES, Stage, type PipelineStage } from './stage.js';
export {
  AttachmentMeta,
  ArgumentProvenance,
  AskedAct,
  AskedActKind,
  ContextMessage,
  ErrorClass,
  EvaluationStatus,
  Feedback,
  InputFrom,
  ModelSelection,
  Plan,
  PlanStep,
  PreparedCall,
  Progress,
  ProposedCall,
  Rejection,
  StepRecord,
  StepResult,
  TaskSpec,
} from './task.js';
export {
  DEFAULT_PARTITIONS,
  INPUT_TOPIC_OF,
  TOPICS,
  allTopicNames,
  deadLetterTopicOf,
  topicByName,
  topicName,
  type AnyMessage,
  type InputTopicOf,
  type StageMessage,
  type StageMessageKind,
  type TopicKey,
  type TopicMessage,
  type TopicSpec,
} from './topics.js';
