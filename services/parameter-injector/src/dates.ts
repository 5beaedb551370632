// Dates (PI-2, PI-3): relative and absolute date expressions resolved against an explicit reference time and time
// zone, and date strings rewritten into the format a parameter declares. chrono-node does the parsing; the phrases
// whose reading people disagree on ("next Friday") are resolved here first, by the documented policy below.
import * as chrono from 'chrono-node';

/** The "now" relative dates are read against: an ISO instant and the IANA time zone of the user. */
export interface DateContext {
  /** ISO-8601 instant with offset (the task's `reference_time`). */
  referenceTime: string;
  /** IANA time zone (the task's `time_zone`), e.g. `Asia/Shanghai`. */
  timeZone: string;
}

/** A calendar date, optionally with a wall-clock time in the context's time zone. */
export interface DateParts {
  year: number;
  month: number;
  day: number;
  /** Present when the expression named a time of day. */
  time?: { hour: number; minute: number; second: number };
}

/** A date found in free text: where, what it resolved to, and by which rule (recorded in the validation log). */
export interface DateMention {
  text: string;
  index: number;
  date: DateParts;
  rule: string;
  /** True for a time of day with no day written ("at 9am"): its date is only the reference day. */
  timeOnly?: boolean;
}

/** The target formats a string date parameter may declare (schema `format`, a normalizer, or its description). */
export type DateFormat =
  'YYYY-MM-DD' | 'MM-DD-YYYY' | 'DD-MM-YYYY' | 'MM/DD/YYYY' | 'DD/MM/YYYY' | 'YYYY/MM/DD' | 'date-time';

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
  'next/this/coming <weekday> = the first such weekday after the reference day; last <weekday> = the last one before it; <weekday> next week (下周X) = that weekday of the next calendar week';

const WEEKDAY_PATTERN = String.raw`(sun|mon|tue|tues|wed|thu|thur|thurs|fri|sat)(?:day|nesday|sday|urday)?`;
const MODIFIED_WEEKDAY = new RegExp(
  String.raw`\b(?:(next|this|coming|upcoming|last|past)\s+${WEEKDAY_PATTERN}(\s+next\s+week)?|next\s+week\s*(?:on\s+)?${WEEKDAY_PATTERN})\b`,
  'gi',
);

function weekdayIndex(token: string): number {
  const lower = token.toLowerCase().slice(0, 3);
  return WEEKDAYS.findIndex((w) => w.startsWith(lower));
}

const DAY_MS = 86_400_000;

function fromUtcDay(ms: number): DateParts {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function utcDay(parts: Pick<DateParts, 'year' | 'month' | 'day'>): number {
  return Date.UTC(parts.year, parts.month - 1, parts.day);
}

/** The reference instant's calendar day and wall-clock time in the context's time zone. */
export function referenceDay(ctx: DateContext): DateParts & { weekday: number } {
  const instant = new Date(ctx.referenceTime);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`invalid reference time ${ctx.referenceTime}`);
  const fields = new Intl.DateTimeFormat('en-US', {
    timeZone: ctx.timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(instant);
  const get = (type: string) => Number(fields.find((f) => f.type === type)?.value ?? NaN);
  const parts = { year: get('year'), month: get('month'), day: get('day') };
  return {
    ...parts,
    time: { hour: get('hour'), minute: get('minute'), second: get('second') },
    weekday: new Date(utcDay(parts)).getUTCDay(),
  };
}

function resolveModifiedWeekday(
  modifier: string,
  weekday: number,
  nextWeek: boolean,
  today: DateParts & { weekday: number },
): { date: DateParts; rule: string } {
  const base = utcDay(today);
  if (nextWeek) {
    // Monday of next week, then the weekday within it (ISO weeks start on Monday).
    const mondayOffset = (today.weekday + 6) % 7;
    const nextMonday = base + (7 - mondayOffset) * DAY_MS;
    return {
      date: fromUtcDay(nextMonday + ((weekday + 6) % 7) * DAY_MS),
      rule: `${WEEKDAYS[weekday] ?? ''} of next week`,
    };
  }
  if (modifier === 'last' || modifier === 'past') {
    const back = (today.weekday - weekday + 7) % 7 || 7;
    return {
      date: fromUtcDay(base - back * DAY_MS),
      rule: `last ${WEEKDAYS[weekday] ?? ''} before the reference day`,
    };
  }
  const ahead = (weekday - today.weekday + 7) % 7 || 7;
  return {
    date: fromUtcDay(base + ahead * DAY_MS),
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
const MONTH_DOT_DAY = new RegExp(String.raw`\b(?:${MONTH_NAMES})\.(?=\d{1,2}\b)`, 'gi');
const PERCENT_AFTER = /^\s?(?:%|percent\b|per\s?cent\b)/i;
const YEAR_BEFORE = /\b((?:1[5-9]|20)\d{2}),?\s+$/;
const TODAY_IS = /\b(?:today|now)\s*(?:is|being|=|:)?\s*,?\s*$/i;

/**
 * The day the request says today is ("today is Monday April 25th 2023", "for today April 25th 2023"): a date with a
 * written year right after "today" (or "today is"). Relative dates of the same request are read against it.
 */
function statedToday(text: string, ctx: DateContext): DateContext | undefined {
  for (const r of chrono.en.parse(text, chronoReference(ctx))) {
    if (!r.start.isCertain('year') || !r.start.isCertain('day')) continue;
    // The weekday before the date ("today is Monday April 25th") belongs to it.
    const before = text.slice(0, r.index).replace(new RegExp(String.raw`${WEEKDAY_PATTERN},?\s*$`, 'i'), '');
    if (!TODAY_IS.test(before)) continue;
    const { year, month, day } = partsOf(r);
    return {
      ...ctx,
      referenceTime: new Date(Date.UTC(year, month - 1, day, 12)).toISOString(),
      timeZone: 'UTC',
    };
  }
  return undefined;
}

/**
 * Every date expression in `text`, resolved against the context: the weekday policy first
 * ({@link NEXT_WEEKDAY_POLICY}), then chrono-node (English; Chinese when the text has CJK characters) for the rest.
 */
export function findDates(original: string, given: DateContext): DateMention[] {
  // "March.11, 2022": a full stop between a month name and its day is a separator (same length, so indexes hold and
  // a mention's text is the original's).
  const text = original.replace(MONTH_DOT_DAY, (m) => m.replace('.', ' '));
  const ctx = statedToday(text, given) ?? given;
  const today = referenceDay(ctx);
  const mentions: DateMention[] = [];
  const taken: [number, number][] = [];
  for (const m of text.matchAll(MODIFIED_WEEKDAY)) {
    const modifier = (m[1] ?? 'next').toLowerCase();
    const day = weekdayIndex(m[2] ?? m[4] ?? '');
    if (day < 0) continue;
    const nextWeek = m[3] !== undefined || m[4] !== undefined;
    const { date, rule } = resolveModifiedWeekday(modifier, day, nextWeek, today);
    mentions.push({ text: m[0], index: m.index, date, rule });
    taken.push([m.index, m.index + m[0].length]);
  }
  const reference = chronoReference(ctx);
  const parsers = CJK.test(text) ? [chrono.zh, chrono.en] : [chrono.en];
  for (const parser of parsers) {
    for (const r of parser.parse(text, reference, { forwardDate: true })) {
      const end = r.index + r.text.length;
      if (taken.some(([a, b]) => r.index < b && end > a)) continue;
      if (isBareDuration(r)) continue;
      // "at 6%", "at 5 percent": a rate, not a time of day.
      if (PERCENT_AFTER.test(text.slice(end))) continue;
      // "2023 April 4th": a year written just before a date without one is its year.
      const yearBefore = r.start.isCertain('year')
        ? undefined
        : YEAR_BEFORE.exec(text.slice(0, r.index))?.[1];
      const date = partsOf(r);
      if (yearBefore) date.year = Number(yearBefore);
      if (!date.year || !date.month || !date.day) continue;
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
  return mentions.sort((a, b) => a.index - b.index);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function valid(parts: DateParts): boolean {
  const d = new Date(utcDay(parts));
  return (
    d.getUTCFullYear() === parts.year && d.getUTCMonth() + 1 === parts.month && d.getUTCDate() === parts.day
  );
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

/**
 * The date format a string parameter wants, or undefined when it is not a date: JSON Schema `format: date` /
 * `date-time`, the `iso_date` / `iso_datetime` normalizers, or a format spelled out in its description
 * ("in the format YYYY-MM-DD", "MM-DD-YYYY") — imported tools often say it only in prose.
 */
export function dateFormatOf(schema: Record<string, unknown>): DateFormat | undefined {
  const normalizers = Array.isArray(schema.normalizers) ? (schema.normalizers as unknown[]) : [];
  if (schema.format === 'date' || normalizers.includes('iso_date')) return 'YYYY-MM-DD';
  if (schema.format === 'date-time' || normalizers.includes('iso_datetime')) return 'date-time';
  const description = typeof schema.description === 'string' ? schema.description : '';
  const m = DESCRIBED_FORMAT.exec(description);
  return m ? (m[1]?.toUpperCase() as DateFormat) : undefined;
}

function offsetOf(timeZone: string, at: number): string {
  const name =
    new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(at))
      .find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-]\d{2}):?(\d{2})?/.exec(name);
  return m ? `${m[1] ?? '+00'}:${m[2] ?? '00'}` : '+00:00';
}

/** Writes a date in `format`; `date-time` gets the context's offset (midnight when no time was given). */
export function formatDate(parts: DateParts, format: DateFormat, timeZone: string): string {
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
    case 'date-time': {
      const t = parts.time ?? { hour: 0, minute: 0, second: 0 };
      const wall = `${y}-${mo}-${d}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
      return `${wall}${offsetOf(timeZone, Date.parse(`${wall}Z`))}`;
    }
  }
}

/** True when `value` is already written in `format` (so coercion leaves it alone). */
export function isInDateFormat(value: string, format: DateFormat): boolean {
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
  }
}

const DESCRIBED_TIME = /\bHH:MM(?::SS)?\b/;

/** The time-of-day format a string parameter's description declares ("in 24-hour format 'HH:MM'"), if any. */
export function timeFormatOf(schema: Record<string, unknown>): 'HH:MM' | 'HH:MM:SS' | undefined {
  const description = typeof schema.description === 'string' ? schema.description : '';
  if (dateFormatOf(schema) || /\bYYYY\b/i.test(description)) return undefined;
  const m = DESCRIBED_TIME.exec(description);
  return m ? (m[0] === 'HH:MM' ? 'HH:MM' : 'HH:MM:SS') : undefined;
}

/**
 * The times of day a text writes ("at 5:30pm", "9am", "13:45", "from 4 to 6 pm"), in text order, as 24-hour clock
 * readings; "at 6%" is no time (see {@link findDates}).
 */
export function findTimes(text: string, ctx: DateContext): { text: string; index: number; time: string }[] {
  const out: { text: string; index: number; time: string }[] = [];
  for (const r of chrono.en.parse(text, chronoReference(ctx))) {
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
  return out;
}
