export { createDemoToolsServer, REPLAYED_HEADER, type DemoToolsServerOptions } from './server.js';
export {
  ACTION_KINDS,
  createDemoStore,
  type ActionKind,
  type DemoStore,
  type DemoStoreOptions,
  type StoredOutcome,
} from './demo-store.js';
export type { Queryable } from './queryable.js';
export {
  DemoToolsConfigError,
  DemoToolsEnvError,
  DemoToolsError,
  GENERIC_ERROR_CODES,
  ToolFailure,
  type GenericErrorCode,
} from './errors.js';
export { DEMO_FAULTS, FAULT_HEADER, type DemoFault, type FaultOptions } from './fault.js';
export { MCP_IDEMPOTENCY_META_KEY, MCP_SERVER_NAME } from './mcp.js';
export { DEMO_TOOLS } from './tools/catalog.js';
export type { DeclaredErrorSpec, ErrorClass, PackName, ToolSpec } from './tools/tool-spec.js';
export { isValidTaxId, usccCheckCharacter } from './tools/after-sales.js';
export { Env, loadEnv } from './env.js';
