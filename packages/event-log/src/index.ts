export type {
  AnsweredModelExchange,
  AppendResult,
  EventStore,
  ExchangesOption,
  FailedModelExchange,
  ModelExchange,
  ModelExchangeError,
  NewEvent,
  ReadOptions,
  SecretsOption,
  StoredEvent,
  TraceFilter,
  TraceSummary,
} from './event-store.js';
export { SECRET_REDACTED, redactPaths, redactSecretValues, secretsAt, type EventSecret } from './secrets.js';
export {
  LOOP_OF_EVENT_TYPE,
  traceTimeline,
  type TaskState,
  type TimelineEntry,
  type TimelineLoop,
  type TraceTimeline,
} from './trace-timeline.js';
export {
  createPgEventLogRetention,
  createPgEventStore,
  type PgEventLogRetentionOptions,
  type PgEventStoreOptions,
  type PgPoolLogger,
} from './pg-event-store.js';
export {
  createPgliteEventLogRetention,
  createPgliteEventStore,
  type PgliteEventLogRetentionOptions,
  type PgliteEventStoreOptions,
} from './pglite-event-store.js';
export {
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST_FILE,
  createDirectorySink,
  readArchiveManifest,
  type ArchivedPartition,
  type ArchiveManifest,
  type ArchiveOptions,
  type ArchiveSink,
  type ArchiveWriter,
  type EventLogRetention,
  type PartitionInfo,
  type PruneOptions,
  type PruneResult,
} from './retention.js';
export { DEFAULT_CLAIM_CHECK_THRESHOLD_BYTES } from './internal/sql-event-store.js';
// The republish-identity rule (EL-2): the key order a decision is checked and first published in.
export { compareJsonbKeys } from './republish-identity.js';
// The one classification of database errors (SQLSTATEs, socket codes, pg's messages), for whoever talks to the log.
export { classifyError } from './internal/classify-error.js';
export {
  AppendConflictError,
  EventLogError,
  EventStoreClosedError,
  EventStoreQueryError,
  EventStoreUnavailableError,
  InvalidEventError,
} from './errors.js';
