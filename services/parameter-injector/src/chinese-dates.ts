// Chinese date expressions (PI-2) that chrono-node's zh parsers leave out or read against the policy: weekdays of a
// named week (这周三, 上周五, 下下周一), counts of days, weeks, months, years and hours from now (三天前, 两周后,
// 半小时后), a day of the month alone (3号, 下个月3号) and a month and day of a named year (去年11月3日). What chrono
// reads well (昨天, 前天, 明天, 后天, 11月3日, 2026年11月3日, 明天上午9点) is left to it.
//
// The policy, stated once (see also NEXT_WEEKDAY_POLICY in dates.ts):
// - 周X / 星期X / 礼拜X with no week named: the first such weekday after the reference day (as English "Friday").
// - 这周X / 本周X / 这个星期X: that weekday of the current week; 下周X: of the next week, 下下周X: the one after;
//   上周X: of the previous week, 上上周X: the one before. Weeks start on Monday (GB/T 7408, ISO 8601), so 周日 is the
//   last day of its week.
// - N天后 / N天前 / N天内: N calendar days after / before the reference day (内 "within" is the last day of the span);
//   likewise 周 (weeks), 个月 (months), 年 (years). Hours, minutes and seconds are elapsed time from the reference
//   instant, so they stay exact across a daylight-saving change.
// - N号 / N日 alone: the next day N of a month, on or after the reference day (as chrono reads "Nov 3" forward) —
//   unless the parameter declares its dates past or future (`date_direction`, see dates.ts);
//   这个月 / 下个月 / 上个月 N号: day N of that month. A noun right after (3号楼, 5号线) numbers a thing, not a day.
import { NUMERAL_CHARS, parseChineseNumeral } from './chinese-numerals.js';
import {
  addCalendar,
  addDays,
  elapsedFromReference,
  isRealDate,
  type DateContext,
  type DateParts,
} from './calendar.js';

/** A date found by one of the Chinese rules. */
export interface ChineseDateMention {
  text: string;
  index: number;
  date: DateParts;
  rule: string;
  /** The calendar unit the text leaves unwritten (周五: its week; 27号: its month), see `DateMention.open`. */
  open?: 'week' | 'month';
}

/** Spans the rules read that are not dates (a month of a year with no day): no other reader may make a day of them. */
export interface ChineseDateReading {
  mentions: ChineseDateMention[];
  covered: [number, number][];
}

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const WEEKDAY_CHARS: Readonly<Record<string, number>> = {
  日: 0,
  天: 0,
  七: 0,
  '7': 0,
  一: 1,
  '1': 1,
  二: 2,
  '2': 2,
  三: 3,
  '3': 3,
  四: 4,
  '4': 4,
  五: 5,
  '5': 5,
  六: 6,
  '6': 6,
};
// Words that begin with 一 and so, after 周, are not Monday: 上周一共 ("last week in all"), 这周一直 ("all this week").
// Source: the 一-initial adverbs and quantifiers of the 现代汉语词典 (一共, 一直, 一起, 一样, 一些, 一下, 一定, 一般,
// 一切, 一向, 一再, 一律).
const YI_WORDS_AFTER = /^[共直起样樣些下定般切向再律]/u;

const WEEKDAY = /(上上|下下|上|下|这|這|本)?(?:个|個)?(周|週|星期|礼拜|禮拜)([一二三四五六日天七1-7])/gu;

const COUNT = String.raw`[\d${NUMERAL_CHARS.replace(/[点點]/gu, '')}]+`;
const RELATIVE = new RegExp(
  String.raw`(${COUNT})?(个|個)?(半)?(天|日|周|週|星期|礼拜|禮拜|月|年|小时|小時|钟头|鐘頭|分钟|分鐘|秒钟|秒鐘|秒)(以后|以後|之后|之後|后|後|以前|之前|前|以内|以內|之内|之內|内|內)`,
  'gu',
);
const MONTH_OF = String.raw`(这个月|這個月|本月|下个月|下個月|下月|上个月|上個月|上月)`;
const DAY_OF_MONTH = new RegExp(String.raw`${MONTH_OF}?(${COUNT})(号|號|日)`, 'gu');
const YEAR_MONTH_DAY = new RegExp(
  String.raw`(今年|明年|去年|前年|后年|後年)(${COUNT})月(?:份)?(?:(${COUNT})(?:号|號|日))?`,
  'gu',
);
const YEAR_OFFSETS: Readonly<Record<string, number>> = {
  今年: 0,
  明年: 1,
  去年: -1,
  前年: -2,
  后年: 2,
  後年: 2,
};
const MONTH_OFFSETS: Readonly<Record<string, number>> = {
  这个月: 0,
  這個月: 0,
  本月: 0,
  下个月: 1,
  下個月: 1,
  下月: 1,
  上个月: -1,
  上個月: -1,
  上月: -1,
};
// Nouns that N号 / N日 numbers (3号楼 "building 3", 5号线 "line 5", 三日游 "a three-day tour"), so that the N is no
// day of a month. Source: the 现代汉语词典 entry 号 (sense "a number marking order": 门牌号, 5号楼) and its usual
// compounds: buildings, floors, rooms, gates, exits, platforms, lines, vehicles, seats, beds, counters, sizes.
const NUMBERED_NOUN =
  /^[楼樓栋棟层層室房间間厅廳馆館院门門口窗台臺站线線路车車厢廂座位床桌柜櫃机機仓倉库庫店铺鋪码碼字球池游遊]/u;
const UNITS: Readonly<
  Record<
    string,
    { unit: 'days' | 'weeks' | 'months' | 'years' | 'hours' | 'minutes' | 'seconds'; ms?: number }
  >
> = {
  天: { unit: 'days' },
  日: { unit: 'days' },
  周: { unit: 'weeks' },
  週: { unit: 'weeks' },
  星期: { unit: 'weeks' },
  礼拜: { unit: 'weeks' },
  禮拜: { unit: 'weeks' },
  月: { unit: 'months' },
  年: { unit: 'years' },
  小时: { unit: 'hours', ms: 3_600_000 },
  小時: { unit: 'hours', ms: 3_600_000 },
  钟头: { unit: 'hours', ms: 3_600_000 },
  鐘頭: { unit: 'hours', ms: 3_600_000 },
  分钟: { unit: 'minutes', ms: 60_000 },
  分鐘: { unit: 'minutes', ms: 60_000 },
  秒钟: { unit: 'seconds', ms: 1000 },
  秒鐘: { unit: 'seconds', ms: 1000 },
  秒: { unit: 'seconds', ms: 1000 },
};

// The relative day words, as calendar days from the reference day. chrono reads them, and they may carry a time
// (明天上午9点); the day is set from here so that 明天 is the next calendar day at any hour, as "tomorrow" is (chrono's
// zh parser reads 明天 said before 02:00 as the day that has just begun).
const DAY_WORDS: readonly [RegExp, number][] = [
  [/^大[后後]天/u, 3],
  [/^大前天/u, -3],
  [/^(?:今天|今日|今早|今晚|今夜)/u, 0],
  [/^(?:明天|明日|明早|明晚)/u, 1],
  [/^[后後]天/u, 2],
  [/^(?:昨天|昨日|昨晚|昨夜)/u, -1],
  [/^前天/u, -2],
];
// The spoken (儿化) forms of the same words, which chrono does not know: 今儿, 明儿, 昨儿, 前儿, 后儿, also with 个 (明儿个).
// Source: the 现代汉语词典 entries 今儿, 明儿, 昨儿, 前儿, 后儿 (口语).
const SPOKEN_DAY_WORDS = /(今|明|昨|前|后|後)(?:儿|兒)(?:个|個)?/gu;
const SPOKEN_OFFSETS: Readonly<Record<string, number>> = { 今: 0, 明: 1, 昨: -1, 前: -2, 后: 2, 後: 2 };

/** Calendar days from the reference day that a phrase starting with a relative day word names (明天… → 1). */
export function dayWordOffset(text: string): number | undefined {
  return DAY_WORDS.find(([word]) => word.test(text))?.[1];
}

/** The reference day with its weekday (0 = Sunday). */
export type Today = DateParts & { weekday: number };

/** The given weekday of the week `weeks` weeks from the reference day's week (Monday-based). */
function weekdayOfWeek(today: Today, weeks: number, weekday: number): DateParts {
  const monday = addDays(today, -((today.weekday + 6) % 7));
  return addDays(monday, weeks * 7 + ((weekday + 6) % 7));
}

function resolveWeekday(modifier: string, weekday: number, today: Today): { date: DateParts; rule: string } {
  const name = WEEKDAY_NAMES[weekday] ?? '';
  const weeks: Readonly<Record<string, number>> = { 上上: -2, 上: -1, 这: 0, 這: 0, 本: 0, 下: 1, 下下: 2 };
  const offset = weeks[modifier];
  if (offset === undefined) {
    const ahead = (weekday - today.weekday + 7) % 7 || 7;
    return { date: addDays(today, ahead), rule: `${name} = the first ${name} after the reference day` };
  }
  const which: Readonly<Record<number, string>> = {
    [-2]: 'the week before last',
    [-1]: 'the previous week',
    0: 'the current week',
    1: 'the next week',
    2: 'the week after next',
  };
  return {
    date: weekdayOfWeek(today, offset, weekday),
    rule: `${name} of ${which[offset] ?? ''} (weeks start on Monday)`,
  };
}

function overlaps(taken: readonly [number, number][], a: number, b: number): boolean {
  return taken.some(([x, y]) => a < y && b > x);
}

/** The Chinese rules' dates in `text` (see the file comment), against the reference day and instant. */
export function findChineseDates(text: string, ctx: DateContext, today: Today): ChineseDateReading {
  const mentions: ChineseDateMention[] = [];
  const covered: [number, number][] = [];
  const take = (
    index: number,
    written: string,
    date: DateParts | undefined,
    rule: string,
    open?: 'week' | 'month',
  ) => {
    covered.push([index, index + written.length]);
    if (date) mentions.push({ text: written, index, date, rule, ...(open ? { open } : {}) });
  };

  for (const m of text.matchAll(SPOKEN_DAY_WORDS)) {
    const offset = SPOKEN_OFFSETS[m[1] ?? ''];
    if (offset === undefined) continue;
    take(
      m.index,
      m[0],
      addDays(today, offset),
      `"${m[0]}" = ${String(offset)} day(s) from the reference day`,
    );
  }

  for (const m of text.matchAll(YEAR_MONTH_DAY)) {
    const year = today.year + (YEAR_OFFSETS[m[1] ?? ''] ?? 0);
    const month = parseChineseNumeral(m[2] ?? '');
    const day = m[3] === undefined ? undefined : parseChineseNumeral(m[3]);
    // A month with no day ("明年3月") is no date: nothing is made up for the day.
    const date = month !== undefined && day !== undefined ? { year, month, day } : undefined;
    take(
      m.index,
      m[0],
      date && isRealDate(date) ? date : undefined,
      `"${m[0]}": ${m[1] ?? ''} = ${String(year)}`,
    );
  }

  for (const m of text.matchAll(RELATIVE)) {
    if (overlaps(covered, m.index, m.index + m[0].length)) continue;
    const [, countText, classifier, half, unitText = '', direction = ''] = m;
    const unit = UNITS[unitText];
    if (!unit || (countText === undefined && half === undefined)) continue;
    // 三月前 is "before March": a count of months is written with 个 (三个月前).
    if (unit.unit === 'months' && classifier === undefined) continue;
    // "11月3日前" is "before 3 November", not "three days ago"; a four-digit count before 年 is a calendar year.
    if (/[月年\d]$/u.test(text.slice(0, m.index))) continue;
    const whole = countText === undefined ? 0 : parseChineseNumeral(countText);
    if (whole === undefined) continue;
    if (unit.unit === 'years' && whole >= 1000) continue;
    const sign = /前/u.test(direction) ? -1 : 1;
    const within = /[内內]/u.test(direction);
    if (unit.ms !== undefined) {
      const amount = whole + (half ? 0.5 : 0);
      take(
        m.index,
        m[0],
        elapsedFromReference(ctx, sign * amount * unit.ms),
        `${String(amount)} ${unit.unit} ${sign > 0 ? 'after' : 'before'} the reference time (elapsed time)`,
      );
      continue;
    }
    // Half a day, week or month has no one calendar reading; half a year is six months.
    if (half && unit.unit !== 'years') continue;
    if (!Number.isInteger(whole)) continue;
    const date = half
      ? addCalendar(today, 'months', sign * (whole * 12 + 6))
      : addCalendar(today, unit.unit as 'days' | 'weeks' | 'months' | 'years', sign * whole);
    take(
      m.index,
      m[0],
      date,
      `${half ? `${String(whole)}.5` : String(whole)} ${unit.unit} ${sign > 0 ? 'after' : 'before'} the reference day${within ? ' (the last day of "within")' : ''}`,
    );
  }

  for (const m of text.matchAll(WEEKDAY)) {
    if (overlaps(covered, m.index, m.index + m[0].length)) continue;
    const end = m.index + m[0].length;
    // After a week still to come, 再 is "then, not before" (下周一再安排, 下周一再说: Monday), never 一再 "again and
    // again", which tells of what has happened.
    const future = m[1] === '下' || m[1] === '下下';
    if (m[3] === '一' && YI_WORDS_AFTER.test(text.slice(end)) && !(future && text[end] === '再')) {
      take(m.index, m[0], undefined, '');
      continue;
    }
    const weekday = WEEKDAY_CHARS[m[3] ?? ''];
    if (weekday === undefined) continue;
    const { date, rule } = resolveWeekday(m[1] ?? '', weekday, today);
    take(m.index, m[0], date, rule, m[1] ? undefined : 'week');
  }

  for (const m of text.matchAll(DAY_OF_MONTH)) {
    if (overlaps(covered, m.index, m.index + m[0].length)) continue;
    const modifier = m[1];
    const start = modifier === undefined ? m.index : m.index + modifier.length;
    const before = text.slice(0, start);
    // "11月3日" (chrono reads it), "2026年11月3号", and digits of a longer number are not a day of the month alone.
    if (modifier === undefined && /[月\d]$/u.test(before)) continue;
    if (NUMBERED_NOUN.test(text.slice(m.index + m[0].length))) continue;
    const day = parseChineseNumeral(m[2] ?? '');
    if (day === undefined || !Number.isInteger(day) || day < 1 || day > 31) continue;
    let date: DateParts | undefined;
    let rule: string;
    if (modifier !== undefined) {
      const month = addCalendar(
        { year: today.year, month: today.month, day: 1 },
        'months',
        MONTH_OFFSETS[modifier] ?? 0,
      );
      const candidate = { year: month.year, month: month.month, day };
      date = isRealDate(candidate) ? candidate : undefined;
      rule = `day ${String(day)} of ${modifier}`;
    } else {
      // Forward: this month's day N if it is still to come (or today), else the next month that has a day N.
      for (let k = 0; k < 12 && !date; k++) {
        const month = addCalendar({ year: today.year, month: today.month, day: 1 }, 'months', k);
        const candidate = { year: month.year, month: month.month, day };
        if (isRealDate(candidate) && (k > 0 || day >= today.day)) date = candidate;
      }
      rule = `day ${String(day)} = the next day ${String(day)} of a month, from the reference day on`;
    }
    take(m.index, m[0], date, rule, modifier === undefined ? 'month' : undefined);
  }
  return { mentions, covered };
}
