import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';

/** The model selector's environment (OP-5): the stage variables plus where its registry and policy come from. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML (tools, agents, scenes, profiles, policies). */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  /** The routing policy id; required when the registry holds several. */
  SIGNALBOX_POLICY_ID: z.string().min(1).optional(),
  /** Per-tenant model constraints as JSON: `{ "<tenant>": { "allowed_profiles": […], "region": "eu", … } }`. */
  SIGNALBOX_TENANT_MODEL_POLICIES: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return TenantPolicies.parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `not valid tenant policies JSON: ${(err as Error).message}`,
        });
        return z.NEVER;
      }
    }),
});
export type Env = z.infer<typeof Env>;

const TenantPolicies = z.record(
  z.string(),
  z.strictObject({
    allowed_profiles: z.array(z.string().min(1)).optional(),
    region: z.string().min(1).optional(),
    no_retention: z.boolean().optional(),
    max_task_cost: z.number().positive().optional(),
  }),
);

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'model-selector');
