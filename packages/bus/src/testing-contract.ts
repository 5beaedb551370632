// Test-only: the contract suite every Bus adapter passes (the Kafka adapter and the in-memory one run the same
// suite), with its topic and wait helpers. Its own subpath, `@signalbox/bus/testing/contract`, because it imports
// vitest and test-support, which `./testing` (the in-memory bus, also used by the embedded run) must not pull in.
export { ContractValue, busContract, contractTopic, waitFor, type BusHarness } from './bus-contract.js';
