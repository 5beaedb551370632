import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The tool decider's environment (OP-5): the stage variables (the FL-6 ceilings among them) plus its registry. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML (tools, agents, scenes, profiles, policies). */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  /** TD-5: repair rounds after a validation failure. @default 3 */
  SIGNALBOX_MAX_VALIDATION_ROUNDS: z.coerce.number().int().min(0).max(10).default(3),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'tool-decider');
