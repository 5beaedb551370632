import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The result evaluator's environment (OP-5): stage variables, its registry and the FL-6 ceilings. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML. */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  SIGNALBOX_MAX_REPLANS: z.coerce.number().int().min(0).max(20).default(3),
  SIGNALBOX_MAX_REINJECTIONS: z.coerce.number().int().min(0).max(20).default(3),
  SIGNALBOX_MAX_DEGRADATIONS: z.coerce.number().int().min(0).max(10).default(2),
  SIGNALBOX_MAX_STEPS: z.coerce.number().int().min(1).max(100).default(12),
  SIGNALBOX_MAX_WALL_TIME_MS: z.coerce.number().int().min(1000).default(600_000),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'result-evaluator');
