// Which number of a request goes to which numeric parameter of a tool (PI-2), decided for all of them at once so
// that one number fills one parameter: "base 10 and height 5" gives base 10 and height 5, never height 10.
// 1. Unit: a parameter expressed in a unit (its name `weight_kg`, its description "in seconds", a currency for a
//    money parameter) takes the one number written with that unit.
// 2. Name: a number takes the parameter whose name words stand next to it ("base of 10", "radius = 4", "height 5",
//    "10 meters base", "a heat capacity of 5J/K"); more name words beat fewer, nearer beats farther, and a tie is
//    never chosen between.
// 3. Order: the numbers left go to the required numeric parameters left in the order they are written and declared —
//    only when there are as many numbers as parameters and the parameters are of one kind ("36 and 24" → number1,
//    number2); a lone number and a lone required parameter go together.
// 2c. Count: an integer parameter documented as "number of <things>" takes the one number written before those things
//    ("ten major events" for "Number of events to return").
// 2d. Code: an integer parameter whose description explains its codes ("1 for Bangkok, 2 for Chiang Mai") takes the
//    code of the one meaning the request names.
// Optional parameters take a number only by unit, name, count or code (a loose number leaves the tool's default in place).
import type { ParameterHints } from '@signalbox/registry';
import { chineseNumerals, NUMERAL_CHARS } from './chinese-numerals.js';
import { zonedReference } from './calendar.js';
import { findDates, type DateContext } from './dates.js';
import {
  extractEmails,
  extractNumberWords,
  extractPhones,
  extractQuantities,
  unitOfParameter,
} from './extractors.js';
import { NUMBER_WORDS, ORDERED_PAIRS, TIMES_PER_YEAR } from './parameter-vocabulary.js';
import { assignByName, nameWords, sameWord, type Candidate } from './spans.js';

/** A number given to a parameter, and what tied it there. */
export interface AssignedNumber {
  value: number;
  cue: string;
  /** Whether the cue ties the number to the parameter (unit, name) rather than order alone. */
  tied: boolean;
}

const MONEY_NAME = /amount|price|cost|fee|total|sum|refund|budget|pay/i;
// A description that says the value is an amount of money ("The initial amount of money that is being invested",
// "The initial amount of the investment") makes a money parameter of any name (`principal`, `principle`) — not one
// that only mentions money ("the number of periods the money is invested for").
const MONEY_DESCRIPTION =
  /\b(?:amount|sum) of (?:the )?(?:money|cash|investment|deposit|loan)\b|\bin (?:dollars|euros|currency)\b/i;
const TIME_UNITS = new Set(['s', 'min', 'h', 'day', 'week', 'month', 'year']);
const LENGTH_UNITS = new Set(['km', 'mi', 'm', 'cm', 'ft', 'in']);
const MASS_UNITS = new Set(['kg', 'g', 'lb']);
const TEMPERATURE_UNITS = new Set(['celsius', 'fahrenheit']);

/**
 * The kind of quantity a parameter is by its name (ISO 80000's quantity names): an `acceleration` is written in a
 * length per time squared, a `velocity` or `speed` in a length per time, a `time` or `duration` in a time unit, a
 * `distance`, `height` or `length` in a length, a `mass` or `weight` in a mass, a `temperature` in degrees.
 */
const DIMENSION_WORDS: readonly [RegExp, (unit: string) => boolean][] = [
  [/^acceleration$/, (u) => /\/s\^2$/.test(u)],
  [/^(?:velocity|speed)$/, (u) => /\/(?:s|min|h)$/.test(u)],
  [/^(?:time|duration)$/, (u) => TIME_UNITS.has(u)],
  [
    /^(?:distance|height|length|width|depth|altitude|radius|diameter|displacement)$/,
    (u) => LENGTH_UNITS.has(u),
  ],
  [/^(?:mass|weight)$/, (u) => MASS_UNITS.has(u)],
  [/^(?:temperature|temp)$/, (u) => TEMPERATURE_UNITS.has(u)],
];

/** The test of a unit of the quantity a parameter's name names (its last name word), if it names one. */
function dimensionOf(path: string): ((unit: string) => boolean) | undefined {
  const last = nameWords(path.slice(path.lastIndexOf('.') + 1)).pop() ?? '';
  return DIMENSION_WORDS.find(([words]) => words.test(last))?.[1];
}
const CURRENCIES = new Set(['usd', 'eur', 'cny', 'gbp']);

function typesOf(schema: Record<string, unknown>): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/** True for a numeric (number / integer) parameter. */
export function isNumericSchema(schema: Record<string, unknown>): boolean {
  const types = typesOf(schema);
  return types.includes('number') || types.includes('integer');
}

function fits(schema: Record<string, unknown>, value: number): boolean {
  const types = typesOf(schema);
  return types.includes('number') || Number.isInteger(value);
}

/** A number of the request with its unit and place. */
// Units of one kind and their size in the kind's base unit: exact by definition (SI; the international yard and pound
// of 1959: 1 ft = 0.3048 m, 1 in = 0.0254 m, 1 mi = 1609.344 m, 1 lb = 0.45359237 kg).
const UNIT_FACTORS: Readonly<Record<string, { dimension: string; factor: number }>> = {
  s: { dimension: 'time', factor: 1 },
  min: { dimension: 'time', factor: 60 },
  h: { dimension: 'time', factor: 3600 },
  m: { dimension: 'length', factor: 1 },
  cm: { dimension: 'length', factor: 0.01 },
  km: { dimension: 'length', factor: 1000 },
  in: { dimension: 'length', factor: 0.0254 },
  ft: { dimension: 'length', factor: 0.3048 },
  mi: { dimension: 'length', factor: 1609.344 },
  g: { dimension: 'mass', factor: 0.001 },
  kg: { dimension: 'mass', factor: 1 },
  lb: { dimension: 'mass', factor: 0.45359237 },
};

interface Mention extends Candidate<number> {
  unit: string | null;
}

const RELATIVE_OFFSET =
  /^(?:in|within|for|after|over)?\s*(?:the\s+(?:next|past|last)\s+)?\d+(?:\.\d+)?\s*(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)$/i;
// The same in Chinese: a count, its unit, then 后 / 内 ("after", "within"): 3天后, 两个月内, 五年以后.
const RELATIVE_OFFSET_ZH = new RegExp(
  String.raw`^[\d.${NUMERAL_CHARS}]+(?:个|個)?(?:秒钟|秒鐘|秒|分钟|分鐘|小时|小時|钟头|鐘頭|天|日|周|週|星期|礼拜|禮拜|月|年)(?:以后|以後|之后|之後|后|後|以内|以內|之内|之內|内|內)$`,
  'u',
);

/**
 * True for a date that is a count of time units from now ("in 3 years", "within 5 seconds", "3天后"): to a numeric
 * parameter its number is a duration, not the digits of a date.
 */
export function isRelativeOffset(text: string): boolean {
  return RELATIVE_OFFSET.test(text.trim()) || RELATIVE_OFFSET_ZH.test(text.trim());
}

/**
 * The text with the digits that are not quantities blanked out, positions kept: dates (not relative offsets such as
 * "in 3 years", whose count is a number), e-mails, phones, and any further spans given (ids).
 */
export function maskNonQuantities(text: string, dates: DateContext, extra: readonly string[] = []): string {
  let masked = text;
  // "accelerating at 2 meters/second^2": a number written with a unit of measure is that quantity, not a time of day
  // ("at 2") the date reader saw in it.
  const measured = extractQuantities(text).filter(
    (q) => q.value.unit !== null && !TIME_UNITS.has(q.value.unit) && q.value.unit !== '%',
  );
  const isMeasure = (d: { index: number; text: string }) =>
    measured.some((q) => q.index < d.index + d.text.length && d.index < q.index + q.text.length);
  for (const span of [
    ...findDates(text, dates)
      .filter((d) => !isRelativeOffset(d.text) && !isMeasure(d))
      .map((d) => d.text),
    ...extractEmails(text).map((e) => e.text),
    ...extractPhones(text).map((e) => e.text),
    ...extra,
  ])
    masked = masked.split(span).join(' '.repeat(span.length));
  return masked;
}

/**
 * The numbers of a text a parameter may take: not inside dates, e-mails or phones; "213 million" read as 213000000
 * and "1.5万" as 15000; digits already spent on an id (`spent`, as digit strings) left out.
 */
export function numberMentions(
  text: string,
  dates: DateContext,
  spent: ReadonlySet<string> = new Set(),
): Mention[] {
  const masked = maskNonQuantities(text, dates);
  const out: Mention[] = [];
  for (const q of extractQuantities(masked)) {
    // The match may begin with the space before the number; the number itself starts at its text.
    const start = Math.max(q.index, masked.indexOf(q.text, q.index));
    // An id is spent as the digits written ("order 1234"), before any scale word ("213 million") applies.
    const digits = /-?\d[\d,]*(?:\.\d+)?/.exec(q.text)?.[0];
    const asWritten = digits === undefined ? q.value.value : Number(digits.replace(/,/g, ''));
    if (spent.has(String(asWritten).replace(/\D/g, ''))) continue;
    out.push({ value: q.value.value, unit: q.value.unit, start, end: start + q.text.length });
  }
  // Numbers written as words or ordinals ("two nights", "the 19th century") are numbers too.
  for (const q of extractNumberWords(masked))
    out.push({ value: q.value.value, unit: q.value.unit, start: q.index, end: q.index + q.text.length });
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The numbers of `text` matched to the numeric parameters `params` (top level, of one tool), by unit, then name, then
 * order (see the file comment). Numbers inside `lists` (spans an array parameter took) are left out. Parameters
 * without a number are absent from the map.
 */
export function assignNumbers(
  params: readonly ParameterHints[],
  text: string,
  dates: DateContext,
  spent: ReadonlySet<string> = new Set(),
  lists: readonly { start: number; end: number }[] = [],
): Map<string, AssignedNumber> {
  const out = new Map<string, AssignedNumber>();
  const numeric = params.filter((p) => isNumericSchema(p.schema));
  if (numeric.length === 0) return out;
  // The numbers of a list another parameter took are that list's, not single quantities.
  const mentions = numberMentions(text, dates, spent).filter(
    (m) => !lists.some((l) => m.start >= l.start && m.end <= l.end),
  );
  const used = new Set<number>();
  const give = (p: ParameterHints, index: number, cue: string, tied: boolean, converted?: number) => {
    const m = mentions[index];
    if (!m) return;
    if (converted !== undefined) {
      out.set(p.path, { value: converted, cue, tied });
      used.add(index);
      return;
    }
    // "5%" for a rate documented as a decimal ("Enter as a decimal", "in decimal form") is 0.05: the same value. So
    // it is for a real-valued parameter not documented as a percentage (a percentage is a fraction of 100); one
    // documented in percent ("growth_percent", "in percentage") or an integer one keeps the 5.
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    const inPercent = /percent|pct/i.test(p.path) || /\b(?:percent|percentage|pct)\b|%/i.test(description);
    const real = typesOf(p.schema).includes('number');
    const asDecimal =
      m.unit === '%' && (/\b(?:decimal|fraction)\b/i.test(description) || (real && !inPercent));
    out.set(p.path, {
      value: asDecimal ? Math.round(m.value * 1e6) / 1e8 : m.value,
      cue: asDecimal ? `${cue}; ${String(m.value)}% as a decimal` : cue,
      tied,
    });
    used.add(index);
  };

  // 0. A year counted back from now: "three years ago", "the last 3 years", 三年前, 最近两年 for the one parameter
  // named as a year (`year_from`) is the reference year less the count — a count of years is never itself a year.
  const backYearParams = numeric.filter(
    (p) => typesOf(p.schema).includes('integer') && isYearParameter(p.path),
  );
  const backs = yearsBack(text);
  const back = backs.length === 1 ? backs[0] : undefined;
  const backParam = backYearParams.length === 1 ? backYearParams[0] : undefined;
  if (backParam && back) {
    const year = zonedReference(dates).year - back.count;
    const at = mentions.findIndex((m) => m.start >= back.start && m.end <= back.end);
    if (fits(backParam.schema, year)) {
      if (at >= 0) give(backParam, at, `${back.text}: ${String(year)}`, true, year);
      else out.set(backParam.path, { value: year, cue: `${back.text}: ${String(year)}`, tied: true });
    }
  }

  // 1. Unit.
  const unitOf = (p: ParameterHints): string | null => {
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    return unitOfParameter(p.path, description);
  };
  const wants = new Map<string, number[]>();
  for (const p of numeric) {
    const unit = unitOf(p);
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    const money = MONEY_NAME.test(p.path) || MONEY_DESCRIPTION.test(description);
    const hits = mentions
      .map((m, i) => ({ m, i }))
      .filter(
        ({ m }) =>
          fits(p.schema, m.value) &&
          m.unit !== null &&
          (m.unit === unit || (money && CURRENCIES.has(m.unit) && unit === null)),
      );
    const values = new Set(hits.map((h) => h.m.value));
    const first = hits[0];
    if (values.size === 1 && first) wants.set(p.path, [first.i]);
  }
  for (const p of numeric) {
    const index = wants.get(p.path)?.[0];
    if (index === undefined) continue;
    // Two parameters in the same unit and one number of it: the unit does not say whose it is.
    const rivals = [...wants.entries()].filter(([field, at]) => field !== p.path && at[0] === index);
    if (rivals.length > 0) continue;
    const m = mentions[index];
    give(p, index, `unit ${String(m?.unit)}`, true);
  }

  // 1'. An ordered pair in one unit (`initial_temperature` and `final_temperature` "in degree Celsius"; `charge1` and
  // `charge2` in coulombs) with exactly two numbers of that unit left: the unit says they are the pair's, and the
  // order they are written in says which is which ("at 0°C … heated to 100°C").
  for (const [a, b] of orderedPairs(numeric.filter((p) => !out.has(p.path)))) {
    const unit = unitOf(a);
    if (unit === null || unitOf(b) !== unit) continue;
    const hits = mentions.map((m, i) => ({ m, i })).filter(({ m, i }) => !used.has(i) && m.unit === unit);
    const [x, y] = hits;
    if (hits.length !== 2 || !x || !y || !fits(a.schema, x.m.value) || !fits(b.schema, y.m.value)) continue;
    give(a, x.i, `unit ${unit}, the first of the pair`, true);
    give(b, y.i, `unit ${unit}, the second of the pair`, true);
  }

  // 1c. The same quantity in another unit: a parameter documented in seconds takes "3 minutes" as 180, one in inches
  // "5ft 10in" as 70 (a larger unit written right before a smaller one of the same kind is one measurement) — exact
  // factors of the SI and of the international yard and pound, for the one such measurement the request writes.
  for (const p of numeric) {
    const unit = unitOf(p);
    const target = unit === null ? undefined : UNIT_FACTORS[unit];
    if (out.has(p.path) || unit === null || target === undefined) continue;
    if (mentions.some((m, i) => !used.has(i) && m.unit === unit)) continue;
    const same = mentions
      .map((m, i) => ({ m, i, f: m.unit === null ? undefined : UNIT_FACTORS[m.unit] }))
      .filter(
        (h): h is { m: Mention; i: number; f: { dimension: string; factor: number } } =>
          !used.has(h.i) && h.f !== undefined && h.f.dimension === target.dimension,
      );
    const measurements: { indices: number[]; value: number }[] = [];
    for (const h of same) {
      const last = measurements[measurements.length - 1];
      const prev =
        last === undefined ? undefined : same.find((x) => x.i === last.indices[last.indices.length - 1]);
      if (
        last &&
        prev &&
        prev.f.factor > h.f.factor &&
        /^\s*(?:and\s+)?$/.test(text.slice(prev.m.end, h.m.start))
      ) {
        last.indices.push(h.i);
        last.value += h.m.value * h.f.factor;
      } else measurements.push({ indices: [h.i], value: h.m.value * h.f.factor });
    }
    const [only] = measurements;
    if (measurements.length !== 1 || only === undefined) continue;
    // "5ft 10…": a number right after the measurement is a part of it this reading did not take — no value.
    const end = mentions[only.indices[only.indices.length - 1] ?? -1]?.end ?? 0;
    if (/^\s*\d/.test(text.slice(end))) continue;
    const value = Math.round((only.value / target.factor) * 1e9) / 1e9;
    if (!fits(p.schema, value)) continue;
    const [first, ...rest] = only.indices;
    if (first === undefined) continue;
    give(p, first, `converted to ${unit}`, true, value);
    for (const i of rest) used.add(i);
  }

  // 1b. The kind of quantity: a parameter documented in no unit, whose name names a quantity (`acceleration`,
  // `time`, `height`), takes the one number written in a unit of that quantity ("accelerated at 9.8 m/s^2 for 5
  // seconds") — when no other open parameter is of the same kind (an initial and a final velocity are not told apart).
  const kinds = new Map(
    numeric
      .filter((p) => !out.has(p.path) && unitOf(p) === null)
      .map((p) => [p.path, dimensionOf(p.path)] as const)
      .filter((e): e is readonly [string, (unit: string) => boolean] => e[1] !== undefined),
  );
  for (const [field, isOfKind] of kinds) {
    const p = numeric.find((x) => x.path === field);
    const sameKind = [...kinds.values()].filter((k) => k === isOfKind).length;
    const hits = mentions
      .map((m, i) => ({ m, i }))
      .filter(({ m, i }) => !used.has(i) && m.unit !== null && isOfKind(m.unit));
    const only = hits.length === 1 ? hits[0] : undefined;
    if (p && only && sameKind === 1 && fits(p.schema, only.m.value))
      give(p, only.i, `a ${String(only.m.unit)} quantity for the ${field}`, true);
  }

  // 2a. "base and height as 6 and 10": names listed, then their numbers in the same order.
  for (const [field, index] of respectively(
    numeric.filter((p) => !out.has(p.path)),
    mentions,
    used,
    text,
  )) {
    const p = numeric.find((x) => x.path === field);
    if (p) give(p, index, `listed with its name ("${field}")`, true);
  }

  // 2b. Name words beside the number.
  const open = () => mentions.map((m, i) => ({ m, i })).filter(({ i }) => !used.has(i));
  const left = numeric.filter((p) => !out.has(p.path));
  const candidates = open();
  const byName = assignByName(
    left.map((p) => ({ field: p.path, words: nameWords(p.path) })),
    candidates.map(({ m }) => m),
    text,
  );
  for (const p of left) {
    const at = byName.get(p.path);
    const c = at === undefined ? undefined : candidates[at];
    if (c && fits(p.schema, c.m.value)) give(p, c.i, `name "${p.path}" beside it`, true);
  }

  // 2b'. A year: the one parameter named as a year (`year`, `release_year`, not a count of `years`) takes the one
  // number written as a year — four digits, from 1000 to 2999 ("songs from 2022", "turtles in 2020"). The form is the
  // cue: a count or an amount is rarely written so, and two such numbers (a range) settle nothing.
  const yearParams = numeric.filter(
    (p) => !out.has(p.path) && typesOf(p.schema).includes('integer') && isYearParameter(p.path),
  );
  const yearParam = yearParams.length === 1 ? yearParams[0] : undefined;
  if (yearParam) {
    const years = open().filter(({ m }) => isWrittenYear(text, m));
    const only = years.length === 1 ? years[0] : undefined;
    if (only) give(yearParam, only.i, 'the one year written', true);
  }

  // 2c. What the number counts: "ten major events" for a parameter documented as "Number of events to return".
  const counting = numeric.filter((p) => !out.has(p.path) && typesOf(p.schema).includes('integer'));
  const counted = new Map(counting.map((p) => [p.path, countedNouns(p)]));
  const countedBy = (i: number): ParameterHints[] => {
    const m = mentions[i];
    if (!m) return [];
    const after = wordsAfter(text, m.end, 3);
    return counting.filter((p) =>
      (counted.get(p.path) ?? []).some((noun) => after.some((w) => sameWord(w, noun))),
    );
  };
  const openNow = open().map(({ i }) => i);
  for (const p of counting) {
    const hits = openNow.filter((i) => countedBy(i).includes(p));
    const only = hits.length === 1 ? hits[0] : undefined;
    if (only === undefined || countedBy(only).length !== 1) continue;
    const m = mentions[only];
    if (m && Number.isInteger(m.value) && m.value >= 0) give(p, only, `the ${p.path} it counts`, true);
  }

  // 2d. A code the description explains ("For example, 1 for Bangkok, 2 for Chiang Mai"): the request names what the
  // code stands for, and writes no number for the parameter.
  for (const p of numeric) {
    if (out.has(p.path) || !typesOf(p.schema).includes('integer')) continue;
    const coded = describedCode(p, text);
    if (coded)
      out.set(p.path, {
        value: coded.value,
        cue: `the description's code for "${coded.meaning}"`,
        tied: true,
      });
  }

  // 2e. How often ("compounded quarterly", "with monthly compounding"): a parameter that counts times per year (or
  // per period: "The number of times that interest is compounded per unit time") takes the count of the one
  // frequency the request writes — the request writes no number for it.
  for (const p of numeric) {
    if (out.has(p.path) || !typesOf(p.schema).includes('integer')) continue;
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    const perPeriod =
      /\btimes?\b[^.]*\bper\b|\bper (?:year|annum)\b/i.test(description) || /per_?year/i.test(p.path);
    if (!perPeriod) continue;
    const written = [
      ...new Set(
        Object.keys(TIMES_PER_YEAR).filter((w) =>
          new RegExp(String.raw`(?<![\p{L}-])${w}(?![\p{L}-])`, 'iu').test(text),
        ),
      ),
    ];
    const counts = new Set(written.map((w) => TIMES_PER_YEAR[w]));
    const [count] = [...counts];
    if (counts.size === 1 && count !== undefined)
      out.set(p.path, {
        value: count,
        cue: `"${written.join('", "')}": ${String(count)} times a year`,
        tied: true,
      });
  }

  // 2f. "started from rest", "released at rest": the initial velocity (or speed) of a body at rest is 0 — the phrase
  // states the value.
  if (/\b(?:from|at) rest\b/i.test(text))
    for (const p of numeric) {
      const words = nameWords(p.path);
      if (out.has(p.path) || !words.some((w) => ['initial', 'start', 'starting'].includes(w))) continue;
      if (!words.some((w) => ['velocity', 'speed'].includes(w))) continue;
      out.set(p.path, { value: 0, cue: 'a body "at rest" has no velocity', tied: true });
    }

  // 2g. A time on the clock ("at 6:30 PM") for parameters of its hour and its minutes, as written.
  const clock = [...text.matchAll(/(?<![\d:])(\d{1,2}):([0-5]\d)(?![\d:])/g)];
  const only = clock.length === 1 ? clock[0] : undefined;
  if (only) {
    const hour = numeric.find((p) => !out.has(p.path) && /^(?:hours?|hh)$/i.test(leafOf(p.path)));
    const minute = numeric.find((p) => !out.has(p.path) && /^(?:minutes?|mins?|mm)$/i.test(leafOf(p.path)));
    if (hour && minute) {
      out.set(hour.path, { value: Number(only[1]), cue: `the hour of ${only[0]}`, tied: true });
      out.set(minute.path, { value: Number(only[2]), cue: `the minutes of ${only[0]}`, tied: true });
    }
  }

  // 3. Order of mention, for required parameters of one kind and as many numbers as parameters.
  const rest = numeric.filter((p) => !out.has(p.path) && p.required);
  const remaining = open();
  if (rest.length > 0 && rest.length === remaining.length) {
    const kinds = new Set(rest.map((p) => typesOf(p.schema).join('|')));
    const allFit = rest.every((p, k) => fits(p.schema, remaining[k]?.m.value ?? Number.NaN));
    if ((kinds.size === 1 || rest.length === 1) && allFit)
      rest.forEach((p, k) => {
        const r = remaining[k];
        if (r)
          give(
            p,
            r.i,
            rest.length === 1
              ? 'the one number left'
              : `order of mention (${String(k + 1)} of ${String(rest.length)})`,
            false,
          );
      });
  }
  return out;
}

const YEARS_BACK_EN =
  /\b(?:(\d{1,2}|[a-z]+)\s+years?\s+ago|(?:the\s+)?(?:last|past|previous)\s+(\d{1,2}|[a-z]+)\s+years?)\b/giu;
const YEARS_BACK_ZH = new RegExp(
  String.raw`([\d${NUMERAL_CHARS}]{1,3})\s*年(?:以前|之前|前)|(?:最近|近|过去)\s*([\d${NUMERAL_CHARS}]{1,3})\s*年`,
  'gu',
);

// A past year named by its distance from this one, as the start of a period up to now: 去年以来, 前年起, 大前年至今,
// "since last year", "since the year before last". (Chinese names the last three years: 去年, 前年, 大前年.)
const NAMED_YEARS_BACK: Readonly<Record<string, number>> = {
  去年: 1,
  前年: 2,
  大前年: 3,
  'last year': 1,
  'the year before last': 2,
};
const NAMED_YEAR_SINCE =
  /(大前年|前年|去年)(?:以来|起|开始|至今|到现在|到今天)|\b(?:since|from)\s+(last\s+year|the\s+year\s+before\s+last)\b/giu;

/**
 * The counts of years back from now a text writes ("3 years ago", "the past two years", 三年前, 近两年, 前年以来, "since
 * last year").
 */
export function yearsBack(text: string): { count: number; text: string; start: number; end: number }[] {
  const out: { count: number; text: string; start: number; end: number }[] = [];
  const add = (written: string | undefined, m: RegExpMatchArray, zh: boolean) => {
    if (!written) return;
    const count = /^\d+$/.test(written)
      ? Number(written)
      : zh
        ? chineseNumerals(`${written}年`)[0]?.value
        : NUMBER_WORDS[written.toLowerCase()];
    if (count !== undefined && Number.isInteger(count) && count > 0 && count < 100)
      out.push({ count, text: m[0], start: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  };
  for (const m of text.matchAll(YEARS_BACK_EN)) add(m[1] ?? m[2], m, false);
  for (const m of text.matchAll(YEARS_BACK_ZH)) add(m[1] ?? m[2], m, true);
  for (const m of text.matchAll(NAMED_YEAR_SINCE)) {
    const named = (m[1] ?? m[2] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const count = NAMED_YEARS_BACK[named];
    if (count !== undefined) out.push({ count, text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** A parameter named as a year (`year`, `release_year`, `yearOfBirth`); `years` counts them. */
export function isYearParameter(path: string): boolean {
  return nameWords(path.slice(path.lastIndexOf('.') + 1)).includes('year');
}

/** A number written as a year: four digits alone, 1000 to 2999 (not "1,999", "2022.5" or a part of "12022"). */
function isWrittenYear(text: string, m: Mention): boolean {
  return (
    m.unit === null &&
    /^[12]\d{3}$/.test(text.slice(m.start, m.end)) &&
    !/[\d.,]$/.test(text.slice(0, m.start)) &&
    !/^[.,]?\d/.test(text.slice(m.end))
  );
}

// Function words that end the phrase a count is of ("number of events to return", "count of rooms in the hotel").
const COUNT_PHRASE_END =
  /^(?:to|in|for|of|on|at|by|with|per|that|which|the|a|an|and|or|be|is|are|returned|default)$/;

/**
 * What an integer parameter counts, read from its description: the words after "number of", "count of", "how many"
 * or "top n" ("The number of events to return" → events; "Top n banks" → banks).
 */
function countedNouns(p: ParameterHints): string[] {
  const description = typeof p.schema.description === 'string' ? p.schema.description : '';
  const nouns: string[] = [];
  for (const m of description.matchAll(
    /\b(?:number|count|quantity) of\s+(?:the\s+)?|\bhow many\s+|\btop n\s+/gi,
  )) {
    const words = description
      .slice(m.index + m[0].length)
      .toLowerCase()
      .split(/[^a-z]+/);
    for (const w of words.slice(0, 3)) {
      if (w === '' || COUNT_PHRASE_END.test(w)) break;
      if (w.length >= 3) nouns.push(w);
    }
  }
  return nouns;
}

// "1 represents cleaning service", "2 for Chiang Mai", "3 = express", "4: weekly", "5 means archived".
const DESCRIBED_CODE =
  /(?<![\d.])(\d+)\s*(?:represents|means|stands for|is for|for|=|:)\s*(?:an?\s+|the\s+)?(\p{L}[\p{L}' -]*?)(?=\s*(?:[,.;)]|\band\b|\bor\b|\betc\b|$))/giu;

/**
 * The code of an integer parameter whose description explains its codes ("1 for Bangkok, 2 for Chiang Mai"), when the
 * request names exactly one of their meanings — by the words that tell the meanings apart ("ironing" of "ironing
 * service", not the "service" they share). Needs two or more codes, so a lone example is no closed list.
 */
function describedCode(p: ParameterHints, text: string): { value: number; meaning: string } | undefined {
  const description = typeof p.schema.description === 'string' ? p.schema.description : '';
  const codes = [...description.matchAll(DESCRIBED_CODE)].map((m) => ({
    value: Number(m[1]),
    meaning: (m[2] ?? '').trim(),
    words: nameWords(m[2] ?? '').filter((w) => w.length >= 3),
  }));
  if (new Set(codes.map((c) => c.value)).size < 2) return undefined;
  const shared = (w: string) => codes.every((c) => c.words.includes(w));
  const requestWords = nameWords(text);
  const named = codes.filter((c) => {
    const own = c.words.filter((w) => !shared(w));
    return own.length > 0 && own.every((w) => requestWords.some((r) => sameWord(r, w)));
  });
  const values = new Set(named.map((c) => c.value));
  const first = named[0];
  return values.size === 1 && first ? { value: first.value, meaning: first.meaning } : undefined;
}

/** The first `n` words written after offset `at`, lower-cased, up to the end of the clause. */
function wordsAfter(text: string, at: number, n: number): string[] {
  const clause = text.slice(at).split(/[,.;:!?()]/)[0] ?? '';
  return clause
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '')
    .slice(0, n);
}

/**
 * Names listed and then their numbers in the same order ("its base and height as 6cm and 10cm", "width, depth and
 * height of 2, 3 and 4"): a run of two or more numbers joined by "and" or commas, right after a list of as many
 * parameter names (each naming exactly one parameter). Returns field → mention index.
 */
function respectively(
  params: readonly ParameterHints[],
  mentions: readonly Mention[],
  used: ReadonlySet<number>,
  text: string,
): Map<string, number> {
  const out = new Map<string, number>();
  let i = 0;
  while (i < mentions.length) {
    const group = [i];
    while (i + 1 < mentions.length) {
      const a = mentions[i];
      const b = mentions[i + 1];
      if (!a || !b || !/^\s*(?:,|and|,\s*and)\s*$/i.test(text.slice(a.end, b.start))) break;
      group.push(++i);
    }
    i++;
    const first = mentions[group[0] ?? 0];
    if (group.length < 2 || !first || group.some((g) => used.has(g))) continue;
    const lead =
      text
        .slice(0, first.start)
        .split(/[.;:!?]/)
        .pop() ?? '';
    const trimmed = lead
      .replace(/(?:\s+(?:as|are|is|of|be|respectively|equal to|=|the|were|was|to))+\s*$/i, '')
      .trim();
    const segments = trimmed.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).slice(-group.length);
    if (segments.length !== group.length) continue;
    const fields = segments.map((segment) => {
      const last =
        segment
          .toLowerCase()
          .split(/[^a-z0-9]+/)
          .filter(Boolean)
          .pop() ?? '';
      const named = params.filter((p) => nameWords(p.path).some((w) => w.length > 1 && sameWord(last, w)));
      return named.length === 1 ? named[0]?.path : undefined;
    });
    if (fields.some((f) => f === undefined) || new Set(fields).size !== fields.length) continue;
    fields.forEach((f, k) => {
      const at = group[k];
      if (f !== undefined && at !== undefined) out.set(f, at);
    });
  }
  return out;
}

/** A parameter's name words with its place in an ordered pair taken out: `initial_temperature` → first, temperature. */
function pairPlace(path: string): { place: number; rest: string; pair: number } | undefined {
  const digit = /^(.*?)_?([12])$/.exec(path);
  if (digit?.[1] && digit[2])
    return { place: Number(digit[2]) - 1, rest: nameWords(digit[1]).join(' '), pair: -1 };
  const words = nameWords(path);
  for (const [pair, ends] of ORDERED_PAIRS.entries())
    for (const [place, end] of ends.entries()) {
      const at = words.indexOf(end);
      if (at === -1) continue;
      return { place, rest: words.filter((_, i) => i !== at).join(' '), pair };
    }
  return undefined;
}

/** The ordered pairs among `params` (`initial_x` before `final_x`, `x1` before `x2`): same words but the place word. */
function orderedPairs(params: readonly ParameterHints[]): [ParameterHints, ParameterHints][] {
  const placed = params.map((p) => ({ p, at: pairPlace(p.path) }));
  const out: [ParameterHints, ParameterHints][] = [];
  for (const first of placed)
    for (const second of placed) {
      const [f, s] = [first.at, second.at];
      if (!f || !s || f.place !== 0 || s.place !== 1 || f.pair !== s.pair || f.rest !== s.rest) continue;
      out.push([first.p, second.p]);
    }
  return out;
}

/** The last part of a parameter path (`a.b.hours` → `hours`). */
function leafOf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}
