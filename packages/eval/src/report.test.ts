import { describe, expect, it } from 'vitest';
import type { EvalCase } from './eval-case.js';
import { formatReportTable, scoreRun } from './report.js';

const tool = {
  name: 'order_status_query',
  parameters: { type: 'dict', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
};
const makeCase = (id: string, category: string, expected: EvalCase['expected']): EvalCase => ({
  id,
  category,
  language: 'python',
  question: [[{ role: 'user', content: `case ${id}` }]],
  functions: [tool],
  expected,
});
const expectA1 = [{ name: 'order_status_query', params: { order_id: ['A1'] } }];
const cases = [
  makeCase('s1', 'simple', expectA1),
  makeCase('s2', 'simple', expectA1),
  makeCase('s3', 'simple', expectA1),
  makeCase('i1', 'irrelevance', []),
  makeCase('i2', 'irrelevance', []),
];

describe('scoreRun', () => {
  it('scores per case, per category and per failure class', () => {
    const report = scoreRun(cases, {
      s1: [{ name: 'order_status_query', arguments: { order_id: 'a1' } }],
      s2: [{ name: 'order_status_query', arguments: { order_id: 'B2' } }],
      i1: [],
      i2: [{ name: 'order_status_query', arguments: { order_id: 'A1' } }],
    });

    expect(report).toMatchObject({
      total: 5,
      passed: 2,
      accuracy: 0.4,
      macroAccuracy: (1 / 3 + 1 / 2) / 2,
      errors: { value_error: 1, missing_prediction: 1, irrelevance_called: 1 },
      categories: {
        simple: { total: 3, passed: 1, errors: { value_error: 1, missing_prediction: 1 } },
        irrelevance: { total: 2, passed: 1, accuracy: 0.5, errors: { irrelevance_called: 1 } },
      },
    });
    expect(report.results.map((result) => [result.id, result.valid, result.error_type])).toEqual([
      ['s1', true, undefined],
      ['s2', false, 'value_error'],
      ['s3', false, 'missing_prediction'],
      ['i1', true, undefined],
      ['i2', false, 'irrelevance_called'],
    ]);
    expect(report.results[1]).toMatchObject({ param: 'order_id' });
    // The JSON report survives serialisation unchanged.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it('accepts predictions as a Map', () => {
    const report = scoreRun(
      cases.slice(0, 1),
      new Map([['s1', [{ name: 'order_status_query', arguments: { order_id: 'A1' } }]]]),
    );
    expect(report).toMatchObject({ total: 1, passed: 1, accuracy: 1 });
  });

  it('prints the categories and the failure classes that occurred as tables', () => {
    const report = scoreRun(cases, { s1: [], s2: [], s3: [], i1: [], i2: [{ name: 'x', arguments: {} }] });

    const text = formatReportTable(report);

    expect(text).toBe(
      [
        'category         cases  passed  accuracy',
        '---------------  -----  ------  --------',
        'simple               3       0      0.0%',
        'irrelevance          2       1     50.0%',
        'overall              5       1     20.0%',
        'overall (macro)                    25.0%',
        '',
        'failure class       simple  irrelevance  total',
        '------------------  ------  -----------  -----',
        'wrong_count              3            0      3',
        'irrelevance_called       0            1      1',
      ].join('\n'),
    );
  });
});
