// Deterministic extractors (PI-2): pull typed values out of the user's words. Each returns every candidate it
// finds, in text order; the caller decides (one candidate = a value, several = ambiguous, none = missing) — an
// extractor never guesses between candidates.
import { NUMBER_WORDS, ONE_AS_PRONOUN_BEFORE } from './parameter-vocabulary.js';

/** A value found in text, with the text it came from. */
export interface Extracted<T> {
  value: T;
  text: string;
  index: number;
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/** E-mail addresses, lower-cased (the domain is case-insensitive; mailboxes almost always are in practice). */
export function extractEmails(text: string): Extracted<string>[] {
  return [...text.matchAll(EMAIL)].map((m) => ({
    value: m[0].replace(/\.$/, '').toLowerCase(),
    text: m[0],
    index: m.index,
  }));
}

// A phone number: optional +country code, then 7–15 digits separated by spaces, dots, dashes or parentheses.
// The last group may be two digits ("+46 70 123 45 67"); the 7–15 digit check below keeps short numbers out.
const PHONE = /(?<![\w@])(\+?\d{1,3}[\s.-]?)?(\(?\d{2,4}\)?[\s.-]?){1,4}\d{2,4}(?![\w@])/g;

/** Phone numbers, as `+` and digits (E.164 when a country code was written). Dates and plain short numbers are not phones. */
export function extractPhones(text: string): Extracted<string>[] {
  const out: Extracted<string>[] = [];
  for (const m of text.matchAll(PHONE)) {
    const raw = m[0].trim();
    const digits = raw.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) continue;
    if (/^\d{4}[-/.]\d{1,2}[-/.]\d{1,2}$/.test(raw) || /^\d{1,2}[-/.]\d{1,2}[-/.]\d{4}$/.test(raw)) continue;
    // A bare run of digits without any phone punctuation or + is more likely an id (order numbers are long too).
    if (!raw.startsWith('+') && /^\d+$/.test(raw)) continue;
    out.push({
      value: normalizePhone(raw),
      text: raw,
      index: m.index + (m[0].length - m[0].trimStart().length),
    });
  }
  return out;
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
  元: 'cny',
  '°c': 'celsius',
  celsius: 'celsius',
  '°f': 'fahrenheit',
  fahrenheit: 'fahrenheit',
};
const CURRENCY_SIGNS: Readonly<Record<string, string>> = { $: 'usd', '€': 'eur', '¥': 'cny', '£': 'gbp' };
const UNIT_ALTERNATION = Object.keys(UNIT_SYNONYMS)
  .sort((a, b) => b.length - a.length)
  // Unit spellings are letters, `%` and `°`: nothing to escape in a `u` pattern.
  .join('|');
const QUANTITY = new RegExp(
  String.raw`(?<![\w.\-/:^])([$€¥£])?\s?(-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?)(?:\s?(${UNIT_ALTERNATION})(?![A-Za-z]))?`,
  'giu',
);

// The symbols of the International System of Units (BIPM, The International System of Units, 9th ed., tables 2
// and 4: m, g, s, A, K, mol, Hz, N, Pa, J, W, C, V, Ω, T; with L and the eV, Wh in use with the SI) with an optional
// SI prefix (k, M, G, m, μ, c, n), optionally "/ symbol" and a power ("m/s^2", "J/K").
const SI_SYMBOL = String.raw`[kMGmμcn]?(?:mol|Hz|Pa|eV|Wh|[mgsAKNJWCVLΩT])`;
const SI_SYMBOL_AFTER = new RegExp(
  String.raw`^${SI_SYMBOL}(?:\^-?\d)?(?:\/${SI_SYMBOL}(?:\^-?\d)?)?(?![\p{L}\p{N}])`,
  'u',
);

/**
 * Numbers, with their unit when one follows (`5 kg`, `3.5km`, `20%`) or a currency sign precedes (`$20`). Thousands
 * separators are understood (`1,234.5`). Digits inside ids, dates and times are not numbers.
 */
export function extractQuantities(text: string): Extracted<Quantity>[] {
  const out: Extracted<Quantity>[] = [];
  for (const m of text.matchAll(QUANTITY)) {
    const end = m.index + m[0].length;
    const next = text.slice(end, end + 2);
    // Part of a date, time, version or id: not a quantity. A full stop that ends the sentence ("… 4 and 5.") is not
    // a decimal point or a version separator.
    // An SI symbol written against the number ("300K", "5J/K", "440Hz", "4 m/s^2") is its unit, not an id's letters.
    const symbol = m[3] ? null : SI_SYMBOL_AFTER.exec(text.slice(end));
    const decade = symbol?.[0] === 's' && /^\d{3}0$/.test(m[2] ?? '');
    if (/^[\d/:.\-_A-Za-z]/.test(next) && !/^[.:](?:\s|$)/.test(next) && !m[3] && (!symbol || decade))
      continue;
    const numberText = m[2] ?? '';
    const value = Number(numberText.replace(/,/g, ''));
    if (!Number.isFinite(value)) continue;
    const sign = m[1];
    const unit = sign
      ? (CURRENCY_SIGNS[sign] ?? null)
      : m[3]
        ? (UNIT_SYNONYMS[m[3].toLowerCase()] ?? null)
        : null;
    out.push({ value: { value, unit }, text: m[0].trim(), index: m.index });
  }
  return out;
}

const UNITS_WORDS = Object.keys(NUMBER_WORDS).filter(
  (w) => NUMBER_WORDS[w] !== undefined && NUMBER_WORDS[w] < 10,
);
const TENS_WORDS = Object.keys(NUMBER_WORDS).filter((w) => (NUMBER_WORDS[w] ?? 0) >= 20);
const NUMBER_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}-])(?:(?:(half\s+)?an?\s+)?(dozen)|(${TENS_WORDS.join('|')})(?:[-\s](${UNITS_WORDS.join('|')}))?|(${Object.keys(NUMBER_WORDS).join('|')}))(?![\p{L}\p{N}-])`,
  'giu',
);
const ORDINAL = /(?<![\p{L}\p{N}.\-/:])(\d+)(?:st|nd|rd|th)(?![\p{L}\p{N}])/giu;
const UNIT_AFTER = new RegExp(String.raw`^\s?(${UNIT_ALTERNATION})(?![A-Za-z])`, 'iu');
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
  const inUnit = new RegExp(String.raw`\bin\s+(${UNIT_ALTERNATION})\b`, 'i').exec(description ?? '');
  return inUnit?.[1] ? (UNIT_SYNONYMS[inUnit[1].toLowerCase()] ?? null) : null;
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
  return [...text.matchAll(TOKEN)]
    .map((m) => ({ value: m[0].replace(/[.:]+$/, ''), text: m[0], index: m.index }))
    .filter((t) => test(t.value));
}

/** Lower-case, with `_`, `-` and runs of spaces read as one space: how enum values and synonyms are compared. */
export function enumKey(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Enum values mentioned in text: an enum value or a declared synonym (compared as {@link enumKey}), as whole words
 * for Latin script and as substrings for CJK. Returns the canonical values found, each once, in text order.
 */
export function extractEnumValues(
  text: string,
  values: readonly unknown[],
  synonyms: Readonly<Record<string, string | number | boolean>>,
): Extracted<string | number | boolean>[] {
  const spellings = new Map<string, string | number | boolean>();
  for (const v of values)
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      spellings.set(enumKey(String(v)), v);
  for (const [word, canonical] of Object.entries(synonyms)) spellings.set(enumKey(word), canonical);
  const haystack = enumKey(text);
  const found = new Map<string | number | boolean, Extracted<string | number | boolean>>();
  for (const [spelling, canonical] of spellings) {
    if (spelling === '') continue;
    const pattern = /[\u3400-\u9fff]/.test(spelling)
      ? new RegExp(escapeRegExp(spelling), 'u')
      : new RegExp(
          String.raw`(?<![\p{L}\p{N}])${escapeRegExp(spelling).replace(/ /g, '[ ]')}(?![\p{L}\p{N}])`,
          'u',
        );
    const m = pattern.exec(haystack);
    if (!m) continue;
    const earlier = found.get(canonical);
    if (!earlier || m.index < earlier.index)
      found.set(canonical, { value: canonical, text: m[0], index: m.index });
  }
  return [...found.values()].sort((a, b) => a.index - b.index);
}
