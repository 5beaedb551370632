import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The parameter injector's environment (OP-5): the stage variables plus its registry, bounds and field policy. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML (tools, agents, scenes, profiles). */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  /** PI-4: model re-asks per decision before `need_clarification`. @default 3 */
  SIGNALBOX_MAX_REVISIONS: z.coerce.number().int().min(0).max(20).default(3),
  /** PI-5: parameters agents may not set, as JSON `{ "<agent>|*": ["<tool>.<param>", "*.<param>"] }`. @default {} */
  SIGNALBOX_FIELD_POLICY: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return FieldPolicyJson.parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `not a valid field policy JSON: ${(err as Error).message}` });
        return z.NEVER;
      }
    }),
});
export type Env = z.infer<typeof Env>;

const FieldPolicyJson = z.record(z.string().min(1), z.array(z.string().min(3)));

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env =>
  parseEnv(Env, env, 'parameter-injector');
