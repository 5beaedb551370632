import { describe, expect, it } from 'vitest';
import { commensurable, conversion, parseUnit } from './units.js';

describe('units', () => {
  it('reads data, time, rates and counts', () => {
    expect(parseUnit('GB/s')).toEqual({ kind: 'data', factor: 1e9, perSeconds: 1 });
    expect(parseUnit('ms')).toEqual({ kind: 'time', factor: 1e-3 });
    expect(parseUnit('transactions per second')).toEqual({
      kind: 'count:transactions',
      factor: 1,
      perSeconds: 1,
    });
    expect(parseUnit('TBW')).toEqual({ kind: 'data', factor: 1e12 });
    expect(parseUnit('minutes per run')).toEqual({ kind: 'count:minutes per run', factor: 1 });
  });

  it('converts within a kind; a rate and an amount are not commensurable', () => {
    const [gbs, mbs, tb] = [parseUnit('GB/s')!, parseUnit('MB/s')!, parseUnit('TB')!];
    expect(conversion(gbs, mbs)).toBe(1000);
    expect(commensurable(gbs, mbs)).toBe(true);
    expect(commensurable(gbs, tb)).toBe(false);
    expect(conversion(parseUnit('transactions per second')!, parseUnit('transactions per hour')!)).toBe(3600);
  });
});
