import { describe, expect, it } from 'vitest';
import { CheckErrorType, checkCase } from './checker.js';
import type { EvalCase, FunctionDoc, PredictedCall } from './eval-case.js';

const area: FunctionDoc = {
  name: 'geometry.circle_area',
  parameters: {
    type: 'dict',
    properties: {
      radius: { type: 'float' },
      units: { type: 'string' },
      precision: { type: 'integer' },
      round: { type: 'boolean' },
    },
    required: ['radius'],
  },
};
const weather: FunctionDoc = {
  name: 'weather_query',
  parameters: {
    type: 'dict',
    properties: {
      city: { type: 'string' },
      days: { type: 'integer' },
      fields: { type: 'array', items: { type: 'string' } },
      coordinates: { type: 'tuple', items: { type: 'float' } },
      filters: { type: 'dict' },
      extra: { type: 'any' },
    },
    required: ['city'],
  },
};

const simple: Pick<EvalCase, 'functions' | 'expected'> = {
  functions: [area],
  expected: [{ name: 'geometry.circle_area', params: { radius: [5.5], units: ['cm', ''], precision: [2] } }],
};

const parallel: Pick<EvalCase, 'functions' | 'expected'> = {
  functions: [weather, area],
  expected: [
    { name: 'weather_query', params: { city: ['Paris'], days: [3, ''] } },
    { name: 'weather_query', params: { city: ['New York City', 'NYC'], days: [3, ''] } },
    { name: 'geometry.circle_area', params: { radius: [2], units: [''], precision: ['', 0] } },
  ],
};

const call = (name: string, args: Record<string, unknown> | null): PredictedCall => ({
  name,
  arguments: args,
});

describe('checkCase: one call', () => {
  it('accepts the gold call, with optional parameters omitted or given', () => {
    expect(checkCase(simple, [call('geometry.circle_area', { radius: 5.5, precision: 2 })])).toEqual({
      valid: true,
    });
    expect(
      checkCase(simple, [call('geometry.circle_area', { radius: 5.5, precision: 2, units: 'CM' })]),
    ).toEqual({
      valid: true,
    });
  });

  it.each([
    ['wrong_count', []],
    [
      'wrong_count',
      [call('geometry.circle_area', { radius: 5.5, precision: 2 }), call('geometry.circle_area', {})],
    ],
    ['wrong_function', [call('geometry_circle_area', { radius: 5.5, precision: 2 })]],
    ['invalid_arguments', [call('geometry.circle_area', null)]],
    ['missing_required', [call('geometry.circle_area', { precision: 2 })]],
    ['unexpected_param', [call('geometry.circle_area', { radius: 5.5, precision: 2, colour: 'red' })]],
    // `round` is in the doc but not in the gold answer: BFCL calls that unexpected as well.
    ['unexpected_param', [call('geometry.circle_area', { radius: 5.5, precision: 2, round: true })]],
    ['type_error', [call('geometry.circle_area', { radius: '5.5', precision: 2 })]],
    ['type_error', [call('geometry.circle_area', { radius: 5.5, precision: 2.5 })]],
    ['type_error', [call('geometry.circle_area', { radius: true, precision: 2 })]],
    ['value_error', [call('geometry.circle_area', { radius: 5.25, precision: 2 })]],
    ['value_error', [call('geometry.circle_area', { radius: 5.5, precision: 2, units: 'mm' })]],
    ['missing_optional', [call('geometry.circle_area', { radius: 5.5 })]],
  ] as const)('fails as %s', (errorType, calls) => {
    const result = checkCase(simple, calls);
    expect(result).toMatchObject({ valid: false, error_type: errorType });
    expect(result.valid ? '' : result.message).not.toBe('');
  });

  it('names the parameter at fault', () => {
    expect(checkCase(simple, [call('geometry.circle_area', { radius: 5.5, precision: 3 })])).toMatchObject({
      error_type: 'value_error',
      param: 'precision',
    });
  });

  it('accepts an int where a float is expected, and a float equal to an int gold value', () => {
    const whole = { functions: [area], expected: [{ name: area.name, params: { radius: [5.0] } }] };
    expect(checkCase(whole, [call(area.name, { radius: 5 })])).toEqual({ valid: true });
    // JSON cannot tell 5 from 5.0, so an integer parameter accepts 5.0 (a documented deviation from BFCL).
    const integer = {
      functions: [area],
      expected: [{ name: area.name, params: { radius: [1], precision: [2] } }],
    };
    expect(checkCase(integer, [call(area.name, { radius: 1, precision: 2.0 })])).toEqual({ valid: true });
  });

  it('accepts the underscore form of a dotted name only when asked to', () => {
    const calls = [call('geometry_circle_area', { radius: 5.5, precision: 2 })];
    expect(checkCase(simple, calls)).toMatchObject({ error_type: 'wrong_function' });
    expect(checkCase(simple, calls, { dotsAsUnderscores: true })).toEqual({ valid: true });
  });
});

describe('checkCase: values', () => {
  const docCase = (params: Record<string, unknown[]>): Pick<EvalCase, 'functions' | 'expected'> => ({
    functions: [weather],
    expected: [{ name: 'weather_query', params: { city: ['x'], ...params } }],
  });

  it('compares strings after lower-casing and dropping spaces and ,./-_*^', () => {
    const dated = docCase({ city: ['New York, NY'], extra: ['April 1, 2024'] });
    expect(checkCase(dated, [call('weather_query', { city: 'new york ny', extra: 'April 1,2024' })])).toEqual(
      {
        valid: true,
      },
    );
    expect(
      checkCase(dated, [call('weather_query', { city: 'NEW-YORK/NY.', extra: 'april_1*2024^' })]),
    ).toEqual({
      valid: true,
    });
    expect(
      checkCase(dated, [call('weather_query', { city: 'New Yorke NY', extra: 'April 1, 2024' })]),
    ).toMatchObject({
      error_type: 'value_error',
    });
  });

  it('compares lists element-wise, in order, with the same normalisation', () => {
    const listed = docCase({ fields: [['Temperature', 'wind-speed']] });
    expect(
      checkCase(listed, [call('weather_query', { city: 'x', fields: ['temperature', 'WIND SPEED'] })]),
    ).toEqual({
      valid: true,
    });
    for (const fields of [
      ['wind speed', 'temperature'],
      ['temperature'],
      ['temperature', 'wind speed', 'rain'],
    ]) {
      expect(checkCase(listed, [call('weather_query', { city: 'x', fields })]), fields.join()).toMatchObject({
        error_type: 'value_error',
      });
    }
    expect(
      checkCase(listed, [call('weather_query', { city: 'x', fields: ['temperature', 3] })]),
    ).toMatchObject({
      error_type: 'type_error',
    });
  });

  it('accepts int elements in a float tuple', () => {
    const tupled = docCase({ coordinates: [[48.85, 2]] });
    expect(checkCase(tupled, [call('weather_query', { city: 'x', coordinates: [48.85, 2] })])).toEqual({
      valid: true,
    });
  });

  it('matches dict parameters against nested patterns, recursively and with optional keys', () => {
    const filtered = docCase({
      filters: [
        { min: [300000], max: [400000, ''], tags: [['Pet friendly', 'garden']], area: [{ unit: ['sq-ft'] }] },
      ],
    });
    const ok = { min: 300000, tags: ['pet-friendly', 'Garden'], area: { unit: 'SQ FT' } };
    expect(checkCase(filtered, [call('weather_query', { city: 'x', filters: ok })])).toEqual({ valid: true });
    const bad = [
      { ...ok, min: 1 },
      { ...ok, colour: 'red' },
      { tags: ok.tags, area: ok.area },
      { ...ok, area: { unit: 'm2' } },
    ];
    for (const filters of bad) {
      expect(
        checkCase(filtered, [call('weather_query', { city: 'x', filters })]),
        JSON.stringify(filters),
      ).toMatchObject({ error_type: 'value_error' });
    }
    expect(checkCase(filtered, [call('weather_query', { city: 'x', filters: [ok] })])).toMatchObject({
      error_type: 'type_error',
    });
  });

  it('accepts a value of the gold answer’s type when the gold answer is a variable (BFCL rule)', () => {
    const variable = docCase({ filters: ['userFilters'], days: [3] });
    expect(
      checkCase(variable, [call('weather_query', { city: 'x', filters: 'userFilters', days: 3 })]),
    ).toEqual({
      valid: true,
    });
    expect(
      checkCase(variable, [call('weather_query', { city: 'x', filters: 'userFilters', days: '3' })]),
    ).toMatchObject({ error_type: 'type_error', param: 'days' });
  });

  it('accepts any type for `any` and accepts an explicit empty string for an omittable string', () => {
    const anything = docCase({ extra: [42], days: [''] });
    expect(checkCase(anything, [call('weather_query', { city: 'x', extra: 42 })])).toEqual({ valid: true });
    expect(checkCase(anything, [call('weather_query', { city: 'x', extra: '42' })])).toMatchObject({
      error_type: 'value_error',
    });
    const omittable = docCase({ city: ['Paris', ''] });
    expect(checkCase(omittable, [call('weather_query', { city: '' })])).toEqual({ valid: true });
  });

  it('reads JavaScript type names (String, Boolean)', () => {
    const js: Pick<EvalCase, 'functions' | 'expected'> = {
      functions: [
        {
          name: 'validateUserInput',
          parameters: {
            type: 'dict',
            properties: { inputField: { type: 'String' }, isComplete: { type: 'Boolean' } },
            required: ['inputField', 'isComplete'],
          },
        },
      ],
      expected: [
        { name: 'validateUserInput', params: { inputField: ['userInputField'], isComplete: [true] } },
      ],
    };
    expect(
      checkCase(js, [call('validateUserInput', { inputField: 'userInputField', isComplete: true })]),
    ).toEqual({
      valid: true,
    });
    expect(
      checkCase(js, [call('validateUserInput', { inputField: 'userInputField', isComplete: 'true' })]),
    ).toMatchObject({ error_type: 'type_error' });
  });
});

describe('checkCase: parallel calls', () => {
  const paris = call('weather_query', { city: 'Paris' });
  const nyc = call('weather_query', { city: 'NYC', days: 3 });
  const circle = call('geometry.circle_area', { radius: 2 });

  it('matches calls in any order', () => {
    const orders = [
      [paris, nyc, circle],
      [circle, nyc, paris],
      [nyc, circle, paris],
    ];
    for (const calls of orders) expect(checkCase(parallel, calls)).toEqual({ valid: true });
  });

  it('needs each expected call matched by a distinct call', () => {
    expect(checkCase(parallel, [paris, paris, circle])).toMatchObject({
      valid: false,
      error_type: 'value_error',
      param: 'city',
      expectedIndex: 1,
    });
  });

  it('finds a full matching where a greedy first-fit would not', () => {
    const either = call('weather_query', { city: 'nyc' });
    const greedy: Pick<EvalCase, 'functions' | 'expected'> = {
      functions: [weather],
      expected: [
        { name: 'weather_query', params: { city: ['NYC', 'Paris'] } },
        { name: 'weather_query', params: { city: ['NYC'] } },
      ],
    };
    expect(checkCase(greedy, [either, call('weather_query', { city: 'Paris' })])).toEqual({ valid: true });
  });

  it('requires the same number of calls', () => {
    expect(checkCase(parallel, [paris, nyc])).toMatchObject({ error_type: 'wrong_count' });
    expect(checkCase(parallel, [paris, nyc, circle, circle])).toMatchObject({ error_type: 'wrong_count' });
  });

  it('reports wrong_function when no call names an expected function', () => {
    const result = checkCase(parallel, [paris, nyc, call('weather_query', { city: 'Rome' })]);
    expect(result).toMatchObject({ error_type: 'wrong_function', expectedIndex: 2 });
  });
});

describe('checkCase: irrelevance', () => {
  const irrelevant = { functions: [weather], expected: [] };

  it('passes with no call and fails as irrelevance_called with any call', () => {
    expect(checkCase(irrelevant, [])).toEqual({ valid: true });
    expect(checkCase(irrelevant, [call('weather_query', { city: 'Paris' })])).toMatchObject({
      valid: false,
      error_type: 'irrelevance_called',
    });
  });
});

describe('checkCase: relevance (any call)', () => {
  const relevant = { functions: [weather, area], expected: [], expect: 'any_call' as const };

  it('passes with a call of any offered function, whatever its arguments, and fails with none', () => {
    expect(checkCase(relevant, [call('geometry.circle_area', {})])).toEqual({ valid: true });
    expect(checkCase(relevant, [call('weather_query', { city: 'Rome' }), call('weather_query', {})])).toEqual(
      {
        valid: true,
      },
    );
    expect(checkCase(relevant, [])).toMatchObject({ valid: false, error_type: 'relevance_not_called' });
  });
});

describe('CheckErrorType', () => {
  it('is the closed set the reports count by', () => {
    expect(CheckErrorType.options).toEqual([
      'wrong_count',
      'wrong_function',
      'invalid_arguments',
      'missing_required',
      'missing_optional',
      'unexpected_param',
      'type_error',
      'value_error',
      'irrelevance_called',
      'relevance_not_called',
      'missing_prediction',
    ]);
  });
});
