import { z } from 'zod';
import { Identifier, Permission, ToolName } from './tool-definition.js';

/** An agent (seed 002): who it is, and the most it may be allowed to do. */
export const AgentDefinition = z.strictObject({
  id: Identifier,
  description: z.string().min(1),
  /** Tools above this permission are never visible to the agent (RG-4). */
  max_permission: Permission.default('write'),
});
export type AgentDefinition = z.infer<typeof AgentDefinition>;

/**
 * A scene template (RG-4, seed 002): binds a scenario to its tool set, so a router picks a scene, never tool
 * names. The tool order is the priority inside the scene.
 */
export const SceneTemplate = z.strictObject({
  id: Identifier,
  scenario: Identifier,
  description: z.string().min(1),
  tools: z.array(ToolName).min(1),
  /** Agents that take this scene; empty means every agent that can see its tools. */
  agents: z.array(Identifier).default([]),
  /** Words and phrases that signal the scene (lexical routing). */
  keywords: z.array(z.string().min(1)).default([]),
  examples: z.array(z.string().min(1)).default([]),
});
export type SceneTemplate = z.infer<typeof SceneTemplate>;

/** A tenant's allow-list (RG-4, RS-5). `default` applies to tenants not declared by id. */
export const TenantPolicy = z.strictObject({
  id: z.union([Identifier, z.literal('default')]),
  /** Tool names, `tag:<tag>`, or `*` for all. */
  allow: z.array(z.string().min(1)).default(['*']),
  /** Tool names or `tag:<tag>`; deny wins over allow. */
  deny: z.array(z.string().min(1)).default([]),
  max_permission: Permission.default('sensitive'),
});
export type TenantPolicy = z.infer<typeof TenantPolicy>;

/** Registry-wide settings. */
export const RegistrySettings = z.strictObject({
  /** How many tools `toolsFor` returns at most (RG-4). */
  visibility_cap: z.number().int().positive().default(10),
});
export type RegistrySettings = z.infer<typeof RegistrySettings>;
