export { createApiApp, type ApiAppOptions, type ApiLogger } from './app.js';
export { authenticate, hashApiKey, parseApiKeys, type ApiKeys } from './auth.js';
export { Env, loadEnv } from './env.js';
export {
  ApiConfigError,
  ApiError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
  UnprocessableError,
  type FieldError,
} from './errors.js';
export { registryVersions, type RegistryVersionsReport } from './registry-versions.js';
export {
  AnswerBody,
  Confirmation,
  MAX_TRACE_PAGE,
  SubmitTaskBody,
  TraceQuery,
  encodeCursor,
  fieldErrors,
} from './requests.js';
export {
  continuationTask,
  ownerOf,
  submittedMessage,
  taskIdFor,
  taskView,
  type SubmissionParts,
  type TaskResult,
} from './tasks.js';
export { agentRegistry, type McpRouteOptions } from './mcp/routes.js';
