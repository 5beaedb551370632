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
  it('reads a format from an example date, the order in words, or a wall-clock date and time', () => {
    const described = (description: string, name?: string) =>
      dateFormatOf({ type: 'string', description }, name);
    expect(described('The date of the flight. Accepts standard date format e.g., 2022-04-28.')).toBe(
      'YYYY-MM-DD',
    );
    expect(described('The date (month-day-year) you want the index for.')).toBe('MM-DD-YYYY');
    expect(described("The start of the period, in the format 'YYYY-MM-DD HH:mm:ss'")).toBe(
      'YYYY-MM-DD HH:MM:SS',
    );
    expect(described("Start of the timespan, in the format 'YYYY-MM-DDTHH:MM:SSZ'")).toBe('date-time');
  });
  it('writes a parameter named as a date in ISO 8601 when its description names no format', () => {
    expect(
      dateFormatOf({ type: 'string', description: 'The date when your stay begins.' }, 'start_date'),
    ).toBe('YYYY-MM-DD');
    expect(dateFormatOf({ type: 'string', description: 'The date when your stay begins.' })).toBeUndefined();
    // Another value than a calendar date: a month, words, a time.
    expect(
      dateFormatOf({ type: 'string', description: "Date in 'mm-yyyy' format." }, 'date'),
    ).toBeUndefined();
    expect(
      dateFormatOf({ type: 'string', description: 'Date of the concert, e.g. this weekend, today.' }, 'date'),
    ).toBeUndefined();
    expect(
      dateFormatOf({ type: 'string', description: 'The name of the hotel.' }, 'hotel_name'),
    ).toBeUndefined();
  });
  it('a wall-clock format writes the time read, midnight when none was', () => {
    expect(formatDate({ year: 2024, month: 3, day: 19 }, 'YYYY-MM-DD HH:MM:SS', 'UTC')).toBe(
      '2024-03-19 00:00:00',
    );
    expect(
      formatDate(
        { year: 2024, month: 3, day: 19, time: { hour: 13, minute: 5, second: 0 } },
        'YYYY-MM-DD HH:MM',
        'UTC',
      ),
    ).toBe('2024-03-19 13:05');
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

describe('dates written in Chinese, read in the task time zone (issue 20)', () => {
  // The demo's reference: Monday 2026-11-30 09:00 UTC, 17:00 in Shanghai.
  const shanghai = { referenceTime: '2026-11-30T09:00:00Z', timeZone: 'Asia/Shanghai' };
  const day = (text: string, ctx = shanghai) => iso(text, ctx);
  it('relative day words', () => {
    expect(day('昨天的会议纪要')).toEqual(['2026-11-29']);
    expect(day('前天')).toEqual(['2026-11-28']);
    expect(day('今天')).toEqual(['2026-11-30']);
    expect(day('明天北京天气')).toEqual(['2026-12-01']);
    expect(day('后天')).toEqual(['2026-12-02']);
    expect(day('大后天')).toEqual(['2026-12-03']);
    expect(day('後天')).toEqual(['2026-12-02']);
    // The spoken forms: 明儿 ("tomorrow"), 今儿个, 昨儿.
    expect(day('明儿杭州天气咋样')).toEqual(['2026-12-01']);
    expect(day('今儿个')).toEqual(['2026-11-30']);
    expect(day('昨儿的会')).toEqual(['2026-11-29']);
  });
  it('a range whose end is a weekday alone ends in the week the start names', () => {
    expect(day('上周一到周三开了哪几个会')).toEqual(['2026-11-23', '2026-11-25']);
    expect(day('上周五到这周三')).toEqual(['2026-11-27', '2026-12-02']);
    expect(day('周一到周五')).toEqual(['2026-12-07', '2026-12-11']);
  });
  it('a range whose start a weekday rule reads keeps the end chrono reads (today, now, a date)', () => {
    expect(day('上周三到今天的纪要')).toEqual(['2026-11-25', '2026-11-30']);
    expect(day('上周四至今天有哪些会')).toEqual(['2026-11-26', '2026-11-30']);
    expect(day('notes from last Tuesday until today')).toEqual(['2026-11-24', '2026-11-30']);
    expect(day('everything from last Thursday through today, please')).toEqual(['2026-11-26', '2026-11-30']);
  });
  it('two weeks back or ahead: 上上周 / 下下周, "the week before last" / "the week after next"', () => {
    expect(day('上上周的周报')).toEqual(['2026-11-16', '2026-11-22']);
    expect(day('下下周有空吗')).toEqual(['2026-12-14', '2026-12-20']);
    expect(day('what happened the week before last?')).toEqual(['2026-11-16', '2026-11-22']);
    expect(day('plan it for the week after next')).toEqual(['2026-12-14', '2026-12-20']);
  });
  it('weekdays of a named week (weeks start on Monday) and a weekday alone (the first one after today)', () => {
    expect(day('上周五的纪要')).toEqual(['2026-11-27']);
    expect(day('下周一')).toEqual(['2026-12-07']);
    expect(day('这周三')).toEqual(['2026-12-02']);
    expect(day('本周三')).toEqual(['2026-12-02']);
    expect(day('本周日')).toEqual(['2026-12-06']);
    expect(day('下下周一')).toEqual(['2026-12-14']);
    expect(day('上个星期五')).toEqual(['2026-11-27']);
    expect(day('周一开会')).toEqual(['2026-12-07']);
    // On a Saturday, 这周三 is three days back and 上周五 eight days back — the week is named, not "the last one".
    const saturday = { referenceTime: '2026-12-05T04:00:00Z', timeZone: 'Asia/Shanghai' };
    expect(day('这周三', saturday)).toEqual(['2026-12-02']);
    expect(day('上周五', saturday)).toEqual(['2026-11-27']);
    expect(day('last Friday', saturday)).toEqual(['2026-12-04']);
    // 上周一共 is "last week in all": no Monday in it.
    expect(day('上周一共卖了多少')).toEqual([]);
    // After a week to come, 再 is "then": 下周一再安排 is Monday; 上周一再推迟 ("put off again and again") is none.
    expect(day('下周一再安排师傅来取件吧')).toEqual(['2026-12-07']);
    expect(day('上周一再推迟')).toEqual([]);
  });
  it('reads the day after tomorrow, misspelt tomorrows, and "now" only when no other date is named', () => {
    expect(day('weather the day after tomorrow, in celsius')).toEqual(['2026-12-02']);
    expect(day('the day before yesterday')).toEqual(['2026-11-28']);
    expect(day('will I need a jacket tomorow?')).toEqual(['2026-12-01']);
    expect(day('明天下雨吗？上次报修到现在都没人理')).toEqual(['2026-12-01']);
    expect(day('what is it like now')).toEqual(['2026-11-30']);
  });
  it('a whole week is its Monday and its Sunday; a weekday of it stays one day', () => {
    expect(day('上周的会')).toEqual(['2026-11-23', '2026-11-29']);
    expect(day('本周')).toEqual(['2026-11-30', '2026-12-06']);
    expect(day('list every meeting we had last week')).toEqual(['2026-11-23', '2026-11-29']);
    expect(day('next week')).toEqual(['2026-12-07', '2026-12-13']);
    expect(day('上周五')).toEqual(['2026-11-27']);
    expect(day('Friday next week')).toEqual(['2026-12-11']);
    // Reference Monday 2026-11-30: a weekday of last week is of the week before, not the next such day.
    expect(day('Was anything decided on Wednesday last week?')).toEqual(['2026-11-25']);
    expect(day('last week on Friday')).toEqual(['2026-11-27']);
    expect(day('Thursday this week')).toEqual(['2026-12-03']);
  });
  it('month and day, with or without the year, and a day of the month alone', () => {
    expect(day('2026年11月3日')).toEqual(['2026-11-03']);
    expect(day('去年11月3日')).toEqual(['2025-11-03']);
    expect(day('明年1月5号')).toEqual(['2027-01-05']);
    // Without a year, the nearest such day (asked on 30 November 2026): 3 November is 27 days back, not 338 ahead;
    // 25 December and 5 March are ahead.
    expect(day('11月3日')).toEqual(['2026-11-03']);
    expect(day('Nov 3')).toEqual(['2026-11-03']);
    expect(day('March 5')).toEqual(['2027-03-05']);
    expect(day('十二月二十五日')).toEqual(['2026-12-25']);
    expect(day('3号')).toEqual(['2026-12-03']);
    expect(day('30号')).toEqual(['2026-11-30']);
    expect(day('31号')).toEqual(['2026-12-31']);
    expect(day('下个月3号')).toEqual(['2026-12-03']);
    expect(day('上个月31号')).toEqual(['2026-10-31']);
    // A month with no day 31, and a month alone: no date is made up.
    expect(day('这个月31号')).toEqual([]);
    expect(day('明年3月')).toEqual([]);
    // 3号楼 is building number 3, 5号线 metro line 5.
    expect(day('3号楼')).toEqual([]);
    expect(day('坐5号线')).toEqual([]);
  });
  it('counts of days, weeks, months and years from the reference day', () => {
    expect(day('三天前')).toEqual(['2026-11-27']);
    expect(day('3天后')).toEqual(['2026-12-03']);
    expect(day('两周后')).toEqual(['2026-12-14']);
    expect(day('三个月后')).toEqual(['2027-02-28']);
    expect(day('5天内')).toEqual(['2026-12-05']);
    // 11月3日前 is "before 3 November", not three days ago.
    expect(day('2026年11月3日前')).toEqual(['2026-11-03']);
  });
  it('English counterparts at the demo reference', () => {
    expect(day('last Friday')).toEqual(['2026-11-27']);
    expect(day('next Monday')).toEqual(['2026-12-07']);
    expect(day('yesterday')).toEqual(['2026-11-29']);
  });
  it('the reference day is the one in the task zone: 01:00 UTC is already tomorrow in Shanghai', () => {
    const late = { referenceTime: '2026-11-30T17:00:00Z', timeZone: 'Asia/Shanghai' };
    expect(day('明天', late)).toEqual(['2026-12-02']);
    expect(day('明天', { ...late, timeZone: 'UTC' })).toEqual(['2026-12-01']);
  });
});

describe('daylight-saving changes', () => {
  const at = (text: string, ctx: { referenceTime: string; timeZone: string }) =>
    findDates(text, ctx).map((m) =>
      formatDate(m.date, m.date.time ? 'date-time' : 'YYYY-MM-DD', ctx.timeZone),
    );
  // Saturday 2026-03-07 23:30 in New York (EST, UTC-5); clocks go forward to EDT at 02:00 on Sunday.
  const newYork = { referenceTime: '2026-03-08T04:30:00Z', timeZone: 'America/New_York' };
  // Saturday 2026-03-28 23:30 in Berlin (CET, UTC+1); clocks go forward to CEST at 02:00 on Sunday.
  const berlin = { referenceTime: '2026-03-28T22:30:00Z', timeZone: 'Europe/Berlin' };
  it('"tomorrow" / "明天" the evening before is the next calendar day, not 24 hours on', () => {
    expect(at('tomorrow', newYork)).toEqual(['2026-03-08']);
    expect(at('明天', newYork)).toEqual(['2026-03-08']);
    expect(at('tomorrow', berlin)).toEqual(['2026-03-29']);
    expect(at('明天', berlin)).toEqual(['2026-03-29']);
  });
  it('a time tomorrow carries the summer-time offset in force then', () => {
    expect(at('tomorrow at 5am', newYork)).toEqual(['2026-03-08T05:00:00-04:00']);
    expect(at('明天早上5点', newYork)).toEqual(['2026-03-08T05:00:00-04:00']);
    expect(at('明天上午9点', berlin)).toEqual(['2026-03-29T09:00:00+02:00']);
  });
  it('hours from now are elapsed time: three hours after 23:30 is 03:30 summer time (the clock skipped 02:00–03:00)', () => {
    expect(at('in 3 hours', newYork)).toEqual(['2026-03-08T03:30:00-04:00']);
    expect(at('3小时后', newYork)).toEqual(['2026-03-08T03:30:00-04:00']);
    expect(at('3小时后', berlin)).toEqual(['2026-03-29T03:30:00+02:00']);
  });
  it('in autumn, "tomorrow" in the last hour before the change is still the next day', () => {
    // Saturday 2026-10-31 23:30 in New York (EDT); clocks go back to EST at 02:00 on Sunday.
    const autumn = { referenceTime: '2026-11-01T03:30:00Z', timeZone: 'America/New_York' };
    expect(at('明天', autumn)).toEqual(['2026-11-01']);
    expect(at('tomorrow at 9am', autumn)).toEqual(['2026-11-01T09:00:00-05:00']);
  });
});

describe('a date context that cannot be read', () => {
  it('names the field that is wrong', () => {
    expect(() =>
      findDates('明天', { referenceTime: '2026-11-30T09:00:00Z', timeZone: 'Asia/Shangai' }),
    ).toThrow(/time_zone "Asia\/Shangai" is not an IANA time zone/);
    expect(() => findDates('tomorrow', { referenceTime: 'yesterday', timeZone: 'UTC' })).toThrow(
      /reference_time "yesterday" is not an ISO-8601 instant/,
    );
  });
});

describe('a date-time shown by an example instant', () => {
  it("'such as 2023-04-15T13:45:00Z' is ISO 8601's date and time", () => {
    expect(
      dateFormatOf({
        type: 'string',
        description: "The new date and time in ISO-8601 format, such as '2023-04-15T13:45:00Z'.",
      }),
    ).toBe('date-time');
    expect(dateFormatOf({ type: 'string', description: 'The day, e.g. 2023-04-15.' })).toBe('YYYY-MM-DD');
  });
});

describe('a local date-time whose zone is given apart (issue 19)', () => {
  it('is written without an offset when the description says none is included', () => {
    const schema = {
      type: 'string',
      description:
        "When, in ISO-8601 format (e.g., 'YYYY-MM-DDTHH:MM:SS'). Does not include a timezone offset.",
    };
    expect(dateFormatOf(schema)).toBe('YYYY-MM-DDTHH:MM:SS');
    expect(
      formatDate(
        { year: 2025, month: 3, day: 9, time: { hour: 19, minute: 5, second: 0 } },
        'YYYY-MM-DDTHH:MM:SS',
        'Asia/Tokyo',
      ),
    ).toBe('2025-03-09T19:05:00');
    expect(
      dateFormatOf({ type: 'string', description: "An ISO instant such as '2025-03-09T19:05:00Z'." }),
    ).toBe('date-time');
  });
});

describe('a calendar format with a time of day (issue 19)', () => {
  it("'dd/mm/yyyy HH:MM' writes the date and the wall-clock time", () => {
    const schema = { type: 'string', description: "Departure in the format of 'dd/mm/yyyy HH:MM'." };
    expect(dateFormatOf(schema)).toBe('DD/MM/YYYY HH:MM');
    expect(
      formatDate(
        { year: 2026, month: 7, day: 4, time: { hour: 8, minute: 30, second: 0 } },
        'DD/MM/YYYY HH:MM',
        'UTC',
      ),
    ).toBe('04/07/2026 08:30');
  });
});

describe('dates a parameter declares past or future (date_direction)', () => {
  // Wednesday 2025-04-16 in Berlin.
  const wednesday = { referenceTime: '2025-04-16T08:00:00Z', timeZone: 'Europe/Berlin' };
  const directed = (text: string, direction: 'past' | 'future') =>
    findDates(text, wednesday, { direction }).map((m) => formatDate(m.date, 'YYYY-MM-DD', 'Europe/Berlin'));
  it('a day of the month alone is the most recent one for records, the next one otherwise', () => {
    expect(directed('把20号的会议记录找出来', 'past')).toEqual(['2025-03-20']);
    expect(directed('把20号的会议记录找出来', 'future')).toEqual(['2025-04-20']);
    expect(iso('把20号的会议记录找出来', wednesday)).toEqual(['2025-04-20']);
    // Today is on both sides; a day the month before lacks is looked for a month further.
    expect(directed('16号', 'past')).toEqual(['2025-04-16']);
    expect(directed('31号', 'past')).toEqual(['2025-03-31']);
    // In English an ordinal after a preposition ("on the 20th"), which chrono leaves unread; "the 3rd floor" is no day.
    expect(directed('what got agreed on the 20th?', 'past')).toEqual(['2025-03-20']);
    expect(directed('what got agreed on the 20th?', 'future')).toEqual(['2025-04-20']);
    expect(iso('anything since the 2nd, please', wednesday)).toEqual(['2025-05-02']);
    expect(iso('the printer on the 3rd floor is jammed', wednesday)).toEqual([]);
    // A preposition opening the next phrase ends the day too, and "through / to the 18th" closes a range.
    expect(directed('summarise the notes from the 11th into a one-pager', 'past')).toEqual(['2025-04-11']);
    expect(directed('every log from the 7th through the 9th', 'past')).toEqual(['2025-04-07', '2025-04-09']);
    expect(iso('move the printer to the 3rd floor', wednesday)).toEqual([]);
  });
  it('a month name before a count is a date, not a span ("the Apr 11 minutes")', () => {
    expect(directed('send me the Apr 11 minutes', 'past')).toEqual(['2025-04-11']);
    expect(directed('summarise the March 3 minutes', 'past')).toEqual(['2025-03-03']);
    expect(iso('the call lasted 40 minutes', wednesday)).toEqual([]);
  });
  it('a weekday alone is the last one for records; a written week or a full date stays as written', () => {
    expect(directed('周五的会议记录', 'past')).toEqual(['2025-04-11']);
    expect(directed('the minutes from Friday', 'past')).toEqual(['2025-04-11']);
    expect(directed('下周五的会议记录', 'past')).toEqual(['2025-04-25']);
    expect(directed('minutes of 2025-05-02', 'past')).toEqual(['2025-05-02']);
  });
  it('a full date on the other side, beside one on the declared side, is about something else', () => {
    expect(directed('周一例会的纪要发我，顺便看看明天会不会下雨', 'past')).toEqual(['2025-04-14']);
    expect(directed('book the room for Friday, I checked the notes from yesterday', 'future')).toEqual([
      '2025-04-18',
    ]);
    // (alone it is still the date asked about)
    expect(directed('明天的会议纪要', 'past')).toEqual(['2025-04-17']);
  });
  it('a month and day without a year is the last such day for records, the next one for bookings', () => {
    expect(directed('5月2日的纪要', 'past')).toEqual(['2024-05-02']);
    expect(directed('April 10', 'future')).toEqual(['2026-04-10']);
    expect(directed('April 10', 'past')).toEqual(['2025-04-10']);
  });
});
