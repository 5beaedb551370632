import { describe, expect, it } from 'vitest';
import { compareJsonbKeys } from './republish-identity.js';

describe('compareJsonbKeys', () => {
  it('orders keys as jsonb keeps them: shorter UTF-8 byte length first, then bytewise', () => {
    const keys = ['é', 'ab', 'b', 'a', 'zz', 'Z', '\u0001', 'aé', '日本', 'abc'];
    // 'é' is two bytes (c3 a9: after 'zz'), 'aé' and 'abc' three, '日本' six.
    expect([...keys].sort(compareJsonbKeys)).toEqual([
      '\u0001',
      'Z',
      'a',
      'b',
      'ab',
      'zz',
      'é',
      'abc',
      'aé',
      '日本',
    ]);
    expect(compareJsonbKeys('same', 'same')).toBe(0);
  });
});
