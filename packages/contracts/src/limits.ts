// The length caps of the envelope and of the terminal message, named once: the schemas refuse what exceeds them, and
// whatever builds such a message (stage-kit's `finishTask`) cuts its texts and lists to them rather than failing the
// envelope check with a message that should have finished the task.

/** Characters of an envelope's `decision_reason` (FL-4). */
export const MAX_DECISION_REASON = 4000;
/** Characters of an id (event, task, tenant, agent, causation). */
export const MAX_ID = 128;

/** Caps of a `task_finished` payload (EV-4). */
export const TASK_FINISHED_LIMITS = {
  /** Step records kept. */
  steps: 100,
  /** Evidence entries. */
  evidence: 100,
  /** Characters of an evidence kind. */
  evidenceKind: 32,
  /** Questions for `need_clarification`. */
  questions: 20,
  /** Issues. */
  issues: 50,
  /** Characters of one question or issue. */
  text: 2000,
} as const;
