export {
  createSignalboxClient,
  type ConfirmationInput,
  type SignalboxClient,
  type SignalboxClientOptions,
  type SubmitOptions,
  type SubmittedTask,
  type TaskEvent,
  type TraceQuery,
  type WaitOptions,
} from './client.js';
export {
  SignalboxApiError,
  SignalboxClientError,
  SignalboxConnectionError,
  SignalboxTimeoutError,
} from './errors.js';
// The wire types and the hash a confirmation is bound to, from the one source the API validates with.
export {
  argumentsHash,
  canonicalJson,
  type AnswerAccepted,
  type AnswerRequest,
  type Confirmation,
  type ErrorResponse,
  type FieldError,
  type PendingConfirmation,
  type SubmitTaskRequest,
  type TaskAccepted,
  type TaskAnswer,
  type TaskEventType,
  type TaskResult,
  type TaskState,
  type TaskStatus,
  type TraceEventDetail,
  type TraceList,
  type TraceListItem,
  type TraceTimeline,
} from '@signalbox/contracts';
