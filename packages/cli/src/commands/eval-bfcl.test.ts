import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlanStep } from '@signalbox/contracts';
import { importBfcl } from '@signalbox/registry';
import { runCli } from '../cli.js';
import { bufferIo } from '../io.js';
import {
  BFCL_REFERENCE_TIME,
  BFCL_VISIBILITY_CAP,
  bfclCaseRegistry,
  bfclTask,
  plannerOptionsFor,
  prepareCalls,
  type BfclSetReport,
} from './eval-bfcl.js';

const weather = {
  name: 'get_weather',
  description: 'Get the current weather for a city.',
  parameters: {
    type: 'dict',
    properties: { city: { type: 'string', description: 'The city name.' } },
    required: ['city'],
  },
};
const area = {
  name: 'calculate_triangle_area',
  description: 'Calculate the area of a triangle given its base and height.',
  parameters: {
    type: 'dict',
    properties: {
      base: { type: 'integer', description: 'The base.' },
      height: { type: 'integer', description: 'The height.' },
    },
    required: ['base', 'height'],
  },
};
const question = (id: string, content: string, functions: unknown[]) => ({
  id,
  question: [[{ role: 'user', content }]],
  function: functions,
});
const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');

// A folder laid out like BFCL (question files + possible_answer/), small enough to read in the test.
function bfclFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-'));
  mkdirSync(join(dir, 'possible_answer'));
  writeFileSync(
    join(dir, 'BFCL_v4_multiple.json'),
    lines([
      question('multiple_0', 'What is the weather for Paris?', [weather, area]),
      // The right tool, but the request gives neither value: the injector would ask — no call, so the call is wrong.
      question('multiple_1', 'Calculate the area of a triangle.', [weather, area]),
      // The right tool, but the gold answer wants another city than the request names: the call is wrong.
      question('multiple_2', 'What is the weather for Rome?', [weather, area]),
    ]),
  );
  writeFileSync(
    join(dir, 'possible_answer', 'BFCL_v4_multiple.json'),
    lines([
      { id: 'multiple_0', ground_truth: [{ get_weather: { city: ['Paris'] } }] },
      { id: 'multiple_1', ground_truth: [{ calculate_triangle_area: { base: [10], height: [5] } }] },
      { id: 'multiple_2', ground_truth: [{ get_weather: { city: ['Milan'] } }] },
    ]),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_irrelevance.json'),
    lines([question('irrelevance_0', 'Who won the world cup in 1998?', [area])]),
  );
  return dir;
}

// A folder laid out like bfcl-live-dev: live sets with and without answer files.
function liveFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-live-'));
  mkdirSync(join(dir, 'possible_answer'));
  writeFileSync(
    join(dir, 'BFCL_v4_live_simple.json'),
    lines([question('live_simple_0-0-0', 'What is the weather for Paris?', [weather])]),
  );
  writeFileSync(
    join(dir, 'possible_answer', 'BFCL_v4_live_simple.json'),
    lines([{ id: 'live_simple_0-0-0', ground_truth: [{ get_weather: { city: ['Paris'] } }] }]),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_live_irrelevance.json'),
    lines([
      // Nothing fits: a zero-step plan.
      question('live_irrelevance_0-0-0', 'Who won the world cup in 1998?', [area]),
      // The area tool fits, but the request gives no base or height: the injector would ask — no call either.
      question('live_irrelevance_1-0-0', 'Calculate the area of a triangle.', [area]),
    ]),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_live_relevance.json'),
    lines([
      question('live_relevance_0-0-0', 'What is the weather for Berlin?', [weather]),
      // Nothing is planned: no call where one would do.
      question('live_relevance_1-0-0', 'Who won the world cup in 1998?', [weather]),
    ]),
  );
  return dir;
}

async function runJson(argv: string[]): Promise<Record<string, unknown>> {
  const io = bufferIo(process.cwd());
  const code = await runCli([...argv, '--json'], io);
  expect(code, io.out.join('')).toBe(0);
  expect(io.out).toHaveLength(1);
  return JSON.parse(io.out[0] ?? '{}') as Record<string, unknown>;
}

describe('signalbox eval bfcl', () => {
  it('scores tool choice, the full call with the AST checker, and shortlist recall, as one JSON object', async () => {
    const dir = bfclFolder();
    const report = await runJson(['eval', 'bfcl', '--set', 'multiple', '--data', dir]);
    expect(report).toMatchObject({
      ok: true,
      set: 'multiple',
      n: 3,
      correct: 3,
      tool_accuracy: 1,
      call_correct: 1,
      call_accuracy: 0.3333,
      shortlist_recall: 1,
      shortlist_cap: BFCL_VISIBILITY_CAP,
      confusion: [],
      clarifications: 1,
      call_confusion_counts: { clarification: 1, value_error: 1 },
      call_confusion: [
        { id: 'multiple_1', kind: 'clarification', calls: [] },
        // The checker looks at the arguments: the injector's city is not the gold one.
        {
          id: 'multiple_2',
          kind: 'value_error',
          calls: [{ name: 'get_weather', arguments: { city: 'Rome' } }],
        },
      ],
      reference_time: BFCL_REFERENCE_TIME,
      data: dir,
    });
    const at = report.shortlist_recall_at as Record<string, number>;
    expect(Object.keys(at)).toEqual(['1', '3', '5']);
    expect(at['1']).toBe(1);
  });

  it('counts an irrelevance case right by a zero-step plan or by a step the injector cannot fill', async () => {
    const dir = liveFolder();
    const report = await runJson(['eval', 'bfcl', '--set', 'live_irrelevance', '--data', dir]);
    expect(report).toMatchObject({
      set: 'live_irrelevance',
      expects: 'no_call',
      n: 2,
      correct: 2,
      tool_accuracy: 1,
      call_accuracy: 1,
      shortlist_recall: null,
      shortlist_recall_at: null,
      confusion_counts: { right_by_zero_step_plan: 1, right_by_clarification: 1 },
      clarifications: 1,
      confusion: [],
    });
  });

  it('runs several sets, or all in the folder, into one object with one entry per set', async () => {
    const dir = liveFolder();
    const report = await runJson(['eval', 'bfcl', '--set', 'all', '--data', dir]);
    expect(report).toMatchObject({ ok: true, shortlist_cap: BFCL_VISIBILITY_CAP, data: dir });
    const sets = report.sets as BfclSetReport[];
    expect(sets.map((s) => s.set)).toEqual(['live_simple', 'live_irrelevance', 'live_relevance']);
    const [simple, , relevance] = sets;
    expect(simple).toMatchObject({ n: 1, tool_accuracy: 1, call_accuracy: 1, shortlist_recall: 1 });
    // Relevance: a prepared call of any function is right, no call is wrong.
    expect(relevance).toMatchObject({
      expects: 'any_call',
      n: 2,
      tool_accuracy: 0.5,
      call_accuracy: 0.5,
      confusion_counts: { refused_fitting: 1 },
      call_confusion_counts: { relevance_not_called: 1 },
    });
    for (const s of sets)
      for (const key of [
        'tool_accuracy',
        'call_accuracy',
        'shortlist_recall',
        'confusion_counts',
        'confusion',
      ])
        expect(s, `${s.set}.${key}`).toHaveProperty(key);

    const two = await runJson(['eval', 'bfcl', '--set', 'live_relevance,live_simple', '--data', dir]);
    expect((two.sets as BfclSetReport[]).map((s) => s.set)).toEqual(['live_relevance', 'live_simple']);
  });

  it('prints a table row per set, with the per-case lines for one set or with --verbose', async () => {
    const dir = bfclFolder();
    const one = bufferIo(process.cwd());
    expect(await runCli(['eval', 'bfcl', '--set', 'multiple', '--data', dir], one)).toBe(0);
    const text = one.out.join('');
    expect(text).toMatch(/^multiple\s+3\s+100\.0%\s+33\.3%\s+100\.0%/m);
    expect(text).toMatch(/BFCL multiple: tool choice 3\/3 = 100\.0%, full call 1\/3 = 33\.3%/);
    expect(text).toMatch(/call multiple_2 .*value_error/);

    const both = bufferIo(process.cwd());
    expect(await runCli(['eval', 'bfcl', '--set', 'multiple,irrelevance', '--data', dir], both)).toBe(0);
    expect(both.out.join('')).toMatch(/^irrelevance\s+1\s+100\.0%\s+100\.0%\s+-/m);
    expect(both.out.join('')).not.toMatch(/call multiple_2/);
    const verbose = bufferIo(process.cwd());
    expect(
      await runCli(['eval', 'bfcl', '--set', 'multiple,irrelevance', '--data', dir, '--verbose'], verbose),
    ).toBe(0);
    expect(verbose.out.join('')).toMatch(/call multiple_2/);
  });

  it('refuses unknown and multi-turn sets, and a set whose file is not in the folder', async () => {
    const dir = bfclFolder();
    for (const set of ['multi_turn_base', 'multiple,nope']) {
      const bad = bufferIo(process.cwd());
      expect(await runCli(['eval', 'bfcl', '--set', set, '--data', dir, '--json'], bad)).toBe(2);
      expect(bad.out.join('')).toMatch(/unknown BFCL set/);
    }
    const missing = bufferIo(process.cwd());
    expect(await runCli(['eval', 'bfcl', '--set', 'live_simple', '--data', dir, '--json'], missing)).toBe(2);
    expect(missing.out.join('')).toMatch(/BFCL file not found: .*BFCL_v4_live_simple\.json/);
  });
});

describe('prepareCalls', () => {
  // As the planner drafts them: each parameter read from the user's text.
  const step = (index: number, tool: string, parameters: string[] = []): PlanStep => ({
    index,
    tool,
    tool_definition_hash: 'sha256:0',
    purpose: 'as planned',
    input_from: parameters.map((parameter) => ({
      parameter,
      source: 'user_text',
      step_index: null,
      path: null,
    })),
    expected_evidence: 'source',
    fallback_tool: null,
  });
  const definitions =
    importBfcl(JSON.stringify(question('x', 'x', [weather, area]))).cases[0]?.definitions ?? [];

  it('prepares the steps in order and stops at the first one that needs a clarification, as the task would', () => {
    const registry = bfclCaseRegistry(definitions);
    const task = bfclTask({ question: [[{ role: 'user', content: 'What is the weather for Paris?' }]] });
    const weatherCall = { name: 'get_weather', arguments: { city: 'Paris' } };
    expect(prepareCalls(registry, { steps: [step(0, 'get_weather', ['city'])] }, task)).toEqual({
      calls: [weatherCall],
      clarification: null,
      error: null,
    });
    expect(
      prepareCalls(
        registry,
        {
          steps: [
            step(0, 'get_weather', ['city']),
            step(1, 'calculate_triangle_area', ['base', 'height']),
            step(2, 'get_weather', ['city']),
          ],
        },
        task,
      ),
    ).toEqual({
      calls: [weatherCall],
      clarification: { step_index: 1, tool: 'calculate_triangle_area', fields: ['base', 'height'] },
      error: null,
    });
  });

  it('reports a step naming a tool outside the registry as an error, not as a call', () => {
    const registry = bfclCaseRegistry([]);
    const task = bfclTask({ question: [[{ role: 'user', content: 'Weather in Paris?' }]] });
    expect(prepareCalls(registry, { steps: [step(0, 'get_weather')] }, task)).toEqual({
      calls: [],
      clarification: null,
      error: { tool: 'get_weather', message: 'not in the registry' },
    });
  });
});

describe('bfclTask and plannerOptionsFor', () => {
  it('builds a valid task at the fixed reference time, the other turns as context', () => {
    const task = bfclTask({
      question: [
        [
          { role: 'system', content: 'You are a helpful assistant.' },
          { role: 'user', content: 'Weather in Paris?' },
        ],
      ],
    });
    expect(task).toMatchObject({
      request: 'Weather in Paris?',
      context: [{ role: 'system', content: 'You are a helpful assistant.' }],
      reference_time: BFCL_REFERENCE_TIME,
      time_zone: 'UTC',
    });
  });

  it('passes the planner options given, and none by default', () => {
    expect(plannerOptionsFor({})).toEqual({});
    expect(plannerOptionsFor({ planner: { maxSteps: 3 } })).toEqual({ maxSteps: 3 });
  });
});
