import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The tool decider's environment (OP-5): the stage variables plus its registry and ceilings. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML (tools, agents, scenes, profiles, policies). */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  /** FL-6: re-plans per task before it fails. @default 3 */
  SIGNALBOX_MAX_REPLANS: z.coerce.number().int().min(0).max(20).default(3),
  /** TD-5: repair rounds after a validation failure. @default 3 */
  SIGNALBOX_MAX_VALIDATION_ROUNDS: z.coerce.number().int().min(0).max(10).default(3),
  /** FL-6: most steps in a plan. @default 8 */
  SIGNALBOX_MAX_STEPS: z.coerce.number().int().min(1).max(50).default(8),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'tool-decider');
