// Several values listed for what one parameter takes ("the weather in Beijing and Shanghai", "the factorial of 5, 10
// and 15", 北京和上海明天天气怎么样): a tool whose parameter takes one value a call is called once per value. This module
// finds such lists in a text and the parameter of a tool each list gives values of; the planner drafts the steps.
// The words around a list are data (vocabulary/value-lists.ts, vocabulary/recipient-lists.ts).
import { requiredParameters, type ToolDefinition } from '@signalbox/registry';
import { tokens, words } from './text.js';
import { ZH_LIST_JOINERS } from './vocabulary/recipient-lists.js';
import { EN_RANGE_PREPOSITIONS, RESPECTIVE_WORDS, ZH_RANGE_AFTER } from './vocabulary/value-lists.js';

/**
 * What the items of a list look like. Numbers, proper names, quoted passages, codes and Chinese words name values;
 * lower-case English words ("length and breadth") name kinds of things as often as values, so they count as values
 * only where a parameter lists them (its `enum`).
 */
export type ValueShape = 'number' | 'name' | 'quoted' | 'word' | 'han';

/** One list of values a text gives: its items as written, and where it stands. */
export interface ValueList {
  shape: ValueShape;
  items: string[];
  /** Each item as the text writes it in the list's place (a number with the list's unit: "20 years"). */
  written: string[];
  /** The unit a list of numbers is written with ("10, 20 and 30 years"), if any. */
  unit?: string;
  start: number;
  end: number;
}

// (a comma before exactly three digits groups thousands: "$400,000" is one number, "5,10 and 15" three)
const NUMBER = String.raw`[$€£¥]?\d+(?:,\d{3}(?!\d))*(?:\.\d+)?(?:\s?%)?`;
// A number may carry its unit ("20 minutes and 15 minutes"); the items' units are compared below.
const NUMBER_ITEM = String.raw`${NUMBER}(?:\s+(?!and\b|or\b)\p{Ll}+)?`;
const NAME_WORD = String.raw`\p{Lu}[\p{L}\p{N}.'’&-]*`;
// A proper name: capitalised words, with a particle inside it ("Bank of America") or a number ending it ("Maroon 5").
const NAME_ITEM = String.raw`${NAME_WORD}(?:\s+(?:(?:of|de|du|da|von|van|la|le)\s+)?(?:${NAME_WORD}|\d+(?![\d%]|[.,]\d)))*`;
const QUOTED_ITEM = String.raw`'[^'\n]{1,80}'(?![\p{L}\p{N}])|"[^"\n]{1,80}"|“[^”\n]{1,80}”`;
const WORD_ITEM = String.raw`(?<!\p{L})(?!and\b)\p{Ll}[\p{L}-]*`;

const ITEM_SHAPES: readonly { shape: ValueShape; item: string }[] = [
  { shape: 'number', item: NUMBER_ITEM },
  { shape: 'quoted', item: QUOTED_ITEM },
  { shape: 'name', item: NAME_ITEM },
  { shape: 'word', item: WORD_ITEM },
];

// "A and B", "A, B and C", "A, B, and C": items joined by commas and a last "and" (an "or" offers a choice, one value).
const listOf = (item: string) =>
  new RegExp(
    String.raw`(?<![\p{L}\p{N}'’])(?:${item})(?:\s*,\s*(?:${item}))*\s*,?\s+and\s+(?:${item})(?![\p{L}\p{N}-])`,
    'gu',
  );
const EN_LISTS = ITEM_SHAPES.map((s) => ({
  shape: s.shape,
  list: listOf(s.item),
  item: new RegExp(s.item, 'gu'),
}));

const CJK = /\p{Script=Han}/u;
const CHINESE_WORDS = new Intl.Segmenter('zh', { granularity: 'word' });
const ZH_JOINERS: ReadonlySet<string> = new Set(ZH_LIST_JOINERS);

/** The English lists of a text, each of one item shape; a range's two ends ("between A and B") are no list. */
function englishLists(text: string): ValueList[] {
  const out: ValueList[] = [];
  for (const { shape, list, item } of EN_LISTS) {
    for (const m of text.matchAll(list)) {
      let start = m.index;
      const end = start + m[0].length;
      if (out.some((l) => start < l.end && end > l.start)) continue;
      const before = words(text.slice(Math.max(0, start - 40), start)).at(-1);
      if (before !== undefined && EN_RANGE_PREPOSITIONS.includes(before)) continue;
      let items = [...m[0].matchAll(item)].map((i) => i[0].trim());
      let written = items;
      let unit: string | undefined;
      if (shape === 'number') {
        // The unit of a number written once after the last item is every item's ("10, 20 and 30 years"); items with
        // units of their own are values of one quantity only when the units agree ("3 heads and 5 tails" is not).
        // (a unit on some items only is one only when it ends the list: "180 hits and 600 at-bats" are two quantities)
        const units = items.map((i) => /\s(\p{Ll}+)$/u.exec(i)?.[1]);
        const named = [...new Set(units.filter((u) => u !== undefined))];
        const onLastOnly = units.slice(0, -1).every((u) => u === undefined);
        if (named.length > 1 || (named.length === 1 && !onLastOnly && units.includes(undefined))) continue;
        items = items.map((i) => i.replace(/\s+\p{Ll}+$/u, ''));
        unit = named[0];
        written = unit === undefined ? items : items.map((i) => `${i} ${unit ?? ''}`);
      }
      if (shape === 'quoted') items = items.map((i) => i.slice(1, -1).trim());
      // A capital that opens a sentence is no sign of a name: a first item written there loses its first word, a verb
      // or a word of grammar ("Retrieve Personal Info and Job History …"), when a capitalised name is left.
      const first = items[0];
      if (shape === 'name' && first !== undefined && /(?:^|[.?!]\s+|\n)\W*$/u.test(text.slice(0, start))) {
        const rest = first.replace(/^\S+\s+/u, '');
        if (rest !== first && /^\p{Lu}/u.test(rest)) {
          start += first.length - rest.length;
          items = [rest, ...items.slice(1)];
          written = items;
        }
      }
      if (items.length > 1 && new Set(items.map((i) => i.toLowerCase())).size === items.length)
        out.push({ shape, items, written, ...(unit ? { unit } : {}), start, end });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The Chinese lists of a text: words (by ICU's lexicon) or Latin runs joined by 和, 与, 及, 跟 or 、 — one word each side
 * of a joiner (北京、上海和深圳; AAPL和MSFT). Two ends of one relation (北京和上海之间) are no list.
 */
function chineseLists(text: string): ValueList[] {
  if (!CJK.test(text)) return [];
  const segments = [...CHINESE_WORDS.segment(text)];
  const out: ValueList[] = [];
  let i = 0;
  const isItem = (s: Intl.SegmentData | undefined) =>
    s !== undefined &&
    s.isWordLike === true &&
    !ZH_JOINERS.has(s.segment) &&
    (CJK.test(s.segment) ? s.segment.length >= 2 : /^[\p{L}\p{N}]+$/u.test(s.segment));
  while (i < segments.length) {
    const first = segments[i];
    if (!isItem(first) || !ZH_JOINERS.has(segments[i + 1]?.segment ?? '') || !isItem(segments[i + 2])) {
      i++;
      continue;
    }
    const run: Intl.SegmentData[] = [first as Intl.SegmentData];
    let j = i + 1;
    while (ZH_JOINERS.has(segments[j]?.segment ?? '') && isItem(segments[j + 1])) {
      run.push(segments[j + 1] as Intl.SegmentData);
      j += 2;
    }
    const start = run[0]?.index ?? 0;
    const last = run.at(-1) as Intl.SegmentData;
    const end = last.index + last.segment.length;
    const after = text.slice(end).replace(/^的/u, '');
    const items = run.map((s) => s.segment);
    if (
      !ZH_RANGE_AFTER.some((w) => after.startsWith(w)) &&
      new Set(items).size === items.length &&
      // (one script a list: 北京和Shanghai is read as two values, 查询和AAPL is no list)
      items.every((t) => CJK.test(t)) === items.some((t) => CJK.test(t))
    )
      out.push({
        shape: items.some((t) => CJK.test(t)) ? 'han' : shapeOfLatin(items),
        items,
        written: items,
        start,
        end,
      });
    i = j;
  }
  return out;
}

function shapeOfLatin(items: readonly string[]): ValueShape {
  if (items.every((t) => /^\d/u.test(t))) return 'number';
  return items.every((t) => /^\p{Lu}/u.test(t)) ? 'name' : 'word';
}

/** The lists of values a text gives, in order. */
export function valueLists(text: string): ValueList[] {
  return [...englishLists(text), ...chineseLists(text)].sort((a, b) => a.start - b.start);
}

type PropertySchema = { type?: unknown; enum?: unknown; items?: { type?: unknown; enum?: unknown } };

function propertiesOf(tool: ToolDefinition): Record<string, PropertySchema> {
  return (tool.parameters as { properties?: Record<string, PropertySchema> }).properties ?? {};
}

const isNumeric = (s: PropertySchema | undefined) => s?.type === 'number' || s?.type === 'integer';
const isString = (s: PropertySchema | undefined) => s?.type === 'string' || s?.type === undefined;

function inEnum(values: unknown, items: readonly string[]): boolean {
  if (!Array.isArray(values)) return false;
  const allowed = new Set(values.map((v) => String(v).toLowerCase()));
  return items.every((i) => allowed.has(i.toLowerCase()));
}

/**
 * Whether a string parameter's name is an English plural ("values", "symbols", "cities"): it takes several values in
 * one call, as its name says. (A number named in the plural — `years`, `days` — is a count, one a call.)
 */
function pluralName(parameter: string): boolean {
  const last = words(parameter).at(-1) ?? '';
  return /[^s]s$/u.test(last) && !/(?:us|is)$/u.test(last);
}

/** Whether a parameter's schema says what kind of value it takes beyond "a string": a pattern, a format, a normalizer. */
function declaresKind(
  schema: PropertySchema & { pattern?: unknown; format?: unknown; normalizers?: unknown },
): boolean {
  const normalizers = Array.isArray(schema.normalizers) ? schema.normalizers : [];
  return (
    typeof schema.pattern === 'string' ||
    typeof schema.format === 'string' ||
    normalizers.some((n) => n !== 'trim')
  );
}

/** Whether a value of this shape is one a parameter of this schema takes, one a call. */
function takesOne(schema: PropertySchema | undefined, list: ValueList, parameter = ''): boolean {
  if (!schema) return false;
  if (isString(schema) && schema.enum === undefined && pluralName(parameter)) return false;
  // Chinese writes no capital to mark a name: a listed Chinese word is a value only where the schema says what its
  // values are (an enum, a pattern, a format, or a normalizer of a kind such as city_name) — 北京和上海 for a city, not
  // 推理和行动 for a search query, which takes the words together.
  if (list.shape === 'han' && schema.enum === undefined && !declaresKind(schema)) return false;
  if (schema.enum !== undefined) return inEnum(schema.enum, list.items);
  if (list.shape === 'word') return false;
  if (list.shape === 'number') return isNumeric(schema) || isString(schema);
  return isString(schema);
}

/** Whether a list parameter of the tool takes these values all in one call (an array of such items). */
function takesAll(schema: PropertySchema | undefined, list: ValueList): boolean {
  if (schema?.type !== 'array') return false;
  const item = schema.items ?? {};
  if (item.enum !== undefined) return inEnum(item.enum, list.items);
  if (list.shape === 'word') return false;
  return list.shape === 'number' ? isNumeric(item) || isString(item) : isString(item);
}

/**
 * The words a tool's own definition uses for what it works on (its name and purpose): the kinds of things it takes
 * ("weather", "order", 退款). Listed words among them name kinds ("the order and refund status"), not values.
 */
function kindWords(tool: ToolDefinition): Set<string> {
  const purpose = typeof tool.description === 'string' ? tool.description : tool.description.purpose;
  return new Set(tokens(`${tool.name} ${purpose}`));
}

/**
 * How near the list the parameter's name is written, in words ("for 10, 20 and 30 years": `years` right after it, 0;
 * "a loan term of 15 and 20": `loan_term` one word before it), within five words before it and three after it;
 * undefined when it is not written there.
 */
function nameDistance(parameter: string, list: ValueList, text: string): number | undefined {
  const name = new Set(tokens(parameter));
  const before = tokens(text.slice(Math.max(0, list.start - 60), list.start))
    .slice(-5)
    .reverse();
  // (the unit of a list of numbers stands right after its numbers: "for 3 and 5 riders")
  const after = tokens(`${list.unit ?? ''} ${text.slice(list.end, list.end + 40)}`).slice(0, 3);
  const at = [before.findIndex((w) => name.has(w)), after.findIndex((w) => name.has(w))].filter(
    (i) => i !== -1,
  );
  return at.length === 0 ? undefined : Math.min(...at);
}

/** The one parameter written nearest the list, if one is nearer than every other. */
function nearestNamed(parameters: readonly string[], list: ValueList, text: string): string | undefined {
  // The unit written with the numbers names their quantity: a parameter named by it is theirs ("over 10, 15 and 20
  // years": term_years, not the annual rate written just before).
  const unit = list.unit === undefined ? [] : tokens(list.unit);
  const byUnit = parameters.filter((p) => tokens(p).some((t) => unit.includes(t)));
  if (byUnit.length === 1) return byUnit[0];
  const named = parameters.flatMap((p) => {
    const d = nameDistance(p, list, text);
    return d === undefined ? [] : [{ p, d }];
  });
  const best = Math.min(...named.map((n) => n.d));
  const nearest = named.filter((n) => n.d === best);
  return nearest.length === 1 ? nearest[0]?.p : undefined;
}

/** One call of several: the values it takes, by parameter, and the text it reads them from. */
export interface ListedCall {
  /** The listed parameters and this call's value of each, as written. */
  values: Record<string, string>;
  /**
   * The text with each list replaced by this call's item ("… for 10, 20 and 30 years" → "… for 20 years"): the words
   * of the request this call reads, the other calls' values left out.
   */
  text: string;
}

/**
 * The calls a tool's step fans out into over the values a text lists for one of its parameters, in the list's order.
 * Undefined when the text lists no values for a parameter that takes one a call. `fed`: parameters another step's
 * output gives (they are no user's values).
 *
 * A list is a parameter's when the parameter is required, takes one value of the list's shape a call (a number, a
 * string; an enum of which every item is a member) and no array parameter of the tool takes the values all at once;
 * no item is a word of the tool's own definition; and, when several parameters would take it, the parameter's name
 * stands beside it. Two lists of different parameters are paired item by item when the text says "respectively"
 * (分别) and they are of one length; otherwise a text of several lists is left to one call.
 */
export function fanOutValues(
  tool: ToolDefinition,
  text: string,
  fed: ReadonlySet<string> = new Set(),
): ListedCall[] | undefined {
  const properties = propertiesOf(tool);
  const required = requiredParameters(tool).filter((p) => !fed.has(p));
  if (required.length === 0) return undefined;
  const kinds = kindWords(tool);
  const bound: { parameter: string; list: ValueList }[] = [];
  for (const list of valueLists(text)) {
    if (Object.values(properties).some((s) => takesAll(s, list))) continue;
    // (an item all of whose words are the tool's own names a kind of thing it works on, not a value: 订单和退款)
    if (
      list.shape !== 'number' &&
      !list.items.every((i) => tokens(i).length > 0 && !tokens(i).every((t) => kinds.has(t)))
    )
      continue;
    // (numbers name a string parameter only beside its name: "case numbers 28473 and 64725", never a city)
    const fitting = required.filter(
      (p) =>
        takesOne(properties[p], list, p) &&
        (list.shape !== 'number' || isNumeric(properties[p]) || nameDistance(p, list, text) !== undefined),
    );
    const parameter = fitting.length === 1 ? fitting[0] : nearestNamed(fitting, list, text);
    if (parameter !== undefined) bound.push({ parameter, list });
  }
  const [first, ...rest] = bound;
  if (!first) return undefined;
  if (rest.length > 0) {
    const respective = RESPECTIVE_WORDS.some((w) =>
      CJK.test(w) ? text.includes(w) : new RegExp(String.raw`\b${w}\b`, 'iu').test(text),
    );
    const parameters = new Set(bound.map((b) => b.parameter));
    const n = first.list.items.length;
    if (!respective || parameters.size !== bound.length || bound.some((b) => b.list.items.length !== n))
      return undefined;
  }
  return first.list.items.map((_, k) => {
    let reduced = text;
    // (from the last list back, so the earlier lists' places stay where they were found)
    for (const b of [...bound].sort((x, y) => y.list.start - x.list.start))
      reduced = `${reduced.slice(0, b.list.start)}${b.list.written[k] ?? ''}${reduced.slice(b.list.end)}`;
    return {
      values: Object.fromEntries(bound.map((b) => [b.parameter, b.list.items[k] ?? ''])),
      text: reduced,
    };
  });
}
