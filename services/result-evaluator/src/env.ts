import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The result evaluator's environment (OP-5): the stage variables (the FL-6 ceilings among them) and its registry. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML. */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'result-evaluator');
