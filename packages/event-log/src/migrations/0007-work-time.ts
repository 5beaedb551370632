import type { Migration } from './migration.js';

/**
 * EL-6: the stage's own time on a decision — from the start of its decision function to the decision, retries
 * included — recorded by the stage runtime with the decision it appends. The gap between two recorded times
 * (`since_previous_ms`) also holds the bus, the queue and the append; this is the work alone. Null for the events a
 * stage did not time: the API's submissions, events recorded before this column, a replayed corpus.
 *
 * ALTER on the partitioned parent reaches every month's partition, existing and future; a nullable column without a
 * default adds no rewrite of the rows already there.
 */
export const workTime: Migration = {
  id: '0007-work-time',
  sql: (n) => `
ALTER TABLE ${n.events} ADD COLUMN work_ms integer CONSTRAINT events_work_ms_not_negative CHECK (work_ms >= 0);
`,
};
