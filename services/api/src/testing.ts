// Test helpers of the API, for its own tests and for those of its clients (`@signalbox/client`).
export { appendDecision } from './append-decision.js';
export {
  checkResponses,
  createResponseChecker,
  type ObservedResponse,
  type ResponseChecker,
  type ResponseLog,
} from './openapi-conformance.js';
