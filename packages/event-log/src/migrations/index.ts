import { createEvents } from './0001-events.js';
import { traceColumns } from './0002-trace-columns.js';
import { eventSecrets } from './0003-event-secrets.js';
import { monthlyPartitions } from './0004-monthly-partitions.js';
import { modelExchanges } from './0005-model-exchanges.js';
import { failedModelExchanges } from './0006-failed-model-exchanges.js';
import { workTime } from './0007-work-time.js';
import type { Migration } from './migration.js';

/** Every migration, in the order they run. Append new ones; never edit or reorder shipped ones. */
export const MIGRATIONS: readonly Migration[] = [
  createEvents,
  traceColumns,
  eventSecrets,
  monthlyPartitions,
  modelExchanges,
  failedModelExchanges,
  workTime,
];

export type { Migration } from './migration.js';
