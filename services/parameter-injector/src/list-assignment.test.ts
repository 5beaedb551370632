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

describe('tuples, ranges and lists of words (issue 19)', () => {
  it('numbers in parentheses are a tuple, given to numbered parameters in order', () => {
    expect(
      lists('Plot the segment between (12.5, -3.25) and (8, 4.75) on the map', [
        param('start1', numbers),
        param('start2', numbers),
      ]),
    ).toEqual({ start1: [12.5, -3.25], start2: [8, 4.75] });
  });
  it('a coordinate written with its hemisphere is signed: south and west are negative', () => {
    expect(
      lists('How far is (51.5072 N, 0.1276 W) from (33.8688 S, 151.2093 E)?', [
        param('point1', numbers),
        param('point2', numbers),
      ]),
    ).toEqual({ point1: [51.5072, -0.1276], point2: [-33.8688, 151.2093] });
  });

  it('an array documented as an interval takes the two ends of the range written', () => {
    const interval = param('bounds', { ...numbers, description: 'Lower and upper bound.' });
    expect(lists('Integrate sin(x) from x=0 to x=2.5.', [interval])).toEqual({ bounds: [0, 2.5] });
    expect(lists('Count the primes between -4 and 40', [param('search_range', numbers)])).toEqual({
      search_range: [-4, 40],
    });
    // Not for an array that is not an interval, and not when two ranges are written.
    expect(lists('Sum the values from 3 to 9', [param('values', numbers)])).toEqual({});
    expect(lists('from 1 to 2 and from 5 to 8', [param('search_range', numbers)])).toEqual({});
  });

  it('names written right after an array parameter’s own word are its list, an optional one’s too', () => {
    expect(
      lists('Drive to Denver with stops in Boulder and Golden', [param('stops', strings, false)]),
    ).toEqual({ stops: ['Boulder', 'Golden'] });
  });

  it('one run of lower-case words joined by commas and "and" is the list of the one open array of strings', () => {
    expect(
      lists('Compare the prices of pears, plums and figs at the market.', [param('items', strings)]),
    ).toEqual({
      items: ['pears', 'plums', 'figs'],
    });
    expect(lists('She is calm, open minded and curious', [param('traits', strings)])).toEqual({
      traits: ['calm', 'open minded', 'curious'],
    });
    // A content word against either end: the items are longer phrases, bounds unknown.
    expect(lists('Find tax lawyers and court fees in Ohio', [param('items', strings)])).toEqual({});
    // Not for an optional array, nor one whose items are a closed set.
    expect(lists('the prices of pears and plums', [param('items', strings, false)])).toEqual({});
    expect(
      lists('the prices of pears and plums', [
        param('items', { type: 'array', items: { type: 'string', enum: ['Apples', 'Pears'] } }),
      ]),
    ).toEqual({});
  });
});
