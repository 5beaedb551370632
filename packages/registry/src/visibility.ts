import { UnknownVisibilitySubjectError } from './errors.js';
import { compareStrings } from './internal/compare.js';
import type { Registry } from './registry.js';
import type { TenantPolicy } from './scene.js';
import { PERMISSION_RANK, type ToolDefinition } from './tool-definition.js';

/** Whom a visible tool set is for. */
export interface VisibilityQuery {
  agent: string;
  scenario: string;
  tenant: string;
  /** Most tools returned. @default the registry's `settings.visibility_cap` (10) */
  cap?: number;
}

/** Why a tool is not in a visible set. */
export type ExclusionReason =
  | 'not_owned_or_visible'
  | 'not_in_scenario'
  | 'tenant_not_allowed'
  | 'tenant_denied'
  | 'permission_above_agent'
  | 'permission_above_tenant'
  | 'over_cap';

/** The tools one agent sees for one scenario and tenant (RG-4), and why the others are not there. */
export interface VisibleToolSet {
  agent: string;
  scenario: string;
  tenant: string;
  /** The registry version the set was computed from (recorded with every decision, TD-8). */
  registry_version: string;
  /** Ordered: core tools first, then by priority (high first), owned before merely visible, then name. */
  tools: ToolDefinition[];
  /** Tools left out, with the first reason that excluded each; answers "why can't the agent see X?". */
  excluded: { tool: string; reason: ExclusionReason }[];
}

function matches(entry: string, tool: ToolDefinition): boolean {
  if (entry === '*') return true;
  if (entry.startsWith('tag:')) return tool.tags.includes(entry.slice(4));
  return entry === tool.name;
}

/** The tenant's policy: its own entry, else the `default` entry. */
function tenantPolicy(registry: Registry, tenant: string): TenantPolicy {
  const tenants = registry.content.tenants;
  const policy = tenants.find((t) => t.id === tenant) ?? tenants.find((t) => t.id === 'default');
  if (!policy)
    throw new UnknownVisibilitySubjectError(
      'tenant',
      tenant,
      tenants.map((t) => t.id),
    );
  return policy;
}

function rankTools(tools: ToolDefinition[], agent: string): ToolDefinition[] {
  return [...tools].sort(
    (a, b) =>
      Number(b.core) - Number(a.core) ||
      b.priority - a.priority ||
      Number(b.owner_agent === agent) - Number(a.owner_agent === agent) ||
      Number(a.deprecation !== undefined) - Number(b.deprecation !== undefined) ||
      compareStrings(a.name, b.name),
  );
}

function filterTools(
  registry: Registry,
  query: VisibilityQuery,
  inScope: (tool: ToolDefinition) => boolean,
): { kept: ToolDefinition[]; excluded: VisibleToolSet['excluded'] } {
  const agent = registry.agent(query.agent);
  if (!agent)
    throw new UnknownVisibilitySubjectError(
      'agent',
      query.agent,
      registry.content.agents.map((a) => a.id),
    );
  const tenant = tenantPolicy(registry, query.tenant);
  const kept: ToolDefinition[] = [];
  const excluded: VisibleToolSet['excluded'] = [];
  for (const tool of registry.content.tools) {
    let reason: ExclusionReason | undefined;
    if (
      tool.owner_agent !== agent.id &&
      !tool.visible_agents.includes(agent.id) &&
      !tool.visible_agents.includes('*')
    )
      reason = 'not_owned_or_visible';
    else if (!inScope(tool)) reason = 'not_in_scenario';
    else if (!tenant.allow.some((e) => matches(e, tool))) reason = 'tenant_not_allowed';
    else if (tenant.deny.some((e) => matches(e, tool))) reason = 'tenant_denied';
    else if (PERMISSION_RANK[tool.permission] > PERMISSION_RANK[agent.max_permission])
      reason = 'permission_above_agent';
    else if (PERMISSION_RANK[tool.permission] > PERMISSION_RANK[tenant.max_permission])
      reason = 'permission_above_tenant';
    if (reason) excluded.push({ tool: tool.name, reason });
    else kept.push(tool);
  }
  return { kept, excluded };
}

function cap(registry: Registry, query: VisibilityQuery): number {
  const value = query.cap ?? registry.content.settings.visibility_cap;
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`cap must be a positive integer, got ${value}`);
  return value;
}

/**
 * RG-4: (owned by the agent ∪ visible to it) ∩ scenario ∩ tenant allow-list ∩ permission, ordered by priority
 * with core tools first, capped. Throws {@link UnknownVisibilitySubjectError} for an undeclared agent or tenant
 * (an unknown tenant falls back to the `default` tenant entry when there is one).
 */
export function toolsFor(registry: Registry, query: VisibilityQuery): VisibleToolSet {
  const limit = cap(registry, query);
  const { kept, excluded } = filterTools(registry, query, (t) => t.scenarios.includes(query.scenario));
  const ranked = rankTools(kept, query.agent);
  for (const dropped of ranked.slice(limit)) excluded.push({ tool: dropped.name, reason: 'over_cap' });
  return {
    agent: query.agent,
    scenario: query.scenario,
    tenant: query.tenant,
    registry_version: registry.versions.registry_version,
    tools: ranked.slice(0, limit),
    excluded: excluded.sort((a, b) => compareStrings(a.tool, b.tool)),
  };
}

/**
 * The tools an agent may be offered in a scenario, or, with `scenario` null, the union over every scenario of the
 * registry: each scenario's {@link toolsFor} set (capped), a tool once, ordered as `toolsFor` ranks them, first scenario
 * first. Throws {@link UnknownVisibilitySubjectError} for an undeclared agent or tenant.
 */
export function toolsForAnyScenario(
  registry: Registry,
  subject: { agent: string; tenant: string; scenario: string | null },
): ToolDefinition[] {
  const scenarios = subject.scenario !== null ? [subject.scenario] : registry.scenarios();
  const tools = new Map<string, ToolDefinition>();
  for (const scenario of scenarios)
    for (const tool of toolsFor(registry, { agent: subject.agent, tenant: subject.tenant, scenario }).tools)
      if (!tools.has(tool.name)) tools.set(tool.name, tool);
  return [...tools.values()];
}

/**
 * The tools of a scene template (RG-4) that the agent may see for the tenant, in the scene's own order: the
 * router picks the scene, the scene supplies the tools.
 */
export function toolsForScene(
  registry: Registry,
  query: Omit<VisibilityQuery, 'scenario'> & { scene: string },
): VisibleToolSet {
  const scene = registry.scene(query.scene);
  if (!scene)
    throw new UnknownVisibilitySubjectError(
      'scene',
      query.scene,
      registry.content.scenes.map((s) => s.id),
    );
  const full = { ...query, scenario: scene.scenario };
  const limit = cap(registry, full);
  const { kept, excluded } = filterTools(registry, full, (t) => scene.tools.includes(t.name));
  const ordered = [...kept].sort((a, b) => scene.tools.indexOf(a.name) - scene.tools.indexOf(b.name));
  for (const dropped of ordered.slice(limit)) excluded.push({ tool: dropped.name, reason: 'over_cap' });
  return {
    agent: query.agent,
    scenario: scene.scenario,
    tenant: query.tenant,
    registry_version: registry.versions.registry_version,
    tools: ordered.slice(0, limit),
    excluded: excluded.sort((a, b) => compareStrings(a.tool, b.tool)),
  };
}

/** The checked-in record of what each agent sees (RG-5). */
export interface VisibilitySnapshot {
  /** The tenant the snapshot was taken for. */
  tenant: string;
  /** `agent` → `scenario` → ordered tool names; every (agent, scenario) pair of the registry is present. */
  agents: Record<string, Record<string, string[]>>;
  /** `scene` → `agent` → ordered tool names, for every agent that takes the scene. */
  scenes: Record<string, Record<string, string[]>>;
}

/** Computes the visibility snapshot of every (agent, scenario) pair and every (scene, agent) pair. */
export function visibilitySnapshot(registry: Registry, tenant = 'default'): VisibilitySnapshot {
  const agents: VisibilitySnapshot['agents'] = {};
  const scenarios = registry.scenarios();
  for (const agent of registry.content.agents) {
    const row: Record<string, string[]> = {};
    for (const scenario of scenarios) {
      row[scenario] = toolsFor(registry, { agent: agent.id, scenario, tenant }).tools.map((t) => t.name);
    }
    agents[agent.id] = row;
  }
  const scenes: VisibilitySnapshot['scenes'] = {};
  for (const scene of registry.content.scenes) {
    const takers = scene.agents.length > 0 ? scene.agents : registry.content.agents.map((a) => a.id);
    const row: Record<string, string[]> = {};
    for (const agent of [...takers].sort(compareStrings)) {
      row[agent] = toolsForScene(registry, { agent, scene: scene.id, tenant }).tools.map((t) => t.name);
    }
    scenes[scene.id] = row;
  }
  return { tenant, agents, scenes };
}

/** One difference between the checked-in snapshot and what the registry now yields. */
export interface VisibilityDrift {
  /** `agent/scenario` or `scene:<id>/agent`. */
  key: string;
  expected: string[] | undefined;
  actual: string[] | undefined;
  /** Tools that appeared, disappeared, or `order` when only the order changed. */
  added: string[];
  removed: string[];
  reordered: boolean;
}

/** Compares two snapshots; an empty list means no drift. */
export function compareSnapshots(
  expected: VisibilitySnapshot,
  actual: VisibilitySnapshot,
): VisibilityDrift[] {
  const flatten = (s: VisibilitySnapshot) => {
    const map = new Map<string, string[]>();
    for (const [agent, row] of Object.entries(s.agents))
      for (const [scenario, tools] of Object.entries(row)) map.set(`${agent}/${scenario}`, tools);
    for (const [scene, row] of Object.entries(s.scenes))
      for (const [agent, tools] of Object.entries(row)) map.set(`scene:${scene}/${agent}`, tools);
    return map;
  };
  const a = flatten(expected);
  const b = flatten(actual);
  const drifts: VisibilityDrift[] = [];
  if (expected.tenant !== actual.tenant) {
    drifts.push({
      key: 'tenant',
      expected: [expected.tenant],
      actual: [actual.tenant],
      added: [],
      removed: [],
      reordered: false,
    });
  }
  for (const key of [...new Set([...a.keys(), ...b.keys()])].sort(compareStrings)) {
    const before = a.get(key);
    const after = b.get(key);
    if (before && after && before.join('\n') === after.join('\n')) continue;
    const added = (after ?? []).filter((t) => !(before ?? []).includes(t));
    const removed = (before ?? []).filter((t) => !(after ?? []).includes(t));
    drifts.push({
      key,
      expected: before,
      actual: after,
      added,
      removed,
      reordered: added.length === 0 && removed.length === 0 && before !== undefined && after !== undefined,
    });
  }
  return drifts;
}
