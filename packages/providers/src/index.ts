export { hashModelRequest } from './canonical-json.js';
export {
  InvalidModelRequestError,
  ProviderError,
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  ScriptNotConsumedError,
  UnexpectedModelCallError,
  UnrecordedRequestError,
} from './errors.js';
export {
  AssistantToolCall,
  ModelMessage,
  ModelRequest,
  ModelResponse,
  ModelTool,
  ModelUsage,
  ResponseFormat,
  ToolCall,
  ToolChoice,
  type ModelProvider,
} from './model-types.js';
export {
  createOpenAiProvider,
  retryAfterMs,
  type OpenAiProvider,
  type OpenAiProviderOptions,
} from './openai-provider.js';
export { RecordedModelError, modelErrorFromRecord, recordModelError } from './model-error-record.js';
export {
  RecordedExchange,
  RecordedFailure,
  createRecordingProvider,
  createReplayProvider,
  type HashingProvider,
  type RecordedResponse,
  type RecordingProvider,
  type ReplayProvider,
} from './recording-provider.js';
export { parseToolArguments, type ParsedToolArguments } from './tool-call-arguments.js';
export { providersForProfiles, type ProfileEndpoint } from './profile-providers.js';
