// Test helpers of the API, for its own tests and for those of the packages in front of it (`@signalbox/client`,
// the CLI's dev server).
export { appendDecision } from './append-decision.js';
export { listenLocally } from './listen-locally.js';
export {
  checkResponses,
  createResponseChecker,
  type ObservedResponse,
  type ResponseChecker,
  type ResponseLog,
} from './openapi-conformance.js';
export { CHROMIUM_ARGS, CHROMIUM_PATH, TIMELINE_OVERFLOW, requireChromium } from './viewer/chromium.js';
