import { parameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { idsOwnedElsewhere } from './id-assignment.js';

const refundStatus = parameterHints({
  type: 'object',
  properties: {
    refund_id: { type: 'string' },
    order_id: { type: 'string', pattern: '^[0-9]{4,20}$' },
  },
  anyOf: [{ required: ['refund_id'] }, { required: ['order_id'] }],
});

const track = parameterHints({
  type: 'object',
  properties: { tracking_number: { type: 'string' }, order_id: { type: 'string' } },
});

describe('idsOwnedElsewhere', () => {
  it('gives an id the record the words before it name, in English and Chinese', () => {
    expect(idsOwnedElsewhere(track, 'where is order 5521?').get('tracking_number')?.has('5521')).toBe(true);
    expect(idsOwnedElsewhere(track, 'where is order 5521?').has('order_id')).toBe(false);
    expect(idsOwnedElsewhere(track, '运单号：SF88231 到哪了').get('order_id')?.has('SF88231')).toBe(true);
    expect(idsOwnedElsewhere(track, '订单 5521 到哪了').get('tracking_number')?.has('5521')).toBe(true);
  });

  it('gives an unnamed id to the parameter whose pattern it matches', () => {
    const owned = idsOwnedElsewhere(refundStatus, '4410的退款到了没');
    expect(owned.get('refund_id')?.get('4410')).toMatch(/order_id .*pattern/);
    expect(owned.has('order_id')).toBe(false);
  });

  it('leaves ids alone that only one parameter can take', () => {
    expect(idsOwnedElsewhere(refundStatus, 'refund R-77 please').size).toBe(0);
    expect(
      idsOwnedElsewhere(
        parameterHints({ type: 'object', properties: { order_id: { type: 'string' } } }),
        'order 5521',
      ).size,
    ).toBe(0);
  });
});
