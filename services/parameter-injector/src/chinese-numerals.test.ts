import { describe, expect, it } from 'vitest';
import { chineseNumerals, parseChineseNumeral } from './chinese-numerals.js';

describe('Chinese numerals', () => {
  it('reads digits, units and group units, zeros for skipped units, and the financial forms', () => {
    const cases: [string, number][] = [
      ['两千三百四十', 2340],
      ['一百零五', 105],
      ['十七', 17],
      ['三千零五十', 3050],
      ['二十五万三千', 253000],
      ['一亿零五百万', 105_000_000],
      ['三百零五万零六百', 3_050_600],
      ['壹佰贰拾叁', 123],
      ['兩千', 2000],
      ['廿', 20],
      ['零', 0],
    ];
    for (const [text, value] of cases) expect(parseChineseNumeral(text), text).toBe(value);
  });
  it('reads the everyday shortening: a last digit after a unit takes the unit below', () => {
    expect(parseChineseNumeral('一万二')).toBe(12000);
    expect(parseChineseNumeral('两万五')).toBe(25000);
    expect(parseChineseNumeral('三千五')).toBe(3500);
    expect(parseChineseNumeral('一百一')).toBe(110);
    // …but not after a zero: 一万零二 is 10 002.
    expect(parseChineseNumeral('一万零二')).toBe(10002);
  });
  it('reads Arabic digits with Chinese units, and decimals with 点', () => {
    expect(parseChineseNumeral('3万')).toBe(30000);
    expect(parseChineseNumeral('1.5万')).toBe(15000);
    expect(parseChineseNumeral('4.52万')).toBe(45200);
    expect(parseChineseNumeral('3万5千')).toBe(35000);
    expect(parseChineseNumeral('三点五')).toBe(3.5);
    expect(parseChineseNumeral('三点五万')).toBe(35000);
    expect(parseChineseNumeral('一千二百三十四点五六')).toBe(1234.56);
  });
  it('reads a run of three or more bare digits digit by digit (years, room numbers)', () => {
    expect(parseChineseNumeral('二〇二六')).toBe(2026);
    expect(parseChineseNumeral('三〇五')).toBe(305);
  });
  it('is no number for estimates, words made of numeral characters and malformed runs', () => {
    for (const text of ['三四', '千万', '万一', '百', '三点五十', '一百千', '一点'])
      expect(parseChineseNumeral(text), text).toBeUndefined();
  });
});

describe('Chinese numerals in text', () => {
  const found = (text: string) => chineseNumerals(text).map((n) => [n.text, n.value, n.percent]);
  it('finds numerals and percentages with where they stand', () => {
    expect(found('退我两百块，打百分之十七的折')).toEqual([
      ['两百', 200, false],
      ['百分之十七', 17, true],
    ]);
    expect(found('千分之五的手续费')).toEqual([['千分之五', 0.5, true]]);
    expect(chineseNumerals('三分之一')[0]?.value).toBeCloseTo(1 / 3, 9);
  });
  it('leaves estimates out and keeps a minus', () => {
    expect(found('两百多块')).toEqual([]);
    expect(found('几十个人')).toEqual([]);
    expect(found('二十几岁')).toEqual([]);
    expect(found('零下五度').at(-1)).toEqual(['五', -5, false]);
  });
  it('ends a numeral before a unit that starts with a numeral character (千米, 千克)', () => {
    expect(chineseNumerals('跑了三千米', ['千米'])).toMatchObject([{ text: '三', value: 3 }]);
  });
});
