import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintSources } from './lint/lint.js';
import { loadRegistryDir, readRegistryDir } from './load.js';
import {
  compareSnapshots,
  toolsFor,
  toolsForScene,
  visibilitySnapshot,
  type VisibilitySnapshot,
} from './visibility.js';

const packsDir = resolve(import.meta.dirname, '../../../registry/packs');
const packs = readdirSync(packsDir).sort();

describe('scenario packs (SP-1..4)', () => {
  it('has the four packs', () => {
    expect(packs).toEqual(['after-sales', 'office', 'reach', 'research']);
  });

  for (const pack of packs) {
    it(`${pack}: lints clean and matches its checked-in visibility snapshot`, async () => {
      const dir = join(packsDir, pack);
      const report = lintSources(await readRegistryDir(dir));
      expect(report.findings).toEqual([]);
      const registry = await loadRegistryDir(dir);
      expect(registry.content.profiles.length).toBeGreaterThan(0);
      expect(registry.content.policies.length).toBeGreaterThan(0);
      const snapshot = JSON.parse(
        readFileSync(join(dir, 'visibility.snapshot.json'), 'utf8'),
      ) as VisibilitySnapshot;
      expect(compareSnapshots(snapshot, visibilitySnapshot(registry))).toEqual([]);
    });
  }

  it('after-sales: the refund agent sees the status query before the refund, and late delivery + refund reach one scene', async () => {
    const registry = await loadRegistryDir(join(packsDir, 'after-sales'));
    const refund = toolsFor(registry, { agent: 'refund_agent', scenario: 'refund', tenant: 'default' });
    expect(refund.tools.map((t) => t.name).slice(0, 2)).toEqual(['order_status_query', 'refund_create']);
    const mixed = toolsForScene(registry, {
      agent: 'logistics_agent',
      scene: 'delivery_refund_scene',
      tenant: 'default',
    });
    expect(mixed.tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['logistics_track_query', 'refund_create']),
    );
    expect(registry.tool('refund_create')!.depends_on).toContainEqual(
      expect.objectContaining({ tool: 'order_status_query', required: true }),
    );
    const readOnly = toolsFor(registry, {
      agent: 'refund_agent',
      scenario: 'refund',
      tenant: 'readonly_demo',
    });
    expect(readOnly.tools.map((t) => t.name)).not.toContain('refund_create');
  });
});
