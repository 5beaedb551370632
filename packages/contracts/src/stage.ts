import { z } from 'zod';

/** Who wrote an event: the five workers, plus the API (task intake) and operator tools (replay, re-drive). */
export const Stage = z.enum([
  'api',
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'executor',
  'result_evaluator',
  'operator',
]);
export type Stage = z.infer<typeof Stage>;

/** The five pipeline stages, in flow order. */
export const PIPELINE_STAGES = [
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'executor',
  'result_evaluator',
] as const satisfies readonly Stage[];
export type PipelineStage = (typeof PIPELINE_STAGES)[number];
