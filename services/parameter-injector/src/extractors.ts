// Deterministic extractors (PI-2): pull typed values out of the user's words. Each returns every candidate it
// finds, in text order; the caller decides (one candidate = a value, several = ambiguous, none = missing) — an
// extractor never guesses between candidates.
import { EMAIL_PATTERN, halfwidth, phoneCandidates } from '@signalbox/telemetry/sensitive-text';
import { chineseNumerals } from './chinese-numerals.js';
import { CHINESE_CLASSIFIERS, NUMBER_WORDS, ONE_AS_PRONOUN_BEFORE } from './parameter-vocabulary.js';
import { ONE_CHARACTER_FUNCTION_WORDS } from './chinese-surnames.js';

/** A value found in text, with the text it came from. */
export interface Extracted<T> {
  value: T;
  text: string;
  index: number;
}

// The full-width forms, the e-mail pattern and the phone rule are the sensitive-value detector's (RS-6): one rule, so
// what the injector reads as a phone or an address is exactly what the event log masks as one.
export { halfwidth };

/** E-mail addresses, lower-cased (the domain is case-insensitive; mailboxes almost always are in practice). */
export function extractEmails(text: string): Extracted<string>[] {
  return [...halfwidth(text).matchAll(EMAIL_PATTERN)].map((m) => ({
    value: m[0].replace(/\.$/, '').toLowerCase(),
    text: m[0],
    index: m.index,
  }));
}

/** Phone numbers, as `+` and digits (E.164 when a country code was written). Dates and plain short numbers are not phones. */
export function extractPhones(original: string): Extracted<string>[] {
  return phoneCandidates(halfwidth(original)).map(({ start, raw }) => ({
    value: normalizePhone(raw),
    text: original.slice(start, start + raw.length),
    index: start,
  }));
}

/** `+86 138-0013-8000` → `+8613800138000`; without a `+` the digits only. */
export function normalizePhone(raw: string): string {
  const digits = raw.replace(/\D/g, '');
  return raw.trim().startsWith('+') ? `+${digits}` : digits;
}

/** A number with the unit written after (or the currency sign before) it, when there was one. */
export interface Quantity {
  value: number;
  /** Canonical unit (`kg`, `km`, `usd`, `%`, …), or null for a bare number. */
  unit: string | null;
}

// Units people write, mapped to one canonical spelling per unit. Longest spellings first so "km" is not read as "k".
const UNIT_SYNONYMS: Readonly<Record<string, string>> = {
  kilograms: 'kg',
  kilogram: 'kg',
  kgs: 'kg',
  kg: 'kg',
  grams: 'g',
  gram: 'g',
  g: 'g',
  pounds: 'lb',
  pound: 'lb',
  lbs: 'lb',
  lb: 'lb',
  kilometers: 'km',
  kilometres: 'km',
  kilometer: 'km',
  kilometre: 'km',
  km: 'km',
  miles: 'mi',
  mile: 'mi',
  mi: 'mi',
  meters: 'm',
  metres: 'm',
  meter: 'm',
  metre: 'm',
  m: 'm',
  centimeters: 'cm',
  cm: 'cm',
  feet: 'ft',
  foot: 'ft',
  ft: 'ft',
  inches: 'in',
  inch: 'in',
  hours: 'h',
  hour: 'h',
  hrs: 'h',
  h: 'h',
  minutes: 'min',
  minute: 'min',
  mins: 'min',
  min: 'min',
  seconds: 's',
  second: 's',
  secs: 's',
  days: 'day',
  day: 'day',
  weeks: 'week',
  week: 'week',
  months: 'month',
  month: 'month',
  years: 'year',
  year: 'year',
  yrs: 'year',
  percent: '%',
  '%': '%',
  dollars: 'usd',
  dollar: 'usd',
  usd: 'usd',
  euros: 'eur',
  euro: 'eur',
  eur: 'eur',
  yuan: 'cny',
  rmb: 'cny',
  cny: 'cny',
  '°c': 'celsius',
  '℃': 'celsius',
  celsius: 'celsius',
  '°f': 'fahrenheit',
  '℉': 'fahrenheit',
  fahrenheit: 'fahrenheit',
  // The Chinese names of the same units (GB 3100-1993, the national standard's names of SI and accepted units; the
  // everyday names of currencies): the unit is written right after the number, with no space (5公斤, 299元).
  公斤: 'kg',
  千克: 'kg',
  克: 'g',
  公里: 'km',
  千米: 'km',
  厘米: 'cm',
  米: 'm',
  英里: 'mi',
  英尺: 'ft',
  英寸: 'in',
  小时: 'h',
  个小时: 'h',
  個小時: 'h',
  小時: 'h',
  钟头: 'h',
  个钟头: 'h',
  分钟: 'min',
  分鐘: 'min',
  秒钟: 's',
  秒: 's',
  天: 'day',
  摄氏度: 'celsius',
  攝氏度: 'celsius',
  华氏度: 'fahrenheit',
  華氏度: 'fahrenheit',
  元: 'cny',
  块钱: 'cny',
  塊錢: 'cny',
  块: 'cny',
  塊: 'cny',
  人民币: 'cny',
  美元: 'usd',
  美金: 'usd',
  欧元: 'eur',
  歐元: 'eur',
  英镑: 'gbp',
  英鎊: 'gbp',
};
const CURRENCY_SIGNS: Readonly<Record<string, string>> = {
  $: 'usd',
  '€': 'eur',
  '¥': 'cny',
  '£': 'gbp',
  人民币: 'cny',
};
const UNIT_ALTERNATION = Object.keys(UNIT_SYNONYMS)
  .sort((a, b) => b.length - a.length)
  // Unit spellings are letters, `%` and `°`: nothing to escape in a `u` pattern.
  .join('|');
// "5 kg", "5kg", and the adjective "a 0.5-second window", "a 5-day forecast".
const UNIT_AFTER = new RegExp(String.raw`^(?:\s?|-)(${UNIT_ALTERNATION})(?![A-Za-z])`, 'iu');

// The unit a rate or an acceleration is divided by ("meters/second", "m/s^2", "miles per hour"): the time units, with
// the SI symbol `s` that is too short to be a unit of its own in running text.
const DENOMINATORS: Readonly<Record<string, string>> = {
  seconds: 's',
  second: 's',
  secs: 's',
  sec: 's',
  s: 's',
  minutes: 'min',
  minute: 'min',
  min: 'min',
  hours: 'h',
  hour: 'h',
  hr: 'h',
  h: 'h',
};
const DENOMINATOR_ALTERNATION = Object.keys(DENOMINATORS)
  .sort((a, b) => b.length - a.length)
  .join('|');
const PER_UNIT = String.raw`\s*(?:\/|\s+per\s+)\s*(${DENOMINATOR_ALTERNATION})(\^\s?2|²|\s+squared)?(?![A-Za-z])`;
const PER_AFTER = new RegExp(String.raw`^${PER_UNIT}`, 'iu');
const COMPOUND_UNIT = new RegExp(String.raw`(?<![A-Za-z])(${UNIT_ALTERNATION})${PER_UNIT}`, 'iu');

/**
 * The compound unit written when `unit` is followed by "/second", "/s^2" or "per hour" in `after` ("m" + "/s^2" →
 * `m/s^2`), with the length written; undefined when `unit` stands alone. A speed and an acceleration are then no
 * longer both "meters".
 */
function perUnit(unit: string, after: string): { unit: string; length: number } | undefined {
  const m = PER_AFTER.exec(after);
  const per = m?.[1] ? DENOMINATORS[m[1].toLowerCase()] : undefined;
  return m && per ? { unit: `${unit}/${per}${m[2] ? '^2' : ''}`, length: m[0].length } : undefined;
}

// English scale words after a number ("213 million"); the Chinese ones (万, 亿) are read with the Chinese numerals.
const SCALES: Readonly<Record<string, number>> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
};
const QUANTITY = new RegExp(
  String.raw`(?<![\w.\-/:^])([$€¥£]|人民币)?\s?(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?:\s?(thousand|million|billion|trillion)(?![A-Za-z]))?(?:(?:\s?|-)(${UNIT_ALTERNATION})(?![A-Za-z]))?`,
  'giu',
);
// Units whose spelling starts with a numeral character (千米 "kilometre", 千克 "kilogram"): a numeral ends before them.
const UNITS_STARTING_WITH_NUMERALS = Object.keys(UNIT_SYNONYMS).filter((u) => /^[十百千万萬亿億]/u.test(u));
// Sentence particles and 的 after 块: "两百块的" / "两百块吧" are money; "两块蛋糕" ("two pieces of cake") is a count.
const AFTER_MONEY_KUAI = /^[钱錢的了吧吗嗎呢啊呀哦]/u;
const HAN = /^\p{Script=Han}/u;
const FUNCTION_WORDS: ReadonlySet<string> = new Set(ONE_CHARACTER_FUNCTION_WORDS);

/**
 * The canonical unit written at `text[at]` (longest spelling first), with its written length; 块 counts as money only
 * when no noun follows it (两百块 is ¥200, 两块蛋糕 two pieces of cake). Undefined when no unit is written there.
 */
function unitAt(text: string, at: number): { unit: string; length: number } | undefined {
  const m = UNIT_AFTER.exec(text.slice(at));
  const written = m?.[1];
  if (!m || !written) return undefined;
  const after = text.slice(at + m[0].length);
  // A one-character word of grammar after 块 (就, 也, 给 …) is no noun it could count: "退我80块就行" is ¥80.
  if (
    (written === '块' || written === '塊') &&
    HAN.test(after) &&
    !AFTER_MONEY_KUAI.test(after) &&
    !FUNCTION_WORDS.has(after.charAt(0))
  )
    return undefined;
  const unit = UNIT_SYNONYMS[written.toLowerCase()];
  return unit ? { unit, length: m[0].length } : undefined;
}

const CLASSIFIERS = new Set(CHINESE_CLASSIFIERS);

/**
 * Chinese numerals with their unit (两百块 → 200 cny, 百分之十七 → 17 %, 3万元 → 30000 cny, 三件 → 3). A numeral of
 * one character is a number only before a unit or a classifier: in 统一, 一起, 十分 it is part of a word.
 */
function chineseQuantities(text: string): Extracted<Quantity>[] {
  const out: Extracted<Quantity>[] = [];
  for (const n of chineseNumerals(text, UNITS_STARTING_WITH_NUMERALS)) {
    const end = n.index + n.text.length;
    const unit = n.percent ? { unit: '%', length: 0 } : unitAt(text, end);
    if (n.single && !unit && !CLASSIFIERS.has(text[end] ?? '')) continue;
    out.push({
      value: { value: n.value, unit: unit?.unit ?? null },
      text: text.slice(n.index, end + (unit?.length ?? 0)),
      index: n.index,
    });
  }
  return out;
}

// The symbols of the International System of Units (BIPM, The International System of Units, 9th ed., tables 2
// and 4: m, g, s, A, K, mol, Hz, N, Pa, J, W, C, V, Ω, T; with L and the eV, Wh in use with the SI) with an optional
// SI prefix (k, M, G, m, μ, c, n), optionally "/ symbol" and a power ("m/s^2", "J/K").
const SI_SYMBOL = String.raw`[kMGmμcn]?(?:mol|Hz|Pa|eV|Wh|[mgsAKNJWCVLΩT])`;
const SI_SYMBOL_AFTER = new RegExp(
  String.raw`^${SI_SYMBOL}(?:\^-?\d)?(?:\/${SI_SYMBOL}(?:\^-?\d)?)?(?![\p{L}\p{N}])`,
  'u',
);

/**
 * Numbers (in scientific notation too, `1e-9`), with their unit when one follows (`5 kg`, `3.5km`, `20%`, `299元`) or a currency sign precedes (`$20`,
 * `¥299`). Thousands separators and scale words are understood (`1,234.5`, `213 million`), and so are Chinese
 * numerals (`两千三百四十`, `1.5万`, `百分之十七`, `两百块`) and full-width digits. Digits inside ids, dates and
 * times are not numbers.
 */
export function extractQuantities(original: string): Extracted<Quantity>[] {
  const text = halfwidth(original);
  const chinese = chineseQuantities(text);
  const out: Extracted<Quantity>[] = [...chinese];
  for (const m of text.matchAll(QUANTITY)) {
    // Digits a Chinese numeral took ("3万", "1.5万元") are read with it.
    if (chinese.some((c) => m.index < c.index + c.text.length && m.index + m[0].length > c.index)) continue;
    const end = m.index + m[0].length;
    const next = text.slice(end, end + 2);
    // Part of a date, time, version or id: not a quantity. A full stop that ends the sentence ("… 4 and 5.") is not
    // a decimal point or a version separator.
    // An SI symbol written against the number ("300K", "5J/K", "440Hz", "4 m/s^2") is its unit, not an id's letters.
    const symbol = m[4] ? null : SI_SYMBOL_AFTER.exec(text.slice(end));
    const decade = symbol?.[0] === 's' && /^\d{3}0$/.test(m[2] ?? '');
    // "a 2-bedroom apartment", "a 5-star hotel": a number joined to the word it counts is a quantity, not an id.
    const compound = /^-\p{Ll}{3,}/u.test(text.slice(end, end + 4));
    if (
      /^[\d/:.\-_A-Za-z]/.test(next) &&
      !/^[.:](?:\s|$)/.test(next) &&
      !m[4] &&
      (!symbol || decade) &&
      !compound
    )
      continue;
    const numberText = m[2] ?? '';
    const scale = m[3] ? (SCALES[m[3].toLowerCase()] ?? 1) : 1;
    const value = Number(numberText.replace(/,/g, '')) * scale;
    if (!Number.isFinite(value)) continue;
    const sign = m[1];
    // The unit stands at the end of the match; 块 before a noun is a classifier ("2块蛋糕"), not yuan.
    const unitStart = end - (m[4]?.length ?? 0);
    const single = m[4] ? unitAt(text, unitStart) : undefined;
    const per = single ? perUnit(single.unit, text.slice(end)) : undefined;
    const written = per ?? single;
    const unit = sign ? (CURRENCY_SIGNS[sign] ?? null) : (written?.unit ?? null);
    const spelled =
      m[4] && !written
        ? text.slice(m.index, unitStart)
        : m[0] + (per ? text.slice(end, end + per.length) : '');
    out.push({
      value: { value, unit },
      text: spelled.trim(),
      index: m.index + (spelled.length - spelled.trimStart().length),
    });
  }
  return out.sort((a, b) => a.index - b.index);
}

const UNITS_WORDS = Object.keys(NUMBER_WORDS).filter(
  (w) => NUMBER_WORDS[w] !== undefined && NUMBER_WORDS[w] < 10,
);
const TENS_WORDS = Object.keys(NUMBER_WORDS).filter((w) => (NUMBER_WORDS[w] ?? 0) >= 20);
const NUMBER_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}-])(?:(?:(half\s+)?an?\s+)?(dozen)|(${TENS_WORDS.join('|')})(?:[-\s](${UNITS_WORDS.join('|')}))?|(${Object.keys(NUMBER_WORDS).join('|')}))(?![\p{L}\p{N}]|-(?!\p{Ll}{3}))`,
  'giu',
);
const ORDINAL = /(?<![\p{L}\p{N}.\-/:])(\d+)(?:st|nd|rd|th)(?![\p{L}\p{N}])/giu;

const UNIT_AT_END = new RegExp(String.raw`(?:${UNIT_ALTERNATION})$`, 'iu');

/** The unit part of a quantity's text ("4 inches" → "inches", "25摄氏度" → "摄氏度", "5千米" → "千米"), or "". */
export function writtenUnit(quantityText: string): string {
  return UNIT_AT_END.exec(quantityText.trim())?.[0] ?? '';
}
const PRONOUN_ONE_BEFORE = new Set(ONE_AS_PRONOUN_BEFORE);

/** True when the rest of the sentence `after` a numeral writes a run of exactly `count` numbers ("40 and 50"). */
function countsWhatFollows(after: string, count: number): boolean {
  const sentence = after.split(/[.!?](?:\s|$)|;/)[0] ?? '';
  const NUM = String.raw`-?\d+(?:[.,]\d+)?(?:\s*(?!and\b)[\p{L}%°/^]+)?`;
  const run = new RegExp(String.raw`(?<![\w.])${NUM}(?:\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)${NUM})*`, 'gu');
  return [...sentence.matchAll(run)].some((m) => (m[0].match(/-?\d+(?:[.,]\d+)?/g) ?? []).length === count);
}

/**
 * Numbers written as English words ("two nights", "twenty-five", "a dozen", "half a dozen") and as ordinal digits
 * ("the 19th century", "the 93rd percentile"), with a unit when one follows. "one" is a count only when it is not a
 * pronoun: not after a determiner ("the one", "which one") and not before "of" ("one of them").
 */
export function extractNumberWords(text: string): Extracted<Quantity>[] {
  const out: Extracted<Quantity>[] = [];
  for (const m of text.matchAll(NUMBER_WORD)) {
    const lower = m[0].toLowerCase();
    let value: number;
    if (m[2]) value = m[1] ? 6 : 12;
    else if (m[3])
      value = (NUMBER_WORDS[m[3].toLowerCase()] ?? 0) + (m[4] ? (NUMBER_WORDS[m[4].toLowerCase()] ?? 0) : 0);
    else value = NUMBER_WORDS[lower] ?? Number.NaN;
    if (!Number.isFinite(value)) continue;
    const end = m.index + m[0].length;
    // A capitalised numeral inside a sentence is part of a name ("Toy Story Four", "Apollo Eleven"), not a count.
    if (/^\p{Lu}/u.test(m[0]) && !/(?:^|[.!?:]\s*|["'“‘(]\s*)$/u.test(text.slice(0, m.index).trimEnd()))
      continue;
    // "two numbers: 40 and 50", "its three sides are 5, 4 and 3": the numeral counts the numbers that follow.
    if (value >= 2 && countsWhatFollows(text.slice(end), value)) continue;
    if (lower === 'one') {
      const before = /([\p{L}-]+)\s+$/u.exec(text.slice(0, m.index))?.[1]?.toLowerCase();
      if ((before && PRONOUN_ONE_BEFORE.has(before)) || /^\s+(?:of|another)\b/i.test(text.slice(end)))
        continue;
    }
    const unit = UNIT_AFTER.exec(text.slice(end));
    out.push({
      value: { value, unit: unit?.[1] ? (UNIT_SYNONYMS[unit[1].toLowerCase()] ?? null) : null },
      text: unit ? m[0] + unit[0] : m[0],
      index: m.index,
    });
  }
  for (const m of text.matchAll(ORDINAL))
    out.push({ value: { value: Number(m[1]), unit: null }, text: m[0], index: m.index });
  return out.sort((a, b) => a.index - b.index);
}

/** The canonical unit a parameter is expressed in, from its name (`weight_kg`) or description ("in kilograms"). */
export function unitOfParameter(name: string, description: string | undefined): string | null {
  const suffix = /_(kg|g|lb|km|mi|m|cm|ft|h|min|s|usd|eur|cny|days?|percent|pct)$/i.exec(name);
  if (suffix?.[1]) {
    const s = suffix[1].toLowerCase();
    return s === 'pct' || s === 'percent' ? '%' : (UNIT_SYNONYMS[s] ?? s);
  }
  // A count of time units: a parameter named by the unit (`days`, `hours`) or documented as the number of them
  // ("Number of days for which to retrieve data") counts in that unit — "for the next three days" is 3 of them.
  const counted =
    /^(?:.*_)?(days|hours|weeks|months|years|minutes|seconds)$/i.exec(name)?.[1] ??
    /^\s*(?:the\s+)?number of (days|hours|weeks|months|years|minutes|seconds)\b/i.exec(
      description ?? '',
    )?.[1];
  if (counted) return UNIT_SYNONYMS[counted.toLowerCase()] ?? null;
  // "The acceleration of the object in meters/second^2", "Acceleration of the object, m/s^2.": a compound unit the
  // description writes is the parameter's.
  const compound = COMPOUND_UNIT.exec(description ?? '');
  const base = compound?.[1] ? UNIT_SYNONYMS[compound[1].toLowerCase()] : undefined;
  if (compound && base) {
    const per = perUnit(base, (description ?? '').slice(compound.index + (compound[1] ?? '').length));
    if (per) return per.unit;
  }
  // "Distance in miles"; in Chinese the unit is named after 单位 or in brackets ("重量（公斤）", "单位：元").
  const inUnit =
    // "in degree Celsius", "in degrees Fahrenheit": the degree is the scale's.
    new RegExp(String.raw`\bin\s+(?:degrees?\s+)?(${UNIT_ALTERNATION})\b`, 'i').exec(description ?? '') ??
    new RegExp(
      String.raw`(?:单位|單位)\s*[:：是为為]?\s*(${UNIT_ALTERNATION})|[（(](${UNIT_ALTERNATION})[）)]`,
      'u',
    ).exec(description ?? '');
  const written = inUnit?.[1] ?? inUnit?.[2];
  return written ? (UNIT_SYNONYMS[written.toLowerCase()] ?? null) : null;
}

// Tokens an id can be: letters, digits and `-_./#:` between separators (CJK characters separate tokens too).
const TOKEN = /[A-Za-z0-9][A-Za-z0-9_\-./#:]*[A-Za-z0-9]|[A-Za-z0-9]/g;

/**
 * Ids by pattern: every token of the text that matches `pattern` as a whole (the parameter's JSON Schema `pattern`,
 * anchored or not). Without a pattern, tokens that look like ids: at least 4 characters with a digit, or prefixed
 * like `ORD-123`.
 */
export function extractIds(text: string, pattern?: string): Extracted<string>[] {
  let test: (token: string) => boolean;
  if (pattern !== undefined) {
    const body = pattern.replace(/^\^/, '').replace(/\$$/, '');
    const whole = new RegExp(`^(?:${body})$`, 'u');
    test = (token) => whole.test(token);
  } else {
    test = (token) => /\d/.test(token) && (token.length >= 4 || /^[A-Za-z]+[-_#]\d+$/.test(token));
  }
  const plain = halfwidth(text);
  return (
    [...plain.matchAll(TOKEN)]
      // The halves of an e-mail address ("wangfang88@example.com") are its parts, never an id of their own.
      .filter((m) => plain[m.index + m[0].length] !== '@' && plain[m.index - 1] !== '@')
      .map((m) => ({
        value: m[0].replace(/[.:]+$/, ''),
        text: text.slice(m.index, m.index + m[0].length),
        index: m.index,
      }))
      .filter((t) => test(t.value))
  );
}

/** Lower-case, with `_`, `-` and runs of spaces read as one space: how enum values and synonyms are compared. */
export function enumKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

// A letter or digit of a script written with spaces between words: Chinese and Japanese characters are not, so "用F"
// and "F的" write the synonym "f" as a word of its own.
const WORD_CHAR = String.raw`(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])`;

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The pattern of an English spelling with its regular inflections: a last word of four or more letters also matches
 * with an -s / -es / -ed / -d / -ing ending ("delay" reads "delays" and "delayed", "damage" "damaged" and
 * "damaging"), and the adjective made with -al ("musical" for `Music`), so a synonym written in its base form is found
 * inflected. The written form is the shortest matched:
 * "refunded" never reads "refund".
 */
function inflected(spelling: string): string {
  if (!/[a-z]{4,}$/.test(spelling)) return escapeRegExp(spelling);
  const base = spelling.endsWith('e')
    ? `${escapeRegExp(spelling.slice(0, -1))}(?:e|ing)`
    : escapeRegExp(spelling);
  // "musical events" name `Music`: the adjective made with -al is of the same word.
  return `${base}(?:s|es|ed|d|ing|al)?`;
}

/** Whether two different words are one edit apart: a letter inserted, deleted or replaced, or two adjacent swapped. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  if (a.length === b.length)
    return (
      a.slice(i + 1) === b.slice(i + 1) ||
      (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2))
    );
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

// The zone names of the IANA time zone database, as the runtime's ICU data lists them.
const IANA_ZONES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('timeZone'));

// Periods a closed set may offer (a search's recency: day, week, month, year), with their length in days (a month the
// mean of a year's, so that twelve of them make a year).
const PERIOD_DAYS: Readonly<Record<string, number>> = { day: 1, week: 7, month: 30.5, year: 366 };

/**
 * A period value named with a count of more than one before it ("the last 12 months", "past two weeks") names a span
 * of that many periods, not one period: it is read as the shortest period the set offers that covers the span (12
 * months → year, two weeks → month), and as no value when none does ("the last 3 years" of a set ending at year).
 */
function spanOfPeriods(
  haystack: string,
  mentions: Extracted<string | number | boolean>[],
  values: readonly unknown[],
): void {
  const periods = values.filter(
    (v): v is string => typeof v === 'string' && PERIOD_DAYS[enumKey(v)] !== undefined,
  );
  if (periods.length === 0) return;
  for (let i = mentions.length - 1; i >= 0; i--) {
    const m = mentions[i];
    const unit = m && typeof m.value === 'string' ? PERIOD_DAYS[enumKey(m.value)] : undefined;
    if (!m || unit === undefined || !/^[a-z]/.test(m.text)) continue;
    const written = /(\d+|[a-z]+)\s+$/.exec(haystack.slice(0, m.index))?.[1] ?? '';
    const count = /^\d+$/.test(written) ? Number(written) : NUMBER_WORDS[written];
    if (count === undefined || count <= 1) continue;
    const covering = periods
      .filter((p) => (PERIOD_DAYS[enumKey(p)] ?? 0) >= count * unit)
      .sort((a, b) => (PERIOD_DAYS[enumKey(a)] ?? 0) - (PERIOD_DAYS[enumKey(b)] ?? 0))[0];
    if (covering === undefined) mentions.splice(i, 1);
    else mentions[i] = { ...m, value: covering };
  }
}

/**
 * Enum values mentioned in text: an enum value or a declared synonym (compared as {@link enumKey}), as whole words
 * for Latin script and as substrings for CJK. Returns the canonical values found, each once, in text order.
 *
 * A mention inside a longer mention is not one of its own: "like new" names `Like New`, not also `New`; "a hill
 * road" with values `road` and `hill road` names `hill road` only. A value of one letter or digit (`A`, `G`, `3`)
 * is matched only as written (case-sensitive) and not as a sentence's first word, so the article "a" (or "A …"
 * opening a sentence) is no value `A`.
 */
// Chinese negation adverbs, with the degree words that may follow them (不是很, 不太, 没那么): what follows is denied.
const ZH_NEGATION = String.raw`(?:不|别|没|无需|不用|不必)(?:是|那么|怎么|太|很|是很|是太)?`;

export function extractEnumValues(
  text: string,
  values: readonly unknown[],
  synonyms: Readonly<Record<string, string | number | boolean>>,
): Extracted<string | number | boolean>[] {
  const spellings = new Map<string, string | number | boolean>();
  const exact = new Map<string, string | number | boolean>();
  for (const v of values)
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
      const written = String(v).trim();
      if (/^[\p{L}\p{N}]$/u.test(written)) exact.set(written, v);
      else spellings.set(enumKey(written), v);
    }
  // A time zone of the IANA database is named after its principal city ("Europe/London", "America/New_York"): the
  // request names the zone when it names the city ("at 8pm London time").
  for (const v of values)
    if (typeof v === 'string' && v.includes('/') && IANA_ZONES.has(v)) {
      const city = enumKey(v.slice(v.lastIndexOf('/') + 1));
      if (!spellings.has(city)) spellings.set(city, v);
    }
  for (const [word, canonical] of Object.entries(synonyms)) spellings.set(enumKey(word), canonical);
  const haystack = enumKey(text);
  const mentions: Extracted<string | number | boolean>[] = [];
  const negated: { start: number; end: number }[] = [];
  const collect = (pattern: RegExp, canonical: string | number | boolean, within: string) => {
    for (const m of within.matchAll(pattern)) mentions.push({ value: canonical, text: m[0], index: m.index });
  };
  for (const [spelling, canonical] of spellings) {
    if (spelling === '') continue;
    // (a Chinese value said under a negation adverb right before it — 不是很急, 别急, 不用加急 — is not that value,
    // nor is any shorter value inside it: 急 of 不用加急)
    if (/[\u3400-\u9fff]/.test(spelling))
      for (const m of haystack.matchAll(new RegExp(`${ZH_NEGATION}${escapeRegExp(spelling)}`, 'gu')))
        negated.push({ start: m.index, end: m.index + m[0].length });
    const pattern = /[\u3400-\u9fff]/.test(spelling)
      ? new RegExp(escapeRegExp(spelling), 'gu')
      : new RegExp(
          String.raw`(?<!${WORD_CHAR})${inflected(spelling).replace(/ /g, '[ ]')}(?!${WORD_CHAR})`,
          'gu',
        );
    collect(pattern, canonical, haystack);
  }
  // A one-letter slip in a long word ("farenheit", "consultaion", "warrenty"): a word of the text one edit (a letter
  // added, dropped, changed or two swapped) from a spelling of eight or more letters names it, unless the word is a
  // spelling of its own. Shorter words are left alone: one edit turns too many of them into other words.
  const words = [...haystack.matchAll(/(?<![\p{L}\p{N}])[a-z]{7,}(?![\p{L}\p{N}])/gu)];
  for (const [spelling, canonical] of spellings) {
    if (!/^[a-z]{8,}$/.test(spelling)) continue;
    for (const w of words)
      if (!spellings.has(w[0]) && oneEditApart(w[0], spelling))
        mentions.push({ value: canonical, text: w[0], index: w.index });
  }
  // The same text as `haystack` but not lower-cased, so a single-letter value's offsets compare with the others'.
  const cased = text.trim().replace(/[\s_-]+/g, ' ');
  // A capital letter opening a sentence ("A mix of …", "I need …") is a word, not a value.
  for (const [letter, canonical] of exact)
    collect(
      new RegExp(
        String.raw`(?<!${WORD_CHAR})(?<!(?:^|[.!?]\s*))${escapeRegExp(letter)}(?!${WORD_CHAR})`,
        'gu',
      ),
      canonical,
      cased,
    );
  const inside = (a: Extracted<unknown>, b: Extracted<unknown>) =>
    b.text.length > a.text.length && b.index <= a.index && a.index + a.text.length <= b.index + b.text.length;
  spanOfPeriods(haystack, mentions, values);
  const found = new Map<string | number | boolean, Extracted<string | number | boolean>>();
  for (const m of mentions) {
    if (mentions.some((other) => inside(m, other))) continue;
    if (negated.some((n) => n.start <= m.index && m.index + m.text.length <= n.end)) continue;
    const earlier = found.get(m.value);
    if (!earlier || m.index < earlier.index) found.set(m.value, m);
  }
  return [...found.values()].sort((a, b) => a.index - b.index);
}
