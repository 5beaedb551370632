// Which list written in a request goes to which array parameter of a tool (PI-2), decided for all of them at once so
// that one list fills one parameter, and the numbers of a list are not also read as single quantities.
// A list is what the request writes as one: a bracketed list ("[12, 15, 18]", "[[1, 2], [3, 4]]", "['a', 'b']"), a
// run of two or more numbers joined by commas or "and" ("85, 90, 88 and 92"), or a run of two or more quoted values
// joined the same way ("'Age', 'Income' and 'Education'"). Its items must fit the parameter's `items` type.
// 1. Name: a list takes the array parameter whose name words stand right before it ("cash_flows=[…]", "dataset_A
//    with the values 12, 24, 36"); more name words, then nearer, win; a tie is not chosen.
// 2. Order: the lists left go to the required array parameters left, in the order they are written and declared —
//    only when there are as many lists as parameters ("group A [3, 4] and group B [7, 8]" → group1, group2).
// Optional array parameters take a list only by name. Nothing is split out of free text or invented.
import type { ParameterHints } from '@signalbox/registry';
import type { DateContext } from './dates.js';
import { enumKey } from './extractors.js';
import { numberMentions } from './number-assignment.js';
import { DETERMINERS, LINKING_WORDS, NEGATIONS, PHRASE_ENDS, RANGE_NAMES } from './parameter-vocabulary.js';
import { assignByName, nameWords, properNames, quotedSpans, type Candidate } from './spans.js';

// Function words are no item of a list; the forms of "be" among them ("I am efficient, organized and kind").
const NOT_AN_ITEM = new Set<string>([
  ...LINKING_WORDS,
  ...PHRASE_ENDS,
  ...NEGATIONS,
  ...DETERMINERS,
  ...['am', 'were', 'been', 'being'],
]);

/** A list given to a parameter, and the rule that found it. */
export interface AssignedList {
  value: unknown[];
  note: string;
}

/** The outcome for the array parameters of one tool. */
export interface ListAssignment {
  lists: Map<string, AssignedList>;
  /** Where the lists are written: their numbers are not single quantities for other parameters. */
  ranges: { start: number; end: number }[];
}

type Schema = Record<string, unknown>;

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/** True for an array parameter. */
export function isArraySchema(schema: Schema): boolean {
  return typesOf(schema).includes('array');
}

/** True when `value` fits `schema` as far as its type says (untyped schemas take anything). */
function fitsItem(schema: Schema, value: unknown): boolean {
  const types = typesOf(schema);
  if (types.length === 0) return true;
  if (Array.isArray(value))
    return types.includes('array') && value.every((v) => fitsItem((schema.items ?? {}) as Schema, v));
  if (typeof value === 'number')
    return types.includes('number') || (types.includes('integer') && Number.isInteger(value));
  // An item of a closed set is one of its values: "in Boston, Massachusetts" is no list of library facilities.
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => enumKey(String(e)) === enumKey(String(value))))
    return false;
  if (typeof value === 'string') return types.includes('string');
  return false;
}

/** The closing bracket matching the `[` at `open`, or -1. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '[') depth++;
    else if (text[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

/** A bracketed list's text as a value: JSON, or JSON with single quotes; undefined when it is not one. */
function parseBracketed(body: string): unknown[] | undefined {
  for (const candidate of [body, body.replace(/'/g, '"')]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (Array.isArray(value) && value.length > 0) return value as unknown[];
    } catch {
      // not JSON as written; the single-quote reading is tried next
    }
  }
  return undefined;
}

// "(40.7128, -74.0060)": numbers in parentheses joined by commas are a tuple, written as a list would be in brackets.
// A coordinate may carry its hemisphere ("(33.45 N, 112.07 W)"): south and west are negative, as in ISO 6709.
const COORDINATE = String.raw`-?\d+(?:\.\d+)?(?:\s*°)?(?:\s*[NSEW]\b)?`;
const TUPLE = new RegExp(String.raw`\(\s*(${COORDINATE}(?:\s*,\s*${COORDINATE})+)\s*\)`, 'g');

function coordinate(written: string): number {
  const value = Number(/-?\d+(?:\.\d+)?/.exec(written)?.[0] ?? NaN);
  return /[SW]\s*$/.test(written) ? -Math.abs(value) : value;
}

/** Bracketed lists written in the text, outermost only, and parenthesised tuples of numbers. */
function bracketedLists(text: string): Candidate<unknown[]>[] {
  const out: Candidate<unknown[]>[] = [];
  for (const m of text.matchAll(TUPLE))
    out.push({
      value: (m[1] ?? '').split(',').map((n) => coordinate(n.trim())),
      start: m.index,
      end: m.index + m[0].length,
    });
  let i = text.indexOf('[');
  while (i !== -1) {
    const close = closingBracket(text, i);
    if (close === -1) break;
    const value = parseBracketed(text.slice(i, close + 1));
    if (value) out.push({ value, start: i, end: close + 1 });
    i = text.indexOf('[', value ? close + 1 : i + 1);
  }
  return out.sort((a, b) => a.start - b.start);
}

// "from x=1 to x=3", "between x = -1 and x = 2", "from 2015 to 2021": the two ends of a range, a variable's name
// before each allowed.
const NUM = String.raw`(-?\d+(?:\.\d+)?)`;
const VARIABLE = String.raw`(?:[a-z]\s*=\s*)?`;
const RANGE = new RegExp(
  String.raw`\b(?:from|between)\s+${VARIABLE}${NUM}\s+(?:to|and|through)\s+${VARIABLE}${NUM}(?!\d|\.\d)`,
  'gi',
);

/** The ranges ("from 1 to 3", "between -1 and 2") written in `text`, each as its two ends. */
function rangesIn(text: string): Candidate<number[]>[] {
  return [...text.matchAll(RANGE)].map((m) => ({
    value: [Number(m[1]), Number(m[2])],
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** True for an array parameter documented as an interval (`interval`, `limits`, `year_range`, "start and end"). */
function isRangeParameter(p: ParameterHints): boolean {
  const description = typeof p.schema.description === 'string' ? p.schema.description : '';
  return (
    nameWords(p.path).some((w) => RANGE_NAMES.includes(w)) ||
    new RegExp(String.raw`\b(?:${RANGE_NAMES.join('|')})\b`, 'i').test(description) ||
    /\b(?:start|lower)\b.*\b(?:end|upper)\b/i.test(description)
  );
}

// "tomatoes and lettuce", "efficient, organized, easy going and compassionate": lower-case words joined by commas and
// "and". The first item is the one word before the first joiner, the last the one word after the last; an item
// between two joiners is all of its words (up to three).
const WORD_ITEM = String.raw`\p{Ll}[\p{Ll}-]*`;
const WORD_LIST = new RegExp(
  String.raw`(?<![\p{L}\p{N}'-])(${WORD_ITEM})((?:\s*,\s*${WORD_ITEM}(?:\s+${WORD_ITEM}){0,2})*)\s*,?\s+and\s+(${WORD_ITEM})(?![\p{L}\p{N}'-])`,
  'gu',
);

/** The runs of two or more lower-case words joined by commas and "and" in `text` (function words are no item). */
function wordLists(text: string): Candidate<string[]>[] {
  const out: Candidate<string[]>[] = [];
  for (const m of text.matchAll(WORD_LIST)) {
    const middle = (m[2] ?? '')
      .split(',')
      .map((w) => w.trim())
      .filter((w) => w !== '');
    const items = [m[1] ?? '', ...middle, m[3] ?? ''];
    if (items.some((item) => item.split(/\s+/).some((w) => NOT_AN_ITEM.has(w)))) continue;
    // The first and last items are one word each: a content word written against either end ("divorce cases and
    // charge fee", "silver headjoint") says the items are longer phrases whose bounds are not known.
    const before = /([\p{L}-]+)\s+$/u.exec(text.slice(0, m.index))?.[1];
    const after = /^\s+([\p{L}-]+)/u.exec(text.slice(m.index + m[0].length))?.[1];
    if ([before, after].some((w) => w !== undefined && !NOT_AN_ITEM.has(w.toLowerCase()))) continue;
    out.push({ value: items, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const JOINER = /^\s*(?:,|and|,\s*and|&)\s*$/i;

/** Runs of two or more values joined by commas or "and", as lists. */
function runs<T>(items: readonly Candidate<T>[], text: string): Candidate<T[]>[] {
  const out: Candidate<T[]>[] = [];
  let i = 0;
  while (i < items.length) {
    const group = [items[i]];
    while (i + 1 < items.length) {
      const a = items[i];
      const b = items[i + 1];
      if (!a || !b || !JOINER.test(text.slice(a.end, b.start))) break;
      group.push(b);
      i++;
    }
    i++;
    const first = group[0];
    const last = group[group.length - 1];
    if (group.length >= 2 && first && last)
      out.push({ value: group.map((g) => (g as Candidate<T>).value), start: first.start, end: last.end });
  }
  return out;
}

/** Every list written in `text` (see the file comment), in text order; lists inside a bracketed one are not separate. */
export function listsIn(text: string, dates: DateContext): Candidate<unknown[]>[] {
  const bracketed = bracketedLists(text);
  const inside = (c: { start: number; end: number }) =>
    bracketed.some((b) => c.start >= b.start && c.end <= b.end);
  const numbers = runs(
    numberMentions(text, dates).filter((m) => !inside(m)),
    text,
  );
  const quoted = runs(
    quotedSpans(text).filter((q) => !inside(q)),
    text,
  );
  return [...bracketed, ...numbers, ...quoted].sort((a, b) => a.start - b.start);
}

/**
 * Lists of `text` matched to the array parameters among `params` (top level, of one tool), by name, then order (see
 * the file comment). Parameters without a list are absent from the map.
 */
export function assignLists(
  params: readonly ParameterHints[],
  text: string,
  dates: DateContext,
): ListAssignment {
  const lists = new Map<string, AssignedList>();
  const ranges: { start: number; end: number }[] = [];
  const arrays = params.filter((p) => isArraySchema(p.schema));
  if (arrays.length === 0) return { lists, ranges };
  const found = listsIn(text, dates);
  const used = new Set<number>();
  const fits = (p: ParameterHints, c: Candidate<unknown[]>) => fitsItem(p.schema, c.value);
  const give = (p: ParameterHints, index: number, note: string) => {
    const c = found[index];
    if (!c) return;
    lists.set(p.path, { value: c.value, note });
    ranges.push({ start: c.start, end: c.end });
    used.add(index);
  };

  // An interval ("Calculate the area under the curve from x=1 to x=3" for `interval`): the range's two ends, for a
  // required array of numbers documented as one — when the request writes one range.
  const writtenRanges = rangesIn(text);
  const range = writtenRanges.length === 1 ? writtenRanges[0] : undefined;
  const rangeParams = arrays.filter(
    (p) => p.required && isRangeParameter(p) && range && fitsItem(p.schema, range.value),
  );
  const rangeParam = rangeParams.length === 1 ? rangeParams[0] : undefined;
  if (range && rangeParam) {
    lists.set(rangeParam.path, { value: range.value, note: 'the two ends of the range written' });
    ranges.push({ start: range.start, end: range.end });
  }

  const byName = assignByName(
    arrays.filter((p) => !lists.has(p.path)).map((p) => ({ field: p.path, words: nameWords(p.path) })),
    found,
    text,
  );
  for (const p of arrays) {
    const at = byName.get(p.path);
    const c = at === undefined ? undefined : found[at];
    if (c && at !== undefined && fits(p, c)) give(p, at, `the list beside "${p.path}"`);
  }

  const rest = arrays.filter((p) => !lists.has(p.path) && p.required);
  const open = found.map((c, i) => ({ c, i })).filter(({ i }) => !used.has(i));
  const allFit = rest.every((p, k) => {
    const o = open[k];
    return o !== undefined && fits(p, o.c);
  });
  if (rest.length > 0 && rest.length === open.length && allFit)
    rest.forEach((p, k) => {
      const o = open[k];
      if (o)
        give(
          p,
          o.i,
          rest.length === 1
            ? 'the one list written'
            : `order of mention (${String(k + 1)} of ${String(rest.length)})`,
        );
    });

  // "stock prices of Microsoft and Google", "a contract between John and Alice": the one run of two or more proper
  // names joined by commas or "and" is the list of the one required array of strings still without one.
  const wanting = arrays.filter(
    (p) =>
      p.required &&
      !lists.has(p.path) &&
      typesOf((p.schema.items ?? {}) as Schema).every((t) => t === 'string'),
  );
  const overlaps = (c: { start: number; end: number }) =>
    ranges.some((r) => c.start < r.end && r.start < c.end) ||
    found.some((f) => c.start < f.end && f.start < c.end);
  const nameRuns = runs(properNames(text), text).filter((c) => !overlaps(c));
  const only = wanting.length === 1 ? wanting[0] : undefined;
  const run = nameRuns.length === 1 ? nameRuns[0] : undefined;
  if (only && run && fits(only, run)) {
    lists.set(only.path, { value: run.value, note: 'the names written as a list' });
    ranges.push({ start: run.start, end: run.end });
  }
  // "with stops at Santa Barbara and Monterey": a run of names written right after an array parameter's own name word
  // ("stops") is its list — an optional one's too, as the name says whose it is.
  const tokensBefore = (at: number) => (text.slice(0, at).match(/[\p{L}]+/gu) ?? []).slice(-3);
  for (const p of arrays) {
    if (lists.has(p.path) || !typesOf((p.schema.items ?? {}) as Schema).every((t) => t === 'string'))
      continue;
    const own = nameWords(p.path);
    const beside = nameRuns.filter(
      (c) =>
        !ranges.some((r) => c.start < r.end && r.start < c.end) &&
        // The word itself or its plural: a looser likeness ("compare" ~ "companies") is no name.
        tokensBefore(c.start).some((w) =>
          own.some((o) => o.length > 2 && [o, `${o}s`, o.replace(/s$/, '')].includes(w.toLowerCase())),
        ),
    );
    const [named] = beside;
    if (named && beside.length === 1 && fits(p, named)) {
      lists.set(p.path, { value: named.value, note: `the names written after "${p.path}"` });
      ranges.push({ start: named.start, end: named.end });
    }
  }
  // "the price of tomatoes and lettuce": the one run of lower-case words joined by commas and "and" is the list of
  // the one required array of strings still without one.
  const stillWanting = wanting.filter(
    (p) => !lists.has(p.path) && !Array.isArray((p.schema.items as Schema | undefined)?.enum),
  );
  const words = wordLists(text).filter((c) => !ranges.some((r) => c.start < r.end && r.start < c.end));
  const lone = stillWanting.length === 1 ? stillWanting[0] : undefined;
  const wordRun = words.length === 1 ? words[0] : undefined;
  if (lone && wordRun) {
    lists.set(lone.path, { value: wordRun.value, note: 'the words written as a list' });
    ranges.push({ start: wordRun.start, end: wordRun.end });
  }
  return { lists, ranges };
}
