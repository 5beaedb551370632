import { createEvents } from './0001-events.js';
import type { Migration } from './migration.js';

/** Every migration, in the order they run. Append new ones; never edit or reorder shipped ones. */
export const MIGRATIONS: readonly Migration[] = [createEvents];

export type { Migration } from './migration.js';
