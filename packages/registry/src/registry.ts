import { z } from 'zod';
import { ModelProfile } from './model-profile.js';
import { RoutingPolicy } from './policy.js';
import { AgentDefinition, RegistrySettings, SceneTemplate, TenantPolicy } from './scene.js';
import { ToolDefinition } from './tool-definition.js';
import { compareStrings } from './internal/compare.js';
import { computeVersions, type RegistryVersions } from './version.js';

/** Everything a registry holds, as validated plain data (what is hashed, published and loaded back). */
export const RegistryContent = z.strictObject({
  tools: z.array(ToolDefinition),
  agents: z.array(AgentDefinition),
  scenes: z.array(SceneTemplate),
  tenants: z.array(TenantPolicy),
  profiles: z.array(ModelProfile),
  policies: z.array(RoutingPolicy),
  settings: RegistrySettings,
});
/** Validated registry content. */
export type RegistryContent = z.infer<typeof RegistryContent>;

/** A loaded registry: its content, its versions, and lookups by name or id. */
export interface Registry {
  readonly content: RegistryContent;
  readonly versions: RegistryVersions;
  /** A tool by exact name (aliases are not resolved here; that is the decider's job, TD-3). */
  tool(name: string): ToolDefinition | undefined;
  agent(id: string): AgentDefinition | undefined;
  scene(id: string): SceneTemplate | undefined;
  profile(id: string): ModelProfile | undefined;
  policy(id: string): RoutingPolicy | undefined;
  /** Every scenario named by a tool or a scene, sorted. */
  scenarios(): string[];
}

/**
 * Wraps already validated and relation-checked content (see `loadRegistry`); sorts every section by id so that
 * the order of files and entries never matters.
 */
export function createRegistry(content: RegistryContent): Registry {
  const sorted: RegistryContent = {
    tools: [...content.tools].sort((a, b) => compareStrings(a.name, b.name)),
    agents: [...content.agents].sort((a, b) => compareStrings(a.id, b.id)),
    scenes: [...content.scenes].sort((a, b) => compareStrings(a.id, b.id)),
    tenants: [...content.tenants].sort((a, b) => compareStrings(a.id, b.id)),
    profiles: [...content.profiles].sort((a, b) => compareStrings(a.id, b.id)),
    policies: [...content.policies].sort((a, b) => compareStrings(a.id, b.id)),
    settings: content.settings,
  };
  const tools = new Map(sorted.tools.map((t) => [t.name, t]));
  const agents = new Map(sorted.agents.map((a) => [a.id, a]));
  const scenes = new Map(sorted.scenes.map((s) => [s.id, s]));
  const profiles = new Map(sorted.profiles.map((p) => [p.id, p]));
  const policies = new Map(sorted.policies.map((p) => [p.id, p]));
  const versions = computeVersions(sorted);
  return {
    content: sorted,
    versions,
    tool: (name) => tools.get(name),
    agent: (id) => agents.get(id),
    scene: (id) => scenes.get(id),
    profile: (id) => profiles.get(id),
    policy: (id) => policies.get(id),
    scenarios: () =>
      [
        ...new Set([...sorted.tools.flatMap((t) => t.scenarios), ...sorted.scenes.map((s) => s.scenario)]),
      ].sort(),
  };
}
