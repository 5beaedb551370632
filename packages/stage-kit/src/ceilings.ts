import { z } from 'zod';
import { StageConfigError } from './errors.js';

/**
 * FL-6: the ceilings that bound every loop of a task, one configuration for the whole pipeline. Each ceiling has its
 * own variable (see {@link CeilingVariables}), is parsed once with the stage's environment, and is handed to the
 * stages that enforce it; each is compared with its own counter, named beside it.
 */
export interface Ceilings {
  /**
   * Steps in one plan (TD-4), enforced by the tool decider; counted by the plan's `steps`.
   * `SIGNALBOX_MAX_PLAN_STEPS`. @default 8
   */
  maxPlanSteps: number;
  /**
   * Steps executed per task, enforced by the result evaluator; counted by `progress.steps_executed`.
   * `SIGNALBOX_MAX_EXECUTED_STEPS`. @default 12
   */
  maxExecutedSteps: number;
  /**
   * Re-plans per task (TD-7), enforced by the tool decider and the result evaluator; counted by `progress.replans`.
   * `SIGNALBOX_MAX_REPLANS`. @default 3
   */
  maxReplans: number;
  /**
   * Re-injections (parameter fixes, PI-4) per task before the user is asked, enforced by the result evaluator;
   * counted by `progress.reinjections` (absent is 0). `SIGNALBOX_MAX_REINJECTIONS`. @default 3
   */
  maxReinjections: number;
  /**
   * Revisions per task (every re-ask of the model, re-injection, re-plan and degradation) past which the parameter
   * injector refuses a re-injection and asks the user; counted by `progress.revisions`.
   * `SIGNALBOX_MAX_TASK_REVISIONS`. @default 6
   */
  maxTaskRevisions: number;
  /**
   * Degradations of the model (MS-6) per task, enforced by the model selector and the result evaluator; counted by
   * `progress.degradations`. `SIGNALBOX_MAX_DEGRADATIONS`. @default 2
   */
  maxDegradations: number;
  /**
   * Cost per task in USD, enforced by the result evaluator; counted by `progress.cost_usd`; null for none (the
   * task's own `cost_ceiling_usd` still holds). `SIGNALBOX_MAX_COST_USD`. @default null
   */
  maxCostUsd: number | null;
  /**
   * Wall time per task from its submission, enforced by the result evaluator; counted from `progress.started_at`.
   * `SIGNALBOX_MAX_WALL_TIME_MS`. @default 600000
   */
  maxWallTimeMs: number;
}

/** The ceilings when nothing is configured. */
export const DEFAULT_CEILINGS: Readonly<Ceilings> = Object.freeze({
  maxPlanSteps: 8,
  maxExecutedSteps: 12,
  maxReplans: 3,
  maxReinjections: 3,
  maxTaskRevisions: 6,
  maxDegradations: 2,
  maxCostUsd: null,
  maxWallTimeMs: 600_000,
});

const count = (max: number) => z.coerce.number().int().min(0).max(max);

/** The environment variables of the ceilings, part of every stage's `StageEnv`. */
export const CeilingVariables = {
  /** {@link Ceilings.maxPlanSteps} @default 8 */
  SIGNALBOX_MAX_PLAN_STEPS: z.coerce.number().int().min(1).max(50).default(DEFAULT_CEILINGS.maxPlanSteps),
  /** {@link Ceilings.maxExecutedSteps} @default 12 */
  SIGNALBOX_MAX_EXECUTED_STEPS: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(DEFAULT_CEILINGS.maxExecutedSteps),
  /** {@link Ceilings.maxReplans} @default 3 */
  SIGNALBOX_MAX_REPLANS: count(20).default(DEFAULT_CEILINGS.maxReplans),
  /** {@link Ceilings.maxReinjections} @default 3 */
  SIGNALBOX_MAX_REINJECTIONS: count(20).default(DEFAULT_CEILINGS.maxReinjections),
  /** {@link Ceilings.maxTaskRevisions} @default 6 */
  SIGNALBOX_MAX_TASK_REVISIONS: count(20).default(DEFAULT_CEILINGS.maxTaskRevisions),
  /** {@link Ceilings.maxDegradations} @default 2 */
  SIGNALBOX_MAX_DEGRADATIONS: count(10).default(DEFAULT_CEILINGS.maxDegradations),
  /** {@link Ceilings.maxCostUsd}; unset for none. */
  SIGNALBOX_MAX_COST_USD: z.coerce.number().positive().optional(),
  /** {@link Ceilings.maxWallTimeMs} @default 600000 */
  SIGNALBOX_MAX_WALL_TIME_MS: z.coerce.number().int().min(1000).default(DEFAULT_CEILINGS.maxWallTimeMs),
  /**
   * No longer read: it meant the plan length in the tool decider and the executed steps in the result evaluator.
   * Set, it stops the stage naming the two variables that replace it, rather than being ignored or misread.
   */
  SIGNALBOX_MAX_STEPS: z
    .undefined({
      error:
        'no longer read: set SIGNALBOX_MAX_PLAN_STEPS (steps in one plan, default 8) and/or ' +
        'SIGNALBOX_MAX_EXECUTED_STEPS (steps executed per task, default 12) instead',
    })
    .optional(),
};

/** The parsed ceiling variables (a `StageEnv` holds them). */
export interface CeilingEnv {
  SIGNALBOX_MAX_PLAN_STEPS: number;
  SIGNALBOX_MAX_EXECUTED_STEPS: number;
  SIGNALBOX_MAX_REPLANS: number;
  SIGNALBOX_MAX_REINJECTIONS: number;
  SIGNALBOX_MAX_TASK_REVISIONS: number;
  SIGNALBOX_MAX_DEGRADATIONS: number;
  SIGNALBOX_MAX_COST_USD?: number | undefined;
  SIGNALBOX_MAX_WALL_TIME_MS: number;
}

/** The ceilings of a parsed stage environment. */
export function ceilingsOf(env: CeilingEnv): Ceilings {
  return {
    maxPlanSteps: env.SIGNALBOX_MAX_PLAN_STEPS,
    maxExecutedSteps: env.SIGNALBOX_MAX_EXECUTED_STEPS,
    maxReplans: env.SIGNALBOX_MAX_REPLANS,
    maxReinjections: env.SIGNALBOX_MAX_REINJECTIONS,
    maxTaskRevisions: env.SIGNALBOX_MAX_TASK_REVISIONS,
    maxDegradations: env.SIGNALBOX_MAX_DEGRADATIONS,
    maxCostUsd: env.SIGNALBOX_MAX_COST_USD ?? null,
    maxWallTimeMs: env.SIGNALBOX_MAX_WALL_TIME_MS,
  };
}

/**
 * The ceilings a stage enforces: the defaults with `given` over them. Throws {@link StageConfigError} naming a
 * ceiling that is not a non-negative integer (a cost: a positive number or null) before the stage starts.
 */
export function resolveCeilings(given: Partial<Ceilings> = {}): Ceilings {
  const ceilings: Ceilings = { ...DEFAULT_CEILINGS, ...given };
  for (const [key, value] of Object.entries(ceilings) as [keyof Ceilings, number | null][]) {
    const ok =
      key === 'maxCostUsd'
        ? value === null || (Number.isFinite(value) && value > 0)
        : Number.isInteger(value) && (value ?? -1) >= (key === 'maxPlanSteps' ? 1 : 0);
    if (!ok) throw new StageConfigError(`ceiling ${key} is invalid: ${String(value)}`);
  }
  return ceilings;
}
