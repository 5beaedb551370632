// Which extractor fits a parameter, read from its schema and registry hints (PI-2), and the one value it yields — or
// why there is none (nothing found, or several candidates: an extractor never picks among them).
import { REDACTED } from './redaction.js';
import type { ParameterHints } from '@signalbox/registry';
import {
  dateFormatOf,
  findDates,
  findTimes,
  formatDate,
  timeFormatOf,
  isClockTimeParameter,
  type DateContext,
  type DateParts,
} from './dates.js';
import {
  escapeRegExp,
  extractEmails,
  extractEnumValues,
  extractIds,
  extractPhones,
  extractQuantities,
  unitOfParameter,
  type Extracted,
  type Quantity,
} from './extractors.js';
import { englishCities, chineseCitiesFor, englishCityName } from './city-names.js';
import { isLanguageName, languageCodeFor } from './languages.js';
import { describedFlag, describedValues, flagMention, kindBefore, nameWords } from './spans.js';
import { maskNonQuantities } from './number-assignment.js';
import { addDays } from './calendar.js';
import { NUMBER_WORDS } from './parameter-vocabulary.js';

/** The outcome of extracting one parameter from one text. */
export type Extraction =
  | {
      found: true;
      value: unknown;
      note: string;
      /**
       * For numbers: what ties the number to this parameter — its unit or currency, or the parameter's name written
       * beside it ("amount 50"). Null for a loose number; an optional parameter is never filled from one.
       */
      cue?: string | null;
    }
  | { found: false; note: string | null };

type Schema = Record<string, unknown>;

function typesOf(schema: Schema): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

function unique<T>(values: readonly T[], what: string, show: (v: T) => string): Extraction {
  const distinct = [...new Map(values.map((v) => [JSON.stringify(v), v])).values()];
  if (distinct.length === 1 && distinct[0] !== undefined)
    return { found: true, value: distinct[0], note: `${what} ${show(distinct[0])}` };
  if (distinct.length > 1)
    return {
      found: false,
      note: `${String(distinct.length)} ${what} candidates (${distinct.map(show).join(', ')}); not choosing`,
    };
  return { found: false, note: null };
}

// A clause negated: English "not"/"n't"/"never"/"no", Chinese 不/没/别/无法 (不错 "not bad" praises).
const NEGATION = /\b(?:not|never|no|cannot)\b|n't\b|(?:不(?!错)|没|别|无法)/iu;
const CLAUSE_END = /[,.;!?，。；！？\n]|\bbut\b|但是|不过/iu;

/** The clause of `text` around `index`: from the punctuation or "but" before it to the next. */
function clauseAround(text: string, index: number): string {
  const before = text.slice(0, index);
  let start = 0;
  for (const m of before.matchAll(new RegExp(CLAUSE_END.source, 'giu'))) start = m.index + m[0].length;
  const after = text.slice(index);
  const end = after.search(CLAUSE_END);
  return text.slice(start, end === -1 ? text.length : index + end);
}

const START_WORDS = /(^|_)(start|from|begin|check_?in|departure|since)/i;
const END_WORDS = /(^|_)(end|to|until|check_?out|return)/i;
// A return or a check-out: an event after the one a trip's date is written for.
// The length of a stay in nights ("for 3 nights", "a two-night stay").
const STAY_NIGHTS = /\b(\d{1,2}|[a-z]+)[ -]nights?\b/i;
const LATER_EVENT_WORDS = /(^|_)(return|check_?out)/i;

// "in Beijing", "for New York"; a city named in Chinese is one of the table's (city-names.ts).
const LATIN_CITY = /\b(?:in|at|for|to|from)\s+([A-Z][\p{L}'-]+(?:\s[A-Z][\p{L}'-]+){0,2})/u;
/**
 * The city a text names for a `city_name` parameter: "in Beijing" (a capitalised name after a preposition), else the
 * Chinese city named — for a start or end parameter (`from_city`, `to_city`) the one after 从 / 到 when there are
 * several. Several cities for one parameter are not chosen between.
 */
function cityOf(name: string, text: string, show: (v: unknown) => string): Extraction {
  const latin = LATIN_CITY.exec(text);
  // "in Japanese" names a language, not a place: a language's name is no city.
  if (latin?.[1] && !isLanguageName(latin[1]))
    return { found: true, value: latin[1], note: `city ${show(latin[1])}` };
  const direction = START_WORDS.test(name) ? 'start' : END_WORDS.test(name) ? 'end' : null;
  const cities = chineseCitiesFor(text, direction);
  if (cities.length === 0) {
    // "weather in shanghai", "Beijing weather …", "NYC": a city of the table written in English, whatever its case.
    const english = unique([...new Set(englishCities(text).map((c) => c.english))], 'city', show);
    if (english.found || english.note) return english;
  }
  const got = unique(
    cities.map((c) => c.written),
    'city',
    show,
  );
  return got.found ? { ...got, note: `${got.note} (${englishCityName(String(got.value)) ?? ''})` } : got;
}

const MONEY_NAME = /amount|price|cost|fee|total|sum|refund|budget|pay/i;
const CURRENCIES = new Set(['usd', 'eur', 'cny', 'gbp']);

function withCue(got: Extraction, cue: string | null): Extraction {
  return got.found ? { ...got, cue } : got;
}

/**
 * What ties one number in `text` to the parameter `name`: a currency for a money parameter, or a word of the
 * parameter's name within a few words of the number ("refund amount 50", "50 as the amount"). Null when nothing does.
 */
function numberCue(q: Extracted<Quantity>, name: string, text: string): string | null {
  if (q.value.unit && CURRENCIES.has(q.value.unit) && MONEY_NAME.test(name))
    return `currency ${q.value.unit}`;
  const words = name
    .toLowerCase()
    .split(/[_\s-]+/)
    .filter((w) => w.length >= 3);
  const near = text
    .slice(Math.max(0, q.index - 24), q.index + q.text.length + 24)
    .toLowerCase()
    .split(/[^\p{L}]+/u);
  const word = words.find((w) => near.some((n) => n === w || n === `${w}s`));
  return word ? `keyword "${word}"` : null;
}

/** The closed set of an array parameter's items (`items.enum`, with the items' `synonyms`), if it declares one. */
function itemChoices(
  schema: Schema,
): { values: readonly unknown[]; synonyms: Readonly<Record<string, string | number | boolean>> } | undefined {
  const items = schema.items;
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return undefined;
  const { enum: declared, synonyms } = items as Schema;
  // "Supported indexes are 'S&P 500', 'Dow Jones', 'NASDAQ' …": string items whose values the array's description
  // quotes (two or more) are chosen from those values as from an enum written in prose.
  const quoted =
    typesOf(items as Schema).every((t) => t === 'string') && typeof schema.description === 'string'
      ? describedValues(schema.description)
      : [];
  const values = Array.isArray(declared) ? declared : quoted.length >= 2 ? quoted : undefined;
  if (!Array.isArray(values) || values.length === 0) return undefined;
  const words =
    typeof synonyms === 'object' && synonyms !== null && !Array.isArray(synonyms)
      ? (synonyms as Record<string, string | number | boolean>)
      : {};
  return { values, synonyms: words };
}

/** The parameter's name without its path prefix. */
function leafName(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/**
 * Extracts a value for one parameter from `text` with the extractor its schema calls for: enum values and
 * synonyms, dates (formatted to the declared format), e-mail, phone, ids by pattern, city names, numbers with units.
 * Free-text strings are not extracted here (see `freeText` in build.ts). Sensitive values are not shown in notes.
 */
/**
 * True for a string parameter whose value is an e-mail address: format `email`, the `email` normalizer, a name with
 * "email", or a description that says "e-mail address" ("The email address to send to.") and offers no alternative.
 * A description that only talks about an e-mail ("The body of the email") does not make one.
 */
// Words that say a value names the kind of thing chosen: a template, a format, a style (模板, 格式, 样式, 版式) — what
// follows an enum value written as the choice ("the review template", 项目评审格式).
const CHOICE_LABEL = /^\s*(?:的\s*)?(?:模板|模版|格式|样式|版式|\b(?:template|format|style|layout)\b)/iu;

export function isEmailAddressParameter(hints: ParameterHints): boolean {
  const description = typeof hints.schema.description === 'string' ? hints.schema.description : '';
  return (
    hints.schema.format === 'email' ||
    hints.normalizers.includes('email') ||
    /e-?mail/i.test(leafName(hints.path)) ||
    // "a username, phone number, or email address": one choice among others is no e-mail-only parameter.
    (/\be-?mail\s+address/i.test(description) && !/\bor\b/i.test(description))
  );
}

// A description that names an e-mail as the value ("E-mail or phone of the user", "The email address to send
// to"), not one that is about an e-mail message ("The body content of the email").
const CONTACT_EMAIL = /\be-?mail\s+address|(?<!\b(?:the|an?|this|that|your|its|of)\s+)\be-?mail\b/i;
const COPY_NAME = /(^|_)b?cc($|_)/i;
const COPY_DESCRIPTION = /\b(?:blind\s+)?carbon\s+copy\b|\bb?cc\b/i;
const COPY_CUE = /\b(?:b?cc|copy|copied|copying)\b/i;

/** True for a copy-recipient parameter (`cc`, `bcc_address`, "The email address to carbon copy"). */
function isCopyParameter(name: string, description: string): boolean {
  return COPY_NAME.test(name) || COPY_DESCRIPTION.test(description);
}

/**
 * The value written right after a parameter's own identifier ("song_id is wjeiruhuq_roar", "apiKey: XYZ",
 * "user_id = 'u-1'"): only for a name written as code (with an underscore or a capital inside), which a request
 * writes only to name that field. The value is the next token, or the quoted passage, after "is", "=" or ":" — not
 * any word after the name ("What order_id should I use?", a question quoted back in a conversation, gives none).
 */
function valueAfterIdentifier(name: string, text: string): string | undefined {
  if (!/_|[a-z][A-Z]/.test(name)) return undefined;
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(
    String.raw`(?<![\w])${escaped}(?![\w])\s*(?:\s(?:is|was)\s|=|:)\s*(?:(['"‘“\x60])([^'"’”\x60\n]+)['"’”\x60]|([^\s'"‘“\x60,;]+))`,
    'iu',
  ).exec(text);
  const value = (m?.[2] ?? m?.[3] ?? '').replace(/[.!?]+$/, '').trim();
  return value === '' ? undefined : value;
}

/**
 * The spellings of true and false in an enum that is a flag with a "no preference" value (`['True', 'False',
 * 'dontcare']`): the values that read as true and false, each once, and at most one other. Undefined otherwise.
 */
function flagSpellings(values: readonly unknown[]): { yes: unknown; no: unknown } | undefined {
  const yes = values.filter((v) => typeof v === 'string' && v.toLowerCase() === 'true');
  const no = values.filter((v) => typeof v === 'string' && v.toLowerCase() === 'false');
  if (yes.length !== 1 || no.length !== 1 || values.length > 3) return undefined;
  return { yes: yes[0], no: no[0] };
}

export function extractParameter(
  hints: ParameterHints,
  text: string,
  dates: DateContext,
  redact: boolean,
  /** The words of the tool's name (`create_ticket` → create, ticket): "a consultation ticket" names its kind. */
  thingWords: readonly string[] = [],
): Extraction {
  const schema = hints.schema;
  const name = leafName(hints.path);
  const description = typeof schema.description === 'string' ? schema.description : '';
  const types = typesOf(schema);
  const show = (v: unknown) => (redact ? REDACTED : JSON.stringify(v));

  if (hints.enum) {
    // An enum of language codes ('en', 'es-ES'): the code of the language the request names ("in Spanish").
    const language = languageCodeFor(hints, text);
    if (language !== undefined)
      return { found: true, value: language, note: `the code of the language named (${show(language)})` };
    const mentioned = extractEnumValues(text, hints.enum, hints.synonyms);
    // Among several values named, the one written as the kind of thing chosen (项目评审格式的报告, 用周报模板, "in the
    // review template", "plain-text format") is the one chosen; the others are only talked about (周报我自己发).
    // So is the one written right before the name of the thing the tool makes or handles ("log it as a consultation
    // ticket", "a warranty ticket, not a complaint"): it says which kind that thing is.
    // (any spelling of the value counts, not only the first one written: "a crash on my invoice page; open it as a
    // billing case")
    const things = thingWords.map(escapeRegExp).join('|');
    const thingAfter = (e: { value: unknown }) =>
      things !== '' &&
      [String(e.value), ...Object.keys(hints.synonyms).filter((k) => hints.synonyms[k] === e.value)].some(
        (w) =>
          new RegExp(
            String.raw`(?<![\p{L}\p{N}])${escapeRegExp(w)}\s+(?:${things})s?(?![\p{L}\p{N}])`,
            'iu',
          ).test(text),
      );
    const labelled = mentioned.filter(
      (e) =>
        CHOICE_LABEL.test(text.slice(e.index + e.text.length, e.index + e.text.length + 12)) || thingAfter(e),
    );
    const named = unique(
      (mentioned.length > 1 && new Set(labelled.map((e) => e.value)).size === 1 ? labelled : mentioned).map(
        (e) => e.value,
      ),
      'enum value',
      show,
    );
    // A flag written as an enum of strings ('True', 'False', 'dontcare'): read as a boolean flag is read, and written
    // as the enum spells it.
    const spelled = flagSpellings(hints.enum);
    if (named.found || named.note !== null || !spelled) return named;
    const flag = flagMention(name, text) ?? describedFlag(description, text);
    if (flag === undefined) return named;
    const value = flag ? spelled.yes : spelled.no;
    return {
      found: true,
      value,
      note: `flag: the request ${flag ? 'names' : 'negates'} "${name}" (${show(value)})`,
    };
  }
  const choices = itemChoices(schema);
  if (choices && types.includes('array')) {
    // A list of closed choices ("fetch the elevation and area" for items `Elevation`, `Area`, `Location`): every
    // choice the request names, in the order it names them. The closed set is the cue, so an optional list takes them
    // too; none named → nothing (the tool's own default stands).
    const named = extractEnumValues(text, choices.values, choices.synonyms).map((e) => e.value);
    if (named.length === 0) {
      // "a pet store" to a `store_type` of Supermarket, Convenience Store, Discount Store: the request names a kind
      // the closed set does not offer. The tool's default would answer another request, so the kind stands as
      // written and validation asks the user (a word of the parameter's own description, "grocery" in "Type of the
      // grocery store", is the tool's domain, not a kind).
      const description = nameWords(typeof schema.description === 'string' ? schema.description : '');
      const offered = choices.values.flatMap((v) => nameWords(String(v)));
      const unoffered = kindBefore(leafName(name), text).filter(
        (k) => !offered.includes(k.toLowerCase()) && !description.includes(k.toLowerCase()),
      );
      const [kind] = unoffered;
      if (unoffered.length === 1 && kind !== undefined)
        return { found: true, value: [kind], note: `the kind written, "${kind}", is none the set offers` };
      return { found: false, note: null };
    }
    return { found: true, value: named, note: `enum values ${named.map((v) => show(v)).join(', ')}` };
  }
  const timeFormat = timeFormatOf(schema) ?? (isClockTimeParameter(name, schema) ? 'HH:MM' : undefined);
  if (timeFormat && (types.length === 0 || types.includes('string'))) {
    const times = findTimes(text, dates).map((t) => (timeFormat === 'HH:MM' ? t.time.slice(0, 5) : t.time));
    if (times.length > 1 && (START_WORDS.test(name) || END_WORDS.test(name))) {
      const pick = START_WORDS.test(name) ? times[0] : times[times.length - 1];
      if (pick) return { found: true, value: pick, note: `time ${pick}` };
    }
    return unique(times, 'time', show);
  }
  const dateFormat = dateFormatOf(schema, name);
  if (dateFormat && (types.length === 0 || types.includes('string'))) {
    const all = findDates(text, dates, hints.dateDirection ? { direction: hints.dateDirection } : {});
    // "at 6 in the evening" writes no day: a date parameter does not take the reference day from it, and "9am … on
    // March 13th" leaves March 13th alone. A date-time parameter may take a time today.
    const timed =
      dateFormat === 'date-time' && !all.some((m) => !m.timeOnly) ? all : all.filter((m) => !m.timeOnly);
    // "… on the upcoming Saturday? Today is Tuesday April 25th 2023": the day stated as today is the reference of the
    // other dates, not one asked about — unless it is the only date the request writes.
    const asked = timed.filter((m) => !m.statesToday);
    const dated = asked.length > 0 ? asked : timed;
    // "This week I'm not home, come next Monday" (这周我不在家，下周一再来): a day named in a clause that negates
    // names the day that will not do. Among several, the others are the candidates.
    const affirmed = dated.filter((m) => !NEGATION.test(clauseAround(text, m.index)));
    const mentions = dated.length > 1 && affirmed.length > 0 ? affirmed : dated;
    if (mentions.length > 1) {
      // A range ("from Monday to Friday"): the start parameter takes the first date, the end parameter the last —
      // the last not before the first: a day earlier than the start closes no range that starts there (上周五的纪要…，
      // 提醒他12月4号之前交 under a past-dates policy reads 12月4号 a year back; it is a deadline, not the range's end).
      const first = mentions[0];
      const day = (d: DateParts) => d.year * 10000 + d.month * 100 + d.day;
      const closing = first ? mentions.filter((m) => day(m.date) >= day(first.date)) : [];
      const pick = START_WORDS.test(name)
        ? first
        : END_WORDS.test(name)
          ? closing[closing.length - 1]
          : undefined;
      if (pick)
        return {
          found: true,
          value: formatDate(pick.date, dateFormat, dates.timeZone),
          note: `date ${pick.rule}`,
        };
    }
    const only = mentions.length === 1 ? mentions[0] : undefined;
    // One date, and an optional return or check-out (`return_time`, `check_out_date`): that is an event of its own,
    // after the one the date is written for (the departure, the check-in) — unless a word of the end introduces the
    // date ("returning June 5", "until June 5"). The end of a range to look in (`end_date`, `date_to`) does take the
    // one day: "yesterday's minutes" is a range of one day.
    if (
      only &&
      !hints.required &&
      LATER_EVENT_WORDS.test(name) &&
      !/\b(?:until|till|to|through|by|return(?:ing)?|back|check(?:ing)?[ -]?out)\s+(?:the\s+|on\s+)?$/i.test(
        text.slice(0, only.index),
      )
    )
      return {
        found: false,
        note: `the one date written is not the ${name}; left out`,
      };
    // "3 nights starting from 1st June": a stay of n nights ends n days after the one date written, its start.
    const nights = STAY_NIGHTS.exec(text);
    const count =
      nights?.[1] === undefined ? undefined : (NUMBER_WORDS[nights[1].toLowerCase()] ?? Number(nights[1]));
    if (only && END_WORDS.test(name) && !START_WORDS.test(name) && count !== undefined && count > 0) {
      const end = addDays(only.date, count);
      return {
        found: true,
        value: formatDate({ ...only.date, ...end }, dateFormat, dates.timeZone),
        note: `date ${only.rule} + ${String(count)} nights`,
      };
    }
    if (only)
      return {
        found: true,
        value: formatDate(only.date, dateFormat, dates.timeZone),
        note: `date ${only.rule}`,
      };
    return unique(
      mentions.map((m) => formatDate(m.date, dateFormat, dates.timeZone)),
      'date',
      show,
    );
  }
  if (types.includes('string') || types.length === 0) {
    // "The song_id is wjeiruhuq_roar", "apiKey: XYZ": the request writes the parameter's own identifier, then the value.
    const labelled = valueAfterIdentifier(name, text);
    if (labelled !== undefined)
      return { found: true, value: labelled, note: `the value written after "${name}"` };
    const wantsEmail =
      schema.format === 'email' || hints.normalizers.includes('email') || /e-?mail/i.test(name);
    const wantsPhone = hints.normalizers.includes('phone_e164') || /phone|mobile|(^|_)tel($|_)/i.test(name);
    // A copy recipient (`cc`, `bcc_address`) takes an address only when the request asks for a copy.
    if (
      (wantsEmail || isEmailAddressParameter(hints)) &&
      isCopyParameter(name, description) &&
      !COPY_CUE.test(text)
    )
      return { found: false, note: `no copy ("cc", "bcc") asked for in the request; ${name} left out` };
    if (wantsEmail)
      return unique(
        extractEmails(text).map((e) => e.value),
        'e-mail',
        show,
      );
    if (wantsPhone)
      return unique(
        extractPhones(text).map((e) => e.value),
        'phone',
        show,
      );
    if (typeof schema.pattern === 'string') {
      return unique(
        extractIds(text, schema.pattern).map((e) => e.value),
        'id matching the pattern',
        show,
      );
    }
    if (/(^|_)(id|number|no|code)$/i.test(name))
      return unique(
        extractIds(text).map((e) => e.value),
        'id',
        show,
      );
    if (CONTACT_EMAIL.test(description) || /phone/i.test(description)) {
      const emails = CONTACT_EMAIL.test(description) ? extractEmails(text).map((e) => e.value) : [];
      const phones = /phone/i.test(description) ? extractPhones(text).map((e) => e.value) : [];
      return unique([...emails, ...phones], 'contact', show);
    }
    if (hints.normalizers.includes('city_name')) return cityOf(name, text, show);
    return { found: false, note: null };
  }
  if (types.includes('integer') || types.includes('number')) {
    // Digits inside dates, e-mails, phones and ids are not quantities.
    const masked = maskNonQuantities(
      text,
      dates,
      extractIds(text, '[0-9]{6,}').map((e) => e.text),
    );
    let found = extractQuantities(masked);
    if (types.includes('integer') && !types.includes('number'))
      found = found.filter((q) => Number.isInteger(q.value.value));
    const unit = unitOfParameter(name, description);
    if (unit) {
      const withUnit = found.filter((q) => q.value.unit === unit);
      if (withUnit.length > 0)
        return withCue(
          unique(
            withUnit.map((q) => q.value.value),
            `number in ${unit}`,
            show,
          ),
          `unit ${unit}`,
        );
    }
    const got = unique(
      found.map((q) => q.value.value),
      'number',
      show,
    );
    if (!got.found) return got;
    const cue = found
      .filter((q) => q.value.value === got.value)
      .map((q) => numberCue(q, name, text))
      .find((c) => c !== null);
    return withCue(got, cue ?? null);
  }
  if (types.includes('boolean')) {
    const flag = flagMention(name, text);
    if (flag !== undefined)
      return { found: true, value: flag, note: `flag: the request ${flag ? 'names' : 'negates'} "${name}"` };
    const meant = describedFlag(description, text);
    return meant === undefined
      ? { found: false, note: null }
      : { found: true, value: meant, note: `flag: the request names what ${String(meant)} means` };
  }
  return { found: false, note: null };
}
