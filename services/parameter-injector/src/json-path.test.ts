import { describe, expect, it } from 'vitest';
import { readPath } from './json-path.js';

const output = {
  order: { id: '20240917001' },
  results: [{ url: 'https://a' }, { url: 'https://b' }, { title: 'x' }],
};

describe('input_from paths into a step output', () => {
  it('reads keys, $-rooted paths, indexes and every-element lists', () => {
    expect(readPath(output, 'order.id')).toEqual({ found: true, value: '20240917001' });
    expect(readPath(output, '$.order.id')).toEqual({ found: true, value: '20240917001' });
    expect(readPath(output, 'results[1].url')).toEqual({ found: true, value: 'https://b' });
    expect(readPath(output, 'results.0.url')).toEqual({ found: true, value: 'https://a' });
    expect(readPath(output, 'results[].url')).toEqual({ found: true, value: ['https://a', 'https://b'] });
    expect(readPath(output, '$')).toEqual({ found: true, value: output });
  });
  it('reports a missing step as not found, and a malformed path as a SyntaxError', () => {
    expect(readPath(output, 'order.status')).toEqual({ found: false });
    expect(readPath(output, 'results[9].url')).toEqual({ found: false });
    expect(() => readPath(output, 'order..id]')).toThrow(SyntaxError);
  });
});
