// Dates (PI-2, PI-3): relative and absolute date expressions resolved against an explicit reference time and time
// zone, and date strings rewritten into the format a parameter declares. chrono-node does the parsing (English, and
// its simplified and traditional Chinese parsers); the phrases whose reading people disagree on ("next Friday",
// 这周三) are resolved here first, by the documented policy below and in chinese-dates.ts. Zone and calendar
// arithmetic is Luxon's (calendar.ts).
import * as chrono from 'chrono-node';
import {
  addCalendar,
  addDays,
  elapsedFromReference,
  isRealDate,
  weekdayOf,
  zonedDateTime,
  zonedReference,
  type DateContext,
  type DateParts,
} from './calendar.js';
import { dayWordOffset, findChineseDates } from './chinese-dates.js';
import { halfwidth } from './extractors.js';

import type { DateDirection } from '@signalbox/registry';

export type { DateContext, DateParts } from './calendar.js';

/** A date found in free text: where, what it resolved to, and by which rule (recorded in the validation log). */
export interface DateMention {
  text: string;
  index: number;
  date: DateParts;
  rule: string;
  /** True for a time of day with no day written ("at 9am"): its date is only the reference day. */
  timeOnly?: boolean;
  /** True for the date of "today is …": the reference day the request states, not a day it asks about. */
  statesToday?: boolean;
  /**
   * The calendar unit the text leaves unwritten, which the reader chose: the week of a weekday alone ("Friday",
   * 周五), the month of a day alone ("the 27th", 27号), the year of a month and day ("Nov 27", 11月27日).
   */
  open?: 'week' | 'month' | 'year';
}

/** Options of {@link findDates}. */
export interface FindDatesOptions {
  /**
   * The side of the reference day the wanted dates lie on, as the parameter declares it (`date_direction`): a date
   * whose week, month or year the text leaves open is the nearest such day on that side, the reference day included
   * ("27号的会议纪要" on Nov 30 is Nov 27, not Dec 27). @default undefined — the policy's own reading
   */
  direction?: DateDirection;
}

/** The target formats a string date parameter may declare (schema `format`, a normalizer, or its description). */
/** The calendar-date formats a description can name. */
export type CalendarFormat =
  'YYYY-MM-DD' | 'MM-DD-YYYY' | 'DD-MM-YYYY' | 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'YYYY/MM/DD';

export type DateFormat =
  | CalendarFormat
  /** A calendar date then the wall-clock time ("in the format of 'dd/mm/yyyy HH:MM'"). */
  | `${CalendarFormat} HH:MM`
  | 'date-time'
  /** A wall-clock date and time without a zone ("in the format 'YYYY-MM-DD HH:mm:ss'"). */
  | 'YYYY-MM-DD HH:MM:SS'
  | 'YYYY-MM-DD HH:MM'
  /** An ISO 8601 local date and time, without an offset ("in ISO-8601 format … Does not include a timezone offset"). */
  | 'YYYY-MM-DDTHH:MM:SS';

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/**
 * The documented policy for "<modifier> <weekday>" (English), decided here and not left to a parser's default:
 * - `next Friday` / `coming Friday` / `this Friday` / `Friday`: the first Friday strictly after the reference day
 *   (said on Monday 2024-11-04 → 2024-11-08; said on Friday 2024-11-08 → 2024-11-15). chrono-node (and Microsoft's
 *   recognizers) read "next Friday" on a Monday as the Friday of next week (2024-11-15); users asking an agent for
 *   "next Friday" on a Monday overwhelmingly mean the coming one, and the decision log states the reading so a
 *   human can correct it.
 * - `last Friday`: the last Friday strictly before the reference day (on Monday 2024-11-04 → 2024-11-01).
 * - `Friday next week` / `next week Friday` / Chinese `下周五`: the Friday of the next ISO week (Monday-based).
 */
export const NEXT_WEEKDAY_POLICY =
  'next/this/coming <weekday> (and 周X alone) = the first such weekday after the reference day; last <weekday> = the last one before it; <weekday> next week (下周X) = that weekday of the next calendar week; 这周X/本周X = of the current week, 上周X = of the previous one (weeks start on Monday)';

const WEEKDAY_PATTERN = String.raw`(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)(?:day|nesday|sday|urday)?`;
const MODIFIED_WEEKDAY = new RegExp(
  String.raw`\b(?:(next|this|coming|upcoming|last|past)\s+${WEEKDAY_PATTERN}(\s+next\s+week)?|next\s+week\s*(?:on\s+)?${WEEKDAY_PATTERN})\b`,
  'gi',
);

// "Wednesday last week", "last week on Wednesday", "Friday this week": that weekday of the week named (weeks start on
// Monday). Read before the modifier rule, so "last week Friday" is no "last Friday".
const WEEKDAY_OF_WEEK = new RegExp(
  String.raw`\b(?:${WEEKDAY_PATTERN}\s+(last|previous|past|this|next)\s+week|(last|previous|past|this|next)\s+week\s*(?:on\s+)?${WEEKDAY_PATTERN})\b`,
  'gi',
);

function weekdayIndex(token: string): number {
  const lower = token.toLowerCase().slice(0, 3);
  return WEEKDAYS.findIndex((w) => w.startsWith(lower));
}

/** The reference instant's calendar day and wall-clock time in the context's time zone, with its weekday. */
export function referenceDay(ctx: DateContext): DateParts & { weekday: number } {
  const at = zonedReference(ctx);
  const parts = { year: at.year, month: at.month, day: at.day };
  return {
    ...parts,
    time: { hour: at.hour, minute: at.minute, second: at.second },
    weekday: weekdayOf(parts),
  };
}

function resolveModifiedWeekday(
  modifier: string,
  weekday: number,
  nextWeek: boolean,
  today: DateParts & { weekday: number },
): { date: DateParts; rule: string } {
  if (nextWeek) {
    // Monday of next week, then the weekday within it (ISO weeks start on Monday).
    const nextMonday = addDays(today, 7 - ((today.weekday + 6) % 7));
    return {
      date: addDays(nextMonday, (weekday + 6) % 7),
      rule: `${WEEKDAYS[weekday] ?? ''} of next week`,
    };
  }
  if (modifier === 'last' || modifier === 'past') {
    const back = (today.weekday - weekday + 7) % 7 || 7;
    return {
      date: addDays(today, -back),
      rule: `last ${WEEKDAYS[weekday] ?? ''} before the reference day`,
    };
  }
  const ahead = (weekday - today.weekday + 7) % 7 || 7;
  return {
    date: addDays(today, ahead),
    rule: `${modifier} ${WEEKDAYS[weekday] ?? ''} = first ${WEEKDAYS[weekday] ?? ''} after the reference day`,
  };
}

function chronoReference(ctx: DateContext): { instant: Date; timezone: number } {
  // chrono takes an offset, not an IANA zone; hand it the local wall clock as if it were UTC, so every component it
  // returns is already local to the user.
  const today = referenceDay(ctx);
  const t = today.time ?? { hour: 0, minute: 0, second: 0 };
  return {
    instant: new Date(Date.UTC(today.year, today.month - 1, today.day, t.hour, t.minute, t.second)),
    timezone: 0,
  };
}

function partsOf(result: { start: chrono.ParsedComponents }): DateParts {
  const start = result.start;
  const parts: DateParts = {
    year: start.get('year') ?? 0,
    month: start.get('month') ?? 0,
    day: start.get('day') ?? 0,
  };
  if (start.isCertain('hour')) {
    parts.time = {
      hour: start.get('hour') ?? 0,
      minute: start.get('minute') ?? 0,
      second: start.get('second') ?? 0,
    };
  }
  return parts;
}

const CJK = /[\u3400-\u9fff]/;

// A count before a duration unit: digits, number words, or "a"/"an"/"couple"/"few" ("in an hour", "two days ago").
const DURATION_COUNT =
  /\b(?:\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple|few|several|half)\b|\d/i;
const DURATION_DIRECTION = /\b(?:in|within|ago|later|after|before|from now|hence)\b|[前后内]/i;

/**
 * True for chrono's relative-duration reading of a phrase with no count or no direction: "the minutes of the
 * meeting" is a document, not "now + n minutes", and "a minute" alone is not a date. A real relative date says
 * how many and which way ("in 5 minutes", "two days ago", "3天后").
 */
function isBareDuration(result: chrono.ParsedResult): boolean {
  if (!result.tags().has('result/relativeDate')) return false;
  return !(DURATION_COUNT.test(result.text) && DURATION_DIRECTION.test(result.text));
}

const MONTH_NAMES =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const MONTH_BEFORE = new RegExp(String.raw`\b(?:${MONTH_NAMES})\.?\s*$`, 'i');
// "on the 25th", "since the 3rd", "through the 27th": a preposition, "the", an ordinal day, then the end of the phrase
// (punctuation, the end, a possessive, a joining word, or a preposition opening the next phrase: "the notes from the
// 25th into a report") — "the 3rd floor" or "the 25th of May" are not a day alone.
const DAY_OF_MONTH_ALONE =
  /\b(?:on|of|from|since|until|till|through|thru|to|by|before|after)\s+(the\s+(\d{1,2})(?:st|nd|rd|th))\b(?=\s*$|\s*[,.;:!?)]|['’]s\b|\s+(?:and|or|to|through|thru|until|till|at|in|into|onto|for|with|as|about|from|on|by)\b)/gi;
const MONTH_DOT_DAY = new RegExp(String.raw`\b(?:${MONTH_NAMES})\.(?=\d{1,2}\b)`, 'gi');
const PERCENT_AFTER = /^\s?(?:%|percent\b|per\s?cent\b)/i;
const YEAR_BEFORE = /\b((?:1[5-9]|20)\d{2}),?\s+$/;
const TODAY_IS = /(?:\b(?:today|now)\s*(?:is|being|=|:)?|(?:今天|今日)\s*(?:是|为|為|:)?)\s*[,，]?\s*$/i;
const WEEKDAY_BEFORE = new RegExp(
  String.raw`(?:${WEEKDAY_PATTERN}|(?:星期|周|週|礼拜|禮拜)[一二三四五六日天])[,，]?\s*$`,
  'i',
);

/**
 * The day the request says today is ("today is Monday April 25th 2023", "for today April 25th 2023"): a date with a
 * written year right after "today" (or "today is"). Relative dates of the same request are read against it.
 */
function statedToday(
  text: string,
  ctx: DateContext,
): { ctx: DateContext; span: [number, number] } | undefined {
  const parsers = CJK.test(text) ? [chrono.zh.hans, chrono.en] : [chrono.en];
  for (const r of parsers.flatMap((p) => p.parse(text, chronoReference(ctx)))) {
    if (!r.start.isCertain('year') || !r.start.isCertain('day')) continue;
    // The weekday before the date ("today is Monday April 25th", "今天是星期一，2026年11月30日") belongs to it.
    const before = text.slice(0, r.index).replace(WEEKDAY_BEFORE, '');
    const said = TODAY_IS.exec(before);
    if (!said) continue;
    const { year, month, day } = partsOf(r);
    return {
      ctx: {
        ...ctx,
        referenceTime: new Date(Date.UTC(year, month - 1, day, 12)).toISOString(),
        timeZone: 'UTC',
      },
      // From "today" on: chrono reads the word itself as a date too.
      span: [said.index, r.index + r.text.length],
    };
  }
  return undefined;
}

/**
 * The date context of a request: the day it says today is ("… today is 2023.10.1"), else the task's. Build reads
 * every part of the request against it, so a part the plan names ("available from today until the 12th") means the
 * same day as the whole request does.
 */
export function requestDateContext(request: string, given: DateContext): DateContext {
  return (
    statedToday(
      halfwidth(request).replace(MONTH_DOT_DAY, (m) => m.replace('.', ' ')),
      given,
    )?.ctx ?? given
  );
}

// "last week", "this week", "next week" (not "Friday next week": the weekday policy reads that first), "the week
// before last", "the week after next", and 上周 / 本周 / 这周 / 下周 / 上上周 / 下下周 not followed by a weekday (上周五
// is a day). Two weeks back or ahead are written with the word doubled (上上周) or "before last" / "after next".
const WHOLE_WEEK = new RegExp(
  String.raw`(?<!${WEEKDAY_PATTERN.replace('(', '(?:')},?\s+(?:of\s+)?)\b(last|past|previous|this|next|coming)\s+week\b|\b(?:the\s+)?week\s+(before\s+last|after\s+next)\b|(上上|下下|上|本|这|這|下)(?:个|個)?(?:周|週|星期|礼拜|禮拜)(?![一二三四五六日天七1-7])`,
  'giu',
);
const WEEK_SHIFTS: Readonly<Record<string, number>> = {
  last: -7,
  past: -7,
  previous: -7,
  上: -7,
  next: 7,
  coming: 7,
  下: 7,
  'before last': -14,
  上上: -14,
  'after next': 14,
  下下: 14,
};

const DAY_WORDS =
  /\b(?:(?:the\s+)?day\s+after\s+(?:tomorrow|tomm?orr?ow)|(?:the\s+)?day\s+before\s+yesterday|(?!tomorrow\b)tomm?orr?ow|tmrw)\b/giu;

/** True when [a, b) overlaps one of the spans. */
function overlaps(spans: readonly [number, number][], a: number, b: number): boolean {
  return spans.some(([x, y]) => a < y && b > x);
}

/**
 * Every date expression in `text`, resolved against the context: the weekday policy first
 * ({@link NEXT_WEEKDAY_POLICY}), then, when the text has CJK characters, the Chinese rules (chinese-dates.ts), then
 * chrono-node (simplified and traditional Chinese, English) for the rest. Counts of hours, minutes and seconds from
 * now are elapsed time ("in 3 hours" across a daylight-saving change is three real hours).
 */
export function findDates(
  original: string,
  given: DateContext,
  options: FindDatesOptions = {},
): DateMention[] {
  // "March.11, 2022": a full stop between a month name and its day is a separator; full-width digits are digits (same
  // length, so indexes hold and a mention's text is the original's).
  const text = halfwidth(original).replace(MONTH_DOT_DAY, (m) => m.replace('.', ' '));
  const stated = statedToday(text, given);
  const ctx = stated?.ctx ?? given;
  const today = referenceDay(ctx);
  const mentions: DateMention[] = [];
  const taken: [number, number][] = [];
  for (const m of text.matchAll(WEEKDAY_OF_WEEK)) {
    const day = weekdayIndex(m[1] ?? m[4] ?? '');
    const which = (m[2] ?? m[3] ?? '').toLowerCase();
    if (day < 0) continue;
    const shift = /^(?:last|previous|past)$/u.test(which) ? -7 : which === 'next' ? 7 : 0;
    const monday = addDays(today, shift - ((today.weekday + 6) % 7));
    mentions.push({
      text: m[0],
      index: m.index,
      date: addDays(monday, (day + 6) % 7),
      rule: `${WEEKDAYS[day] ?? ''} of ${which} week (weeks start on Monday)`,
    });
    taken.push([m.index, m.index + m[0].length]);
  }
  for (const m of text.matchAll(MODIFIED_WEEKDAY)) {
    if (overlaps(taken, m.index, m.index + m[0].length)) continue;
    const modifier = (m[1] ?? 'next').toLowerCase();
    const day = weekdayIndex(m[2] ?? m[4] ?? '');
    if (day < 0) continue;
    const nextWeek = m[3] !== undefined || m[4] !== undefined;
    const { date, rule } = resolveModifiedWeekday(modifier, day, nextWeek, today);
    mentions.push({ text: m[0], index: m.index, date, rule });
    taken.push([m.index, m.index + m[0].length]);
  }
  // A whole week ("last week", "上周", "this week"): its Monday and its Sunday, a range's start and end.
  for (const m of text.matchAll(WHOLE_WEEK)) {
    if (overlaps(taken, m.index, m.index + m[0].length)) continue;
    const which = (m[1] ?? m[2] ?? m[3] ?? '').toLowerCase().replace(/\s+/gu, ' ');
    const shift = WEEK_SHIFTS[which] ?? 0;
    const monday = addDays(today, shift - ((today.weekday + 6) % 7));
    const rule = `${m[0]} = the week from Monday to Sunday (weeks start on Monday)`;
    mentions.push({ text: m[0], index: m.index, date: monday, rule });
    mentions.push({ text: m[0], index: m.index + 1, date: addDays(monday, 6), rule: `end of ${rule}` });
    taken.push([m.index, m.index + m[0].length]);
  }
  // Day words chrono does not read: "the day after tomorrow", "the day before yesterday", and the common misspellings
  // of "tomorrow" (tomorow, tommorow, tommorrow, tmrw) — the correct spelling is chrono's, with any time after it.
  for (const m of text.matchAll(DAY_WORDS)) {
    if (overlaps(taken, m.index, m.index + m[0].length)) continue;
    const word = m[0].toLowerCase();
    const offset = /after/.test(word) ? 2 : /before/.test(word) ? -2 : 1;
    mentions.push({
      text: m[0],
      index: m.index,
      date: addDays(today, offset),
      rule: `${m[0]} = ${String(offset)} day(s) from the reference day`,
    });
    taken.push([m.index, m.index + m[0].length]);
  }
  // A day of the month alone after a preposition ("on the 25th", "since the 3rd"), which chrono does not read: that day
  // of the reference month, or of the next month once it has passed (the forward reading); its month stays open.
  for (const m of text.matchAll(DAY_OF_MONTH_ALONE)) {
    const at = m.index + m[0].length - (m[1] ?? '').length;
    if (overlaps(taken, at, m.index + m[0].length)) continue;
    const n = Number(m[2]);
    const here = { year: today.year, month: today.month, day: n };
    const next = addCalendar({ year: today.year, month: today.month, day: 1 }, 'months', 1);
    const date = n >= today.day ? here : { year: next.year, month: next.month, day: n };
    if (!isRealDate(date)) continue;
    mentions.push({
      text: m[1] ?? '',
      index: at,
      date,
      rule: `${m[1] ?? ''} = that day of the month`,
      open: 'month',
    });
    taken.push([at, m.index + m[0].length]);
  }
  const cjk = CJK.test(text);
  if (cjk) {
    const zh = findChineseDates(text, ctx, today);
    for (const m of zh.mentions)
      if (!overlaps(taken, m.index, m.index + m.text.length))
        mentions.push({ ...m, text: original.slice(m.index, m.index + m.text.length) });
    taken.push(...zh.covered);
  }
  const reference = chronoReference(ctx);
  // chrono's zh parser reads traditional characters' casual words (後天); zh.hans the simplified ones (后天).
  const parsers = cjk ? [chrono.zh.hans, chrono.zh, chrono.en] : [chrono.en];
  for (const parser of parsers) {
    for (const r of parser.parse(text, reference, { forwardDate: true })) {
      const end = r.index + r.text.length;
      if (overlaps(taken, r.index, end)) {
        // A range whose start a rule above already read ("last Friday to today", 上周五到今天): its end is still a date.
        const tail = rangeEndBeyond(text, r, taken);
        if (tail) {
          mentions.push({ ...tail, text: original.slice(tail.index, tail.index + tail.text.length) });
          taken.push([tail.index, tail.index + tail.text.length]);
        }
        continue;
      }
      if (isBareDuration(r)) {
        // "the Nov 27 minutes": a month name just before the count makes the number a day of that month, and the unit
        // a noun of the request (meeting minutes), not a span of time.
        const monthDay = monthBeforeCount(text, r, today);
        if (monthDay && !overlaps(taken, monthDay.index, monthDay.index + monthDay.text.length)) {
          mentions.push({
            ...monthDay,
            text: original.slice(monthDay.index, monthDay.index + monthDay.text.length),
          });
          taken.push([monthDay.index, monthDay.index + monthDay.text.length]);
        }
        continue;
      }
      // "at 6%", "at 5 percent": a rate, not a time of day.
      if (PERCENT_AFTER.test(text.slice(end))) continue;
      // "2023 April 4th": a year written just before a date without one is its year.
      const yearBefore = r.start.isCertain('year')
        ? undefined
        : YEAR_BEFORE.exec(text.slice(0, r.index))?.[1];
      // chrono counted hours on a clock without daylight saving; the same span of real time is added to the instant.
      const date = r.tags().has('result/relativeDateAndTime')
        ? elapsedFromReference(ctx, r.start.date().getTime() - reference.instant.getTime())
        : partsOf(r);
      if (yearBefore) date.year = Number(yearBefore);
      // A month and day written without a year ("Nov 27", "11月27日") is the nearest such day: asked on Nov 30,
      // "Nov 27" is three days ago, not a year ahead; "March 5" is next March. (chrono reads forward only.)
      if (
        !yearBefore &&
        !r.start.isCertain('year') &&
        r.start.isCertain('month') &&
        r.start.isCertain('day') &&
        !r.start.isCertain('weekday') &&
        date.year
      ) {
        const earlier = { ...date, year: date.year - 1 };
        const gap = (d: DateParts) =>
          Math.abs(Date.UTC(d.year, d.month - 1, d.day) - Date.UTC(today.year, today.month - 1, today.day));
        if (isRealDate(earlier) && gap(earlier) < gap(date)) date.year = earlier.year;
      }
      const dayWord = parser === chrono.en ? undefined : dayWordOffset(r.text);
      if (dayWord !== undefined) Object.assign(date, addDays(today, dayWord));
      if (!date.year || !date.month || !date.day) continue;
      const open =
        dayWord !== undefined || r.start.isCertain('year')
          ? undefined
          : r.start.isCertain('month')
            ? r.start.isCertain('day') && !r.start.isCertain('weekday')
              ? ('year' as const)
              : undefined
            : r.start.isCertain('day')
              ? ('month' as const)
              : r.start.isCertain('weekday')
                ? ('week' as const)
                : undefined;
      const written = original.slice(r.index, end);
      // A part of the day ("at 6", "in the evening") with no day, weekday, month or year written ("this evening"
      // is today's).
      const timeOnly =
        !(['day', 'weekday', 'month', 'year'] as const).some((c) => r.start.isCertain(c)) &&
        !/\bthis\b/i.test(written);
      mentions.push({
        text: written,
        index: r.index,
        date,
        rule: `parsed "${written}"`,
        ...(timeOnly ? { timeOnly } : {}),
        ...(open && !yearBefore && !r.end ? { open } : {}),
      });
      // A range ("July 10 to July 20, 2022") is two dates: its start and its end.
      if (r.end) {
        const last = partsOf({ start: r.end });
        if (yearBefore && !r.end.isCertain('year')) last.year = date.year;
        if (last.year && last.month && last.day)
          mentions.push({ text: written, index: r.index + 1, date: last, rule: `end of "${written}"` });
      }
      taken.push([r.index, end]);
    }
  }
  const sorted = mentions.sort((a, b) => a.index - b.index);
  // "now" (现在, 目前) is a date only alone or as a range's end ("三年前到现在"): beside another date ("明天下雨吗？…到现在
  // 都没人理") it is a remark about the present, not a second date.
  const isNow = (m: DateMention) => NOW_WORD.test(m.text.trim());
  const dated = sorted.filter(
    (m, i) =>
      !isNow(m) ||
      sorted.every(isNow) ||
      (i > 0 &&
        RANGE_MARK.test(
          text.slice((sorted[i - 1]?.index ?? 0) + (sorted[i - 1]?.text.length ?? 0), m.index),
        )),
  );
  // The date of "today is Monday April 25th 2023" says what today is: it is the reference, not a day asked about.
  if (stated)
    for (const m of dated)
      if (overlaps([stated.span], m.index, m.index + m.text.length)) m.statesToday = true;
  const directed = options.direction
    ? dated.map((m) => toward(m, options.direction as DateDirection, today))
    : dated;
  // A date written in full on the other side of the declared one (明天 beside 上周五 for minutes of meetings held) is
  // about something else the request says ("…，顺便查下明天上海天气"): when a date on the declared side is written
  // too, it is not one of the parameter's — unless a range joins the two (上周五到这周三 asks for both).
  const direction = options.direction;
  const ranged = (i: number) => {
    const m = directed[i] as DateMention;
    const prev = directed[i - 1];
    const next = directed[i + 1];
    return (
      (prev !== undefined && RANGE_MARK.test(text.slice(prev.index + prev.text.length, m.index))) ||
      (next !== undefined && RANGE_MARK.test(text.slice(m.index + m.text.length, next.index)))
    );
  };
  const onSide = direction
    ? directed.filter(
        (m, i) =>
          m.open !== undefined ||
          m.statesToday ||
          m.timeOnly ||
          ranged(i) ||
          !beyond(m.date, direction, today),
      )
    : directed;
  return endsOfRanges(text, onSide.length > 0 ? onSide : directed);
}

/**
 * The end of a range chrono read as one (`r.end`) whose start overlaps a date a rule before chrono already took: the
 * words after the range mark ("to today", "到今天") that no rule took, as their own mention. Undefined when chrono read
 * no range, or when its end overlaps a taken span too.
 */
function rangeEndBeyond(
  text: string,
  r: chrono.ParsedResult,
  taken: readonly [number, number][],
): DateMention | undefined {
  if (!r.end) return undefined;
  const end = r.index + r.text.length;
  const startOfTail = Math.max(...taken.filter(([a, b]) => a < end && b > r.index).map(([, b]) => b));
  const mark = RANGE_MARK_AHEAD.exec(text.slice(startOfTail, end));
  if (!mark) return undefined;
  const words = mark[2] ?? '';
  const index = startOfTail + (mark[1] ?? '').length;
  if (words.length === 0 || overlaps(taken, index, index + words.length)) return undefined;
  const date = partsOf({ start: r.end });
  if (!date.year || !date.month || !date.day) return undefined;
  return { text: words, index, date, rule: `end of the range "${r.text.trim()}"` };
}

/**
 * A month name written just before a count chrono read as a bare duration ("Nov 27 minutes"): the month and the
 * count's number as one date, read by chrono on its own.
 */
function monthBeforeCount(text: string, r: chrono.ParsedResult, today: DateParts): DateMention | undefined {
  const month = MONTH_BEFORE.exec(text.slice(0, r.index));
  const number = /^\d{1,2}\b/.exec(r.text);
  if (!month || !number) return undefined;
  const written = text.slice(month.index, r.index) + number[0];
  const [parsed] = chrono.en.parse(written, new Date(Date.UTC(2000, 0, 1)));
  if (parsed?.text !== written || !parsed.start.isCertain('day')) return undefined;
  const month0 = parsed.start.get('month');
  const day = parsed.start.get('day');
  if (!month0 || !day) return undefined;
  // Without a year, the nearest such day (as for "Nov 27" read by chrono below); its year stays open.
  const at = (year: number) =>
    Math.abs(Date.UTC(year, month0 - 1, day) - Date.UTC(today.year, today.month - 1, today.day));
  const year = [today.year - 1, today.year, today.year + 1].reduce((a, b) => (at(b) < at(a) ? b : a));
  const date = { year, month: month0, day };
  if (!isRealDate(date)) return undefined;
  return { text: written, index: month.index, date, rule: `parsed "${written}"`, open: 'year' };
}

/** Whether a day lies on the other side of the reference day than the declared direction. */
function beyond(date: DateParts, direction: DateDirection, today: DateParts): boolean {
  const day = (d: DateParts) => Date.UTC(d.year, d.month - 1, d.day);
  return direction === 'past' ? day(date) > day(today) : day(date) < day(today);
}

/**
 * A date whose week, month or year the text leaves open, moved by that unit to the nearest such day on the declared
 * side of the reference day (the reference day itself included): minutes "of the 27th" asked for on Nov 30 are Nov
 * 27's, a booking "for Friday" is the coming Friday's. A date written in full is left as written.
 */
function toward(m: DateMention, direction: DateDirection, today: DateParts): DateMention {
  if (!m.open || m.statesToday || m.timeOnly) return m;
  const day = (d: DateParts) => Date.UTC(d.year, d.month - 1, d.day);
  const wrongSide = (d: DateParts) => (direction === 'past' ? day(d) > day(today) : day(d) < day(today));
  if (!wrongSide(m.date)) return m;
  const step = direction === 'past' ? -1 : 1;
  const unit = m.open === 'week' ? 'weeks' : m.open === 'month' ? 'months' : 'years';
  // A day the next unit lacks (the 31st, Feb 29) is looked for in the unit after it, as the forward reading does.
  for (let k = 1; k <= 12; k++) {
    const base = addCalendar({ year: m.date.year, month: m.date.month, day: 1 }, unit, step * k);
    const candidate =
      m.open === 'week'
        ? addCalendar(m.date, 'weeks', step * k)
        : { year: base.year, month: base.month, day: m.date.day };
    if (!isRealDate(candidate) || wrongSide(candidate)) continue;
    return {
      ...m,
      date: { ...m.date, ...candidate },
      rule: `${m.rule}; the dates are ${direction}: the nearest such day ${direction === 'past' ? 'on or before' : 'on or after'} the reference day`,
    };
  }
  return m;
}

const RANGE_MARK = /^\s*(?:to|until|till|through|thru|-|–|—|~|～|到|至)\s*$/i;
/** A range mark at the start of a text and the words after it, up to trailing punctuation. */
const RANGE_MARK_AHEAD =
  /^(\s*(?:to|until|till|through|thru|-|–|—|~|～|到|至)\s*)(.*?)[\s,.;:!?，。；：！？、]*$/isu;
const NOW_WORD = /^(?:now|right\s+now|现在|目前|此刻|当前)$/iu;
const BARE_WEEKDAY = new RegExp(
  String.raw`^(?:on\s+)?${WEEKDAY_PATTERN}$|^(?:周|週|星期|礼拜|禮拜)[一二三四五六日天七1-7]$`,
  'i',
);

/**
 * The end of a range written as a weekday alone takes the start's week: "上周一到周三", "from last Monday to
 * Wednesday" end on the first Wednesday on or after that Monday, not on the first one after the reference day.
 */
function endsOfRanges(text: string, mentions: DateMention[]): DateMention[] {
  for (let i = 1; i < mentions.length; i++) {
    const start = mentions[i - 1];
    const end = mentions[i];
    if (!start || !end || start.index === end.index - 1) continue;
    if (
      !RANGE_MARK.test(text.slice(start.index + start.text.length, end.index)) ||
      !BARE_WEEKDAY.test(end.text)
    )
      continue;
    const wanted = weekdayOf(end.date);
    const ahead = (wanted - weekdayOf(start.date) + 7) % 7;
    mentions[i] = {
      ...end,
      date: { ...end.date, ...addDays(start.date, ahead) },
      rule: `${WEEKDAYS[wanted] ?? ''} in the range from ${start.text} = the first one on or after its start`,
    };
  }
  return mentions;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function valid(parts: DateParts): boolean {
  return isRealDate(parts);
}

/**
 * Reads a date string in any common notation: ISO (`2024-11-08`, with a time), `2024/11/08`, numeric day-month
 * orders (`11/08/2024` is month/day — the US reading — unless the first number is above 12; `08.11.2024` is
 * day.month), month names (`Nov 8, 2024`, `8 November 2024`) and relative words (`tomorrow`, `next Friday`).
 * Undefined when the string is not one date.
 */
export function parseDateString(value: string, ctx: DateContext): DateParts | undefined {
  const s = value.trim();
  let m =
    /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      s,
    );
  if (m) {
    const parts: DateParts = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
    if (m[4] !== undefined)
      parts.time = { hour: Number(m[4]), minute: Number(m[5]), second: Number(m[6] ?? 0) };
    return valid(parts) ? parts : undefined;
  }
  m = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{4})$/.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    // Dots are the European day.month order; slashes and dashes read month first unless that cannot be a month.
    const dayFirst = m[2] === '.' || a > 12;
    const parts = { year: Number(m[4]), month: dayFirst ? b : a, day: dayFirst ? a : b };
    return valid(parts) ? parts : undefined;
  }
  if (/^\d+$/.test(s)) return undefined;
  const found = findDates(s, ctx);
  // Only a string that is one date expression as a whole (give or take punctuation) is read as a date.
  if (
    found.length === 1 &&
    found[0] &&
    found[0].text.replace(/[\s,.]/g, '').length >= s.replace(/[\s,.]/g, '').length - 2
  ) {
    return found[0].date;
  }
  return undefined;
}

const DESCRIBED_FORMAT = /\b(yyyy([-/])mm\2dd|mm([-/])dd\3yyyy|dd([-/])mm\4yyyy)\b/i;
// "YYYY-MM-DDTHH:MM:SSZ" is an instant (RFC 3339); "YYYY-MM-DD HH:mm:ss" a wall-clock reading without a zone.
const DESCRIBED_INSTANT = /\byyyy-mm-ddThh:mm(?::ss)?/i;
const DESCRIBED_WALL_CLOCK = /\byyyy-mm-dd hh:mm(:ss)?\b/i;
// "Does not include a timezone offset", "Timezone is not included", "without a time zone": the zone is given apart
// (another parameter), so the value is the local date and time alone.
const NO_OFFSET =
  /\b(?:does not|doesn't|do not|must not|should not)\s+(?:include|contain|have)\s+(?:a\s+|the\s+|any\s+)?(?:time\s?zone|offset)|\b(?:time\s?zone|offset)\s+(?:offset\s+)?is\s+not\s+included|\bwithout\s+(?:a\s+|the\s+|any\s+)?(?:time\s?zone|offset)/i;
// An example instant ("such as '2023-04-15T13:45:00Z'") shows an ISO 8601 date and time.
const EXAMPLE_INSTANT =
  /(?<![\d-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})/;
// An example the description writes ("e.g., 2022-04-28", "such as '2023-04-15'") shows the format by itself.
const EXAMPLE_DATE = /(?<![\d-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\d-]|[T ]\d)/;
// The order spelled in words: "(month-day-year)", "in day/month/year order".
const WORDED_FORMAT = /\b(month|day|year)[-/ ](month|day|year)[-/ ](month|day|year)\b/i;
const WORDED: Readonly<Record<string, DateFormat>> = {
  'month day year': 'MM-DD-YYYY',
  'day month year': 'DD-MM-YYYY',
  'year month day': 'YYYY-MM-DD',
};
// A parameter named as a date (`date`, `start_date`, `date_of_birth`) takes a date; written, when its description names
// no format, in ISO 8601's calendar-date form — the interchange form of dates (and what "standard format" means).
const DATE_NAME = /(?:^|_)date(?:$|_)/i;

/**
 * The date format a string parameter wants, or undefined when it is not a date: JSON Schema `format: date` /
 * `date-time`, the `iso_date` / `iso_datetime` normalizers, or a format spelled out in its description
 * ("in the format YYYY-MM-DD", "MM-DD-YYYY") — imported tools often say it only in prose.
 */
export function dateFormatOf(schema: Record<string, unknown>, name?: string): DateFormat | undefined {
  const normalizers = Array.isArray(schema.normalizers) ? (schema.normalizers as unknown[]) : [];
  if (schema.format === 'date' || normalizers.includes('iso_date')) return 'YYYY-MM-DD';
  if (schema.format === 'date-time' || normalizers.includes('iso_datetime')) return 'date-time';
  const description = typeof schema.description === 'string' ? schema.description : '';
  if (DESCRIBED_INSTANT.test(description) || EXAMPLE_INSTANT.test(description))
    return NO_OFFSET.test(description) ? 'YYYY-MM-DDTHH:MM:SS' : 'date-time';
  const wall = DESCRIBED_WALL_CLOCK.exec(description);
  if (wall) return wall[1] ? 'YYYY-MM-DD HH:MM:SS' : 'YYYY-MM-DD HH:MM';
  const m = DESCRIBED_FORMAT.exec(description);
  if (m) {
    const base = m[1]?.toUpperCase() as CalendarFormat;
    // "'dd/mm/yyyy HH:MM'": the date and its time of day.
    return /^\s+hh:mm\b/i.test(description.slice(m.index + m[0].length)) ? `${base} HH:MM` : base;
  }
  const worded = WORDED_FORMAT.exec(description);
  const order = worded ? WORDED[worded.slice(1, 4).join(' ').toLowerCase()] : undefined;
  if (order) return order;
  if (EXAMPLE_DATE.test(description)) return 'YYYY-MM-DD';
  return name !== undefined && namedDate(schema, name, description) ? 'YYYY-MM-DD' : undefined;
}

/**
 * A string parameter named as a date whose description writes no other format or example (a month-year "mm-yyyy", a
 * time, words such as "e.g. this weekend" are other values): ISO 8601's calendar date.
 */
function namedDate(schema: Record<string, unknown>, name: string, description: string): boolean {
  if (!DATE_NAME.test(name.slice(name.lastIndexOf('.') + 1))) return false;
  if (schema.type !== 'string' || Array.isArray(schema.enum)) return false;
  if (/\b(?:yyyy|yy|mm|dd|hh)\b|\btime\b/i.test(description)) return false;
  return !/\b(?:e\.g\.|such as|for example|like)\s+(?!['"]?\d)/i.test(description);
}

/** Writes a date in `format`; `date-time` gets the zone's offset at that time (midnight when no time was given). */
export function formatDate(parts: DateParts, format: DateFormat, timeZone: string): string {
  const timed = /^(.+) HH:MM$/.exec(format)?.[1];
  if (timed !== undefined && timed !== 'YYYY-MM-DD') {
    // The wall clock as written (midnight when no time was given), after the date.
    const t = parts.time ?? { hour: 0, minute: 0, second: 0 };
    return `${formatDate(parts, timed as CalendarFormat, timeZone)} ${pad(t.hour)}:${pad(t.minute)}`;
  }
  const y = pad(parts.year, 4);
  const mo = pad(parts.month);
  const d = pad(parts.day);
  switch (format) {
    case 'YYYY-MM-DD':
      return `${y}-${mo}-${d}`;
    case 'MM-DD-YYYY':
      return `${mo}-${d}-${y}`;
    case 'DD-MM-YYYY':
      return `${d}-${mo}-${y}`;
    case 'MM/DD/YYYY':
      return `${mo}/${d}/${y}`;
    case 'DD/MM/YYYY':
      return `${d}/${mo}/${y}`;
    case 'YYYY/MM/DD':
      return `${y}/${mo}/${d}`;
    case 'date-time':
      // The offset in force at that wall-clock time in the zone (summer or winter time), not at the reference time.
      return zonedDateTime(parts, timeZone);
    case 'YYYY-MM-DD HH:MM:SS':
    case 'YYYY-MM-DD HH:MM':
    case 'YYYY-MM-DDTHH:MM:SS': {
      // The wall clock as written (midnight when no time was given), no zone.
      const t = parts.time ?? { hour: 0, minute: 0, second: 0 };
      const clock = `${pad(t.hour)}:${pad(t.minute)}`;
      if (format === 'YYYY-MM-DDTHH:MM:SS') return `${y}-${mo}-${d}T${clock}:${pad(t.second)}`;
      return `${y}-${mo}-${d} ${format === 'YYYY-MM-DD HH:MM' ? clock : `${clock}:${pad(t.second)}`}`;
    }
    default:
      // The other dates with a time were written above.
      throw new RangeError(`unknown date format ${format}`);
  }
}

/** True when `value` is already written in `format` (so coercion leaves it alone). */
export function isInDateFormat(value: string, format: DateFormat): boolean {
  const timed = /^(.+) HH:MM$/.exec(format)?.[1];
  if (timed !== undefined && timed !== 'YYYY-MM-DD') {
    const m = /^(.*) \d{2}:\d{2}$/.exec(value);
    return m?.[1] !== undefined && isInDateFormat(m[1], timed as CalendarFormat);
  }
  switch (format) {
    case 'YYYY-MM-DD':
      return /^\d{4}-\d{2}-\d{2}$/.test(value);
    case 'MM-DD-YYYY':
    case 'DD-MM-YYYY':
      return /^\d{2}-\d{2}-\d{4}$/.test(value);
    case 'MM/DD/YYYY':
    case 'DD/MM/YYYY':
      return /^\d{2}\/\d{2}\/\d{4}$/.test(value);
    case 'YYYY/MM/DD':
      return /^\d{4}\/\d{2}\/\d{2}$/.test(value);
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value);
    case 'YYYY-MM-DD HH:MM:SS':
      return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(value);
    case 'YYYY-MM-DD HH:MM':
      return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value);
    case 'YYYY-MM-DDTHH:MM:SS':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value);
    default:
      return false;
  }
}

const DESCRIBED_TIME = /\bHH:MM(?::SS)?\b/;

/** The time-of-day format a string parameter's description declares ("in 24-hour format 'HH:MM'"), if any. */
export function timeFormatOf(schema: Record<string, unknown>): 'HH:MM' | 'HH:MM:SS' | undefined {
  const description = typeof schema.description === 'string' ? schema.description : '';
  if (dateFormatOf(schema) || /\bYYYY\b/i.test(description)) return undefined;
  const m = DESCRIBED_TIME.exec(description);
  if (m) return m[0] === 'HH:MM' ? 'HH:MM' : 'HH:MM:SS';
  // "in 24-hour format (e.g., '18:30' for 6:30 PM)": the clock named, or an example reading on it, shows the format;
  // a format with AM/PM is the 12-hour clock, not this one.
  if (/\bAM\/PM\b/i.test(description)) return undefined;
  return /\b24-hour\b/i.test(description) || EXAMPLE_TIME.test(description) ? 'HH:MM' : undefined;
}

/**
 * A string parameter named as a time of day (`time`, `start_time`: its last name word) whose description declares no
 * format, no date and no length of time: a reading of the clock, written in ISO 8601's `HH:MM` ("at 12pm" → `12:00`)
 * as a time with no documented form is written in the interchange form, like a date.
 */
export function isClockTimeParameter(name: string, schema: Record<string, unknown>): boolean {
  const description = typeof schema.description === 'string' ? schema.description : '';
  const words = name
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '');
  if (words[words.length - 1] !== 'time') return false;
  if (
    dateFormatOf(schema, name) ||
    /\b(?:YYYY|date|day|duration|long|elapsed|seconds?|minutes?|hours?|zone)\b/i.test(description)
  )
    return false;
  return true;
}

/** An example time of day written on the 24-hour clock, quoted: "'14:00'", "\"09:30\"". */
const EXAMPLE_TIME = /['"](?:[01]\d|2[0-3]):[0-5]\d['"]/;

/**
 * The times of day a text writes ("at 5:30pm", "9am", "13:45", "from 4 to 6 pm", "下午三点半"), in text order, as
 * 24-hour clock readings; "at 6%" is no time (see {@link findDates}).
 */
export function findTimes(
  original: string,
  ctx: DateContext,
): { text: string; index: number; time: string }[] {
  const text = halfwidth(original);
  const out: { text: string; index: number; time: string }[] = [];
  const taken: [number, number][] = [];
  const parsers = CJK.test(text) ? [chrono.zh.hans, chrono.zh, chrono.en] : [chrono.en];
  for (const r of parsers.flatMap((p) => p.parse(text, chronoReference(ctx)))) {
    if (overlaps(taken, r.index, r.index + r.text.length)) continue;
    taken.push([r.index, r.index + r.text.length]);
    if (PERCENT_AFTER.test(text.slice(r.index + r.text.length))) continue;
    for (const c of r.end ? [r.start, r.end] : [r.start]) {
      if (!c.isCertain('hour')) continue;
      out.push({
        text: r.text,
        index: r.index,
        time: `${pad(c.get('hour') ?? 0)}:${pad(c.get('minute') ?? 0)}:${pad(c.get('second') ?? 0)}`,
      });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}
