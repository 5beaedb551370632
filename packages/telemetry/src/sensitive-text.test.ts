import { describe, expect, it } from 'vitest';
import { findSensitive, maskSensitiveText, maskSensitiveValues } from './sensitive-text.js';

const kinds = (text: string) => findSensitive(text).map((s) => [s.kind, s.text]);

describe('findSensitive', () => {
  it('finds international phone numbers and e-mail addresses as written', () => {
    expect(kinds('Call me on +46 70 123 45 67 or mail ana.berg@example.se.')).toEqual([
      ['phone', '+46 70 123 45 67'],
      ['email', 'ana.berg@example.se'],
    ]);
  });

  it('finds Chinese mobile numbers with and without a cue, and a resident id card by its check digit', () => {
    expect(kinds('手机号 13812345678，身份证号 11010519491231002X')).toEqual([
      ['phone', '13812345678'],
      ['id_card', '11010519491231002X'],
    ]);
    expect(kinds('回电１３８１２３４５６７８')).toEqual([['phone', '１３８１２３４５６７８']]);
    // However the digits are grouped, with or without a cue word.
    for (const written of [
      '138 1234 5678',
      '138-1234-5678',
      '(138) 1234-5678',
      '138.1234.5678',
      '１３８－１２３４－５６７８',
    ])
      expect(kinds(`请回 ${written} 谢谢`)).toEqual([['phone', written]]);
    // One digit off: the check digit no longer holds, and it is no phone number either.
    expect(kinds('身份证号 110105194912310021')).toEqual([]);
  });

  it('finds a Luhn-valid card number in groups, not a failing one', () => {
    expect(kinds('card 4111 1111 1111 1111 please')).toEqual([['bank_card', '4111 1111 1111 1111']]);
    expect(kinds('card 4111 1111 1111 1112 please')).toEqual([]);
  });

  it('finds what the parameter injector extracts as a phone (a cue before bare digits, + numbers)', () => {
    expect(kinds('phone 5550100123')).toEqual([['phone', '5550100123']]);
    expect(kinds('reach me at +1 555 0100')).toEqual([['phone', '+1 555 0100']]);
    // A person's own number, or "text / contact me at", says the bare digits after it are a phone; an order's not.
    expect(kinds('my number is 5550100123')).toEqual([['phone', '5550100123']]);
    expect(kinds('text me at 5550100123')).toEqual([['phone', '5550100123']]);
    expect(kinds('my order number is 5550100123')).toEqual([]);
  });

  it('leaves dates, amounts, ids and hashes alone', () => {
    for (const text of [
      'book 2026-12-02 for 299.00 EUR',
      'order ORD20240115 and SKU 100045 on 2024-01-15',
      'order 20241127-8841 arrived',
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'task 0b6c2f7e-1387-4c11-9a3e-138123456780',
      '2026-12-02T15:03:25.123Z',
    ])
      expect(kinds(text)).toEqual([]);
  });
});

describe('maskSensitiveText', () => {
  it('reads a timestamp as a time, but not a text that starts with one', () => {
    expect(kinds('2026-12-02T15:03:25+08:00')).toEqual([]);
    expect(kinds('2026-12-02T15:03:25Z call +46 70 123 45 67')).toEqual([['phone', '+46 70 123 45 67']]);
  });

  it('masks a text seen before the same way', () => {
    const text = 'ring 13812345678 or 13912345678';
    expect(maskSensitiveText(text)).toBe('ring [phone#1] or [phone#2]');
    expect(maskSensitiveText(text)).toBe('ring [phone#1] or [phone#2]');
  });

  it('names the kind and numbers distinct values, the same value the same way', () => {
    expect(maskSensitiveText('Call +46 70 123 45 67, not +46 70 765 43 21; again +46 70 123 45 67')).toBe(
      'Call [phone#1], not [phone#2]; again [phone#1]',
    );
    expect(maskSensitiveText('nothing here')).toBe('nothing here');
  });

  it('masks every string of a JSON value, keys untouched', () => {
    expect(maskSensitiveValues({ text: 'mail a@b.io', list: ['13812345678', 3], a: null })).toEqual({
      text: 'mail [email#1]',
      list: ['[phone#1]', 3],
      a: null,
    });
  });
});
