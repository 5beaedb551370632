import { describe, expect, it } from 'vitest';
import { repairArguments } from './repair.js';

const schema = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    price: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
    ids: { type: 'array', items: { type: 'integer' } },
    express: { type: 'boolean' },
    status: { type: 'string', enum: ['open', 'done'], synonyms: { completed: 'done', finished: 'done' } },
    day: { type: 'string', format: 'date' },
    checkin: { type: 'string', description: 'Check-in date in format MM-DD-YYYY.' },
    order_id: { type: 'string', pattern: '^[0-9]{8,20}$', normalizers: ['trim', 'digits_only'] },
    contact: { type: 'string' },
  },
  required: ['count'],
  additionalProperties: false,
};
const dates = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };

describe('lenient coercion (PI-3)', () => {
  it('numeric strings to numbers, but never a fraction into an integer', () => {
    const r = repairArguments(schema, { count: ' 12 ', price: '1,234.5' });
    expect(r.ok).toBe(true);
    expect(r.arguments).toEqual({ count: 12, price: 1234.5 });
    expect(r.coerced.sort()).toEqual(['count', 'price']);
    const bad = repairArguments(schema, { count: '2.5' });
    expect(bad.errors).toEqual([{ field: 'count', kind: 'invalid', reason: 'must be integer' }]);
  });
  it('"a, b, c" to arrays, with elements coerced to the item type', () => {
    expect(
      repairArguments(schema, { count: 1, tags: 'red, green , blue', ids: '1, 2, 3' }).arguments,
    ).toMatchObject({
      tags: ['red', 'green', 'blue'],
      ids: [1, 2, 3],
    });
    expect(repairArguments(schema, { count: 1, tags: '["a","b"]' }).arguments.tags).toEqual(['a', 'b']);
  });
  it('boolean words', () => {
    for (const [word, value] of [
      ['yes', true],
      ['False', false],
      ['on', true],
      ['0', false],
    ] as const) {
      expect(repairArguments(schema, { count: 1, express: word }).arguments.express, word).toBe(value);
    }
    expect(repairArguments(schema, { count: 1, express: 'maybe' }).ok).toBe(false);
  });
  it('enum case and declared synonyms: completed → done', () => {
    expect(repairArguments(schema, { count: 1, status: 'DONE' }).arguments.status).toBe('done');
    expect(repairArguments(schema, { count: 1, status: 'Completed' }).arguments.status).toBe('done');
    const r = repairArguments(schema, { count: 1, status: 'closed' });
    expect(r.errors).toEqual([{ field: 'status', kind: 'invalid', reason: 'must be one of: open, done' }]);
  });
  it('dates to the schema format (format: date, or a format named in the description)', () => {
    const r = repairArguments(schema, { count: 1, day: 'Nov 8, 2024', checkin: '2024-11-08' }, { dates });
    expect(r.arguments).toMatchObject({ day: '2024-11-08', checkin: '11-08-2024' });
    expect(repairArguments(schema, { count: 1, day: 'tomorrow' }, { dates }).arguments.day).toBe(
      '2024-11-05',
    );
  });
  it('normalizers run first (trim, digits_only) so a written order number validates', () => {
    expect(repairArguments(schema, { count: 1, order_id: ' 2024-0917-001 ' }).arguments.order_id).toBe(
      '20240917001',
    );
  });
});

describe('missing values are never invented', () => {
  it('an empty string is a missing value: a required one is reported missing, never filled', () => {
    const r = repairArguments(schema, { count: '' });
    expect(r.ok).toBe(false);
    expect(r.emptied).toEqual(['count']);
    expect(r.errors).toEqual([{ field: 'count', kind: 'missing', reason: 'is required but missing' }]);
    expect(r.arguments).toEqual({});
  });
  it('an absent required value stays absent', () => {
    expect(repairArguments(schema, { price: 3 }).errors).toEqual([
      { field: 'count', kind: 'missing', reason: 'is required but missing' },
    ]);
  });
});

describe('stripping and redaction (PI-5)', () => {
  it('strips undeclared arguments and denied ones, each with a reason', () => {
    const r = repairArguments(
      schema,
      { count: 1, extra: 'x', price: 3 },
      { denied: new Map([['price', 'agent a may not set price']]) },
    );
    expect(r.ok).toBe(true);
    expect(r.arguments).toEqual({ count: 1 });
    expect(r.stripped).toEqual([
      { field: 'extra', reason: 'not a parameter of this tool' },
      { field: 'price', reason: 'agent a may not set price' },
    ]);
  });
  it('strips undeclared arguments unless the schema explicitly allows additional properties', () => {
    expect(
      repairArguments({ type: 'object', properties: { a: { type: 'string' } } }, { a: 'x', b: 1 }).arguments,
    ).toEqual({ a: 'x' });
    expect(
      repairArguments({ type: 'object', properties: {}, additionalProperties: true }, { b: 1 }).arguments,
    ).toEqual({ b: 1 });
  });
  it('never writes a sensitive value into the log, even when coercing or refusing it', () => {
    const sensitive = new Set(['contact', 'count']);
    const r = repairArguments(schema, { count: '12', contact: 42 }, { sensitive });
    const text = r.log.join('\n');
    expect(text).toContain('coerced count: [redacted] → [redacted]');
    expect(text).not.toContain('12');
    expect(text).not.toContain('42');
  });
});
