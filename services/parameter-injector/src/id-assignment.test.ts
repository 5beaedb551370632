import { parameterHints } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { assignIds } from './id-assignment.js';

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

describe('assignIds', () => {
  it('gives an id the record the words before it name, in English and Chinese', () => {
    expect(assignIds(track, 'where is order 5521?').refused.get('tracking_number')?.has('5521')).toBe(true);
    expect(assignIds(track, 'where is order 5521?').refused.has('order_id')).toBe(false);
    expect(assignIds(track, '运单号：SF88231 到哪了').refused.get('order_id')?.has('SF88231')).toBe(true);
    expect(assignIds(track, '订单 5521 到哪了').refused.get('tracking_number')?.has('5521')).toBe(true);
  });

  it('gives an unnamed id to the parameter whose pattern it matches', () => {
    const owned = assignIds(refundStatus, '4410的退款到了没').refused;
    expect(owned.get('refund_id')?.get('4410')).toMatch(/order_id .*pattern/);
    expect(owned.has('order_id')).toBe(false);
  });

  it('leaves ids alone that only one parameter can take', () => {
    expect(assignIds(refundStatus, 'refund R-77 please').refused.size).toBe(0);
    expect(
      assignIds(
        parameterHints({ type: 'object', properties: { order_id: { type: 'string' } } }),
        'order 5521',
      ).refused.size,
    ).toBe(0);
  });

  it('leaves a parameter the one id the others do not own', () => {
    const invoice = parameterHints({
      type: 'object',
      properties: { order_id: { type: 'string', pattern: '^[0-9]{4,20}$' }, tax_id: { type: 'string' } },
    });
    const got = assignIds(invoice, 'Company invoice for order 5678, tax ID 91310115MA1K4B9W3T');
    expect(got.owned.get('tax_id')?.value).toBe('91310115MA1K4B9W3T');
    expect(got.refused.get('tax_id')?.has('5678')).toBe(true);
  });

  it('among several ids, gives a parameter the one the request ties to the tool’s own record', () => {
    const words = ['refund', 'status', 'query'];
    const en = assignIds(
      refundStatus,
      'is my parcel 3120 on its way, and did the refund for order 4410 go through?',
      words,
    );
    expect(en.owned.get('order_id')?.value).toBe('4410');
    expect(
      assignIds(refundStatus, "4410's refund — and where is 3120?", words).owned.get('order_id')?.value,
    ).toBe('4410');
    expect(
      assignIds(refundStatus, '3120到哪了？另外4410的退款批了吗', words).owned.get('order_id')?.value,
    ).toBe('4410');
    const cancel = parameterHints({ type: 'object', properties: { booking_id: { type: 'string' } } });
    expect(
      assignIds(cancel, 'cancel the booking on B-5512, not B-5513', ['cancel', 'booking']).owned.get(
        'booking_id',
      )?.value,
    ).toBe('B-5512');
    // no tie, no choice
    expect(assignIds(refundStatus, 'orders 3120 and 4410', words).owned.has('order_id')).toBe(false);
  });
});
