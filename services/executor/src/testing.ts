// Test-only exports: a fault-injecting HTTP tool server, a small registry of HTTP tools and step_prepared inputs,
// for the executor's tests and the integration suites that run the executor.
export {
  httpTool,
  startFaultServer,
  stepPrepared,
  testRegistry,
  type FaultServer,
  type JsonValue,
  type SeenRequest,
  type StepPreparedParts,
} from './internal/test-fixtures.js';
