// Calendar and clock arithmetic for relative dates (PI-2), done by Luxon over the IANA time-zone database: the
// reference instant seen in the user's zone, whole days that keep their wall clock across daylight-saving changes
// ("tomorrow" at 23:30 the evening before a change is still the next calendar day), and elapsed hours that do not
// ("in 3 hours" across a change is three real hours). No offset is ever computed by hand.
import { DateTime, IANAZone } from 'luxon';
import { DateContextError } from './errors.js';

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

/** What is wrong with a date context, naming the task field, or undefined when both fields can be read. */
export function dateContextProblem(ctx: DateContext): string | undefined {
  if (!IANAZone.isValidZone(ctx.timeZone))
    return `time_zone ${JSON.stringify(ctx.timeZone)} is not an IANA time zone (e.g. Asia/Shanghai, Europe/Berlin)`;
  const instant = DateTime.fromISO(ctx.referenceTime, { setZone: true });
  if (!instant.isValid)
    return `reference_time ${JSON.stringify(ctx.referenceTime)} is not an ISO-8601 instant (${String(instant.invalidExplanation)})`;
  return undefined;
}

/** The reference instant in the context's zone; throws {@link DateContextError} naming the bad field otherwise. */
export function zonedReference(ctx: DateContext): DateTime {
  const problem = dateContextProblem(ctx);
  if (problem) throw new DateContextError(problem);
  return DateTime.fromISO(ctx.referenceTime, { setZone: true }).setZone(ctx.timeZone);
}

/** A calendar date as a Luxon value (UTC, so that day arithmetic on it is pure calendar arithmetic). */
function civil(parts: Pick<DateParts, 'year' | 'month' | 'day'>): DateTime {
  return DateTime.utc(parts.year, parts.month, parts.day);
}

function partsOfDay(dt: DateTime): DateParts {
  return { year: dt.year, month: dt.month, day: dt.day };
}

/** The date `days` calendar days after `parts` (negative: before). */
export function addDays(parts: Pick<DateParts, 'year' | 'month' | 'day'>, days: number): DateParts {
  return partsOfDay(civil(parts).plus({ days }));
}

/** The date `count` calendar units after `parts`: months and years keep the day of the month where it exists. */
export function addCalendar(
  parts: Pick<DateParts, 'year' | 'month' | 'day'>,
  unit: 'days' | 'weeks' | 'months' | 'years',
  count: number,
): DateParts {
  return partsOfDay(civil(parts).plus({ [unit]: count }));
}

/** The wall clock `ms` milliseconds of real time after the reference instant, in the context's zone. */
export function elapsedFromReference(ctx: DateContext, ms: number): DateParts {
  const at = zonedReference(ctx).plus({ milliseconds: ms });
  return { ...partsOfDay(at), time: { hour: at.hour, minute: at.minute, second: at.second } };
}

/** Day of the week, 0 = Sunday … 6 = Saturday (the JavaScript numbering the weekday tables use). */
export function weekdayOf(parts: Pick<DateParts, 'year' | 'month' | 'day'>): number {
  return civil(parts).weekday % 7;
}

/** True for a date that exists in the Gregorian calendar (no 30 February, no 31 November). */
export function isRealDate(parts: Pick<DateParts, 'year' | 'month' | 'day'>): boolean {
  return DateTime.utc(parts.year, parts.month, parts.day).isValid;
}

/**
 * The wall-clock date-time written with the offset the zone has at that moment (`2026-03-08T05:00:00-04:00` in New
 * York: already summer time). A wall time the zone skips (02:30 on the night clocks go forward) is moved forward by
 * the gap, as Luxon and Temporal do; a time the zone has twice (the night clocks go back) is the earlier one.
 */
export function zonedDateTime(parts: DateParts, timeZone: string): string {
  const t = parts.time ?? { hour: 0, minute: 0, second: 0 };
  if (!IANAZone.isValidZone(timeZone))
    throw new DateContextError(`time_zone ${JSON.stringify(timeZone)} is not an IANA time zone`);
  // Interpreted in the zone, so the offset is the one in force at that wall-clock time, not at "now".
  const dt = DateTime.fromObject(
    {
      year: parts.year,
      month: parts.month,
      day: parts.day,
      hour: t.hour,
      minute: t.minute,
      second: t.second,
    },
    { zone: timeZone },
  );
  return dt.toISO({ suppressMilliseconds: true, includeOffset: true }) ?? '';
}
