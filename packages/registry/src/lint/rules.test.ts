import { describe, expect, it } from 'vitest';
import { sourcesOf, validRegistryObject } from '../internal/fixtures.js';
import { lintSources, resolveLintOptions } from './lint.js';
import { LINT_RULES } from './rules.js';

type Fixture = ReturnType<typeof validRegistryObject>;
type Tool = Record<string, unknown> & {
  parameters: { properties: Record<string, Record<string, unknown>>; required?: string[] };
};
const tool = (r: Fixture, name: string) => r.tools.find((t) => t.name === name) as Tool;

/** For each rule: a change that breaks it (the valid fixture passes it). */
const breakers: Record<string, (r: Fixture) => void> = {
  'RG2-unique-name': (r) => r.tools.push({ ...tool(r, 'refund_create') }),
  'RG2-unknown-relation-target': (r) => {
    tool(r, 'refund_create').exclusive_with = ['refund_cancel'];
  },
  'RG2-dependency-cycle': (r) => {
    tool(r, 'order_status_query').depends_on = [
      { tool: 'refund_status_query', output: 'state', parameter: 'order_id', required: false },
    ];
  },
  'RG2-three-part-description': (r) => {
    tool(r, 'refund_status_query').description = 'Refund status.';
  },
  'RG2-not-for-names-alternative': (r) => {
    (tool(r, 'refund_create').description as Record<string, string>).not_for = 'Anything else.';
  },
  'RG2-naming': (r) => {
    tool(r, 'refund_status_query').name = 'RefundStatus';
    tool(r, 'refund_create').description = {
      purpose: 'Request a refund for a paid order after checking it is refundable.',
      returns: 'A receipt with the refund id.',
      not_for: 'Checking progress; use RefundStatus.',
    };
    (tool(r, 'order_status_query').description as Record<string, string>).not_for =
      'Refunds; use RefundStatus.';
    (r.scenes[0]!.tools as string[])[2] = 'RefundStatus';
  },
  'RG2-required-ceiling': (r) => {
    const t = tool(r, 'order_status_query');
    for (const p of ['a', 'b', 'c', 'd']) t.parameters.properties[p] = { type: 'integer' };
    t.parameters.required = ['order_id', 'a', 'b', 'c', 'd'];
  },
  'RG2-enum-for-closed-set': (r) => {
    tool(r, 'order_status_query').parameters.properties.channel = {
      type: 'string',
      description: "Where the order was placed: 'web', 'app' or 'store'.",
    };
  },
  'RG2-near-duplicate-description': (r) => {
    (tool(r, 'refund_status_query').description as Record<string, string>).purpose =
      'Look up the state of one order and whether it can be refunded.';
    (tool(r, 'refund_status_query').description as Record<string, string>).not_for =
      'Starting a refund; use refund_create.';
  },
  'RG2-undeclared-dependency': (r) => {
    tool(r, 'refund_status_query').depends_on = [];
  },
  'RG2-synonym-target-in-enum': (r) => {
    tool(r, 'refund_create').parameters.properties.reason!.synonyms = { late: 'delayed' };
  },
  'RG2-action-permission-consistency': (r) => {
    tool(r, 'refund_create').permission = 'read_only';
  },
  'RG2-scene-consistency': (r) => {
    tool(r, 'refund_status_query').scenarios = ['refund_history'];
  },
  'RG2-profile-consistency': (r) => {
    r.profiles[0]!.not_recommended_for = ['extraction'];
  },
};

describe('lint rules (RG-2)', () => {
  it('has a breaking case for every rule', () => {
    expect(Object.keys(breakers).sort()).toEqual(LINT_RULES.map((r) => r.id).sort());
  });

  it('passes the valid fixture with no finding at all', () => {
    const report = lintSources(sourcesOf(validRegistryObject()));
    expect(report.findings).toEqual([]);
  });

  for (const rule of LINT_RULES) {
    it(`${rule.id}: reports a definition that breaks it, with file:line and a fix`, () => {
      const broken = validRegistryObject();
      breakers[rule.id]!(broken);
      const report = lintSources(sourcesOf(broken, 'pack/tools.yaml'));
      const findings = report.findings.filter((f) => f.rule === rule.id);
      expect(findings.length, JSON.stringify(report.findings, null, 2)).toBeGreaterThan(0);
      for (const f of findings) {
        expect(f.severity).toBe('error');
        expect(f.location?.file).toBe('pack/tools.yaml');
        expect(f.location?.line).toBeGreaterThan(0);
        expect(f.message.length).toBeGreaterThan(20);
      }
      expect(report.errors).toBeGreaterThan(0);
    });
  }

  it('lets a rule be downgraded to a warning or switched off', () => {
    const broken = validRegistryObject();
    breakers['RG2-three-part-description']!(broken);
    const warned = lintSources(sourcesOf(broken), { rules: { 'RG2-three-part-description': 'warning' } });
    expect(warned.errors).toBe(0);
    expect(warned.warnings).toBe(1);
    const off = lintSources(sourcesOf(broken), { rules: { 'RG2-three-part-description': 'off' } });
    expect(off.findings).toEqual([]);
  });

  it('makes the required-parameter ceiling configurable', () => {
    const r = validRegistryObject();
    expect(
      lintSources(sourcesOf(r), { maxRequiredParameters: 1 }).findings.map((f) => [f.rule, f.item]),
    ).toEqual([['RG2-required-ceiling', 'refund_create']]);
  });

  it("compares purposes by meaning when the caller gives the semantic model's similarity", () => {
    const r = validRegistryObject();
    // Two purposes in different words: no finding by words, a finding when their meanings are near (cosine 0.9).
    (tool(r, 'refund_status_query').description as Record<string, string>).purpose =
      'Tell the customer where their money-back request stands right now.';
    const purpose = (name: string) => (tool(r, name).description as Record<string, string>).purpose ?? '';
    const pair = new Set([purpose('refund_status_query'), purpose('order_status_query')]);
    const purposeSimilarity = (a: string, b: string) => (pair.has(a) && pair.has(b) ? 0.9 : 0.2);
    const rule = 'RG2-near-duplicate-description';
    expect(lintSources(sourcesOf(r)).findings.filter((f) => f.rule === rule)).toEqual([]);
    const findings = lintSources(sourcesOf(r), { purposeSimilarity }).findings.filter((f) => f.rule === rule);
    // order_status_query already names refund_status_query in its "not for"; the other way round is missing.
    expect(findings.map((f) => f.item)).toEqual(['refund_status_query']);
    expect(findings[0]?.message).toMatch(/semantic similarity 0\.90/);
    expect(lintSources(sourcesOf(r), { purposeSimilarity, nearDuplicateCosine: 0.95 }).errors).toBe(0);
    expect(() => resolveLintOptions({ nearDuplicateCosine: 1.5 })).toThrow(/nearDuplicateCosine/);
  });

  it('refuses unknown rule ids and bad thresholds', () => {
    expect(() => resolveLintOptions({ rules: { 'RG2-nope': 'error' } })).toThrow(
      /unknown lint rule "RG2-nope"/,
    );
    expect(() => resolveLintOptions({ nearDuplicateThreshold: 0 })).toThrow(/nearDuplicateThreshold/);
  });

  it('points at the line of the offending field', () => {
    const broken = validRegistryObject();
    breakers['RG2-synonym-target-in-enum']!(broken);
    const [source] = sourcesOf(broken);
    const report = lintSources([source!]);
    const finding = report.findings.find((f) => f.rule === 'RG2-synonym-target-in-enum')!;
    const line = source!.text.split('\n')[finding.location!.line - 1]!;
    expect(line).toContain('late: delayed');
  });
});
