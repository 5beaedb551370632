import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { sourcesOf, validRegistryObject } from './internal/fixtures.js';
import { loadRegistrySources } from './load.js';
import { canonicalJson, diffRegistries } from './version.js';

function reorderKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorderKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reorderKeys(v)]),
  );
}

describe('versions (RG-3)', () => {
  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null, z: undefined })).toBe(
      '{"a":null,"b":[{"c":2,"d":1}]}',
    );
  });

  it('is stable under key order, whitespace, flow style and comments', () => {
    const r = validRegistryObject();
    const a = loadRegistrySources(sourcesOf(r));
    const text = `# a comment\n${stringify(reorderKeys(r), { indent: 4, collectionStyle: 'flow' })}`;
    const b = loadRegistrySources([{ file: 'x.yaml', text }]);
    expect(b.versions).toEqual(a.versions);
    expect(a.versions.registry_version).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('changing one description changes the registry version and that tool hash only', () => {
    const r = validRegistryObject();
    const before = loadRegistrySources(sourcesOf(r));
    (r.tools[2]!.description as Record<string, string>).returns = 'The refund state, amount and payout date.';
    const after = loadRegistrySources(sourcesOf(r));
    expect(after.versions.registry_version).not.toBe(before.versions.registry_version);
    const changed = Object.keys(after.versions.tool_hashes).filter(
      (name) => after.versions.tool_hashes[name] !== before.versions.tool_hashes[name],
    );
    expect(changed).toEqual(['refund_status_query']);
    expect(after.versions.profiles_version).toBe(before.versions.profiles_version);
    expect(after.versions.policy_version).toBe(before.versions.policy_version);

    const diff = diffRegistries(before.content, after.content);
    expect(diff.tools).toEqual([
      expect.objectContaining({ tool: 'refund_status_query', change: 'changed', fields: ['description'] }),
    ]);
    expect(diff.others).toEqual([]);
  });

  it('versions profiles and policies separately from tools', () => {
    const r = validRegistryObject();
    const before = loadRegistrySources(sourcesOf(r));
    r.profiles[0]!.max_context = 64000;
    const after = loadRegistrySources(sourcesOf(r));
    expect(after.versions.profiles_version).not.toBe(before.versions.profiles_version);
    expect(after.versions.registry_version).toBe(before.versions.registry_version);
    expect(diffRegistries(before.content, after.content).others).toEqual([
      { section: 'profiles', id: 'light_model', change: 'changed' },
    ]);
  });

  it('diff lists added and removed tools', () => {
    const r = validRegistryObject();
    const before = loadRegistrySources(sourcesOf(r));
    r.tools[2]!.name = 'refund_progress_query';
    r.tools[1]!.description = {
      purpose: 'Request a refund for a paid order after checking it is refundable.',
      returns: 'A receipt with the refund id.',
      not_for: 'Checking a refund already requested; use refund_progress_query.',
    };
    (r.scenes[0]!.tools as string[])[2] = 'refund_progress_query';
    const after = loadRegistrySources(sourcesOf(r));
    const diff = diffRegistries(before.content, after.content);
    expect(diff.tools.map((t) => [t.tool, t.change])).toEqual([
      ['refund_create', 'changed'],
      ['refund_progress_query', 'added'],
      ['refund_status_query', 'removed'],
    ]);
  });
});
