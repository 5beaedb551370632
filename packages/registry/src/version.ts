import { canonicalHash, canonicalJson } from '@signalbox/contracts';
import { isDeepStrictEqual } from 'node:util';
import type { RegistryContent } from './registry.js';
import type { ToolDefinition } from './tool-definition.js';

// Versions and definition hashes are taken over the one canonical JSON (RFC 8785, @signalbox/contracts), so two YAML
// files that differ only in key order, quoting, comments or indentation serialise — and hash — the same, and a client
// can recompute a tool's hash from its exported definition.
/**
 * The canonical JSON of @signalbox/contracts, re-exported for the registry's users (diffs, the API's idempotency
 * check).
 */
export { canonicalJson };

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return `sha256:${canonicalHash(value)}`;
}

/** The definition hash of one tool (RG-3): what a decision pins so that a silently changed definition shows. */
export function toolHash(tool: ToolDefinition): string {
  return contentHash(tool);
}

/** The three versions every envelope carries (FL-4), plus the hash of each tool. */
export interface RegistryVersions {
  /** Hash over tools, agents, scenes, tenants and settings. */
  registry_version: string;
  /** Hash over the model profiles. */
  profiles_version: string;
  /** Hash over the routing policies. */
  policy_version: string;
  /** Tool name → definition hash. */
  tool_hashes: Readonly<Record<string, string>>;
}

function byId<T>(items: readonly T[], key: (item: T) => string): Record<string, T> {
  return Object.fromEntries(items.map((item) => [key(item), item]));
}

/**
 * Computes the versions of a registry. The registry version hashes the per-tool hashes (keyed by name, so the order
 * of tools in files does not matter) with the other sections, each keyed by id.
 */
export function computeVersions(content: RegistryContent): RegistryVersions {
  const toolHashes = Object.fromEntries(content.tools.map((t) => [t.name, toolHash(t)]));
  return {
    registry_version: contentHash({
      tools: toolHashes,
      agents: byId(content.agents, (a) => a.id),
      scenes: byId(content.scenes, (s) => s.id),
      tenants: byId(content.tenants, (t) => t.id),
      settings: content.settings,
    }),
    profiles_version: contentHash(byId(content.profiles, (p) => p.id)),
    policy_version: contentHash(byId(content.policies, (p) => p.id)),
    tool_hashes: toolHashes,
  };
}

/** How one tool differs between two registries. */
export interface ToolChange {
  tool: string;
  change: 'added' | 'removed' | 'changed';
  /** Top-level fields that differ (for `changed`). */
  fields: string[];
  before_hash: string | undefined;
  after_hash: string | undefined;
}

/** What changed between two registries (`registry diff`). */
export interface RegistryDiff {
  before: RegistryVersions;
  after: RegistryVersions;
  /** Per tool, sorted by name; unchanged tools are not listed. */
  tools: ToolChange[];
  /** Other sections whose items changed: `agents: refund_agent (changed)`. */
  others: {
    section: 'agents' | 'scenes' | 'tenants' | 'profiles' | 'policies' | 'settings';
    id: string;
    change: 'added' | 'removed' | 'changed';
  }[];
}

/** Compares two registries item by item. */
export function diffRegistries(before: RegistryContent, after: RegistryContent): RegistryDiff {
  const beforeVersions = computeVersions(before);
  const afterVersions = computeVersions(after);
  const tools: ToolChange[] = [];
  const beforeTools = byId(before.tools, (t) => t.name);
  const afterTools = byId(after.tools, (t) => t.name);
  for (const name of [...new Set([...Object.keys(beforeTools), ...Object.keys(afterTools)])].sort()) {
    const a = beforeTools[name];
    const b = afterTools[name];
    const beforeHash = beforeVersions.tool_hashes[name];
    const afterHash = afterVersions.tool_hashes[name];
    if (!a || !b) {
      tools.push({
        tool: name,
        change: a ? 'removed' : 'added',
        fields: [],
        before_hash: beforeHash,
        after_hash: afterHash,
      });
      continue;
    }
    if (beforeHash === afterHash) continue;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    const fields = keys.filter(
      (k) => !isDeepStrictEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    );
    tools.push({ tool: name, change: 'changed', fields, before_hash: beforeHash, after_hash: afterHash });
  }
  const others: RegistryDiff['others'] = [];
  const sections = ['agents', 'scenes', 'tenants', 'profiles', 'policies'] as const;
  for (const section of sections) {
    const a = byId(before[section] as readonly { id: string }[], (x) => x.id);
    const b = byId(after[section] as readonly { id: string }[], (x) => x.id);
    for (const id of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!a[id]) others.push({ section, id, change: 'added' });
      else if (!b[id]) others.push({ section, id, change: 'removed' });
      else if (canonicalJson(a[id]) !== canonicalJson(b[id])) others.push({ section, id, change: 'changed' });
    }
  }
  if (canonicalJson(before.settings) !== canonicalJson(after.settings)) {
    others.push({ section: 'settings', id: 'settings', change: 'changed' });
  }
  return { before: beforeVersions, after: afterVersions, tools, others };
}
