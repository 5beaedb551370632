import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { argumentsHash, canonicalHash, canonicalJson } from './canonical-json.js';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts object members at every depth and leaves array order alone', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 2, x: 1 }], c: 'z' } })).toBe(
      '{"a":{"c":"z","d":[3,{"x":1,"y":2}]},"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('orders member names by UTF-16 code units, not by locale or code point', () => {
    // RFC 8785 §3.2.3: "\u20ac" (€) < "\ud83d\ude00" (😀, a surrogate pair) < "\ufb33" although U+1F600 > U+FB33.
    expect(canonicalJson({ '\ufb33': 3, '😀': 2, '€': 1, '1': 0, A: 5, a: 4 })).toBe(
      '{"1":0,"A":5,"a":4,"€":1,"😀":2,"דּ":3}',
    );
  });

  it('writes numbers in their shortest round-trip form: -0 is 0, 1.0 is 1, exponents as ECMAScript does', () => {
    expect(canonicalJson([-0, 1.0, 1e21, 1e-7, 0.1 + 0.2, 333333333.3333333])).toBe(
      '[0,1,1e+21,1e-7,0.30000000000000004,333333333.3333333]',
    );
  });

  it('refuses NaN and the infinities, at any depth', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow(/NaN/);
    expect(() => canonicalJson({ a: Number.POSITIVE_INFINITY })).toThrow(/infinity/i);
    expect(() => canonicalJson(Number.NEGATIVE_INFINITY)).toThrow(TypeError);
  });

  it('drops undefined members, writes undefined array items as null, refuses a top-level undefined', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}');
    expect(canonicalJson({ a: 1, b: undefined })).toBe(canonicalJson({ a: 1 }));
    expect(canonicalJson([1, undefined, 2])).toBe('[1,null,2]');
    expect(() => canonicalJson(undefined)).toThrow(/undefined is not JSON/);
  });

  it('refuses functions, symbols and bigints, naming where they are', () => {
    expect(() => canonicalJson({ a: { f: () => 1 } })).toThrow(/function at \$\.a\.f/);
    expect(() => canonicalJson([Symbol('s')])).toThrow(/symbol at \$\[0\]/);
    expect(() => canonicalJson({ n: 10n })).toThrow(/bigint at \$\.n/);
  });

  it('keeps Unicode as is (no escaping beyond JSON.stringify) and refuses a lone surrogate', () => {
    expect(canonicalJson({ text: 'héllo 退款 😀', control: '\u0001\n"\\' })).toBe(
      '{"control":"\\u0001\\n\\"\\\\","text":"héllo 退款 😀"}',
    );
    expect(() => canonicalJson({ s: 'a\ud800b' })).toThrow(/surrogate/i);
  });

  it('serialises dates through toJSON and refuses a cycle', () => {
    expect(canonicalJson({ at: new Date('2026-01-02T03:04:05.000Z') })).toBe(
      '{"at":"2026-01-02T03:04:05.000Z"}',
    );
    const loop: Record<string, unknown> = { a: 1 };
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/i);
    // The same object twice, not in a cycle, is fine.
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it('hashes the UTF-8 bytes of the canonical text; the arguments hash is that hash of the arguments', () => {
    const args = { order_id: '1234', amount: 12.5, reason: '退款' };
    const expected = createHash('sha256')
      .update('{"amount":12.5,"order_id":"1234","reason":"退款"}', 'utf8')
      .digest('hex');
    expect(canonicalHash(args)).toBe(expected);
    expect(argumentsHash({ reason: '退款', amount: 12.5, order_id: '1234' })).toBe(expected);
    expect(argumentsHash(args)).toMatch(/^[0-9a-f]{64}$/);
  });
});
