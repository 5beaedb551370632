import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveBfclDir, type EvalCase } from '@signalbox/eval';
import { runCli } from '../cli.js';
import { bufferIo } from '../io.js';
import { PERTURBATION_CLASSES, benchSynonyms, runRepairBenchmark } from './eval-repair.js';

const bfcl = resolveBfclDir();

const oneCase: EvalCase = {
  id: 'c1',
  category: 'unit',
  language: 'python',
  question: [[{ role: 'user', content: 'x' }]],
  functions: [
    {
      name: 'book',
      parameters: {
        type: 'dict',
        properties: {
          guests: { type: 'integer' },
          rooms: { type: 'array', items: { type: 'string' } },
          sort: { type: 'string', enum: ['ascending', 'descending'] },
          day: { type: 'string', description: 'Day in format YYYY-MM-DD.' },
          pets: { type: 'boolean' },
        },
        required: ['guests'],
      },
    },
  ],
  expected: [
    {
      name: 'book',
      params: { guests: [2], rooms: [['a', 'b']], sort: ['descending'], day: ['2024-11-08'], pets: [true] },
    },
  ],
};

describe('the repair benchmark', () => {
  it('perturbs each applicable parameter once per class and scores the repaired calls with the checker', () => {
    const report = runRepairBenchmark([oneCase]);
    expect(report.baseline).toEqual({ n: 1, accepted_correct: 1, skipped: 0 });
    for (const cls of PERTURBATION_CLASSES) expect(report.classes[cls].n, cls).toBe(1);
    expect(report.classes.number_as_string).toMatchObject({ repaired_correct: 1, accepted_wrong: 0 });
    expect(report.classes.missing_required).toMatchObject({
      clarified: 1,
      clarified_naming_field: 1,
      repaired_correct: 0,
    });
    expect(report.classes.empty_required).toMatchObject({ clarified: 1, clarified_naming_field: 1 });
    expect(report.acceptance.pass).toBe(true);
  });
  it('strips an unknown extra parameter even where the BFCL schema does not close the object', () => {
    const loose: EvalCase = {
      ...oneCase,
      functions: [
        {
          name: 'book',
          parameters: { type: 'dict', properties: { guests: { type: 'string' } }, required: [] },
        },
      ],
      expected: [{ name: 'book', params: { guests: ['2'] } }],
    };
    const report = runRepairBenchmark([loose]);
    expect(report.classes.unknown_extra_param).toMatchObject({
      n: 1,
      repaired_correct: 1,
      accepted_wrong: 0,
    });
    expect(report.classes.number_as_string.n).toBe(0);
  });
  it('declares synonyms only when they are unambiguous', () => {
    expect(benchSynonyms(['ascending', 'descending'])).toEqual({ asce: 'ascending', desc: 'descending' });
    expect(benchSynonyms(['lightly active', 'light activity'])).toEqual({});
  });
  it.skipIf(!existsSync(bfcl))(
    '`eval repair --json` on simple_python prints one JSON object per class and passes',
    async () => {
      const io = bufferIo(process.cwd(), {});
      const code = await runCli(['eval', 'repair', '--data', bfcl, '--sets', 'simple_python', '--json'], io);
      const json = JSON.parse(io.out.join('')) as {
        ok: boolean;
        classes: Record<
          string,
          { n: number; repaired_correct: number; clarified: number; accepted_wrong: number }
        >;
      };
      expect(code).toBe(0);
      expect(json.ok).toBe(true);
      expect(Object.keys(json.classes)).toEqual([...PERTURBATION_CLASSES]);
      expect(json.classes.number_as_string!.n).toBeGreaterThan(100);
      for (const score of Object.values(json.classes)) expect(score.accepted_wrong).toBe(0);
    },
  );
});
