import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACK_REFERENCE_TIME, parsePackCases, type PackCase, type PackSuiteReport } from '@signalbox/eval';
import { UnexpectedModelCallError, type ModelRequest } from '@signalbox/providers';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { PROPOSAL_SYSTEM_PROMPT, proposalRequest } from '@signalbox/tool-decider';
import { runCli } from '../cli.js';
import { DEMO_REFERENCE_TIME, PACK_NAMES } from '../dev/scenarios.js';
import { bufferIo } from '../io.js';
import {
  deciderGoldModel,
  injectorGoldModel,
  registryPacks,
  wrongWritesFor,
  type ModelErrors,
  type ModelProposals,
  type PackCaseReport,
} from './eval-packs.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

// Four cases on the after-sales pack: an English refund (one write), a Chinese question next to a write tool (the
// unasked-write trap: no write), an English refund without its order number (missing value), and the English refund
// again under an expectation that forbids the write — so the harness must count that refund as an unasked write.
// The first and the last ask for the same full refund: each case runs on its own copy of the seeded database, so
// both refunds happen (on one shared database the second would find the order already refunded).
const CASES = `# test fixture
pack: after-sales
defaults:
  time_zone: Asia/Shanghai
cases:
  - id: refund-late-en
    lang: en
    agent: refund_agent
    kind: act
    time_zone: UTC
    request: My order 1234 is late and I want a refund.
    expect:
      run: [order_status_query, refund_create]
      status: [success]
      arguments:
        refund_create: { order_id: '1234' }
  - id: refundable-question-zh
    lang: zh
    agent: refund_agent
    kind: unasked_write
    request: 订单20261101001还能退吗？我先问问，还没想好要不要退
    expect:
      run: [order_status_query]
      not_run: [refund_create]
      status: [success]
      max_writes: 0
  - id: refund-missing-order-en
    lang: en
    agent: refund_agent
    kind: missing_value
    request: Refund my order.
    expect:
      run: []
      not_run: [refund_create]
      status: [need_clarification]
      asks_for: [order_id]
  - id: refund-forbidden-en
    lang: en
    agent: refund_agent
    kind: unasked_write
    request: My order 1234 is late and I want a refund.
    note: the expectation forbids the refund the request asks for, so the refund must show as an unasked write
    expect:
      run: [order_status_query]
      not_run: [refund_create]
      status: [success]
`;

function caseFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'eval-packs-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIo(process.cwd());
  const code = await runCli(argv, io);
  return { code, out: io.out.join(''), err: io.err.join('') };
}

async function runJson(argv: string[]): Promise<Record<string, unknown>> {
  const { code, out } = await run([...argv, '--json']);
  expect(code, out).toBe(0);
  return JSON.parse(out) as Record<string, unknown>;
}

const byId = (cases: PackCaseReport[]) => new Map(cases.map((c) => [c.id, c]));

describe('signalbox eval packs', () => {
  it('knows the packs registry/packs/ holds, and the backends clock the cases default to', () => {
    expect(registryPacks(repoRoot)).toEqual([...PACK_NAMES].sort());
    expect(PACK_REFERENCE_TIME).toBe(DEMO_REFERENCE_TIME);
  });

  describe('a run of fixture cases through the embedded pipeline', () => {
    let json: Record<string, unknown>;
    let cases: Map<string, PackCaseReport>;
    beforeAll(async () => {
      const dir = caseFolder({ 'after-sales.yaml': CASES });
      json = await runJson(['eval', 'packs', '--cases', dir, '--pack', 'after-sales']);
      cases = byId(json.cases as PackCaseReport[]);
    }, 180_000);

    it('counts each case its own writes, by tool, from the backends joined to the executor calls', () => {
      const refund = cases.get('refund-late-en')!;
      expect(refund).toMatchObject({
        right: true,
        failures: [],
        expected: { max_writes: 1, time_zone: 'UTC', locale: 'en-US', reference_time: PACK_REFERENCE_TIME },
        unasked_writes: [],
        success_act_undone: false,
      });
      expect(refund.outcome.writes).toEqual([{ tool: 'refund_create', kind: 'refund_created' }]);
      expect(refund.outcome.task_id).toBe('eval-refund-late-en-after-sales-1');
      expect(refund.outcome.status).toBe('success');
      expect(refund.outcome.attempted).toEqual(
        expect.arrayContaining(['order_status_query', 'refund_create']),
      );
      expect(refund.outcome.steps.find((s) => s.tool === 'refund_create')).toMatchObject({
        ok: true,
        status: 'success',
        arguments: { order_id: '1234' },
      });
      expect(refund.outcome.decision_reason).toMatch(/refund_create/);

      // The same refund in another case: its own database, so it happens again — and is unasked there.
      const forbidden = cases.get('refund-forbidden-en')!;
      expect(forbidden.outcome.writes).toEqual([{ tool: 'refund_create', kind: 'refund_created' }]);
      expect(forbidden).toMatchObject({
        right: false,
        expected: { max_writes: 0 },
        unasked_writes: [{ tool: 'refund_create', kind: 'refund_created' }],
      });
      expect(forbidden.failures.map((f) => f.expectation)).toEqual(['not_run', 'max_writes']);
    });

    it('checks the Chinese trap, the missing value, and the task each case was given', () => {
      const trap = cases.get('refundable-question-zh')!;
      expect(trap).toMatchObject({
        lang: 'zh',
        right: true,
        expected: { time_zone: 'Asia/Shanghai', locale: 'zh-CN', max_writes: 0 },
      });
      expect(trap.outcome.writes).toEqual([]);
      expect(trap.outcome.attempted).not.toContain('refund_create');

      const missing = cases.get('refund-missing-order-en')!;
      expect(missing).toMatchObject({ right: true, outcome: { status: 'need_clarification', writes: [] } });
      expect(missing.outcome.questions.join(' ')).toMatch(/order_id/);
    });

    it('reports by pack, language and kind', () => {
      const report = json.report as PackSuiteReport;
      expect(report.total).toMatchObject({
        cases: 4,
        right: 3,
        right_pct: 75,
        unasked_writes: 1,
        success_act_undone: 0,
      });
      expect(report.by_pack.map((r) => [r.key, r.cases, r.right])).toEqual([['after-sales', 4, 3]]);
      expect(report.by_lang.map((r) => [r.key, r.cases, r.right, r.unasked_writes])).toEqual([
        ['en', 3, 2, 1],
        ['zh', 1, 1, 0],
      ]);
      expect(report.by_kind.map((r) => [r.key, r.cases, r.right])).toEqual([
        ['act', 1, 1],
        ['missing_value', 1, 1],
        ['unasked_write', 2, 1],
      ]);
      expect(json).toMatchObject({
        ok: true,
        suite: 'dev',
        model: 'none',
        packs: ['after-sales'],
        harness_errors: [],
      });
    });
  });

  it('prints the tables and each wrong case with its request, expectation, outcome and the decider’s reason', async () => {
    const dir = caseFolder({
      'after-sales.yaml': CASES.slice(0, CASES.indexOf('  - id: refundable-question-zh')).concat(
        CASES.slice(CASES.indexOf('  - id: refund-forbidden-en')),
      ),
    });
    const { code, out } = await run(['eval', 'packs', '--cases', dir]);
    expect(code, out).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(
      /^Scenario packs, development suite \(.*\): 2 cases through the embedded pipeline; model none$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^after-sales +2 +1 +50\.0% +1 +0$/));
    expect(lines).toContainEqual(expect.stringMatching(/^en +2 +1 +50\.0% +1 +0$/));
    expect(lines).toContainEqual(expect.stringMatching(/^unasked_write +1 +0 +0\.0% +1 +0$/));
    expect(out).toContain('wrong cases (1):');
    expect(out).toContain(
      '  after-sales refund-forbidden-en [en unasked_write, agent refund_agent]: not_run: refund_create was attempted once; max_writes: 1 write(s) performed (refund_create), at most 0 allowed',
    );
    expect(out).toContain('    request:  "My order 1234 is late and I want a refund."');
    expect(out).toContain(
      '    expected: run [order_status_query]; not_run [refund_create]; status [success]; max_writes 0',
    );
    expect(out).toMatch(
      / {4}happened: success; steps .*refund_create ok\/success .*; writes \[refund_create\]/,
    );
    expect(out).toMatch(/ {4}decider: {2}.*chain order_status_query → refund_create/);
  }, 120_000);

  it('shows a held-out case by its id only, in the table and in --json: nothing to tune on', async () => {
    const forbidden = CASES.slice(0, CASES.indexOf('  - id: refund-late-en')).concat(
      CASES.slice(CASES.indexOf('  - id: refund-forbidden-en')),
    );
    const dir = caseFolder({ 'holdout/after-sales.yaml': forbidden });
    const { code, out } = await run(['eval', 'packs', '--cases', dir, '--holdout']);
    expect(code, out).toBe(0);
    expect(out).toMatch(/^Scenario packs, held-out suite \(.*holdout\): 1 cases/);
    expect(out).toContain('wrong cases (1):\n  after-sales refund-forbidden-en [en unasked_write]');
    expect(out).not.toContain('My order 1234 is late');
    expect(out).not.toMatch(/expected:|happened:|decider:/);
    const json = await runJson(['eval', 'packs', '--cases', dir, '--holdout']);
    expect(json.cases).toEqual([
      {
        id: 'refund-forbidden-en',
        pack: 'after-sales',
        suite: expect.any(String),
        lang: 'en',
        kind: 'unasked_write',
        right: false,
        unasked_writes: 1,
        success_act_undone: false,
        wrong_writes: 0,
      },
    ]);
  }, 120_000);

  it('with --model gold, the decider and the injector ask a model scripted from the case', async () => {
    const dir = caseFolder({
      'after-sales.yaml': CASES.slice(0, CASES.indexOf('  - id: refundable-question-zh')),
    });
    const json = await runJson(['eval', 'packs', '--cases', dir, '--model', 'gold']);
    const [only] = json.cases as PackCaseReport[];
    expect(only).toMatchObject({
      id: 'refund-late-en',
      right: true,
      needed_offered: true,
      missing_from_shortlist: [],
      vetoed_right: [],
      wrong_writes: 0,
    });
    expect(only?.outcome.model).toMatchObject({
      proposed: ['order_status_query', 'refund_create'],
      vetoed: [],
      wrong_proposed: [],
    });
    expect(only?.outcome.model?.offered).toEqual(
      expect.arrayContaining(['order_status_query', 'refund_create']),
    );
    expect(only?.outcome.decision_reason).toContain('model proposed [order_status_query, refund_create]');
    expect(only?.outcome.writes).toEqual([{ tool: 'refund_create', kind: 'refund_created' }]);
    expect((json.report as PackSuiteReport).total.model).toEqual({
      asked: 1,
      needed_offered: 1,
      vetoed_cases: 0,
      wrong_writes: 0,
    });
    expect(json.harness_errors).toEqual([]);
  }, 120_000);

  it('refuses an unknown pack, a malformed case file and cases that do not fit the registry, naming what is wrong', async () => {
    const dir = caseFolder({ 'after-sales.yaml': CASES });
    const unknown = await run(['eval', 'packs', '--cases', dir, '--pack', 'after-sale']);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err).toContain(
      'unknown pack "after-sale"; use one of after-sales, office, reach, research or all',
    );

    const stray = await run(['eval', 'packs', '--cases', caseFolder({ 'aftersales.yaml': CASES })]);
    expect(stray.code).toBe(2);
    expect(stray.err).toMatch(/aftersales\.yaml is not the case file of a pack/);

    const bad = await run([
      'eval',
      'packs',
      '--cases',
      caseFolder({ 'after-sales.yaml': CASES.replace('kind: act', 'kind: action') }),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/after-sales\.yaml:9: case refund-late-en \(cases\[0\]\): kind: /);

    const misfit = await run([
      'eval',
      'packs',
      '--cases',
      caseFolder({
        'after-sales.yaml': CASES.replace(
          'not_run: [refund_create]\n      status: [need_clarification]',
          'not_run: [refund_make]\n      status: [need_clarification]',
        ),
      }),
    ]);
    expect(misfit.code).toBe(2);
    expect(misfit.err).toMatch(
      /after-sales\.yaml:\d+: case refund-missing-order-en: expect\.not_run\[0\]: refund_make is not a tool of the after-sales pack \(tools: /,
    );

    const noHoldout = await run(['eval', 'packs', '--cases', dir, '--holdout']);
    expect(noHoldout.code).toBe(2);
    expect(noHoldout.err).toMatch(/no case file \(<pack>\.yaml\) in .*holdout/);
  });
});

describe('the scripted gold models', () => {
  let testCase: PackCase;
  let errors: ModelErrors;
  let proposals: ModelProposals;
  let registry: Registry;
  beforeAll(async () => {
    [testCase] = parsePackCases(CASES, { file: 'after-sales.yaml', pack: 'after-sales' }).cases as [PackCase];
    registry = await loadRegistryDir(join(repoRoot, 'registry', 'packs', 'after-sales'));
  });
  const writes = new Set(['refund_create', 'invoice_issue']);
  const proposal = (request: string, ...offered: string[]) =>
    proposalRequest(
      request,
      offered.map((name) => registry.tool(name)!),
    );

  it('proposes exactly the run tools with the case’s arguments, and a wrong write when asked to', async () => {
    errors = { messages: [] };
    proposals = { proposed: new Set(), wrong: new Set() };
    const gold = deciderGoldModel(testCase, 'gold', writes, errors, proposals);
    const response = await gold.complete(proposal(testCase.request, 'order_status_query', 'refund_create'));
    expect(response.toolCalls.map((c) => [c.name, c.arguments])).toEqual([
      ['order_status_query', {}],
      ['refund_create', { order_id: '1234' }],
    ]);
    const wrong = deciderGoldModel(testCase, 'wrong-write', writes, errors, proposals);
    const offered = ['order_status_query', 'invoice_issue', 'refund_create'];
    const again = await wrong.complete(
      proposalRequest(`${testCase.request}\n\nA previous plan was refused: x`, []),
    );
    expect(again.toolCalls.map((c) => c.name)).toEqual(['order_status_query', 'refund_create']);
    const withWrite = await wrong.complete(proposal(testCase.request, ...offered));
    expect(withWrite.toolCalls.map((c) => c.name)).toEqual([
      'order_status_query',
      'refund_create',
      'invoice_issue',
    ]);
    expect([...proposals.wrong]).toEqual(['invoice_issue']);
    expect(errors.messages).toEqual([]);
  });

  it('refuses a request it cannot attribute to its case instead of answering nothing', async () => {
    errors = { messages: [] };
    proposals = { proposed: new Set(), wrong: new Set() };
    const gold = deciderGoldModel(testCase, 'gold', writes, errors, proposals);
    await expect(gold.complete(proposal('Refund my order.', 'refund_create'))).rejects.toBeInstanceOf(
      UnexpectedModelCallError,
    );
    const other: ModelRequest = {
      messages: [
        { role: 'system', content: 'You judge results.' },
        { role: 'user', content: testCase.request },
      ],
    };
    await expect(gold.complete(other)).rejects.toThrow(/not a proposal for its request/);
    expect(errors.messages).toHaveLength(2);
    expect(PROPOSAL_SYSTEM_PROMPT).not.toBe('You judge results.');

    const injector = injectorGoldModel(testCase, errors);
    const ask = (tool: string, user: string): ModelRequest => ({
      messages: [{ role: 'user', content: user }],
      tools: [{ name: tool, parameters: { type: 'object' } }],
      toolChoice: { name: tool },
    });
    const request = `Request: ${testCase.request}\nReference time: x`;
    expect(
      (await injector.complete(ask('refund_create', request))).toolCalls.map((c) => c.arguments),
    ).toEqual([{ order_id: '1234' }]);
    // Asked about a tool the case gives no arguments for: no call — the injector extracts them itself.
    expect((await injector.complete(ask('order_status_query', request))).toolCalls).toEqual([]);
    await expect(injector.complete(ask('refund_create', 'Request: something else\n'))).rejects.toBeInstanceOf(
      UnexpectedModelCallError,
    );
    expect(errors.messages).toHaveLength(3);
  });

  it('picks as wrong write the case’s not_run writes, else the first offered write outside run', () => {
    const [, trap, , forbidden] = parsePackCases(CASES, { file: 'f', pack: 'after-sales' }).cases;
    expect(wrongWritesFor(trap!, ['order_status_query'], writes)).toEqual(['refund_create']);
    expect(wrongWritesFor(forbidden!, [], writes)).toEqual(['refund_create']);
    expect(
      wrongWritesFor(testCase, ['refund_create', 'order_status_query', 'invoice_issue'], writes),
    ).toEqual(['invoice_issue']);
    expect(wrongWritesFor(testCase, ['refund_create', 'order_status_query'], writes)).toEqual([]);
  });
});
