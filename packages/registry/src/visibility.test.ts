import { describe, expect, it } from 'vitest';
import { UnknownVisibilitySubjectError } from './errors.js';
import { sourcesOf, validRegistryObject } from './internal/fixtures.js';
import { loadRegistrySources } from './load.js';
import { compareSnapshots, toolsFor, toolsForScene, visibilitySnapshot } from './visibility.js';

function registryWith(mutate: (r: ReturnType<typeof validRegistryObject>) => void = () => undefined) {
  const r = validRegistryObject();
  mutate(r);
  return loadRegistrySources(sourcesOf(r));
}

const names = (set: { tools: { name: string }[] }) => set.tools.map((t) => t.name);

describe('toolsFor (RG-4)', () => {
  it('orders core tools first, then by priority, and records the registry version', () => {
    const registry = registryWith();
    const set = toolsFor(registry, { agent: 'refund_agent', scenario: 'refund', tenant: 'default' });
    expect(names(set)).toEqual(['order_status_query', 'refund_create', 'refund_status_query']);
    expect(set.registry_version).toBe(registry.versions.registry_version);
  });

  it('shows a tool visible to an agent only within its permission, and says why the others are missing', () => {
    const set = toolsFor(registryWith(), { agent: 'logistics_agent', scenario: 'refund', tenant: 'default' });
    expect(names(set)).toEqual(['refund_status_query']);
    expect(set.excluded).toEqual([
      { tool: 'order_status_query', reason: 'not_owned_or_visible' },
      { tool: 'refund_create', reason: 'not_owned_or_visible' },
    ]);
    const wider = registryWith((r) => {
      r.tools[1]!.visible_agents = ['logistics_agent'];
    });
    expect(
      toolsFor(wider, { agent: 'logistics_agent', scenario: 'refund', tenant: 'default' }).excluded,
    ).toContainEqual({
      tool: 'refund_create',
      reason: 'permission_above_agent',
    });
  });

  it('filters by scenario, tenant allow/deny lists and tenant permission', () => {
    const registry = registryWith((r) => {
      r.tools[0]!.tags = ['lookup'];
      r.tenants.push(
        { id: 'acme', allow: ['tag:lookup', 'refund_create'], deny: ['refund_create'] },
        { id: 'viewer', max_permission: 'read_only' },
      );
    });
    expect(
      names(toolsFor(registry, { agent: 'refund_agent', scenario: 'logistics', tenant: 'default' })),
    ).toEqual([]);
    expect(names(toolsFor(registry, { agent: 'refund_agent', scenario: 'refund', tenant: 'acme' }))).toEqual([
      'order_status_query',
    ]);
    expect(
      names(toolsFor(registry, { agent: 'refund_agent', scenario: 'refund', tenant: 'viewer' })),
    ).toEqual(['order_status_query', 'refund_status_query']);
    // Undeclared tenants get the `default` entry.
    expect(
      names(toolsFor(registry, { agent: 'refund_agent', scenario: 'refund', tenant: 'someone' })),
    ).toHaveLength(3);
  });

  it('caps the set and reports what fell off', () => {
    const set = toolsFor(registryWith(), {
      agent: 'refund_agent',
      scenario: 'refund',
      tenant: 'default',
      cap: 2,
    });
    expect(names(set)).toEqual(['order_status_query', 'refund_create']);
    expect(set.excluded).toEqual([{ tool: 'refund_status_query', reason: 'over_cap' }]);
  });

  it('throws for an unknown agent, or a tenant when there is no default entry', () => {
    expect(() =>
      toolsFor(registryWith(), { agent: 'nobody', scenario: 'refund', tenant: 'default' }),
    ).toThrow(UnknownVisibilitySubjectError);
    const noDefault = registryWith((r) => {
      r.tenants = [{ id: 'acme' }];
    });
    expect(() => toolsFor(noDefault, { agent: 'refund_agent', scenario: 'refund', tenant: 'other' })).toThrow(
      /unknown tenant "other"/,
    );
  });

  it('scene templates supply their tools in the scene order', () => {
    const registry = registryWith((r) => {
      r.scenes[0]!.tools = ['refund_status_query', 'order_status_query', 'refund_create'];
    });
    expect(
      names(toolsForScene(registry, { agent: 'refund_agent', scene: 'refund_scene', tenant: 'default' })),
    ).toEqual(['refund_status_query', 'order_status_query', 'refund_create']);
  });
});

describe('visibility snapshot (RG-5)', () => {
  it('covers every (agent, scenario) pair and detects added, removed and reordered tools', () => {
    const before = visibilitySnapshot(registryWith());
    expect(Object.keys(before.agents)).toEqual(['logistics_agent', 'refund_agent']);
    expect(compareSnapshots(before, before)).toEqual([]);

    const hidden = visibilitySnapshot(
      registryWith((r) => {
        r.tools[2]!.visible_agents = [];
      }),
    );
    expect(compareSnapshots(before, hidden)).toEqual([
      expect.objectContaining({ key: 'logistics_agent/refund', removed: ['refund_status_query'], added: [] }),
    ]);

    const reordered = visibilitySnapshot(
      registryWith((r) => {
        r.tools[2]!.priority = 99;
      }),
    );
    expect(compareSnapshots(before, reordered)).toEqual([
      expect.objectContaining({ key: 'refund_agent/refund', reordered: true }),
    ]);
  });
});
