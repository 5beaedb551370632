import { describe, expect, it } from 'vitest';
import { validateArguments } from './validate.js';

// A shipping form: a customs number is needed only for an international parcel.
const schema = {
  type: 'object',
  properties: {
    destination: { type: 'string', enum: ['domestic', 'international'] },
    address: { type: 'string' },
    customs_number: { type: 'string' },
  },
  required: ['destination', 'address'],
  if: { properties: { destination: { const: 'international' } } },
  then: { required: ['customs_number'] },
  additionalProperties: false,
};

const missing = (args: Record<string, unknown>) =>
  validateArguments(schema, args)
    .filter((e) => e.kind === 'missing')
    .map((e) => e.field);

describe('validateArguments: a requirement under a condition', () => {
  it('is missing when the value the condition tests meets it', () => {
    expect(missing({ destination: 'international', address: '1 Rue X' })).toEqual(['customs_number']);
  });

  it('is not missing while the value the condition tests is itself absent: that value is what is asked', () => {
    expect(missing({ address: '1 Rue X' })).toEqual(['destination']);
  });

  it('is not missing when the condition does not hold', () => {
    expect(missing({ destination: 'domestic', address: '1 Rue X' })).toEqual([]);
  });
});
