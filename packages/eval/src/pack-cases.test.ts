import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { REPO_ROOT } from './bfcl-dataset.js';
import { DatasetFormatError, DatasetNotFoundError } from './errors.js';
import {
  PACK_CASES_DIR,
  PACK_REFERENCE_TIME,
  availablePackCaseFiles,
  checkPackCase,
  loadPackCases,
  parsePackCases,
  summarizePackResults,
  validatePackCases,
  writeToolsOf,
  type PackCase,
  type PackCaseOutcome,
  type PackCaseResult,
} from './pack-cases.js';

const GOOD = `# a small suite
pack: after-sales
defaults:
  time_zone: Asia/Shanghai
cases:
  - id: refund-status-zh-01
    lang: zh
    agent: refund_agent
    kind: lookup
    request: 我的订单20261101001退款到账了吗？
    expect:
      run: [refund_status_query]
      not_run: [refund_create]
      status: [success]
      arguments:
        refund_status_query:
          order_id: '20261101001'
  - id: refund-en-01
    lang: en
    agent: refund_agent
    kind: act
    request: Please refund order 20261101001, it arrived broken.
    time_zone: Europe/Berlin
    expect:
      run: [order_status_query, refund_create]
      status: [success, partial_success]
  - id: refund-missing-en-01
    lang: en
    agent: refund_agent
    kind: missing_value
    request: Refund my order.
    locale: en-GB
    expect:
      run: []
      not_run: [refund_create]
      status: [need_clarification]
      asks_for: [order_id]
      max_writes: 0
`;

const parse = (text: string, pack = 'after-sales') =>
  parsePackCases(text, { file: 'after-sales.yaml', pack });

function formatError(text: string, pack = 'after-sales'): DatasetFormatError {
  try {
    parse(text, pack);
  } catch (error) {
    expect(error).toBeInstanceOf(DatasetFormatError);
    return error as DatasetFormatError;
  }
  throw new Error('expected a DatasetFormatError');
}

/** GOOD with one line replaced (the text must occur). */
function edit(from: string, to: string): string {
  expect(GOOD).toContain(from);
  return GOOD.replace(from, to);
}

describe('parsePackCases', () => {
  it('reads cases with the defaults applied and each case located in its file', () => {
    const set = parse(GOOD);
    expect(set).toMatchObject({ pack: 'after-sales', suite: 'dev', file: 'after-sales.yaml' });
    expect(set.cases.map((c) => [c.id, c.time_zone, c.locale, c.reference_time, c.line])).toEqual([
      ['refund-status-zh-01', 'Asia/Shanghai', 'zh-CN', PACK_REFERENCE_TIME, 6],
      ['refund-en-01', 'Europe/Berlin', 'en-US', PACK_REFERENCE_TIME, 18],
      ['refund-missing-en-01', 'Asia/Shanghai', 'en-GB', PACK_REFERENCE_TIME, 27],
    ]);
    expect(set.cases[1]?.expect).toEqual({
      run: ['order_status_query', 'refund_create'],
      not_run: [],
      planned: [],
      status: ['success', 'partial_success'],
      asks_for: [],
      arguments: {},
      max_writes: null,
    });
    expect(set.cases[2]?.expect.max_writes).toBe(0);
  });

  it('takes the reference time and locale of the defaults', () => {
    const set = parse(
      edit(
        '  time_zone: Asia/Shanghai\n',
        "  reference_time: '2026-12-07T01:00:00+08:00'\n  locale: fr-FR\n",
      ),
    );
    expect(set.cases.map((c) => [c.reference_time, c.time_zone, c.locale])).toEqual([
      ['2026-12-07T01:00:00+08:00', 'UTC', 'fr-FR'],
      ['2026-12-07T01:00:00+08:00', 'Europe/Berlin', 'fr-FR'],
      ['2026-12-07T01:00:00+08:00', 'UTC', 'en-GB'],
    ]);
  });

  it('names the file and line of a YAML syntax error', () => {
    const error = formatError(edit('    kind: act\n', '    kind: [act\n'));
    expect(error.message).toMatch(/^after-sales\.yaml:\d+: not valid YAML/);
    expect(error.file).toBe('after-sales.yaml');
  });

  it('names the case, the field and the line of an unknown field', () => {
    const error = formatError(edit('    kind: act\n', '    kind: act\n    expects: oops\n'));
    expect(error.message).toBe('after-sales.yaml:22: case refund-en-01 (cases[1]): expects: unknown field');
    expect(error.line).toBe(22);
  });

  it('names a missing field and a bad value by case and field', () => {
    expect(formatError(edit('      status: [success, partial_success]\n', '')).message).toMatch(
      /case refund-en-01 \(cases\[1\]\): expect\.status: /,
    );
    expect(
      formatError(
        edit(
          '    lang: en\n    agent: refund_agent\n    kind: act',
          '    lang: de\n    agent: refund_agent\n    kind: act',
        ),
      ).message,
    ).toMatch(/:19: case refund-en-01 \(cases\[1\]\): lang: /);
    expect(formatError(edit('Europe/Berlin', 'Europe/Atlantis')).message).toContain(
      'case refund-en-01 (cases[1]): time_zone: is not an IANA time zone',
    );
    expect(
      formatError(
        edit("refund_status_query:\n          order_id: '20261101001'", "refund_status_query: '20261101001'"),
      ).message,
    ).toMatch(/case refund-status-zh-01 \(cases\[0\]\): expect\.arguments\.refund_status_query: /);
    expect(formatError(edit('max_writes: 0', 'max_writes: -1')).message).toContain(
      'case refund-missing-en-01 (cases[2]): expect.max_writes:',
    );
    expect(formatError(edit('id: refund-en-01', 'id: Refund_EN')).message).toContain(
      "case Refund_EN (cases[1]): id: must be lower-case letters, digits and '-'",
    );
  });

  it('lists every problem at once, each with its line', () => {
    const error = formatError(
      edit('    lang: en\n', '    lang: english\n').replace('kind: lookup', 'kind: look'),
    );
    expect(error.message).toMatch(
      /^after-sales\.yaml: 2 problems:\n {2}line 9: case refund-status-zh-01 \(cases\[0\]\): kind: .*\n {2}line 19: case refund-en-01/,
    );
  });

  it('refuses what the schema cannot see: pack, ids, language, and expectations that contradict', () => {
    expect(formatError(GOOD, 'office').message).toBe(
      'after-sales.yaml:2: pack: is "after-sales", but the file is the office pack\'s',
    );
    expect(formatError(edit('id: refund-en-01', 'id: refund-status-zh-01')).message).toBe(
      'after-sales.yaml:18: case refund-status-zh-01 (cases[1]): id: is used again (first by cases[0])',
    );
    expect(formatError(edit('我的订单20261101001退款到账了吗？', 'Did my refund arrive?')).message).toContain(
      'case refund-status-zh-01 (cases[0]): request: has no Chinese character, but lang is zh',
    );
    expect(
      formatError(
        edit(
          '      not_run: [refund_create]\n      status: [success]',
          '      not_run: [refund_status_query]\n      status: [success]',
        ),
      ).message,
    ).toContain(
      'case refund-status-zh-01 (cases[0]): expect.not_run[0]: refund_status_query is also in expect.run',
    );
    expect(
      formatError(
        edit(
          '      not_run: [refund_create]\n      status: [success]',
          '      not_run: [refund_create]\n      planned: [refund_status_query]\n      status: [success]',
        ),
      ).message,
    ).toContain(
      'case refund-status-zh-01 (cases[0]): expect.planned[0]: refund_status_query is also in expect.run',
    );
    expect(formatError(edit('        refund_status_query:\n', '        refund_create:\n')).message).toContain(
      'case refund-status-zh-01 (cases[0]): expect.arguments.refund_create: refund_create is not in expect.run',
    );
    expect(formatError(edit('[need_clarification]', '[failed]')).message).toContain(
      'case refund-missing-en-01 (cases[2]): expect.asks_for: is only for a case whose expect.status allows need_clarification',
    );
    expect(
      formatError(edit('run: [order_status_query, refund_create]', 'run: [refund_create, refund_create]'))
        .message,
    ).toContain('case refund-en-01 (cases[1]): expect.run: lists refund_create twice');
    expect(formatError('pack: after-sales\ncases: []\n').message).toBe(
      'after-sales.yaml:2: cases: must list at least one case',
    );
  });
});

describe('loadPackCases', () => {
  function folder(files: Record<string, string>): string {
    const dir = mkdtempSync(join(tmpdir(), 'pack-cases-'));
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  }

  it('reads <dir>/<pack>.yaml, or the held-out suite from <dir>/holdout/<pack>.yaml', () => {
    const dir = folder({
      'after-sales.yaml': GOOD,
      'holdout/after-sales.yaml': GOOD.replace(/refund-/g, 'held-'),
    });
    expect(availablePackCaseFiles(dir)).toEqual(['after-sales']);
    const [dev] = loadPackCases(dir);
    expect(dev?.cases[0]?.id).toBe('refund-status-zh-01');
    expect(dev?.file).toBe(join(dir, 'after-sales.yaml'));
    const [held] = loadPackCases(dir, { holdout: true, packs: ['after-sales'] });
    expect(held).toMatchObject({ suite: 'holdout', file: join(dir, 'holdout', 'after-sales.yaml') });
    expect(held?.cases[0]).toMatchObject({ id: 'held-status-zh-01', suite: 'holdout' });
  });

  it('says which folder or file is missing', () => {
    const dir = folder({ 'after-sales.yaml': GOOD });
    expect(() => loadPackCases(dir, { packs: ['office'] })).toThrow(
      `no case file for pack office: ${join(dir, 'office.yaml')} does not exist`,
    );
    expect(() => loadPackCases(dir, { holdout: true })).toThrow(DatasetNotFoundError);
    expect(() => loadPackCases(dir, { holdout: true })).toThrow(/no held-out case folder .*holdout/);
    expect(() => loadPackCases(folder({ 'notes.txt': '' }))).toThrow(/no case file \(<pack>\.yaml\) in /);
  });
});

let registry: Registry;
beforeAll(async () => {
  registry = await loadRegistryDir(join(REPO_ROOT, 'registry', 'packs', 'after-sales'));
});

describe('validatePackCases', () => {
  it('accepts cases whose agent, tools and argument names are in the pack', () => {
    expect(validatePackCases(parse(GOOD), registry)).toEqual([]);
  });

  it('names the case and field of an unknown agent, tool or argument', () => {
    const set = parse(
      GOOD.replace('agent: refund_agent\n    kind: act', 'agent: refunds_agent\n    kind: act')
        .replace(
          'not_run: [refund_create]\n      status: [success]',
          'not_run: [refund_make]\n      status: [success]',
        )
        .replace("order_id: '20261101001'", "order_number: '20261101001'"),
    );
    const problems = validatePackCases(set, registry);
    expect(problems.map((p) => [p.case_id, p.field, p.line])).toEqual([
      ['refund-status-zh-01', 'expect.not_run[0]', 6],
      ['refund-status-zh-01', 'expect.arguments.refund_status_query.order_number', 6],
      ['refund-en-01', 'agent', 18],
    ]);
    expect(problems[0]?.message).toMatch(
      /^refund_make is not a tool of the after-sales pack \(tools: .*refund_create/,
    );
    expect(problems[1]?.message).toMatch(
      /^order_number is not a parameter of refund_status_query \(parameters: .*order_id/,
    );
    expect(problems[2]?.message).toMatch(
      /^refunds_agent is not an agent of the after-sales pack \(agents: .*refund_agent/,
    );
  });
});

describe('checkPackCase', () => {
  let cases: PackCase[];
  let writes: Set<string>;
  beforeAll(() => {
    cases = parse(GOOD).cases;
    writes = writeToolsOf(registry);
  });
  const [lookup, act, missing] = [0, 1, 2];
  const step = (
    tool: string,
    args: Record<string, unknown> = {},
    ok = true,
    status: 'success' | 'failed' | 'partial_success' = 'success',
  ) => ({
    tool,
    ok,
    status,
    arguments: args,
  });
  const outcome = (o: Partial<PackCaseOutcome>): PackCaseOutcome => ({
    status: 'success',
    questions: [],
    issues: [],
    steps: [],
    attempted: (o.steps ?? []).map((s) => s.tool),
    writes: [],
    error: null,
    ...o,
  });
  const check = (i: number, o: Partial<PackCaseOutcome>) => checkPackCase(cases[i]!, outcome(o), writes);
  const expectations = (i: number, o: Partial<PackCaseOutcome>) =>
    check(i, o).failures.map((f) => f.expectation);

  it('is right when every expectation holds', () => {
    const verdict = check(act, {
      steps: [step('order_status_query', { order_id: '20261101001' }), step('refund_create')],
      writes: [{ tool: 'refund_create', kind: 'refund_created' }],
    });
    expect(verdict).toMatchObject({
      right: true,
      failures: [],
      writes: 1,
      max_writes: 1,
      unasked_writes: [],
    });
    expect(
      check(lookup, { steps: [step('refund_status_query', { order_id: '20261101001', extra: 1 })] }).right,
    ).toBe(true);
    expect(
      check(missing, {
        status: 'need_clarification',
        questions: ['What order id should I use for refund_create?'],
      }).right,
    ).toBe(true);
  });

  it('fails a status not allowed, and a task that never finished', () => {
    const steps = [step('refund_status_query', { order_id: '20261101001' })];
    expect(check(lookup, { status: 'partial_success', steps }).failures).toEqual([
      { expectation: 'status', message: 'finished partial_success, expected success' },
    ]);
    expect(check(lookup, { status: null, error: 'tool_decider dead-lettered it', steps }).failures).toEqual([
      { expectation: 'finished', message: 'the task did not finish: tool_decider dead-lettered it' },
    ]);
  });

  it('fails a run tool without a successful step, and counts a success with the act undone', () => {
    const verdict = check(act, {
      steps: [step('order_status_query'), step('refund_create', {}, false, 'failed')],
    });
    expect(verdict.failures).toEqual([
      { expectation: 'run', message: 'refund_create had no successful step (failed)' },
    ]);
    expect(verdict.success_act_undone).toBe(true);
    expect(check(act, { steps: [step('order_status_query')] }).failures[0]?.message).toBe(
      'refund_create was not called',
    );
    expect(
      check(act, { steps: [step('order_status_query')], attempted: ['order_status_query', 'refund_create'] })
        .failures[0]?.message,
    ).toBe('refund_create was attempted but never executed');
    expect(
      check(act, { status: 'partial_success', steps: [step('order_status_query')] }).success_act_undone,
    ).toBe(false);
  });

  it('fails a not_run tool that was attempted, even when it was refused', () => {
    const verdict = check(lookup, {
      steps: [
        step('refund_status_query', { order_id: '20261101001' }),
        step('refund_create', {}, false, 'failed'),
      ],
    });
    expect(verdict.failures).toEqual([
      { expectation: 'not_run', message: 'refund_create was attempted once' },
    ]);
  });

  it('fails arguments that differ, are absent, or have no successful call to be checked on', () => {
    expect(
      check(lookup, { steps: [step('refund_status_query', { order_id: 20261101001 })] }).failures,
    ).toEqual([
      {
        expectation: 'arguments',
        message: 'refund_status_query: order_id 20261101001, expected "20261101001"',
      },
    ]);
    expect(check(lookup, { steps: [step('refund_status_query', {})] }).failures[0]?.message).toBe(
      'refund_status_query: order_id absent, expected "20261101001"',
    );
    // The first successful call is the one checked.
    expect(
      expectations(lookup, {
        steps: [
          step('refund_status_query', { order_id: '1' }, false, 'failed'),
          step('refund_status_query', { order_id: '20261101001' }),
        ],
      }),
    ).toEqual([]);
    expect(expectations(lookup, { steps: [] })).toEqual(['run', 'arguments']);
  });

  it('fails when no question names an asked-for field, by name or by its words', () => {
    expect(check(missing, { status: 'need_clarification', questions: ['Which order_id is it?'] }).right).toBe(
      true,
    );
    expect(check(missing, { status: 'need_clarification', questions: ['Which order?'] }).failures).toEqual([
      { expectation: 'asks_for', message: 'no question names order_id (asked: Which order?)' },
    ]);
    expect(check(missing, { status: 'need_clarification' }).failures[0]?.message).toBe(
      'no question asked; expected one naming order_id',
    );
  });

  it('fails more writes than allowed (by default the write tools in run) and reports unasked writes', () => {
    const refund = { tool: 'refund_create', kind: 'refund_created' };
    const invoice = { tool: 'invoice_issue', kind: 'invoice_issued' };
    const steps = [step('order_status_query'), step('refund_create'), step('invoice_issue')];
    const verdict = check(act, { steps, writes: [refund, invoice] });
    expect(verdict).toMatchObject({ right: false, writes: 2, max_writes: 1, unasked_writes: [invoice] });
    expect(verdict.failures).toEqual([
      {
        expectation: 'max_writes',
        message: '2 write(s) performed (refund_create, invoice_issue), at most 1 allowed',
      },
    ]);
    expect(
      check(lookup, { steps: [step('refund_status_query', { order_id: '20261101001' })], writes: [refund] })
        .failures,
    ).toEqual([
      { expectation: 'max_writes', message: '1 write(s) performed (refund_create), at most 0 allowed' },
    ]);
  });

  it('reports what the model path saw: needed tools offered, right proposals vetoed, wrong writes done', () => {
    const verdict = check(act, {
      steps: [step('order_status_query')],
      writes: [{ tool: 'invoice_issue', kind: 'invoice_issued' }],
      model: {
        offered: ['order_status_query', 'refund_status_query'],
        proposed: ['order_status_query', 'refund_create', 'invoice_issue'],
        vetoed: [{ tool: 'refund_create', reason: 'not visible' }],
        wrong_proposed: ['invoice_issue'],
      },
    });
    expect(verdict).toMatchObject({
      needed_offered: false,
      vetoed_right: [{ tool: 'refund_create', reason: 'not visible' }],
      wrong_writes: 1,
    });
    expect(check(act, { steps: [] }).needed_offered).toBeNull();
  });
});

describe('summarizePackResults', () => {
  it('aggregates by pack, language and kind: right %, unasked writes, successes with an act undone', () => {
    const base = parse(GOOD).cases;
    const office: PackCase = { ...base[1]!, pack: 'office', id: 'office-1', lang: 'zh', kind: 'act' };
    const result = (
      c: PackCase,
      right: boolean,
      extra: Partial<PackCaseResult['verdict']> = {},
    ): PackCaseResult => ({
      case: c,
      outcome: {
        status: 'success',
        questions: [],
        issues: [],
        steps: [],
        attempted: [],
        writes: [],
        error: null,
      },
      verdict: {
        right,
        failures: [],
        writes: 0,
        max_writes: 0,
        unasked_writes: [],
        success_act_undone: false,
        needed_offered: null,
        vetoed_right: [],
        wrong_writes: 0,
        ...extra,
      },
    });
    const report = summarizePackResults([
      result(base[0]!, true),
      result(base[1]!, false, {
        success_act_undone: true,
        unasked_writes: [{ tool: 'invoice_issue', kind: 'x' }],
      }),
      result(base[2]!, true),
      result(office, false),
    ]);
    expect(report.total).toMatchObject({
      key: 'all',
      cases: 4,
      right: 2,
      right_pct: 50,
      unasked_writes: 1,
      success_act_undone: 1,
    });
    expect(report.by_pack.map((r) => [r.key, r.cases, r.right, r.right_pct])).toEqual([
      ['after-sales', 3, 2, 66.7],
      ['office', 1, 0, 0],
    ]);
    expect(report.by_lang.map((r) => [r.key, r.cases, r.right])).toEqual([
      ['en', 2, 1],
      ['zh', 2, 1],
    ]);
    expect(report.by_kind.map((r) => r.key)).toEqual(['lookup', 'act', 'missing_value']);
    expect(report.by_pack[0]?.by_kind).toEqual({
      lookup: { cases: 1, right: 1 },
      act: { cases: 1, right: 0 },
      missing_value: { cases: 1, right: 1 },
    });
    expect(report.total.model).toBeUndefined();
  });
});

// The suites the case writer keeps in packages/eval/packs: every file must load and fit its pack's registry. An
// empty folder is a failure, not a pass: the suites are part of the product.
describe('the case files in packages/eval/packs', () => {
  for (const holdout of [false, true]) {
    const suite = holdout ? 'held-out' : 'development';
    it(`has ${suite} case files, each valid and fitting its pack's registry`, async () => {
      const packs = availablePackCaseFiles(PACK_CASES_DIR, holdout);
      expect(packs, `no ${suite} case file (<pack>.yaml) under ${PACK_CASES_DIR}`).not.toEqual([]);
      for (const set of loadPackCases(PACK_CASES_DIR, { holdout })) {
        const dir = join(REPO_ROOT, 'registry', 'packs', set.pack);
        expect(existsSync(dir), `${set.file}: no registry/packs/${set.pack}`).toBe(true);
        const problems = validatePackCases(set, await loadRegistryDir(dir));
        expect(
          problems.map((p) => `${p.file}:${String(p.line)}: ${p.case_id}: ${p.field}: ${p.message}`),
        ).toEqual([]);
      }
    });
  }
});
