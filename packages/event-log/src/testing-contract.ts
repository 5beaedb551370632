// Test-only: the contract suites every EventStore adapter passes (pg and PGlite run the same suites), and the event
// builder they use. Its own subpath, `@signalbox/event-log/testing/contract`, because it imports vitest.
export {
  defineEventStoreContract,
  makeEvent,
  type ContractHarness,
  type ContractSetup,
  type ContractSetupOptions,
} from './event-store-contract.js';
export { defineRetentionContract, type RetentionHarness } from './retention-contract.js';
