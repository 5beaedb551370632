import { describe, expect, it } from 'vitest';
import { matchesPattern, matchesValue, normalizeString } from './normalize.js';

describe('normalizeString', () => {
  it('lower-cases and drops spaces and ,./-_*^, and reads single quotes as double quotes', () => {
    expect(normalizeString('April 1, 2024')).toBe('april12024');
    expect(normalizeString('x**2 ^ y/z-w_v.u')).toBe('x2yzwvu');
    expect(normalizeString("lambda x: 'a'")).toBe('lambdax:"a"');
    // Only the listed characters go: a colon or parenthesis still counts.
    expect(normalizeString('f(x): y')).toBe('f(x):y');
  });
});

describe('matchesValue', () => {
  it('compares by type: a number never matches its string', () => {
    expect(matchesValue(3, 3)).toBe(true);
    expect(matchesValue('3', 3)).toBe(false);
    expect(matchesValue(3, '3')).toBe(false);
    expect(matchesValue(false, false)).toBe(true);
    expect(matchesValue(0, false)).toBe(false);
    expect(matchesValue(null, null)).toBe(true);
  });

  it('compares nested lists element-wise', () => {
    expect(matchesValue([[1, 'A b'], []], [[1, 'ab'], []])).toBe(true);
    expect(matchesValue([[1, 'A b']], [[1, 'ab'], []])).toBe(false);
  });
});

describe('matchesPattern', () => {
  it('needs every given key known and every required key given', () => {
    const pattern = { a: [1], b: ['x', ''] };
    expect(matchesPattern({ a: 1 }, pattern)).toBe(true);
    expect(matchesPattern({ a: 1, b: 'X' }, pattern)).toBe(true);
    expect(matchesPattern({ b: 'x' }, pattern)).toBe(false);
    expect(matchesPattern({ a: 1, c: 2 }, pattern)).toBe(false);
    expect(matchesPattern([{ a: 1 }], pattern)).toBe(false);
  });
});
