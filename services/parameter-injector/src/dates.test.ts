import { describe, expect, it } from 'vitest';
import { dateFormatOf, findDates, formatDate, parseDateString, referenceDay } from './dates.js';

// Monday 2024-11-04, 09:00 UTC (the FACTS.md example).
const monday = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
const iso = (text: string, ctx = monday) =>
  findDates(text, ctx).map((m) => formatDate(m.date, 'YYYY-MM-DD', ctx.timeZone));

describe('the "next Friday" policy', () => {
  it('reads "next Friday" said on Monday 2024-11-04 as the coming Friday 2024-11-08 (chrono alone says 2024-11-15)', () => {
    expect(iso('book it for next Friday')).toEqual(['2024-11-08']);
    expect(findDates('next Friday', monday)[0]?.rule).toContain('first friday after the reference day');
  });
  it('reads "this Friday", "coming Friday" and "Friday" the same way', () => {
    expect(iso('this Friday')).toEqual(['2024-11-08']);
    expect(iso('coming fri')).toEqual(['2024-11-08']);
    expect(iso('on Friday')).toEqual(['2024-11-08']);
  });
  it('said on a Friday, "next Friday" is a week later, never today', () => {
    expect(iso('next Friday', { referenceTime: '2024-11-08T10:00:00Z', timeZone: 'UTC' })).toEqual([
      '2024-11-15',
    ]);
  });
  it('"Friday next week" and Chinese 下周五 are the Friday of the next calendar week', () => {
    expect(iso('Friday next week')).toEqual(['2024-11-15']);
    expect(iso('next week Friday')).toEqual(['2024-11-15']);
    expect(iso('下周五开会')).toEqual(['2024-11-15']);
  });
  it('"last Friday" is the Friday before the reference day', () => {
    expect(iso('minutes from last Friday')).toEqual(['2024-11-01']);
  });
});

describe('relative dates use the reference time in the user time zone', () => {
  it('"tomorrow" at 20:00 UTC is two days on in Shanghai (already the next day there)', () => {
    const late = { referenceTime: '2024-11-04T20:00:00Z', timeZone: 'Asia/Shanghai' };
    expect(referenceDay(late)).toMatchObject({ year: 2024, month: 11, day: 5 });
    expect(iso('tomorrow', late)).toEqual(['2024-11-06']);
    expect(iso('tomorrow')).toEqual(['2024-11-05']);
    expect(iso('明天北京天气', late)).toEqual(['2024-11-06']);
  });
  it('writes date-times with the zone offset', () => {
    expect(
      formatDate(
        { year: 2024, month: 11, day: 8, time: { hour: 15, minute: 0, second: 0 } },
        'date-time',
        'Asia/Shanghai',
      ),
    ).toBe('2024-11-08T15:00:00+08:00');
  });
});

describe('date strings and formats', () => {
  it('parses the common notations', () => {
    for (const text of [
      '2022-04-28',
      '2022/04/28',
      '04/28/2022',
      '28/04/2022',
      '28.04.2022',
      'April 28, 2022',
      '28 Apr 2022',
    ]) {
      expect(parseDateString(text, monday), text).toMatchObject({ year: 2022, month: 4, day: 28 });
    }
    expect(parseDateString('05/04/2022', monday)).toMatchObject({ month: 5, day: 4 });
    expect(parseDateString('2022-02-30', monday)).toBeUndefined();
    expect(parseDateString('hello', monday)).toBeUndefined();
    expect(parseDateString('12345', monday)).toBeUndefined();
  });
  it('finds the target format in format, normalizers or the description', () => {
    expect(dateFormatOf({ type: 'string', format: 'date' })).toBe('YYYY-MM-DD');
    expect(dateFormatOf({ type: 'string', normalizers: ['iso_datetime'] })).toBe('date-time');
    expect(
      dateFormatOf({ type: 'string', description: 'The starting date of the stay in format MM-DD-YYYY.' }),
    ).toBe('MM-DD-YYYY');
    expect(dateFormatOf({ type: 'string', description: 'Date in yyyy-mm-dd format.' })).toBe('YYYY-MM-DD');
    expect(dateFormatOf({ type: 'string', description: 'A city name' })).toBeUndefined();
  });
});

describe('dates written in a request', () => {
  it('"at 7%" is a rate, not seven o\'clock', () => {
    expect(findDates('Lend 2000 euros at 7% a year', monday)).toEqual([]);
    expect(findDates('a bond at 3 percent', monday)).toEqual([]);
  });
  it('a range gives its start and its end', () => {
    expect(iso('from August 3, 2021 to August 9, 2021')).toEqual(['2021-08-03', '2021-08-09']);
  });
  it('a year written before a date without one is its year ("2021 May 2nd to May 6th")', () => {
    expect(iso('stay 2021 May 2nd to May 6th')).toEqual(['2021-05-02', '2021-05-06']);
  });
  it('a full stop between a month and its day is a separator ("Sept.14, 2020")', () => {
    expect(iso('the price on Sept.14, 2020')).toEqual(['2020-09-14']);
    expect(findDates('the price on Sept.14, 2020', monday)[0]?.text).toBe('Sept.14, 2020');
  });
  it('the day the request says today is sets the reference of its relative dates', () => {
    expect([...new Set(iso('the coming Friday; today is Tuesday June 8th 2021'))]).toEqual([
      '2021-06-11',
      '2021-06-08',
    ]);
  });
});
