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
});
