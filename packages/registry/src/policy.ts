import { z } from 'zod';
import { TaskLabel } from './model-profile.js';
import { Identifier } from './tool-definition.js';

/** One rule of a routing policy: when a task carries any of `labels`, prefer these profiles in this order. */
export const RoutingRule = z.strictObject({
  labels: z.array(TaskLabel).min(1),
  prefer: z.array(Identifier).min(1),
  /** Why the rule exists; copied into the selector's decision_reason. */
  reason: z.string().min(1),
});
export type RoutingRule = z.infer<typeof RoutingRule>;

/**
 * A versioned routing policy (MS-4, RG-7): label → profile rules (first match wins), a default order for tasks no
 * rule matches, the order of degradation (MS-6) and the cost guardrail (MS-5).
 */
export const RoutingPolicy = z.strictObject({
  id: Identifier,
  description: z.string().min(1).optional(),
  rules: z.array(RoutingRule).default([]),
  default: z.array(Identifier).min(1),
  /** From the strongest to the simplest profile; degrading moves one step right. */
  degrade_order: z.array(Identifier).min(1),
  cost_guardrail: z
    .strictObject({
      /** Ceiling on the estimated cost of one task when the task and tenant set none. */
      max_task_cost: z.number().positive(),
    })
    .optional(),
});
/** A validated routing policy. */
export type RoutingPolicy = z.infer<typeof RoutingPolicy>;
