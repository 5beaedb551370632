import { describe, expect, it } from 'vitest';
import { tokens } from './text.js';

describe('tokens', () => {
  it('drops stop words and stems English; splits Chinese into its words', () => {
    expect(tokens('Refunds for the delivered parcels')).toEqual(['refund', 'deliver', 'parcel']);
    expect(tokens('帮我查一下物流')).toContain('物流');
  });

  it('a noun made of a phrasal verb also stands for its verb, so "pick it up" meets "pickup"', () => {
    expect(tokens('optional pickup')).toEqual(['optional', 'pickup', 'pick']);
    expect(tokens('can you pick it up')).toEqual(['pick']);
    expect(tokens('checkout')).toEqual(['checkout', 'check']);
    // Too short a stem, or a stop word before the particle, is no verb.
    expect(tokens('about without')).toEqual(['without']);
  });

  it('"e-mail", "e mail" and "email" are one word', () => {
    expect(tokens('E-mail address')).toEqual(tokens('email address'));
    expect(tokens('her e mail')).toEqual(['email']);
  });

  it('keeps both readings where two Chinese words share a character (开发票: 开发|票 and 发票)', () => {
    expect(tokens('我要开发票')).toEqual(expect.arrayContaining(['开发', '发票']));
    // Where the words do not overlap nothing is added.
    expect(tokens('把会议纪要整理成周报')).toEqual(['会议', '纪要', '整理', '成', '周报']);
  });
});
