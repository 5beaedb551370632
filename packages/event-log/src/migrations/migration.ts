import type { Names } from '../internal/names.js';

/** One schema change. Migrations run in list order, each once, inside the migration transaction. */
export interface Migration {
  /** Stable, sortable id recorded in `event_log_migrations`; never rename one that has shipped. */
  id: string;
  /** The SQL, with table names qualified for the store's schema. */
  sql: (names: Names) => string;
}
