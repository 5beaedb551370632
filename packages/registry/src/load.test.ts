import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RegistryLoadError } from './errors.js';
import { sourcesOf, validRegistryObject } from './internal/fixtures.js';
import { loadRegistrySources } from './load.js';
import { formatProblem } from './problem.js';

function problemsOf(sources: { file: string; text: string }[]) {
  try {
    loadRegistrySources(sources);
  } catch (error) {
    expect(error).toBeInstanceOf(RegistryLoadError);
    return (error as RegistryLoadError).problems;
  }
  throw new Error('expected the registry not to load');
}

describe('loadRegistrySources', () => {
  it('loads a valid registry with defaults filled in', () => {
    const registry = loadRegistrySources(sourcesOf(validRegistryObject()));
    expect(registry.content.tools.map((t) => t.name)).toEqual([
      'order_status_query',
      'refund_create',
      'refund_status_query',
    ]);
    expect(registry.tool('refund_create')?.retry.max_attempts).toBe(1);
    expect(registry.scenarios()).toEqual(['refund']);
  });

  it('reports a YAML syntax error with its line and loads nothing', () => {
    const good = sourcesOf(validRegistryObject(), 'a.yaml')[0]!;
    const bad = { file: 'b.yaml', text: 'agents:\n  - id: x\n    description: [unclosed\n' };
    const problems = problemsOf([good, bad]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ code: 'yaml-syntax', location: { file: 'b.yaml' } });
    expect(formatProblem(problems[0]!)).toMatch(/^b\.yaml:\d+:\d+: YAML syntax error/);
  });

  it('names the file, the tool and the field of an unknown field and of a wrong type, one message each', () => {
    const r = validRegistryObject();
    r.tools[0]!.timeout = 5; // unknown field
    r.tools[1]!.idempotent = 'yes'; // wrong type
    const text = stringify(r);
    const problems = problemsOf([{ file: 'tools.yaml', text }]);
    expect(problems).toHaveLength(2);
    const [unknown, wrongType] = problems;
    expect(unknown).toMatchObject({ code: 'schema', kind: 'tool', item: 'order_status_query' });
    expect(unknown!.message).toMatch(/unknown field "timeout"/);
    expect(text.split('\n')[unknown!.location!.line - 1]).toMatch(/name: order_status_query|timeout/);
    expect(wrongType).toMatchObject({
      code: 'schema',
      kind: 'tool',
      item: 'refund_create',
      field: 'idempotent',
    });
    expect(text.split('\n')[wrongType!.location!.line - 1]).toContain('idempotent: yes');
  });

  it('validates parameter schemas as JSON Schema', () => {
    const r = validRegistryObject();
    (
      r.tools[0]!.parameters as Record<string, Record<string, Record<string, unknown>>>
    ).properties!.order_id!.type = 'text';
    const problems = problemsOf(sourcesOf(r));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.field).toMatch(/^parameters/);
    expect(problems[0]!.message).toMatch(/invalid JSON Schema/);
  });

  it('refuses unknown normalizer names', () => {
    const r = validRegistryObject();
    (
      r.tools[0]!.parameters as Record<string, Record<string, Record<string, unknown>>>
    ).properties!.order_id!.normalizers = ['upper'];
    expect(problemsOf(sourcesOf(r))[0]!.message).toMatch(/invalid JSON Schema/);
  });

  it('reports a dangling depends_on at its line', () => {
    const r = validRegistryObject();
    (r.tools[1]!.depends_on as Record<string, unknown>[])[0]!.tool = 'order_lookup';
    const [source] = sourcesOf(r);
    const problems = problemsOf([source!]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      code: 'RG2-unknown-relation-target',
      item: 'refund_create',
      field: 'depends_on.0.tool',
    });
    expect(source!.text.split('\n')[problems[0]!.location!.line - 1]).toContain('order_lookup');
  });

  it('reports a dependency cycle once', () => {
    const r = validRegistryObject();
    r.tools[0]!.depends_on = [
      { tool: 'refund_create', output: 'refund_id', parameter: 'order_id', required: false },
    ];
    const problems = problemsOf(sourcesOf(r));
    expect(problems).toHaveLength(1);
    expect(problems[0]!.code).toBe('RG2-dependency-cycle');
    expect(problems[0]!.message).toMatch(/order_status_query → refund_create → order_status_query/);
  });

  it('refuses unknown sections and duplicate settings', () => {
    const problems = problemsOf([
      { file: 'a.yaml', text: 'toolz: []\nsettings: { visibility_cap: 3 }\n' },
      { file: 'b.yaml', text: 'settings: { visibility_cap: 4 }\n' },
    ]);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/unknown section "toolz"/),
      expect.stringMatching(/settings are already declared in a\.yaml/),
    ]);
  });

  it('does not care in which file or order items are declared', () => {
    const r = validRegistryObject();
    const { tools, ...rest } = r;
    const split = loadRegistrySources([
      { file: 'rest.yaml', text: stringify(rest) },
      { file: 'tools.yaml', text: stringify({ tools: [...tools].reverse() }) },
    ]);
    expect(split.versions).toEqual(loadRegistrySources(sourcesOf(r)).versions);
  });
});
