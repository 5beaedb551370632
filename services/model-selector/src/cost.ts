import type { ModelProfile } from '@signalbox/registry';
import type { TaskAnalysis } from './task-analysis.js';

/** Model calls a task of each tool complexity is expected to make across the pipeline. */
const CALLS_BY_COMPLEXITY: Readonly<Record<TaskAnalysis['tool_complexity'], number>> = {
  none: 1,
  low: 2,
  medium: 3,
  high: 5,
};

/** MS-5: the estimated cost of running the task on `profile`, in the profiles' currency. */
export function estimateCost(profile: ModelProfile, analysis: TaskAnalysis): number {
  const perCall =
    (analysis.token_estimate / 1000) * profile.cost_per_1k_tokens.input +
    (analysis.output_token_estimate / 1000) * profile.cost_per_1k_tokens.output;
  return roundCost(perCall * CALLS_BY_COMPLEXITY[analysis.tool_complexity]);
}

/** Costs are compared and recorded with six decimals, so floating-point noise never flips a decision. */
export function roundCost(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
