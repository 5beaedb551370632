import {
  MAX_DECISION_REASON,
  TASK_FINISHED_LIMITS,
  TOPICS,
  type Envelope,
  type EvaluationStatus,
  type InputSource,
  type Progress,
  type StepRecord,
  type TaskFinished,
  type TaskSpec,
} from '@signalbox/contracts';
import type { Decision } from './decision.js';

/** What ends a task, as the stage that ends it knows it. */
export interface FinishTaskOptions {
  task: TaskSpec;
  status: EvaluationStatus;
  /** Why the task ends: the decision's `decision_reason`, cut to the envelope's cap. */
  reason: string;
  /**
   * The task's counters so far: `total_cost_usd` is their cost, `duration_ms` runs from their start to the input's
   * `occurred_at`. Before the task has any (the model selector on submission), a start and no cost.
   */
  progress: Pick<Progress, 'cost_usd' | 'started_at'>;
  /** The steps taken, oldest first; past the contract's cap only the latest are kept. @default none */
  steps?: readonly StepRecord[];
  /** @default none */
  evidence?: TaskFinished['payload']['evidence'];
  /** For `need_clarification`: the questions to ask. @default none */
  questions?: readonly string[];
  /** @default none */
  issues?: readonly string[];
  /** @default the input's */
  revision_count?: number;
  /** @default the input's */
  degraded_flag?: boolean;
  /** @default 'pipeline' */
  input_source?: InputSource;
}

/**
 * EV-4: the `task_finished` decision that ends a task, the one builder every stage uses. Texts and lists are cut to
 * the contract's limits (`TASK_FINISHED_LIMITS`, `MAX_DECISION_REASON`): a reason or an issue list too long for the
 * envelope must still finish the task, not fail the decision's check and dead-letter its input.
 */
export function finishTask(
  input: Pick<Envelope, 'occurred_at' | 'revision_count' | 'degraded_flag'>,
  options: FinishTaskOptions,
): Decision {
  const { task, status, progress } = options;
  const payload: TaskFinished['payload'] = {
    task,
    status,
    steps: (options.steps ?? []).slice(-TASK_FINISHED_LIMITS.steps),
    evidence: (options.evidence ?? []).slice(0, TASK_FINISHED_LIMITS.evidence).map((e) => ({
      step_index: e.step_index,
      kind: cut(e.kind, TASK_FINISHED_LIMITS.evidenceKind),
    })),
    questions: capList(options.questions ?? [], TASK_FINISHED_LIMITS.questions, 'questions'),
    issues: capList(options.issues ?? [], TASK_FINISHED_LIMITS.issues, 'issues'),
    total_cost_usd: progress.cost_usd,
    duration_ms: Math.max(0, Date.parse(input.occurred_at) - Date.parse(progress.started_at)),
  };
  const decision: Decision = {
    topic: TOPICS.taskFinished,
    event_type: 'task_finished',
    payload,
    decision_reason: cut(options.reason, MAX_DECISION_REASON),
    revision_count: options.revision_count ?? input.revision_count,
    degraded_flag: options.degraded_flag ?? input.degraded_flag,
  };
  if (options.input_source) decision.input_source = options.input_source;
  return decision;
}

/** `text` within `max` characters; a cut text ends in `…` so a reader sees it was cut. */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The distinct texts of `list`, each cut to the contract's text cap, at most `max` of them: past it the last entry
 * says how many were left out, so the list never reads as complete when it is not.
 */
function capList(list: readonly string[], max: number, what: string): string[] {
  const distinct = [...new Set(list.map((t) => cut(t, TASK_FINISHED_LIMITS.text)))];
  if (distinct.length <= max) return distinct;
  return [...distinct.slice(0, max - 1), `… ${String(distinct.length - max + 1)} more ${what}`];
}
