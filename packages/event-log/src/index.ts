export type {
  AppendResult,
  EventStore,
  NewEvent,
  SecretsOption,
  StoredEvent,
  TraceFilter,
  TraceSummary,
} from './event-store.js';
export { SECRET_REDACTED, secretsAt, type EventSecret } from './secrets.js';
export {
  LOOP_OF_EVENT_TYPE,
  traceTimeline,
  type TaskState,
  type TimelineEntry,
  type TimelineLoop,
  type TraceTimeline,
} from './trace-timeline.js';
export { createPgEventStore, type PgEventStoreOptions } from './pg-event-store.js';
export { createPgliteEventStore, type PgliteEventStoreOptions } from './pglite-event-store.js';
export { DEFAULT_CLAIM_CHECK_THRESHOLD_BYTES } from './internal/sql-event-store.js';
export { benchAppend, type BenchAppendOptions, type BenchAppendResult } from './bench-append.js';
export {
  AppendConflictError,
  EventLogError,
  EventStoreClosedError,
  EventStoreQueryError,
  EventStoreUnavailableError,
  InvalidEventError,
} from './errors.js';
