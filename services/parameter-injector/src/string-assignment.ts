// Which span of a request goes to which free string parameter of a tool (PI-2), decided for all of them at once so
// that one quoted value fills one parameter. A parameter that names an entity takes a span — never the whole request:
// - url / path (by name or `format: uri`): the one URL / path written;
// - unit (`unit`, `temp_unit`): the unit written with the request's numbers ("4 inches" → `inches`), or a value the
//   description lists that the request names ("Default is 'cm'" and "6cm" → `cm`);
// - place (`location`, `city`, `origin`, `start_location` …): the place a preposition introduces ("in Austin",
//   "from Sydney" for a start, "to Melbourne" for an end);
// - any entity: a value its description lists that the request names as a whole word; the value written right after
//   its own name ("gene 'BRCA1'", "ID rs6034464"); a quoted passage matched by the name words beside it; a lone
//   quoted passage for a lone required parameter.
// With none of these the parameter is missing (→ clarification when required). A parameter that carries the user's
// own words (`query`, `message`, `prompt` …) takes the one quoted passage when there is one, else the request.
import type { ParameterHints } from '@signalbox/registry';
import { assignCurrencies } from './currency-assignment.js';
import { dateFormatOf } from './dates.js';
import { enumKey, extractQuantities, writtenUnit } from './extractors.js';
import { isEmailAddressParameter } from './extract-parameter.js';
import { chineseCitiesFor } from './city-names.js';
import { completePlace, isCityName, twoPartPlaceStyle } from './place-completion.js';
import { languageCodeFor } from './languages.js';
import { isYearParameter } from './number-assignment.js';
import { isTopicParameter, slotValues, topicValues, verbObject } from './template-slots.js';
import { messagePartLabelBefore } from './message-part-labels.js';
import { US_STATE_CODES } from './us-state-codes.js';
import {
  CALENDAR_WORDS,
  CITY_NAMES,
  COMMAND_NAMES,
  EXPRESSION_NAMES,
  NOT_A_NAME,
  OWN_WORDS_NAMES,
  REGION_NAMES,
} from './parameter-vocabulary.js';
import {
  assignByName,
  describedValues,
  exampleValues,
  chineseTerms,
  valuesWithLabel,
  nameBeforeOwnWord,
  writtenExpressions,
  commandAfterName,
  coordinatedPair,
  introducedValue,
  labelledValues,
  attributeBefore,
  attributeOwner,
  kindBefore,
  nameWords,
  paths,
  placeDirection,
  placePhrases,
  properNames,
  quotedSpans,
  sameWord,
  stringRole,
  urls,
  type Candidate,
  type StringRole,
} from './spans.js';

/** The note of the request's one quoted passage given to the one required parameter left. */
export const LONE_QUOTE_NOTE = 'the one quoted value';

/** The note of a span the request labels for the parameter ("Subject: …", 主题：…): the user's own choice. */
export const LABELLED_NOTE = 'the words written against its label';

/** The note of a quoted passage written beside the parameter's name ("a message saying '…'"): the user's choice too. */
export const QUOTED_BESIDE_NOTE = 'the quoted value beside its name';

/** A description that shows a place in two comma-joined parts: "'City, State'", "such as Austin, TX". */
const TWO_PART_PLACE = /\p{Lu}[\p{L}.]*(?: \p{Lu}[\p{L}.]*)*, \p{Lu}[\p{L}.]*/u;

/** A span given to a parameter, and the rule that found it. */
export interface AssignedSpan {
  value: string;
  note: string;
}

/** The outcome for the free string parameters of one tool. */
export interface SpanAssignment {
  spans: Map<string, AssignedSpan>;
  roles: Map<string, StringRole>;
  /** Why a parameter got nothing (several candidates), for the log. */
  notes: Map<string, string>;
}

function typesOf(schema: Record<string, unknown>): string[] {
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * A string parameter no specific extractor serves: no enum, pattern, format or date format, not an e-mail, phone or
 * id by its name, no `city_name` normalizer.
 */
// A verb of saying or a message part's label, then a colon: the message's text follows.
// (in English also without a colon: "… on chat saying the DB is back", "… and tell him the draft is ready")
const MESSAGE_CONTENT_COLON =
  /(?:说(?:一下|一声|下|声)?|讲(?:一下|一声|下)?|写|内容|正文|主题|标题|消息|\b(?:say(?:ing)?|subject|body|message|text))\s*[：:]|\b(?:saying|to\s+say|tell(?:ing)?\s+(?:him|her|them|everyone|everybody))(?:\s+that)?\s+(?=\p{L})/iu;

export function isPlainString(hints: ParameterHints): boolean {
  const s = hints.schema;
  const types = typesOf(s);
  const name = hints.path.slice(hints.path.lastIndexOf('.') + 1);
  return (
    (types.length === 0 || (types.length === 1 && types[0] === 'string')) &&
    !hints.enum &&
    typeof s.pattern !== 'string' &&
    (typeof s.format !== 'string' || s.format === 'uri' || s.format === 'url') &&
    dateFormatOf(s, hints.path) === undefined &&
    !hints.normalizers.includes('city_name') &&
    !/e-?mail|phone|mobile|(^|_)tel($|_)/i.test(name) &&
    !/(^|_)(id|number|no|code)$/i.test(name)
  );
}

/** True when `value` is written in `text` as a whole word or words (case and separators ignored). */
function mentioned(text: string, value: string): boolean {
  const key = enumKey(value).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (key === '') return false;
  return new RegExp(String.raw`(?<![\p{L}\p{N}])${key.replace(/ /g, '[ ]')}(?![\p{L}\p{N}])`, 'u').test(
    enumKey(text),
  );
}

function one(values: readonly string[]): { value?: string; many?: string[] } {
  const distinct = [...new Set(values)];
  if (distinct.length === 1) return { value: distinct[0] };
  return distinct.length > 1 ? { many: distinct } : {};
}

/** A parameter's name without its path prefix. */
function leaf(p: ParameterHints): string {
  return p.path.slice(p.path.lastIndexOf('.') + 1);
}

/**
 * "the Hilton Hotel in Chicago", "the Louvre Museum in Paris": two places of which the first is written "in" the
 * second. For a tool that also names the thing itself (a hotel's, a museum's own parameter), its place parameter means
 * where that thing is — the second. Undefined for any other set of places.
 */
function containingPlace(
  text: string,
  places: readonly string[],
  namesTheThing: (inner: string) => boolean,
): string[] | undefined {
  const [inner, outer] = places;
  if (places.length !== 2 || inner === undefined || outer === undefined || !namesTheThing(inner))
    return undefined;
  const at = text.indexOf(inner);
  if (at < 0) return undefined;
  return text.slice(at + inner.length).startsWith(` in ${outer}`) ? [outer] : undefined;
}

/** The English prepositions (a closed class of words): one between a year and a noun puts them in two phrases. */
const PREPOSITIONS =
  /^(?:about|above|across|after|against|along|among|around|at|before|behind|below|beside|between|by|during|for|from|in|inside|into|near|of|off|on|onto|over|since|through|to|toward|towards|under|until|upon|with|within|without)$/i;

/**
 * The years or spans of years ("2021", "2019-2020", "2022/23") written at most two words before one of `words` (a
 * parameter's name words, of four letters or more), in the same clause.
 */
function yearsBefore(text: string, words: readonly string[]): string[] {
  const own = words.filter((w) => w.length >= 4);
  if (own.length === 0) return [];
  const out: string[] = [];
  for (const m of text.matchAll(
    /(?<![\d.,])([12]\d{3}(?:\s?[-–/]\s?\d{2,4})?)(?![\d.,]\d)((?:\s+[\p{L}'’]+){1,3})/gu,
  )) {
    const after = (m[2] ?? '').trim().split(/\s+/u).slice(0, 3);
    const at = after.findIndex((w) => own.some((o) => sameWord(w.toLowerCase(), o)));
    // "cases from 2020 about theft crimes": a preposition between starts another phrase.
    const between = after.slice(0, Math.max(0, at));
    if (at >= 0 && at <= 2 && !between.some((w) => PREPOSITIONS.test(w)))
      out.push((m[1] ?? '').replace(/\s+/g, ''));
  }
  return out;
}

/** The four-digit years of a text (1000 to 2999, not inside a longer number), as written. */
function yearsWritten(text: string): string[] {
  return [...text.matchAll(/(?<![\d.,])[12]\d{3}(?!\d|[.,]\d)/g)].map((m) => m[0]);
}

/** The unit words written with the request's numbers ("4 inches", "6cm"), as written. */
// The months of the year by their full English names (the first twelve of CALENDAR_WORDS), written with a capital as
// English writes them — "may" in lower case is the verb.
const MONTHS = CALENDAR_WORDS.slice(0, 12);

function monthsWritten(text: string): string[] {
  const out = (text.match(/\b\p{Lu}\p{Ll}+\b/gu) ?? []).filter((w) => MONTHS.includes(w.toLowerCase()));
  return [...new Set(out)];
}

// "How many ounces (are) in 2 pounds": the unit asked for, then the amount measured in the other.
const HOW_MANY_IN =
  /\bhow many (\p{L}+) (?:(?:are|is) )?(?:there )?in (?:an? |one |\d+(?:\.\d+)? )(\p{L}+)/iu;

function conversionUnits(text: string): { from: string; to: string } | undefined {
  const m = HOW_MANY_IN.exec(text);
  return m?.[1] && m[2] ? { from: m[2], to: m[1] } : undefined;
}

/** `unit` as the description spells it when it quotes it, in the singular or plural ("tablespoons" → 'tablespoon'). */
function spelledAsDescribed(unit: string, description: string): string {
  const singular = unit.replace(/(?:es|s)$/i, '');
  return (
    describedValues(description).find((v) =>
      [unit, singular, `${singular}e`].some((u) => enumKey(u) === enumKey(v)),
    ) ?? unit
  );
}

function writtenUnits(text: string): string[] {
  return extractQuantities(text)
    .filter((q) => q.value.unit !== null)
    .map((q) => writtenUnit(q.text))
    .filter((u) => u !== '');
}

/**
 * Spans of `text` for the plain string parameters among `params` (top level, of one tool). `otherEnums` are the enum
 * values of the tool's other parameters: a quoted passage that is one of them is theirs ("a 'Plus' ride").
 */
export function assignStrings(
  params: readonly ParameterHints[],
  text: string,
  toolText = '',
  /** Where the lists an array parameter took are written: their names are that list's, no string's. */
  listed: readonly { start: number; end: number }[] = [],
): SpanAssignment {
  const spans = new Map<string, AssignedSpan>();
  const roles = new Map<string, StringRole>();
  const notes = new Map<string, string>();
  // An e-mail address parameter takes the address written (the extractors), never a name or a span.
  const plain = params.filter((p) => isPlainString(p) && !isEmailAddressParameter(p));
  const enumWords = params.flatMap((p) => (p.enum ?? []).map((v) => enumKey(String(v))));
  // A quoted passage that is most of the request is the request itself, not a span of it.
  const quotes = quotedSpans(text).filter(
    (q) => !enumWords.includes(enumKey(q.value)) && q.value.length < 0.6 * text.trim().length,
  );
  const taken = new Set<string>();
  const give = (field: string, value: string, note: string) => {
    spans.set(field, { value, note });
    taken.add(enumKey(value));
  };
  // The values the request names that a parameter lists (its enum, the values its description quotes): another
  // parameter's place or name is not one of them ("in Celsius" is the unit's).
  const claimedBy = new Map<string, string>();
  // A declared enum claims its values before a description that only quotes them ("For 'add' and 'update', …").
  for (const p of params)
    for (const v of (p.enum ?? []).map(String)) if (mentioned(text, v)) claimedBy.set(enumKey(v), p.path);
  for (const p of params) {
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    for (const v of describedValues(description))
      if (mentioned(text, v) && !claimedBy.has(enumKey(v))) claimedBy.set(enumKey(v), p.path);
  }
  const claimedByOther = (field: string, value: string) => {
    const owner = claimedBy.get(enumKey(value));
    return owner !== undefined && owner !== field;
  };
  // A tool with a city and a country (or state) parameter: "Tokyo, Japan" is the city Tokyo in the country Japan.
  const wordsOf = (p: ParameterHints) => nameWords(p.path.slice(p.path.lastIndexOf('.') + 1));
  const hasRegion = plain.some((p) => wordsOf(p).some((w) => REGION_NAMES.includes(w)));
  // Beside a country or state parameter, a bare `location` (`place`) is the rest of the place: its city ("Sydney,
  // Australia" → location Sydney, country Australia).
  const cityLike = (p: ParameterHints) =>
    wordsOf(p).some((w) => CITY_NAMES.includes(w)) ||
    (hasRegion && wordsOf(p).length === 1 && ['location', 'loc', 'place'].includes(wordsOf(p)[0] ?? ''));
  const hasCity = plain.some(cityLike);

  // Currencies by name or code, as ISO 4217 codes ("Canadian dollars" → CAD), matched to the currency parameters.
  const currencies = assignCurrencies(
    plain.filter((p) => !p.enum),
    text,
  );
  for (const [field, c] of currencies) give(field, c.value, c.note);

  const toolWords = new Set(nameWords(toolText).filter((w) => w.length > 1));
  // Whether another entity parameter of the tool is for the thing `inner` names: a word of the thing ("Hilton Hotel")
  // is a word of that parameter's name or description (`hotel_name`, "The name of the museum").
  const namesThing = (place: ParameterHints) => (inner: string) => {
    const thing = nameWords(inner).filter((w) => w.length >= 3);
    return plain.some((q) => {
      if (q === place || stringRole(leaf(q), '', q.schema.format) !== 'entity') return false;
      const own = [
        ...nameWords(leaf(q)),
        ...nameWords(typeof q.schema.description === 'string' ? q.schema.description : ''),
      ];
      return thing.some((w) => own.some((o) => sameWord(w, o)));
    });
  };
  for (const p of plain) {
    if (currencies.has(p.path)) continue;
    const name = p.path.slice(p.path.lastIndexOf('.') + 1);
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    const role = stringRole(name, description, p.schema.format);
    roles.set(p.path, role);
    // A topic ("The subject matter of the case"): the phrase after "about" / "related to" — even for a name that
    // often carries the user's words (`subject`), as the description says it is what the thing is about.
    const topic = isTopicParameter(p) ? one(topicValues(text)) : {};
    if (topic.value !== undefined) {
      give(p.path, topic.value, 'the phrase after "about" / "related to"');
      continue;
    }
    if (role === 'own_words') {
      // The user's own words, when the request labels them ("主题写“…”", "Subject: …", "内容：…"): the labelled part.
      const labels = [...nameWords(name), ...chineseTerms(description)];
      // Another parameter's label ("Body:" after "Subject: …") ends this one's value.
      const stops = plain
        .filter((q) => q !== p)
        .flatMap((q) => [
          ...nameWords(leaf(q)),
          ...chineseTerms(typeof q.schema.description === 'string' ? q.schema.description : ''),
        ])
        .filter((w) => !labels.includes(w));
      const labelled = one(labelledValues(text, labels, true, stops));
      if (labelled.value !== undefined) give(p.path, labelled.value, LABELLED_NOTE);
      else {
        // "add todo with content go to sleep at 9 pm": the words after "with <its name>" to the sentence's end.
        const withLabel = one(valuesWithLabel(text, [nameWords(name).join(' ')]));
        if (withLabel.value !== undefined)
          give(p.path, withLabel.value, 'the words written after "with" and its name');
        else {
          // "include a message \"where is …?\"", "the phrase '我爱学习'": a passage quoted right after a noun for the
          // user's own words (not another parameter's name: "the subject '…'" is the subject's) is those words — for
          // the one parameter carrying them whose own name no quote stands beside.
          const wordsBefore = (at: number) =>
            (text.slice(Math.max(0, at - 40), at).match(/\p{L}+/gu) ?? [])
              .slice(-2)
              .map((w) => w.toLowerCase());
          const otherNames = new Set(plain.filter((q) => q !== p).flatMap((q) => nameWords(leaf(q))));
          const unlabelled = plain.filter((q) => {
            const description = typeof q.schema.description === 'string' ? q.schema.description : '';
            if (stringRole(leaf(q), description, q.schema.format) !== 'own_words') return false;
            const own = nameWords(leaf(q));
            return !quotes.some((quote) => wordsBefore(quote.start).some((w) => own.includes(w)));
          });
          const introduced = quotes.filter((q) =>
            wordsBefore(q.start).some((w) => OWN_WORDS_NAMES.includes(w) && !otherNames.has(w)),
          );
          const [quoted] = introduced;
          if (unlabelled.length === 1 && unlabelled[0] === p && introduced.length === 1 && quoted)
            give(p.path, quoted.value, QUOTED_BESIDE_NOTE);
        }
      }
      continue;
    }
    // A language code ("The target language code, following the BCP 47 standard"): the code of the language named.
    const language = languageCodeFor(p, text);
    if (language !== undefined) {
      give(p.path, language, 'the code of the language the request names');
      continue;
    }
    // A command line ("using the command echo %time%"): the rest of its sentence after the parameter's own word.
    const command = nameWords(name).some((w) => COMMAND_NAMES.includes(w))
      ? one(commandAfterName(text, COMMAND_NAMES))
      : {};
    if (command.value !== undefined) {
      give(p.path, command.value, 'the command line written after its name');
      continue;
    }
    // A value another parameter lists ("For 'add' and 'update', …" beside a `type` enum of add, update) is that
    // parameter's, not one this description lists as a value of its own.
    const listed = one(
      describedValues(description).filter((v) => mentioned(text, v) && !claimedByOther(p.path, v)),
    );
    if (listed.value !== undefined && role !== 'place') {
      give(p.path, listed.value, `a value the description lists, named in the request`);
      continue;
    }
    // An example the description gives without quotes ("such as oil, acrylic", "Type of food like Sushi"), named in
    // the request and not another parameter's: the value, for an entity parameter.
    const example = one(
      exampleValues(description).filter(
        (v) => mentioned(text, v) && !claimedByOther(p.path, v) && !taken.has(enumKey(v)),
      ),
    );
    if (example.value !== undefined && role === 'entity') {
      give(p.path, example.value, `an example the description gives, named in the request`);
      continue;
    }
    let found: { value?: string; many?: string[] } = {};
    let rule = '';
    if (role === 'url') [found, rule] = [one(urls(text)), 'the URL written'];
    else if (role === 'path') [found, rule] = [one(paths(text)), 'the path written'];
    else if (role === 'unit') {
      // A conversion's two ends (`from_unit`, `to_unit`): "How many teaspoons are in 2 tablespoons?" asks for the
      // first unit and measures in the second — written as the description spells its units ("Supports 'teaspoon'").
      const direction = placeDirection(name);
      const pair = direction === null ? undefined : conversionUnits(text);
      const unit = pair === undefined ? undefined : direction === 'start' ? pair.from : pair.to;
      [found, rule] =
        unit !== undefined
          ? [
              { value: spelledAsDescribed(unit, description) },
              'the unit of the conversion the request asks for',
            ]
          : [one(writtenUnits(text)), 'the unit written with the numbers'];
    } else if (role === 'place') {
      const direction = placeDirection(name);
      const words = nameWords(name);
      const split = hasCity && hasRegion;
      // A city documented as a name alone ("The name of the city"), with no two-part form: "Rutherford, NJ" names
      // the city Rutherford; the state or country after the comma only says which one it is.
      const cityAlone =
        words.some((w) => CITY_NAMES.includes(w)) &&
        twoPartPlaceStyle(description) === undefined &&
        !TWO_PART_PLACE.test(description) &&
        !REGION_NAMES.some((r) => new RegExp(String.raw`\b${r}\b`, 'i').test(description));
      const part = (place: string): string | undefined => {
        if (!split) return cityAlone ? (place.split(/\s*,\s*/)[0] ?? place) : place;
        const pieces = place.split(/\s*,\s*/);
        if (cityLike(p)) return pieces[0];
        return pieces.length > 1 ? pieces[pieces.length - 1] : undefined;
      };
      // A request in Chinese names its places without prepositions to find them by: the cities of the table, in
      // English (北京 → Beijing), the one after 从 for a start and after 到 for an end.
      // A place without a direction ("the weather for my trip to New York, NY") is the place "in"/"at" names, else the
      // one place the request names as an end or a start of a way: where the user is going (or coming from) is where
      // the question is about.
      // A value another parameter lists ("in Celsius") is no place, so it does not stand for one either.
      const written = placePhrases(text, direction).filter((v) => !claimedByOther(p.path, v));
      // Not for a tool with several such places ("between San Francisco and Sydney" for `place1`, `place2`).
      const soleUndirected =
        plain
          .filter(
            (q) => roles.get(q.path) === 'place' || stringRole(leaf(q), '', q.schema.format) === 'place',
          )
          .filter((q) => placeDirection(leaf(q)) === null).length === 1;
      if (written.length === 0 && direction === null && soleUndirected) {
        const ends = placePhrases(text, 'end');
        written.push(
          ...(ends.length > 0 ? ends : placePhrases(text, 'start')).filter((v) => !claimedByOther(p.path, v)),
        );
      }
      const places = (written.length > 0 ? written : chineseCitiesFor(text, direction).map((c) => c.english))
        .filter((v) => !claimedByOther(p.path, v))
        // "in Hotel Paradise, Las Vegas" with the hotel's name taken: the place is what follows it.
        .map((v) => {
          const pieces = v.split(/\s*,\s*/);
          return !split && pieces.length > 1 && taken.has(enumKey(pieces[0] ?? ''))
            ? pieces.slice(1).join(', ')
            : v;
        })
        .map(part)
        .filter((v): v is string => v !== undefined && v !== '');
      // The description shows the place in two parts ("in the format of 'City, State'", "e.g. Austin, TX"): among
      // several places the one written that way is the place ("the Grand Cinema in Leeds, UK" → "Leeds, UK").
      const twoPart = places.filter((v) => /,\s*\S/.test(v));
      const chosen =
        places.length > 1 && TWO_PART_PLACE.test(description) && twoPart.length === 1
          ? twoPart
          : (containingPlace(text, places, namesThing(p)) ?? places);
      [found, rule] = [
        one(chosen),
        direction
          ? `the place after "${direction === 'start' ? 'from' : 'to'}"`
          : 'the place a preposition introduces',
      ];
    }
    if (found.value === undefined && !found.many && role === 'entity') {
      // "Company name: …", "抬头：…": a name parameter is labelled "name" too.
      const labels = [
        ...nameWords(name),
        ...(/\bname\b/i.test(description) ? ['name'] : []),
        ...chineseTerms(description),
      ];
      [found, rule] = [one(labelledValues(text, labels)), `the value written against its label`];
    }
    if (found.value === undefined && !found.many && role !== 'unit') {
      [found, rule] = [one(introducedValue(text, nameWords(name))), `the value written after "${name}"`];
    }
    if (found.value === undefined && !found.many && role === 'entity' && p.required)
      [found, rule] = [
        one(valuesWithLabel(text, [nameWords(name).join(' ')])),
        `the words written after "with ${name}"`,
      ];
    // A mathematical function or expression ("the curve y=x^2"): the one expression the request writes.
    if (found.value === undefined && !found.many && nameWords(name).some((w) => EXPRESSION_NAMES.includes(w)))
      [found, rule] = [one(writtenExpressions(text)), 'the expression written'];
    // A month written as a string (`month`: "Month in which the concert is happening"): the one month the request
    // names, as written ("in December" → "December"); a month is never a place or a name, so no other rule takes it.
    if (found.value === undefined && !found.many && role === 'entity' && nameWords(name).includes('month'))
      [found, rule] = [one(monthsWritten(text)), 'the one month named'];
    // A year written as a string ("year": "2022"): the one year the request writes, as for a numeric year.
    if (found.value === undefined && !found.many && isYearParameter(p.path))
      [found, rule] = [one(yearsWritten(text)), 'the one year written'];
    if (found.value === undefined && !found.many && role === 'entity')
      [found, rule] = [
        // A word of the tool's own name or purpose ("a hotel room" for a hotel booking tool) is its subject, not a kind.
        one(kindBefore(name, text).filter((k) => !nameWords(k).every((w) => toolWords.has(w)))),
        `the kind written before what "${name}" is a kind of`,
      ];
    // "Color of the bird": the word written before "bird" ("a green bird") — for a required parameter (an optional one
    // takes no value without a cue of its own), unless another required parameter is an attribute of the same thing
    // ("Habitat of the bird"), when the word does not say whose it is.
    if (found.value === undefined && !found.many && role === 'entity' && p.required) {
      const owner = attributeOwner(name, description);
      const shared = plain.some(
        (q) =>
          q !== p &&
          q.required &&
          owner !== undefined &&
          attributeOwner(leaf(q), typeof q.schema.description === 'string' ? q.schema.description : '') ===
            owner,
      );
      if (!shared)
        [found, rule] = [
          one(
            attributeBefore(name, description, text).filter(
              (k) =>
                !nameWords(k).every((w) => toolWords.has(w)) &&
                !taken.has(enumKey(k)) &&
                !claimedByOther(p.path, k),
            ),
          ),
          `the word written before the ${owner ?? 'thing'} it describes`,
        ];
    }
    // "the 2019-2020 season", "the 2021 La Liga season": a year (or a span of years) written just before the
    // parameter's own word dates that thing — the value of a `season`, an `edition`.
    if (found.value === undefined && !found.many && role === 'entity')
      [found, rule] = [one(yearsBefore(text, nameWords(name))), `the year written before "${name}"`];
    // "in Santa Clara county", "in C key": the name written right before the parameter's own word.
    if (found.value === undefined && !found.many && role === 'entity')
      [found, rule] = [
        one(nameBeforeOwnWord(text, nameWords(name)).filter((v) => !claimedByOther(p.path, v))),
        `the name written before "${name}"`,
      ];
    if (found.value !== undefined) give(p.path, found.value, rule);
    // Several quoted passages after the parameter's words ("the DNA sequence '…' … a reference sequence '…'"): the
    // quotes are matched to the parameters by all their name words below, so one goes to `reference_sequence`.
    else if (found.many && !found.many.every((v) => quotes.some((q) => q.value === v)))
      notes.set(p.path, `${String(found.many.length)} candidates (${found.many.join(', ')}); not choosing`);
  }

  // Quoted passages: by the name words beside them, then a lone one for a lone required parameter.
  const open = quotes.filter((q) => !taken.has(enumKey(q.value)));
  const claimants = plain.filter((p) => !spans.has(p.path) && !notes.has(p.path));
  const byName = assignByName(
    claimants.map((p) => ({ field: p.path, words: nameWords(p.path.slice(p.path.lastIndexOf('.') + 1)) })),
    open,
    text,
  );
  const usedQuotes = new Set<number>();
  for (const p of claimants) {
    const at = byName.get(p.path);
    const q = at === undefined ? undefined : open[at];
    if (q && at !== undefined) {
      give(p.path, q.value, QUOTED_BESIDE_NOTE);
      usedQuotes.add(at);
    }
  }
  const leftQuotes = open.filter((_, i) => !usedQuotes.has(i));
  const leftRequired = claimants.filter((p) => !spans.has(p.path) && p.required);
  const lone = leftQuotes[0];
  const only = leftRequired.length === 1 ? leftRequired[0] : undefined;
  // A passage written against a label of a message's part (主题“…”, "subject: '…'") is that part's text: it is no
  // value of a parameter the label does not name ("a contact's name" is not the e-mail's subject).
  const labelledOther = (q: Candidate<string>, p: ParameterHints) => {
    const label = messagePartLabelBefore(text, q.start);
    if (label === undefined) return false;
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    const own = [...nameWords(leaf(p)), ...chineseTerms(description)];
    return !own.some((w) => sameWord(w, label) || w === label);
  };
  if (lone && leftQuotes.length === 1 && only && !labelledOther(lone, only))
    give(only.path, lone.value, LONE_QUOTE_NOTE);

  // Proper names no rule above took, for the required entity (or place) parameters left: a lone name for a lone
  // parameter, or as many names as numbered parameters ("Apple and Samsung" → company1, company2) in order.
  const docWords = new Set(nameWords(toolText).filter((w) => w.length > 1));
  // (the tool's text opens with its name: the words of what it handles, `invoice_issue` → invoice)
  const toolNameWords = new Set(nameWords(toolText.split(/\s+/)[0] ?? '').filter((w) => w.length > 2));
  const inQuote = (c: { start: number; end: number }) =>
    quotedSpans(text).some((q) => c.start >= q.start && c.end <= q.end);
  const allNames = properNames(text).filter((n) => !listed.some((r) => n.start >= r.start && n.end <= r.end));
  const isTaken = (value: string) =>
    [...taken].some((t) => t.includes(enumKey(value)) || enumKey(value).includes(t));
  // "headed to Washington, DC": a name written after a comma right behind a name another rule took is part of that
  // value (its region), not a value of its own.
  const tailOfTaken = (n: Candidate<string>) =>
    allNames.some(
      (m) => m.end <= n.start && /^\s*,\s*$/.test(text.slice(m.end, n.start)) && isTaken(m.value),
    );
  // What follows a colon after a verb of saying or a message part's label (在群里说一下：…, "subject: …", 正文：…) is
  // the message's own text: a name in it is what the message talks about, not a value of the call.
  const content = MESSAGE_CONTENT_COLON.exec(text);
  const inContent = (c: { start: number }) =>
    content !== null && c.start >= content.index + content[0].length;
  const names = allNames.filter(
    (n) =>
      !inQuote(n) &&
      !inContent(n) &&
      !tailOfTaken(n) &&
      ![...taken].some((t) => t.includes(enumKey(n.value)) || enumKey(n.value).includes(t)) &&
      !claimedBy.has(enumKey(n.value)) &&
      !enumWords.includes(enumKey(n.value)) &&
      // A name made of the tool's own words is what the tool is about ("the Population Density"), not a value.
      !nameWords(n.value).every((w) => docWords.has(w)) &&
      !kindOfThing(n, text, toolNameWords) &&
      // A name that is a parameter's own name ("their CIK number is …") labels that parameter's value.
      !params.some((p) => {
        const label = nameWords(leaf(p));
        return label.length > 0 && enumKey(label.join(' ')) === enumKey(n.value);
      }),
  );
  const distinctNames = [...new Map(names.map((n) => [enumKey(n.value), n])).values()];
  const wanting = plain.filter(
    (p) =>
      p.required &&
      !spans.has(p.path) &&
      (roles.get(p.path) === 'entity' || roles.get(p.path) === 'place') &&
      !wordsOf(p).some((w) => NOT_A_NAME.includes(w)),
  );
  const numbered =
    wanting.length > 1 &&
    new Set(
      wanting.map((p) =>
        p.path.replace(/_?(?:\d+|one|two|first|second)$/i, '').replace(/^(?:first|second)_?/i, ''),
      ),
    ).size === 1;
  if (wanting.length === distinctNames.length && (wanting.length === 1 || numbered))
    wanting.forEach((p, k) => {
      const n = distinctNames[k];
      if (n)
        give(
          p.path,
          n.value,
          wanting.length === 1 ? 'the one proper name left' : `proper names in order (${String(k + 1)})`,
        );
    });
  // A numbered pair no proper name filled ("Mix yellow and blue colors" for `color1`, `color2`; "a human and a chimp"
  // for `species1`, `species2`): the two words the request joins with "and", in the order written — the order the
  // numbers give the parameters.
  const pairLeft = wanting.filter((p) => !spans.has(p.path));
  const [first, second] = pairLeft;
  if (numbered && wanting.length === 2 && first && second && distinctNames.length === 0) {
    const base = nameWords(leaf(first).replace(/_?(?:\d+|one|two|first|second)$/i, '')).pop() ?? '';
    const pair = coordinatedPair(text, base);
    if (pair && !pair.some((v) => taken.has(enumKey(v)) || claimedBy.has(enumKey(v)))) {
      give(first.path, pair[0], 'the first of the two words joined by "and"');
      give(second.path, pair[1], 'the second of the two words joined by "and"');
    }
  }
  // Names by the words written beside them ("directed by Quentin Tarantino", "Jim Henson as the director", "starring
  // Claudia Doumit", "Danny John-Jules in the cast"): a name goes to the entity parameter whose name or description
  // has a word written within a few words of it, up to the clause's "and" — the words every such parameter shares
  // ("movie") telling nothing. A name two parameters fit as well, or a parameter two names fit as well, is not chosen.
  const byCue = namesByCue(
    plain.filter(
      (p) =>
        !spans.has(p.path) &&
        roles.get(p.path) === 'entity' &&
        !wordsOf(p).some((w) => NOT_A_NAME.includes(w)),
    ),
    // (every place a name is written: 上周Atlas的会…发给Atlas项目组 — the second says what Atlas is)
    names.filter((n) => !isTaken(n.value)),
    text,
  );
  for (const [field, n] of byCue)
    give(field, n.value, 'the name written beside its name or description words');
  const namesLeft = distinctNames.filter((n) => !isTaken(n.value));
  // The cues placed all names but one, and one required name parameter is still open: the name left is its value
  // ("the ranking of Manchester United in Premier League": the league's own word placed Premier League).
  const wantingLeft = wanting.filter((p) => !spans.has(p.path));
  if (byCue.size > 0 && wantingLeft.length === 1 && namesLeft.length === 1 && wantingLeft[0] && namesLeft[0])
    give(wantingLeft[0].path, namesLeft[0].value, 'the one proper name left once the cues placed the others');
  if (wanting.length === 0 && namesLeft.length === 1 && namesLeft[0]) {
    // No required parameter wants a name: the one name left goes to the one optional parameter documented as a name
    // and still open ("Name of the lead actor") — "films by Ana Ruiz with Tom Vance in the cast": the director took
    // "Ana Ruiz"; "a movie that stars Jennifer Connelly … with Jim Henson as the director": the director's cue took
    // Jim Henson, and the cast is the one name parameter left for the other name.
    const namedOptional = plain.filter(
      (p) =>
        !p.required &&
        !spans.has(p.path) &&
        roles.get(p.path) === 'entity' &&
        !wordsOf(p).some((w) => NOT_A_NAME.includes(w)) &&
        /\bnames?\b/i.test(typeof p.schema.description === 'string' ? p.schema.description : ''),
    );
    const only = namedOptional.length === 1 ? namedOptional[0] : undefined;
    if (only) give(only.path, namesLeft[0].value, 'the one proper name left, for the one optional name');
  }
  // Where the tool's purpose names a required entity parameter no rule above filled ("… melting point of a
  // substance"), the request's words in the same place ("… melting point of water") are its value; then the one
  // proper name left goes to the one such parameter still open.
  const openEntities = () =>
    plain.filter(
      (p) =>
        p.required &&
        !spans.has(p.path) &&
        !notes.has(p.path) &&
        roles.get(p.path) === 'entity' &&
        !wordsOf(p).some((w) => NOT_A_NAME.includes(w)),
    );
  // Taken here means written within a value another rule gave, word for word ("C" is not taken by "major"; "vegan
  // chocolate cake" is not taken by "vegan").
  const withinTaken = (value: string) => {
    const own = enumKey(value).split(' ');
    return [...taken].some((t) => {
      const words = t.split(' ');
      return own.every((w) => words.includes(w));
    });
  };
  const slotted = slotValues(openEntities(), toolText, text, withinTaken);
  for (const [field, value] of slotted)
    give(field, value, 'the words written where the tool’s purpose names it');
  // "Who discovered radium?" to a discoverer look-up: the object of the verb the tool's words name is the value of
  // the one entity parameter still open.
  const [object] = openEntities();
  if (object && openEntities().length === 1) {
    const value = verbObject(object, toolText, text, withinTaken);
    if (value !== undefined) give(object.path, value, 'the object of the verb the tool’s words name');
  }
  const stillOpen = openEntities();
  const lastNames = distinctNames.filter((n) => !isTaken(n.value));
  if (slotted.size > 0 && stillOpen.length === 1 && lastNames.length === 1 && stillOpen[0] && lastNames[0])
    give(stillOpen[0].path, lastNames[0].value, 'the one proper name left once the others were placed');
  // A state documented by its abbreviation ("The U.S. state abbreviation … such as 'CA' for California"): the postal
  // code of the one US state the request names ("in New York" → NY) — a state's name is written once for it.
  for (const p of plain) {
    const description = typeof p.schema.description === 'string' ? p.schema.description : '';
    if (!wordsOf(p).includes('state') || !/\babbreviat|\btwo-letter\b|\bpostal code\b/i.test(description))
      continue;
    const current = spans.get(p.path)?.value;
    const named = Object.keys(US_STATE_CODES).filter((name) => mentioned(text, name));
    const state = current !== undefined ? US_STATE_CODES[current] : named.length === 1 ? named[0] : undefined;
    const code = state === undefined ? undefined : (US_STATE_CODES[state] ?? state);
    if (code === undefined || !/^[A-Z]{2}$/.test(code) || code === current) continue;
    spans.set(p.path, { value: code, note: 'the postal code of the state the request names' });
    // One value fills one parameter: the state's name is not also an optional city's ("in New York").
    for (const q of plain)
      if (q !== p && !q.required && state !== undefined && spans.get(q.path)?.value === state)
        spans.delete(q.path);
  }
  // A place parameter whose description shows places in two parts ("'City, State', such as 'Berkeley, CA'") gets the
  // place written that way ("Boston" → "Boston, MA"), when the gazetteer leaves no doubt which city it is. Not where
  // the tool asks for the city and the state separately (the parts were split above).
  if (!(hasCity && hasRegion))
    for (const p of plain) {
      const span = spans.get(p.path);
      const style = twoPartPlaceStyle(typeof p.schema.description === 'string' ? p.schema.description : '');
      // A parameter of another name documented in the two-part form ("where_to": "in the format of 'City, State'")
      // is a place too, for a value that is a city of the gazetteer.
      const place =
        roles.get(p.path) === 'place' || (span !== undefined && isCityName(span.value.split(',')[0] ?? ''));
      if (!span || !style || !place) continue;
      const written = completePlace(span.value, style);
      if (written !== span.value)
        spans.set(p.path, { value: written, note: `${span.note}, written as the description shows places` });
    }
  return { spans, roles, notes };
}

// A clause ends at punctuation and at a conjunction: "acted by Ronald Young and directed by Herbert Ross" — "directed"
// is Herbert Ross's cue, not Ronald Young's.
const CLAUSE_BREAK = /^(?:and|or|but)$/i;
const CUE_BEFORE = 4;
const CUE_AFTER = 3;

/** The words written within a few words of a name, inside its clause and not past another name. */
function wordsBeside(text: string, name: Candidate<string>, others: readonly Candidate<string>[]): string[] {
  const limitBefore = Math.max(0, ...others.filter((o) => o.end <= name.start).map((o) => o.end));
  const afterNames = others.filter((o) => o.start >= name.end).map((o) => o.start);
  const limitAfter = Math.min(text.length, ...afterNames);
  const before =
    text
      .slice(limitBefore, name.start)
      .split(/[,.;:!?()\n]/u)
      .pop() ?? '';
  const after = text.slice(name.end, limitAfter).split(/[,.;:!?()\n]/u)[0] ?? '';
  const words = (part: string) =>
    part
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w !== '');
  const upTo = (list: string[]) => {
    const stop = list.findIndex((w) => CLAUSE_BREAK.test(w));
    return stop === -1 ? list : list.slice(0, stop);
  };
  return [...upTo(words(before).reverse()).slice(0, CUE_BEFORE), ...upTo(words(after)).slice(0, CUE_AFTER)];
}

/**
 * The stem of an English word with its inflectional and agent endings cut ("acted", "actors", "actress" → "act";
 * "stars", "starring" → "star"; "directed", "director" → "direct"), for words {@link sameWord}'s shared prefix is too
 * short for. Stems under three letters are no stems.
 */
function stemOf(word: string): string {
  const cut = word
    .toLowerCase()
    .replace(/(?:esses|ess|ors|ers|or|er|ings|ing|ed|es|s)$/, '')
    // "starr" (starring) → "star": a consonant doubled before an ending.
    .replace(/([b-df-hj-np-tv-z])\1$/, '$1');
  return cut.length >= 3 ? cut : word.toLowerCase();
}

function sameStem(a: string, b: string): boolean {
  const stem = stemOf(a);
  return stem.length >= 3 && stem === stemOf(b);
}

/** The words of a parameter that can tell its value: its name's words and its description's, "name" aside. */
/**
 * An abbreviation in capitals right before a word of the tool's name ("a VAT invoice" to `invoice_issue`, "the PDF
 * report" to `report_generate`) says what kind of that thing is meant: it modifies the noun, as an adjective would,
 * and names no one.
 */
function kindOfThing(n: Candidate<string>, text: string, thingWords: ReadonlySet<string>): boolean {
  const next = /^\s+(\p{L}+)/u.exec(text.slice(n.end))?.[1]?.toLowerCase() ?? '';
  return /^\p{Lu}{2,5}$/u.test(n.value) && [...thingWords].some((w) => sameWord(next, w));
}

function cueWordsOf(p: ParameterHints): Set<string> {
  const description = typeof p.schema.description === 'string' ? p.schema.description : '';
  const name = p.path.slice(p.path.lastIndexOf('.') + 1);
  return new Set(
    [...nameWords(name), ...nameWords(description)].filter(
      // Every name parameter's documentation says "name": it tells no two apart.
      (w) => w.length >= 4 && w !== 'name' && w !== 'names',
    ),
  );
}

/**
 * The Chinese terms a parameter's description gives ("Only minutes of this project; in Chinese 项目") written right
 * beside a name in Chinese text — after it, past a possessive 的 (Atlas项目组, Atlas的项目), or before it (项目Atlas):
 * Chinese writes no spaces, so a cue is the term the name touches.
 */
function chineseCuesBeside(text: string, name: Candidate<string>, terms: readonly string[]): number {
  const after = (/^\p{Script=Han}{1,8}/u.exec(text.slice(name.end))?.[0] ?? '').replace(/^的/u, '');
  const before = /\p{Script=Han}{1,8}$/u.exec(text.slice(0, name.start))?.[0] ?? '';
  return terms.filter((t) => after.startsWith(t) || before.endsWith(t)).length;
}

/** See the comment at the call: each name to the one parameter its neighbouring words point to, one to one. */
function namesByCue(
  params: readonly ParameterHints[],
  names: readonly Candidate<string>[],
  text: string,
): Map<string, Candidate<string>> {
  const out = new Map<string, Candidate<string>>();
  if (params.length === 0 || names.length === 0) return out;
  const cues = new Map(params.map((p) => [p.path, cueWordsOf(p)]));
  const zhCues = new Map(
    params.map((p) => [
      p.path,
      chineseTerms(typeof p.schema.description === 'string' ? p.schema.description : ''),
    ]),
  );
  const all = [...cues.values()];
  const shared = (w: string) => all.length > 1 && all.every((set) => set.has(w));
  const best = new Map<string, { name: Candidate<string>; score: number; tied: boolean }>();
  for (const n of names) {
    const beside = wordsBeside(
      text,
      n,
      names.filter((o) => o !== n),
    );
    // The name's own words, when one is a word of the parameter's name and others name the thing: "Premier League"
    // says it is a league. A name that is only the parameter's word ("their CIK number") is its label, not a value.
    const own = nameWords(n.value);
    const scores = params.map((p) => {
      const words = [...(cues.get(p.path) ?? [])].filter((w) => !shared(w));
      const label = nameWords(leaf(p));
      const says = own.filter((w) => label.some((l) => sameWord(w, l)));
      const itself = says.length > 0 && says.length < own.length ? says.length : 0;
      const labelOnly = own.length > 0 && says.length === own.length;
      return {
        field: p.path,
        score: labelOnly
          ? 0
          : words.filter((w) => beside.some((b) => sameWord(b, w) || sameStem(b, w))).length +
            itself +
            chineseCuesBeside(text, n, zhCues.get(p.path) ?? []),
      };
    });
    const top = Math.max(...scores.map((x) => x.score));
    const winners = scores.filter((x) => x.score === top);
    const winner = winners[0];
    if (top === 0 || winners.length !== 1 || !winner) continue;
    const held = best.get(winner.field);
    if (!held || top > held.score) best.set(winner.field, { name: n, score: top, tied: false });
    // (the same name written twice is one value, not a tie)
    else if (top === held.score && enumKey(held.name.value) !== enumKey(n.value)) held.tied = true;
  }
  for (const [field, b] of best) if (!b.tied) out.set(field, b.name);
  return out;
}
