import type { ParameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { assignLists } from './list-assignment.js';
import { assignNumbers } from './number-assignment.js';

const dates = { referenceTime: '2024-11-04T09:00:00.000Z', timeZone: 'UTC' };

function param(path: string, schema: Record<string, unknown>, required = true): ParameterHints {
  return { path, schema, required, enum: undefined, synonyms: {}, normalizers: [] };
}

const numbers = { type: 'array', items: { type: 'number' } };
const strings = { type: 'array', items: { type: 'string' } };

function lists(text: string, params: ParameterHints[]): Record<string, unknown[]> {
  return Object.fromEntries([...assignLists(params, text, dates).lists].map(([k, v]) => [k, v.value]));
}

describe('lists matched to array parameters', () => {
  it('a bracketed list, nested or quoted, is one value', () => {
    expect(lists('Sort the weights [4.5, 2, 9] for me', [param('weights', numbers)])).toEqual({
      weights: [4.5, 2, 9],
    });
    expect(
      lists('Invert the matrix [[2, 0], [1, 3]] please', [
        param('matrix', { type: 'array', items: { type: 'array' } }),
      ]),
    ).toEqual({
      matrix: [
        [2, 0],
        [1, 3],
      ],
    });
    expect(lists("Tag it with ['red', 'urgent']", [param('labels', strings)])).toEqual({
      labels: ['red', 'urgent'],
    });
  });

  it('a run of numbers or quoted values joined by commas and "and" is a list', () => {
    expect(lists('Average the readings 3, 7, 11 and 15 then round', [param('values', numbers)])).toEqual({
      values: [3, 7, 11, 15],
    });
    expect(lists("Group by 'region', 'year' and 'product'", [param('columns', strings)])).toEqual({
      columns: ['region', 'year', 'product'],
    });
  });

  it('lists go to the parameter named beside them, else in order to numbered parameters', () => {
    expect(
      lists('Compare before=[1, 2, 3] with after=[4, 5, 6]', [
        param('after', numbers),
        param('before', numbers),
      ]),
    ).toEqual({ before: [1, 2, 3], after: [4, 5, 6] });
    expect(
      lists('Test site A [5, 6, 7] against site B [8, 9, 10]', [
        param('sample1', numbers),
        param('sample2', numbers),
      ]),
    ).toEqual({ sample1: [5, 6, 7], sample2: [8, 9, 10] });
  });

  it('no list, a list of the wrong kind, or a loose list for an optional parameter gives nothing', () => {
    expect(lists('Plot my data please', [param('points', numbers)])).toEqual({});
    expect(lists("Sum 'north' and 'south'", [param('points', numbers)])).toEqual({});
    expect(lists('Plot 1, 2 and 3', [param('extra', numbers, false)])).toEqual({});
  });

  it('the numbers of a list are not also single quantities', () => {
    const params = [param('scores', numbers), param('bins', { type: 'integer' })];
    const text = 'Histogram of 61, 74, 80 and 95 with 4 bins';
    const taken = assignLists(params, text, dates);
    const single = assignNumbers(params, text, dates, new Set(), taken.ranges);
    expect(taken.lists.get('scores')?.value).toEqual([61, 74, 80, 95]);
    expect(single.get('bins')?.value).toBe(4);
  });
});

describe('names written as a list', () => {
  it('the one run of proper names joined by "and" is the list of the one required array of strings', () => {
    expect(
      lists('Retrieve stock prices of Microsoft and Google for the last 2 weeks.', [
        param('companies', strings),
      ]),
    ).toEqual({ companies: ['Microsoft', 'Google'] });
    // Not for an optional array, nor for a list of numbers.
    expect(lists('Compare Microsoft and Google.', [param('companies', strings, false)])).toEqual({});
    expect(lists('Compare Microsoft and Google.', [param('values', numbers)])).toEqual({});
  });
});
