import { existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BFCL_LIVE_SETS,
  BFCL_PUBLIC_SETS,
  BFCL_SETS,
  REPO_ROOT,
  availableBfclSets,
  bfclSetExpectation,
  goldPredictions,
  loadBfclSet,
  resolveBfclDir,
  type BfclSet,
} from './bfcl-dataset.js';
import { checkCase } from './checker.js';
import type { PredictedCall } from './eval-case.js';
import { DatasetFormatError, DatasetNotFoundError } from './errors.js';
import { isPlainObject } from './normalize.js';
import { formatReportTable, scoreRun } from './report.js';

const bfclDir = resolveBfclDir();
const present = existsSync(bfclDir);
if (!present) {
  // Visible in the run's output: these tests skip only when the BFCL folder is absent.
  console.warn(`[eval] BFCL folder ${bfclDir} not found: the BFCL dataset tests are skipped`);
}

/** Case counts of the public sets (SOURCE.md beside the data). */
const EXPECTED_COUNTS: Record<(typeof BFCL_PUBLIC_SETS)[number], number> = {
  simple_python: 400,
  simple_javascript: 50,
  multiple: 200,
  parallel: 200,
  parallel_multiple: 200,
  irrelevance: 240,
};

describe('resolveBfclDir', () => {
  it('defaults to ../shared/eval/bfcl relative to the repository root', () => {
    expect(resolveBfclDir({})).toBe(join(REPO_ROOT, '..', 'shared', 'eval', 'bfcl'));
    expect(existsSync(join(REPO_ROOT, 'pnpm-workspace.yaml'))).toBe(true);
  });

  it('takes SIGNALBOX_BFCL_DIR, absolute or relative to the repository root', () => {
    expect(resolveBfclDir({ SIGNALBOX_BFCL_DIR: '/data/bfcl' })).toBe('/data/bfcl');
    expect(resolveBfclDir({ SIGNALBOX_BFCL_DIR: 'eval-data' })).toBe(join(REPO_ROOT, 'eval-data'));
  });
});

describe('loadBfclSet errors', () => {
  it('names the folder and the variable when the folder is missing', () => {
    expect(() => loadBfclSet('simple_python', { dir: '/nonexistent/bfcl' })).toThrow(DatasetNotFoundError);
    expect(() => loadBfclSet('simple_python', { dir: '/nonexistent/bfcl' })).toThrow(/SIGNALBOX_BFCL_DIR/);
  });

  it('refuses the multi-turn sets and unknown names, naming the sets it knows', () => {
    expect(() => loadBfclSet('multi_turn_base' as BfclSet, { dir: '/nonexistent' })).toThrow(RangeError);
    expect(() => loadBfclSet('multi_turn_base' as BfclSet, { dir: '/nonexistent' })).toThrow(
      /unknown BFCL set "multi_turn_base"; use one of .*live_relevance/,
    );
  });

  it('names the missing answer file of a live set with gold calls', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-live-'));
    writeFileSync(
      join(dir, 'BFCL_v4_live_simple.json'),
      `${JSON.stringify({ id: 'live_simple_0-0-0', question: [[{ role: 'user', content: 'hi' }]], function: [] })}\n`,
    );
    expect(() => loadBfclSet('live_simple', { dir })).toThrow(DatasetNotFoundError);
    expect(() => loadBfclSet('live_simple', { dir })).toThrow(/possible_answer\/BFCL_v4_live_simple\.json/);
  });

  it('reports the file and line of a malformed line, and a case without a gold answer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-'));
    mkdirSync(join(dir, 'possible_answer'));
    const question = (id: string): string =>
      JSON.stringify({
        id,
        question: [[{ role: 'user', content: 'hi' }]],
        function: [{ name: 'f', parameters: { type: 'dict', properties: {}, required: [] } }],
      });
    writeFileSync(
      join(dir, 'BFCL_v4_multiple.json'),
      `${question('multiple_0')}\n{"id": "multiple_1", "question": 3}\n`,
    );
    writeFileSync(
      join(dir, 'possible_answer', 'BFCL_v4_multiple.json'),
      '{"id":"multiple_0","ground_truth":[{"f":{}}]}\n',
    );
    const error = (() => {
      try {
        loadBfclSet('multiple', { dir });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DatasetFormatError);
    expect(error).toMatchObject({ line: 2 });
    expect((error as Error).message).toMatch(/BFCL_v4_multiple\.json:2: invalid at question/);

    writeFileSync(join(dir, 'BFCL_v4_parallel.json'), `${question('parallel_0')}\n`);
    writeFileSync(join(dir, 'possible_answer', 'BFCL_v4_parallel.json'), '');
    expect(() => loadBfclSet('parallel', { dir })).toThrow(/case parallel_0 has no gold answer/);
  });
});

describe('the live sets', () => {
  // A folder laid out like bfcl-live-dev: gold calls for live_simple and live_multiple, no answer file for the
  // irrelevance and relevance sets.
  function liveFolder(): string {
    const dir = mkdtempSync(join(tmpdir(), 'bfcl-live-'));
    mkdirSync(join(dir, 'possible_answer'));
    const weather = {
      name: 'get_current_weather',
      description: 'Retrieves the current weather.',
      parameters: {
        type: 'dict',
        properties: { location: { type: 'string', description: 'City, e.g. "Berlin, Germany"' } },
        required: ['location'],
      },
    };
    const line = (id: string, content: string): string =>
      JSON.stringify({ id, question: [[{ role: 'user', content }]], function: [weather] });
    writeFileSync(
      join(dir, 'BFCL_v4_live_simple.json'),
      `${line('live_simple_0-0-0', 'Weather in Berlin?')}\n`,
    );
    writeFileSync(
      join(dir, 'possible_answer', 'BFCL_v4_live_simple.json'),
      `${JSON.stringify({ id: 'live_simple_0-0-0', ground_truth: [{ get_current_weather: { location: ['Berlin, Germany'] } }] })}\n`,
    );
    writeFileSync(
      join(dir, 'BFCL_v4_live_irrelevance.json'),
      `${line('live_irrelevance_0-0-0', 'Tell me a joke')}\n`,
    );
    writeFileSync(
      join(dir, 'BFCL_v4_live_relevance.json'),
      `${line('live_relevance_0-0-0', 'Is it raining where I am?')}\n`,
    );
    return dir;
  }

  it('are known, after the public sets, and tell what is right on each', () => {
    expect(BFCL_SETS).toEqual([...BFCL_PUBLIC_SETS, ...BFCL_LIVE_SETS]);
    expect(BFCL_LIVE_SETS).toEqual([
      'live_simple',
      'live_multiple',
      'live_parallel',
      'live_parallel_multiple',
      'live_irrelevance',
      'live_relevance',
    ]);
    expect(BFCL_SETS.map((set) => [set, bfclSetExpectation(set)]).filter(([, e]) => e !== 'calls')).toEqual([
      ['irrelevance', 'no_call'],
      ['live_irrelevance', 'no_call'],
      ['live_relevance', 'any_call'],
    ]);
  });

  it('load as python cases: gold calls joined by id, irrelevance expecting no call, relevance any call', () => {
    const dir = liveFolder();
    expect(availableBfclSets(dir)).toEqual(['live_simple', 'live_irrelevance', 'live_relevance']);

    const [simple] = loadBfclSet('live_simple', { dir });
    expect(simple).toMatchObject({
      id: 'live_simple_0-0-0',
      category: 'live_simple',
      language: 'python',
      expected: [{ name: 'get_current_weather', params: { location: ['Berlin, Germany'] } }],
    });
    expect(simple?.expect).toBeUndefined();
    const [irrelevant] = loadBfclSet('live_irrelevance', { dir });
    expect(irrelevant).toMatchObject({ language: 'python', expected: [] });
    expect(irrelevant?.expect).toBeUndefined();
    const [relevant] = loadBfclSet('live_relevance', { dir });
    expect(relevant).toMatchObject({ language: 'python', expected: [], expect: 'any_call' });

    // Relevance: any call of any function is right, whatever its arguments; no call is wrong. Irrelevance: the
    // opposite.
    const anyCall: PredictedCall[] = [{ name: 'get_current_weather', arguments: {} }];
    expect(checkCase(relevant!, anyCall)).toEqual({ valid: true });
    expect(checkCase(relevant!, [])).toMatchObject({ valid: false, error_type: 'relevance_not_called' });
    expect(checkCase(irrelevant!, [])).toEqual({ valid: true });
    expect(checkCase(irrelevant!, anyCall)).toMatchObject({ valid: false, error_type: 'irrelevance_called' });
  });

  it('list no set for a missing folder', () => {
    expect(availableBfclSets('/nonexistent/bfcl')).toEqual([]);
  });
});

describe.skipIf(!present)('the public BFCL sets', () => {
  it('load with the documented counts, languages and gold answers', () => {
    expect(availableBfclSets(bfclDir)).toEqual([...BFCL_PUBLIC_SETS]);
    for (const set of BFCL_PUBLIC_SETS) {
      const cases = loadBfclSet(set, { dir: bfclDir });
      expect(cases, set).toHaveLength(EXPECTED_COUNTS[set]);
      expect(new Set(cases.map((testCase) => testCase.id)).size, set).toBe(cases.length);
      for (const testCase of cases) {
        expect(testCase.category).toBe(set);
        expect(testCase.language).toBe(set === 'simple_javascript' ? 'javascript' : 'python');
        if (set === 'irrelevance') expect(testCase.expected).toEqual([]);
        else expect(testCase.expected.length).toBeGreaterThan(0);
        if (set.startsWith('simple') || set === 'multiple') expect(testCase.expected).toHaveLength(1);
      }
    }
  });

  it('self-check: the gold answers checked against themselves score 100% on every set', () => {
    const cases = BFCL_PUBLIC_SETS.flatMap((set) => loadBfclSet(set, { dir: bfclDir }));
    const predictions = new Map(cases.map((testCase) => [testCase.id, goldPredictions(testCase)]));

    const report = scoreRun(cases, predictions);

    console.info(`[eval] BFCL self-check\n${formatReportTable(report)}`);
    const failures = report.results.filter((result) => !result.valid);
    expect(failures).toEqual([]);
    for (const set of BFCL_PUBLIC_SETS) {
      expect(report.categories[set], set).toMatchObject({
        total: EXPECTED_COUNTS[set],
        passed: EXPECTED_COUNTS[set],
      });
    }
    expect(report.accuracy).toBe(1);
  });

  it('accepts every acceptable value of every parameter, one parameter varied at a time', () => {
    let checked = 0;
    const failures: string[] = [];
    for (const set of BFCL_PUBLIC_SETS) {
      for (const testCase of loadBfclSet(set, { dir: bfclDir })) {
        const gold = goldPredictions(testCase);
        testCase.expected.forEach((call, callIndex) => {
          const documented =
            testCase.functions.find((doc) => doc.name === call.name)?.parameters.properties ?? {};
          for (const [param, acceptable] of Object.entries(call.params)) {
            // Two gold answers (parallel_multiple_12, _26) allow a parameter their function doc does not declare;
            // BFCL's checker refuses it as unexpected too, so only documented parameters are varied.
            if (!Object.hasOwn(documented, param)) continue;
            for (const value of acceptable) {
              if (value === '' || isPlainObject(value) || (Array.isArray(value) && value.some(isPlainObject)))
                continue;
              const calls = gold.map((predicted, index) =>
                index === callIndex
                  ? { ...predicted, arguments: { ...predicted.arguments, [param]: value } }
                  : predicted,
              );
              checked += 1;
              const result = checkCase(testCase, calls);
              if (!result.valid)
                failures.push(`${testCase.id} ${param}=${JSON.stringify(value)}: ${result.message}`);
            }
          }
        });
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(5000);
  });

  it('rejects a wrong value on every case that has a string parameter (the self-check can fail)', () => {
    let mutated = 0;
    for (const set of BFCL_PUBLIC_SETS) {
      for (const testCase of loadBfclSet(set, { dir: bfclDir })) {
        const gold = goldPredictions(testCase);
        const first = gold[0];
        const param = Object.entries(first?.arguments ?? {}).find(
          ([, value]) => typeof value === 'string',
        )?.[0];
        if (first === undefined || param === undefined) continue;
        const calls = [
          { ...first, arguments: { ...first.arguments, [param]: 'zz-not-an-answer-zz' } },
          ...gold.slice(1),
        ];
        mutated += 1;
        expect(checkCase(testCase, calls), testCase.id).toMatchObject({ valid: false });
      }
    }
    expect(mutated).toBeGreaterThan(500);
  });

  it('self-check can fail: calling something on every irrelevance case and dropping a call on parallel fail', () => {
    const irrelevance = loadBfclSet('irrelevance', { dir: bfclDir });
    const parallel = loadBfclSet('parallel', { dir: bfclDir });
    const predictions = new Map<string, PredictedCall[]>([
      ...irrelevance.map((testCase): [string, PredictedCall[]] => [
        testCase.id,
        [{ name: testCase.functions[0]!.name, arguments: {} }],
      ]),
      ...parallel.map((testCase): [string, PredictedCall[]] => [
        testCase.id,
        goldPredictions(testCase).slice(1),
      ]),
    ]);

    const report = scoreRun([...irrelevance, ...parallel], predictions);

    expect(report.passed).toBe(0);
    expect(report.errors).toEqual({ irrelevance_called: 240, wrong_count: 200 });
  });
});
