// Test-only exports: the strict in-memory bus (unit tests, the embedded demo).
export { createMemoryBus, type MemoryBus, type MemoryBusOptions, type MemoryRecord } from './memory-bus.js';
