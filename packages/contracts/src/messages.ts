import { z } from 'zod';
import { Envelope } from './envelope.js';
import { TASK_FINISHED_LIMITS } from './limits.js';
import {
  EvaluationStatus,
  Feedback,
  ModelSelection,
  Plan,
  PreparedCall,
  Progress,
  StepRecord,
  StepResult,
  TaskSpec,
} from './task.js';

// Every message is the envelope (FL-4) plus an `event_type` literal and a payload. The literal discriminates the
// union on each topic (FL-3: feedback arrives on the stage's one input topic as its own kind).

function message<T extends string, P extends z.ZodType>(eventType: T, payload: P) {
  return Envelope.extend({ event_type: z.literal(eventType), payload });
}

/** What every message after submission carries about the task so far (FL-5). */
const Carried = z.object({ task: TaskSpec, progress: Progress, history: z.array(StepRecord).max(100) });

// --- signalbox.task.submitted.v1 → model selector -----------------------------------------------------
export const TaskSubmitted = message('task_submitted', z.object({ task: TaskSpec }));
export type TaskSubmitted = z.infer<typeof TaskSubmitted>;

/** EV-3 → MS-6: repeated failures; choose a simpler profile. */
export const DegradeRequested = message(
  'degrade_requested',
  Carried.extend({ selection: ModelSelection, plan: Plan.nullable(), feedback: Feedback }),
);
export type DegradeRequested = z.infer<typeof DegradeRequested>;

// --- signalbox.task.model_selected.v1 → tool decider -----------------------------------------------------
export const ModelSelected = message('model_selected', Carried.extend({ selection: ModelSelection }));
export type ModelSelected = z.infer<typeof ModelSelected>;

/** EV-3 → TD-7: a tool problem, empty result or capability mismatch; plan again without what failed. */
export const ReplanRequested = message(
  'replan_requested',
  Carried.extend({ selection: ModelSelection, plan: Plan, feedback: Feedback }),
);
export type ReplanRequested = z.infer<typeof ReplanRequested>;

// --- signalbox.task.planned.v1 → parameter injector ------------------------------------------------------
const PlannedPayload = Carried.extend({
  selection: ModelSelection,
  plan: Plan,
  /** The step the injector prepares next. */
  step_index: z.number().int().min(0),
});

export const TaskPlanned = message('task_planned', PlannedPayload);
export type TaskPlanned = z.infer<typeof TaskPlanned>;

/** EV-3: the last step succeeded and steps are left. */
export const NextStepRequested = message('next_step_requested', PlannedPayload);
export type NextStepRequested = z.infer<typeof NextStepRequested>;

/** EV-3 → PI-4: a parameter problem; fix the named fields of this step. */
export const ReinjectRequested = message(
  'reinject_requested',
  PlannedPayload.extend({ previous_call: PreparedCall, feedback: Feedback }),
);
export type ReinjectRequested = z.infer<typeof ReinjectRequested>;

// --- signalbox.step.prepared.v1 → executor ----------------------------------------------------------------
export const StepPrepared = message(
  'step_prepared',
  Carried.extend({ selection: ModelSelection, plan: Plan, call: PreparedCall }),
);
export type StepPrepared = z.infer<typeof StepPrepared>;

// --- signalbox.step.executed.v1 → result evaluator ----------------------------------------------------------
export const StepExecuted = message(
  'step_executed',
  Carried.extend({ selection: ModelSelection, plan: Plan, call: PreparedCall, result: StepResult }),
);
export type StepExecuted = z.infer<typeof StepExecuted>;

// --- signalbox.task.finished.v1 (terminal) ------------------------------------------------------------------
/** EV-4: the terminal event of a task. */
export const TaskFinished = message(
  'task_finished',
  z.object({
    task: TaskSpec,
    status: EvaluationStatus,
    steps: z.array(StepRecord).max(TASK_FINISHED_LIMITS.steps),
    evidence: z
      .array(
        z.object({
          step_index: z.number().int().min(0),
          kind: z.string().max(TASK_FINISHED_LIMITS.evidenceKind),
        }),
      )
      .max(TASK_FINISHED_LIMITS.evidence),
    /** For `need_clarification`: the questions to ask, naming the fields. */
    questions: z.array(z.string().max(TASK_FINISHED_LIMITS.text)).max(TASK_FINISHED_LIMITS.questions),
    issues: z.array(z.string().max(TASK_FINISHED_LIMITS.text)).max(TASK_FINISHED_LIMITS.issues),
    total_cost_usd: z.number().min(0),
    duration_ms: z.number().min(0),
  }),
);
export type TaskFinished = z.infer<typeof TaskFinished>;
