// Spans of a request that a parameter naming an entity can take (PI-2): a quoted value, the value written right after
// the parameter's own name ("gene BRCA1", "the function 3x^2 + 1"), the place a preposition introduces ("in Paris",
// "from Sydney to Melbourne"), a URL or a path — and how values are matched to parameters by the words of their names
// standing next to them ("base of 10", "height 5", "10 meters base"). Nothing here invents: every value is a piece
// of the text, and several equally good candidates are never chosen between.
import {
  CALENDAR_WORDS,
  DETERMINERS,
  END_NAMES,
  FLAG_VERBS,
  GEO_FEATURES,
  LINKING_WORDS,
  LOCATION_NAMES,
  NAME_PARTICLES,
  NEGATIONS,
  OWN_WORDS_NAMES,
  PATH_NAMES,
  PHRASE_ENDS,
  START_NAMES,
  UNIT_NAMES,
  URL_NAMES,
} from './parameter-vocabulary.js';
import { isCityName } from './place-completion.js';

const LINKING = new Set(LINKING_WORDS);
const ENDS = new Set(PHRASE_ENDS);
const GEO = new Set(GEO_FEATURES);
const CALENDAR = new Set(CALENDAR_WORDS);

/** A word, number or sign of a text, with where it is. */
export interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
}

// A letter or digit of a script written with spaces between words. Chinese and Japanese characters are not: a run of
// them is a token of its own, so a Latin name written against them ("给Zhang Min发封邮件") stands apart.
const SPACED = String.raw`(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])`;
const UNSPACED = String.raw`[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+`;
const TOKEN = new RegExp(String.raw`${SPACED}(?:${SPACED}|['’_-])*|${UNSPACED}|[=:]`, 'gu');

/** The words (and `=` / `:` signs) of a text, in order. */
export function tokenize(text: string): Token[] {
  return [...text.matchAll(TOKEN)].map((m) => ({
    text: m[0],
    lower: m[0].toLowerCase(),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** The words of a parameter name: `initial_velocity` → initial, velocity; `mass1` → mass; `targetTemp` → target, temp. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== '');
}

/**
 * True when a word of the text is a parameter's name word or an inflection of it: equal, or sharing a prefix of at
 * least four letters that covers the shorter word but for an ending of up to three letters ("temp" ~ "temperature",
 * "accelerating" ~ "acceleration", "avoided" ~ "avoid"). Words under four letters must be equal (or plural).
 */
export function sameWord(word: string, nameWord: string): boolean {
  if (word === nameWord || word === `${nameWord}s` || nameWord === `${word}s`) return true;
  const shorter = Math.min(word.length, nameWord.length);
  if (shorter < 4) return false;
  let common = 0;
  while (common < shorter && word[common] === nameWord[common]) common++;
  return common >= 4 && common >= shorter - 3;
}

/** How closely a parameter's name stands to a value in the text: how many of its words, and how far the nearest is. */
export interface Closeness {
  /** Distinct name words found beside the value. */
  words: number;
  /** Meaningful tokens between the value and the nearest name word (linking words like "of", "=" not counted). */
  distance: number;
  /** True when the nearest name word follows the value ("10 meters base") rather than precedes it. */
  after: boolean;
}

const BEFORE_WINDOW = 4;
const AFTER_WINDOW = 2;

/**
 * How closely `words` (a parameter's name words) stand to the value occupying [start, end) of the text: up to four
 * tokens before it or two after it, not reaching past another value (`stops`), a sentence end or a comma. Single
 * letters (`a`, `x`) count only written as `a = 1` / `a: 1` or directly before the value.
 */
export function closeness(
  tokens: readonly Token[],
  text: string,
  words: readonly string[],
  start: number,
  end: number,
  stops: readonly { start: number; end: number }[],
): Closeness | null {
  if (words.length === 0) return null;
  const blocked = (a: number, b: number) =>
    stops.some((s) => s.start >= a && s.end <= b && !(s.start === start && s.end === end)) ||
    /[.;!?,()[\]]/.test(text.slice(a, b));
  const found = new Set<string>();
  let best: { distance: number; after: boolean } | null = null;
  const scan = (indices: number[], after: boolean) => {
    let distance = 0;
    let steps = 0;
    for (const i of indices) {
      const t = tokens[i];
      if (!t) break;
      if (after ? blocked(end, t.start) : blocked(t.end, start)) break;
      if (steps >= (after ? AFTER_WINDOW : BEFORE_WINDOW)) break;
      // "a group size of 50 with extroverted members being 15": a preposition after the value opens the next phrase,
      // whose words are another value's ("10 meters base" has none between; "of" joins: "5 kg of flour").
      if (after && ENDS.has(t.lower) && t.lower !== 'of') break;
      const hit = words.find((w) =>
        w.length === 1
          ? t.lower === w && !after && (distance === 0 || /^\s*[=:]\s*$/.test(text.slice(t.end, start)))
          : sameWord(t.lower, w),
      );
      if (hit) {
        found.add(hit);
        if (!best || distance < best.distance) best = { distance, after };
      }
      if (!LINKING.has(t.lower) && t.text !== '=' && t.text !== ':') distance++;
      steps++;
    }
  };
  const before: number[] = [];
  const following: number[] = [];
  tokens.forEach((t, i) => {
    if (t.end <= start) before.unshift(i);
    else if (t.start >= end) following.push(i);
  });
  scan(before, false);
  scan(following, true);
  const near = best as { distance: number; after: boolean } | null;
  return near ? { words: found.size, ...near } : null;
}

/** A candidate value with where it is written. */
export interface Candidate<T> {
  value: T;
  start: number;
  end: number;
}

/** A parameter taking part in an assignment: its field and name words. */
export interface Claimant {
  field: string;
  words: readonly string[];
}

/**
 * Matches candidates to parameters by the name words standing next to them: the closest pairs first (more name words,
 * then fewer tokens between, then a name before the value over one after it). A pair tied with another pair for the
 * same value or the same parameter is left for the caller to settle (it is not chosen between). Returns field →
 * candidate index.
 */
export function assignByName<T>(
  claimants: readonly Claimant[],
  candidates: readonly Candidate<T>[],
  text: string,
  tokens: readonly Token[] = tokenize(text),
): Map<string, number> {
  const pairs: { field: string; index: number; c: Closeness }[] = [];
  for (const p of claimants)
    candidates.forEach((cand, index) => {
      const c = closeness(tokens, text, p.words, cand.start, cand.end, candidates);
      if (c) pairs.push({ field: p.field, index, c });
    });
  const rank = (x: Closeness) => [-x.words, x.distance, x.after ? 1 : 0];
  const cmp = (a: Closeness, b: Closeness) => {
    const ra = rank(a);
    const rb = rank(b);
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return (ra[i] ?? 0) - (rb[i] ?? 0);
    return 0;
  };
  pairs.sort((a, b) => cmp(a.c, b.c));
  const out = new Map<string, number>();
  const used = new Set<number>();
  for (const pair of pairs) {
    if (out.has(pair.field) || used.has(pair.index)) continue;
    const rival = pairs.some(
      (o) =>
        o !== pair &&
        cmp(o.c, pair.c) === 0 &&
        ((o.index === pair.index && o.field !== pair.field && !out.has(o.field)) ||
          (o.field === pair.field && o.index !== pair.index && !used.has(o.index))),
    );
    if (rival) continue;
    out.set(pair.field, pair.index);
    used.add(pair.index);
  }
  return out;
}

// An apostrophe between two letters inside a passage ("'Let's meet at 10'") is a contraction or a possessive, not
// the passage's closing quote. A quote stands against Chinese characters (主题“…”，): Chinese writes no spaces, so only
// a Latin letter or a digit beside a quote mark makes it an apostrophe.
const QUOTED =
  /(?<![\p{Script=Latin}\p{N}])(['"‘“`])((?:[^'"‘’“”`\n]|(?<=\p{L})['’](?=\p{L})){1,200}?)(['"’”`])(?![\p{Script=Latin}\p{N}])/gu;

/** Quoted passages ('BRCA1', "ABC Ltd.", `DNA123`), without their quotes. Apostrophes inside words are not quotes. */
export function quotedSpans(text: string): Candidate<string>[] {
  const out: Candidate<string>[] = [];
  for (const m of text.matchAll(QUOTED)) {
    const value = (m[2] ?? '').trim();
    if (value !== '') out.push({ value, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

const URL = /\bhttps?:\/\/[^\s'"<>]+|\bwww\.[^\s'"<>]+/gi;
const PATH =
  /(?<![\w/])(?:~?\/|\.{1,2}\/|[A-Za-z]:[\\/])[^\s'"<>,;]*|(?<![\w/])[\w.-]+\/[\w./-]+|\b[\w-]+\.[A-Za-z0-9]{1,5}\b/g;

/** URLs written in the text (trailing sentence punctuation dropped). */
export function urls(text: string): string[] {
  return [...text.matchAll(URL)].map((m) => m[0].replace(/[.,;:!?)]+$/, ''));
}

/**
 * File-system paths written in the text: `/var/log/app.log`, `./data`, `~/data/scan.nii`, `C:\x`, `C:/data/cars.csv`,
 * `docs/report.md`, `notes.txt`.
 */
export function paths(text: string): string[] {
  const withoutUrls = text.replace(URL, ' ');
  return [...withoutUrls.matchAll(PATH)]
    .map((m) => m[0].replace(/[.,;:!?)]+$/, ''))
    .filter((p) => /[/\\]/.test(p) || /\.[A-Za-z][A-Za-z0-9]{0,4}$/.test(p))
    .filter((p) => !/^\d+(?:\.\d+)+$/.test(p));
}

/** True for a word written with a capital (or all capitals / a leading digit with letters: "221B"). */
function capitalised(word: string): boolean {
  return /^\p{Lu}/u.test(word) || /^\d+\p{L}+$/u.test(word);
}

/**
 * The place a preposition introduces: "in New York, NY", "at Mariposa, CA", "in the Amazon rainforest", "from 221B
 * Baker Street, Berkeley". A run of capitalised words (joined by "of", "de", "-"), optionally followed by geographic
 * feature words ("river", "park") and by ", Region" parts that are capitalised too. `direction` picks the place after
 * "from" (a start) or after "to" (an end); otherwise the places after in/at/near/for. Returns every place found, in
 * text order.
 */
export function placePhrases(text: string, direction: 'start' | 'end' | null): string[] {
  const prepositions =
    direction === 'start'
      ? ['from', 'between']
      : direction === 'end'
        ? ['to', 'and', 'towards']
        : ['in', 'at', 'near', 'around', 'for', 'of'];
  const tokens = tokenize(text);
  const out: string[] = [];
  tokens.forEach((t, i) => {
    if (!prepositions.includes(t.lower)) return;
    let j = i + 1;
    if (tokens[j]?.lower === 'the') j++;
    const first = tokens[j];
    if (!first || !capitalised(first.text)) return;
    // "in December", "of April 25th": a month or weekday is a time, not a place — so is "the 1st October".
    if (CALENDAR.has(first.lower)) return;
    if (/^\d/.test(first.text) && CALENDAR.has(tokens[j + 1]?.lower ?? '')) return;
    // "and" introduces the end only in "between A and B".
    if (t.lower === 'and' && !/\bbetween\b/i.test(text.slice(0, t.start))) return;
    let end = first.end;
    let k = j + 1;
    const gap = (a: number, b: number) => text.slice(a, b);
    while (k < tokens.length) {
      const next = tokens[k];
      if (!next) break;
      const between = gap(end, next.start);
      if (/^\s+$/.test(between) && (capitalised(next.text) || GEO.has(next.lower))) {
        end = next.end;
        k++;
        continue;
      }
      if (
        /^\s+$/.test(between) &&
        (next.lower === 'of' || next.lower === 'de') &&
        capitalised(tokens[k + 1]?.text ?? '')
      ) {
        end = next.end;
        k++;
        continue;
      }
      // ", CA" / ", Israel" / ", Tamil Nadu": a region written after a comma, capitalised, not the start of a clause.
      // Not the pronoun "I" opening the next clause ("in New York City, I would like …").
      if (
        /^\s*,\s+$/.test(between) &&
        capitalised(next.text) &&
        !isPronounI(next.text) &&
        !ENDS.has(next.lower)
      ) {
        end = next.end;
        k++;
        continue;
      }
      // "D.C."-style initials: a capital letter after a capital letter and its dot — not a sentence's first word after
      // the place's full stop ("in New York. I need …").
      if (
        /^\.$/.test(between.trim()) &&
        /^\p{Lu}$/u.test(next.text) &&
        /^\p{Lu}$/u.test(tokens[k - 1]?.text ?? '')
      ) {
        end = next.end;
        k++;
        continue;
      }
      break;
    }
    let phrase = text.slice(first.start, end);
    // Initials keep their final dot ("Washington D.C."), other trailing punctuation goes.
    if (/(?:^|[\s.])\p{Lu}$/u.test(phrase) && text[end] === '.' && /\.\p{Lu}$/u.test(phrase)) phrase += '.';
    out.push(phrase.trim());
  });
  return [...new Set(out)];
}

/**
 * The value written right after one of a parameter's name words ("gene BRCA1", "ID rs6034464", "the function 3x^2 +
 * 2x - 1", "company 'ABC Ltd.'"): a quoted passage, or a run of tokens up to a phrase end that starts with a capital,
 * a digit or a sign, or contains a digit — a plain lower-case word after a name is not taken as its value.
 */
export function introducedValue(text: string, words: readonly string[]): string[] {
  const out: string[] = [];
  const re = /[\p{L}\p{N}_]+/gu;
  let names: Candidate<string>[] | undefined;
  for (const m of text.matchAll(re)) {
    const word = m[0].toLowerCase();
    if (!words.some((w) => w.length > 1 && sameWord(word, w))) continue;
    // "the Museum of Modern Art", "Hotel Paradise": the parameter's word written with a capital inside a name is part
    // of the name, and the whole name is the value.
    if (/^\p{Lu}/u.test(m[0])) {
      names ??= properNames(text);
      const within = names.find(
        (n) => n.start <= m.index && n.end >= m.index + m[0].length && n.value.length > m[0].length,
      );
      if (within) {
        out.push(within.value);
        continue;
      }
    }
    let rest = text.slice(m.index + m[0].length);
    const lead = /^\s*(?:(?:is|of|as|=|:|named|called)\s*)?/i.exec(rest);
    rest = rest.slice(lead?.[0].length ?? 0);
    const quoted =
      /^(['"‘“`])((?:[^'"‘’“”`\n]|(?<=\p{L})['’](?=\p{L})){1,200}?)(['"’”`])(?![\p{L}\p{N}])/u.exec(rest);
    if (quoted?.[2]) {
      out.push(quoted[2].trim());
      continue;
    }
    const parts: string[] = [];
    for (const piece of rest.split(/(\s+)/)) {
      if (piece.trim() === '') {
        if (parts.length > 0) parts.push(piece);
        continue;
      }
      const bare = piece.replace(/[.,;!?)]+$/, '');
      if (ENDS.has(bare.toLowerCase()) || bare === '') break;
      parts.push(bare);
      if (bare !== piece || parts.filter((p) => p.trim() !== '').length >= 8) break;
    }
    const value = parts.join('').trim();
    if (value === '' || /['"‘’“”`]/.test(value)) continue;
    // The first word itself must look like a value (a capital, a digit, a sign, or digits inside it).
    const head = value.split(/\s/)[0] ?? '';
    // …or a code identifier ("dataset your_dataset_name": words joined by underscores).
    if (!/^[\p{Lu}\p{N}+\-([]/u.test(head) && !/\d/.test(head) && !/^\p{L}+(?:_\p{L}+)+$/u.test(head))
      continue;
    if (/^\p{N}+$/u.test(value)) continue; // a bare number is a quantity, not a name
    // A name ends where its capitalised words do ("Beyonce performing in …" → "Beyonce"); a value that starts with
    // a digit or a sign ("3x^2 + 2x - 1") is taken as written.
    out.push(/^\p{Lu}[\p{L}'’.&-]*$/u.test(head) ? nameRun(value) : value);
  }
  return [...new Set(out)];
}

// What joins a Chinese label to its value (抬头：…, 抬头是…, 抬头写…, 内容写：…, 收件人为…), and the softeners a value may end on
// (…就行, …即可, …吧).
const ZH_LABEL_JOIN = String.raw`\s*(?:(?:写成|写|寫|是|为|為|填|叫)\s*[:：]?|[:：])\s*`;
const ZH_VALUE_END = /(?:就行了?|就好|就可以了?|即可|吧|哈|啊|呀)$/u;

/**
 * The values a request writes against a label ("Company name: Northwind Trading Co., Ltd.", "抬头：杭州云栈科技有限公司",
 * "抬头写张伟就行"). `labels` are the parameter's name words and the Chinese terms of its description; an English label
 * needs a colon, and its value runs to a semicolon, a line end, or a comma before a lower-case word; a Chinese one
 * takes 是 / 为 / 写 / a colon, and its value runs to the next punctuation. With `sentences` (the user's own words: a
 * message, a subject) the value runs over sentences, and starts with any letter.
 *
 * `stops` are the labels of the tool's other parameters: a label written with its colon starts another value, so the
 * value before it ends there ("Subject: Onboarding screens. Body: could you …" → "Onboarding screens"; 主题写“…”，
 * 内容：… → the subject ends before 内容) — a form the user fills in line by line, written on one line.
 */
export function labelledValues(
  text: string,
  labels: readonly string[],
  sentences = false,
  stops: readonly string[] = [],
): string[] {
  const out: string[] = [];
  const boundary = nextLabel(stops);
  for (const label of labels) {
    if (label.length < 2) continue;
    const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (/\p{Script=Han}/u.test(label)) {
      // A name or code ends at any punctuation; the user's own words (a message, a body) run over sentences and
      // clauses to the next label or the line's end. A quoted value may stand right against its label (主题“…”).
      const end = sentences ? '\\n' : '，。！？,!?;；、\\n';
      const re = new RegExp(String.raw`${escaped}(?:${ZH_LABEL_JOIN}|(?=[“"「『‘]))`, 'gu');
      for (const m of text.matchAll(re)) {
        const rest = text.slice(m.index + m[0].length);
        const bounded = boundary ? cutAt(rest, boundary) : undefined;
        const raw =
          bounded ?? new RegExp(`^[^${end}]{1,${sentences ? '2000' : '80'}}`, 'u').exec(rest)?.[0] ?? '';
        // A value opened by a quotation mark is the quoted passage.
        const quoted = /^\s*[“"「『‘]/u.test(raw)
          ? /^\s*(["“「『‘])(.*?)(["”」』’])/u.exec(raw)?.[0]
          : undefined;
        const value = unquote(
          (quoted ?? raw)
            .trim()
            .replace(/[，,;；。.\s]+$/u, '')
            .replace(ZH_VALUE_END, '')
            .trim(),
        );
        if (value !== '') out.push(value);
      }
      continue;
    }
    const re = new RegExp(String.raw`\b${escaped}\s*:\s*`, 'giu');
    for (const m of text.matchAll(re)) {
      const rest = text.slice(m.index + m[0].length);
      const bounded = boundary ? cutAt(rest, boundary) : undefined;
      if (sentences) {
        // The user's own words: to the next label, else to the line's end; the full stop closing a labelled line is
        // the line's, not the value's.
        const line = (bounded ?? /^[^\n]{1,2000}/u.exec(rest)?.[0] ?? '').trim();
        const value = unquote(bounded !== undefined ? line.replace(/[.;,]+$/u, '').trim() : line);
        if (value !== '') out.push(value);
        continue;
      }
      const value = unquote(
        (bounded ?? /^[^;\n]{1,120}/u.exec(rest)?.[0] ?? '')
          .split(/,\s+(?=\p{Ll})/u)[0]
          ?.trim()
          .replace(/[,;]$/, '') ?? '',
      );
      if (value !== '' && !/^\p{Ll}/u.test(value)) out.push(value);
    }
  }
  return [...new Set(out)];
}

/** A pattern matching where another parameter's label starts a value ("Body:", "内容：", 正文是), or undefined. */
function nextLabel(stops: readonly string[]): RegExp | undefined {
  const written = stops
    .filter((s) => s.length >= 2)
    .map((s) => {
      const escaped = s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return /\p{Script=Han}/u.test(s) ? `${escaped}${ZH_LABEL_JOIN}` : String.raw`\b${escaped}\s*:`;
    });
  return written.length > 0 ? new RegExp(written.join('|'), 'iu') : undefined;
}

/** The text before the first match of `boundary`, or undefined when it matches nowhere. */
function cutAt(text: string, boundary: RegExp): string | undefined {
  const m = boundary.exec(text);
  return m ? text.slice(0, m.index) : undefined;
}

/** A value without the quotation marks around it ("“导出超时问题”" → 导出超时问题). */
function unquote(value: string): string {
  const m = /^(["'“‘「『])(.*)(["'”’」』])$/u.exec(value);
  return m?.[2] !== undefined && m[2].trim() !== '' ? m[2].trim() : value;
}

/** The Chinese terms of a description (runs of Han characters), e.g. "The name on the invoice; 抬头" → 抬头. */
export function chineseTerms(description: string): string[] {
  return [...description.matchAll(/\p{Script=Han}{2,}/gu)].map((m) => m[0]);
}

const KIND_NAME = /^(?:(.+)_(?:type|kind|category)|(?:type|kind|category)_of_(.+))$/i;
const NOT_A_MODIFIER = new Set([...LINKING_WORDS, ...PHRASE_ENDS, ...NEGATIONS, ...DETERMINERS]);

/**
 * The kind a request writes for a "kind of X" parameter (`slope_type`, `crime_category`, `type_of_energy`): the one
 * lower-case word written right before X ("a hill slope" → `hill`, "renewable energy" → `renewable`, "theft
 * crimes" → `theft`). Function words and numbers are no kind; several different words → none (the caller decides).
 */
export function kindBefore(name: string, text: string): string[] {
  const m = KIND_NAME.exec(name);
  const noun = nameWords(m?.[1] ?? m?.[2] ?? '');
  if (noun.length === 0) return [];
  return modifiersOf(noun[noun.length - 1] ?? '', text);
}

// "Color of the bird", "Cuisine of the restaurant", "Genre of music to be played": a description that opens by
// calling the parameter an attribute of a thing.
const ATTRIBUTE_OF = /^\s*(?:the\s+)?(\p{L}+)\s+of\s+(?:the\s+|an?\s+)?(\p{L}+(?:\s+\p{L}+){0,2})/iu;

/**
 * The thing a parameter is an attribute of, when its description opens "<its own name> of <thing>" ("Color of the
 * bird" for `color`, "Type of the instrument" for `type`, "Genre of music to be played" → music), as the words of
 * the thing ("the soccer team" → soccer team); undefined otherwise. A name is no attribute written before a thing: a
 * name is capitalised, and the name rules read it.
 */
export function attributeOwner(name: string, description: string): string | undefined {
  const m = ATTRIBUTE_OF.exec(description);
  const attribute = m?.[1]?.toLowerCase() ?? '';
  if (!m?.[2] || attribute === 'name' || !nameWords(name).some((w) => sameWord(attribute, w)))
    return undefined;
  const words: string[] = [];
  for (const w of m[2].toLowerCase().split(/\s+/)) {
    if (NOT_A_MODIFIER.has(w)) break;
    words.push(w);
  }
  return words.length > 0 ? words.join(' ') : undefined;
}

/**
 * The attribute a request writes for a parameter documented as an attribute of a thing: the one lower-case word
 * right before the thing ("a green bird" for "Color of the bird", "a classical concert" for "Genre of the concert",
 * "plays jazz music" for "Genre of music") — English puts a thing's kind, colour or style in front of it. A
 * superlative ("the highest rated", "the nearest") ranks the thing and is no attribute of it.
 */
export function attributeBefore(name: string, description: string, text: string): string[] {
  const owner = attributeOwner(name, description);
  if (owner === undefined) return [];
  return modifiersOf(owner, text).filter((w) => !/.{2,}est$/i.test(w));
}

/**
 * The lower-case words written right before `thing` (its words in a row, the last one also as its plural) in
 * `text`, function words and numbers left out.
 */
function modifiersOf(thing: string, text: string): string[] {
  const parts = thing.split(' ');
  const head = parts[parts.length - 1] ?? '';
  const tokens = tokenize(text);
  const out: string[] = [];
  tokens.forEach((t, at) => {
    if (!sameWord(t.lower, head)) return;
    const i = at - (parts.length - 1);
    if (i <= 0 || parts.slice(0, -1).some((w, k) => tokens[i + k]?.lower !== w)) return;
    const before = tokens[i - 1];
    const start = tokens[i]?.start ?? t.start;
    if (!before || !/^\s+$/.test(text.slice(before.end, start))) return;
    if (!/^\p{Ll}[\p{Ll}-]*$/u.test(before.text) || NOT_A_MODIFIER.has(before.lower)) return;
    out.push(before.text);
  });
  return [...new Set(out)];
}

const NAME_JOINERS = new Set(NAME_PARTICLES);

/**
 * The leading run of capitalised words (or words with digits) of `value`, with the small words that join the parts
 * of a name between them ("Treaty of Tordesillas", "Roe v. Wade"); never ending on a joining word.
 */
/** The pronoun "I", alone or contracted ("I'm", "I'd", "I'll"). */
function isPronounI(word: string): boolean {
  return /^I(?:['’](?:m|d|ll|ve))?$/.test(word);
}

export function nameRun(value: string): string {
  const words = value.split(/\s+/);
  let end = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    if (/^[\p{Lu}\p{N}]/u.test(w) && !isPronounI(w)) end = i + 1;
    else if (!(NAME_JOINERS.has(w.toLowerCase()) && i > 0)) break;
  }
  return words.slice(0, Math.max(1, end)).join(' ');
}

// A description whose head noun is a path ("The path where …", "Path to the …") of something stored on a disk (a file,
// data, a folder) — not the path of a storm.
const DESCRIBED_PATH =
  /^\s*(?:the\s+|a\s+)?(?:(?:full|local|absolute|relative|file|directory|folder)\s+)?path\b/i;
const STORED = /\b(?:files?|data|dataset|directory|folder|stored|saved|disk)\b/i;

/** The role a string parameter plays, read from its name, description and format. */
export type StringRole = 'own_words' | 'place' | 'unit' | 'url' | 'path' | 'entity';

/** The role of a string parameter (rules in README "What a string parameter takes"). */
export function stringRole(name: string, description: string, format: unknown): StringRole {
  const words = nameWords(name);
  if (format === 'uri' || format === 'url' || words.some((w) => URL_NAMES.includes(w))) return 'url';
  if (words.some((w) => PATH_NAMES.includes(w))) return 'path';
  // A description that says what the value is — a path ("The path where the data is stored", "Path to the CSV file")
  // — names the role when the name does not (`data_source`).
  if (
    DESCRIBED_PATH.test(description) &&
    STORED.test(description) &&
    !words.some((w) => URL_NAMES.includes(w))
  )
    return 'path';
  if (words.some((w) => UNIT_NAMES.includes(w))) return 'unit';
  if (words.some((w) => LOCATION_NAMES.includes(w))) return 'place';
  // The last word of a name says what the value is: `search_query` is a query, `query_id` an id.
  const last = words[words.length - 1] ?? '';
  // A numbered name (`body1`, `text_2`) is one of a series of values: the request cannot be the whole of each.
  const numbered = /(?:\d|_(?:one|two|three))$/i.test(name);
  if (OWN_WORDS_NAMES.includes(last) && !numbered && !/\b(?:id|identifier|name)\b/i.test(description))
    return 'own_words';
  // "What is wrong, in the customer's words": the documentation says the value is the user's own words.
  if (
    /\bin (?:the |their |his |her )?(?:\w+['’]s? )?own words\b|\bin the \w+['’]s words\b/i.test(description)
  )
    return 'own_words';
  return 'entity';
}

/** Which end of a route a place parameter is (`start_location`, `destination`), or neither. */
export function placeDirection(name: string): 'start' | 'end' | null {
  const words = nameWords(name);
  if (words.some((w) => START_NAMES.includes(w))) return 'start';
  if (words.some((w) => END_NAMES.includes(w))) return 'end';
  return null;
}

/**
 * Values the description lists as quoted examples or choices ("Can be 'melting', 'freezing'", "Default is 'cm'").
 * Used like an enum: a value counts only when the request mentions it as a whole word.
 */
export function describedValues(description: string): string[] {
  return quotedSpans(description)
    .map((q) => q.value)
    .filter((v) => v.length <= 40);
}

// "such as oil, acrylic, etc.", "e.g., constitutional law, criminal law", "Type of food like Sushi", "i.e., victim,
// accused, verdict etc.", "For instance, GABA, Glutamate": the marker of a list of examples.
const EXAMPLES_MARK = /\b(?:e\.\s?g\.?|i\.\s?e\.?|such as|like|for example|for instance)(?=[\s,:])[\s,:]*/giu;

/**
 * Values a description gives as examples without quotes, after "such as", "e.g.", "like", "for example": the items of
 * the list up to the end of its sentence or bracket, of one to three words ("oil", "king size", "constitutional
 * law"). Examples are not all the values a parameter takes, but a value the request names that the description
 * shows as one is that parameter's value.
 */
export function exampleValues(description: string): string[] {
  const out: string[] = [];
  for (const m of description.matchAll(EXAMPLES_MARK)) {
    const rest = description.slice(m.index + m[0].length);
    const list = /^[^.;:()[\]]*/.exec(rest.replace(/\be\.\s?g\.|\bi\.\s?e\./giu, ''))?.[0] ?? '';
    for (const raw of list.split(/\s*(?:,|\/|\bor\b|\band\b)\s*/iu)) {
      const item = raw
        .replace(/\betc\b\.?/iu, '')
        .replace(/^['"‘“]|['"’”]$/gu, '')
        .trim();
      const words = item.split(/\s+/u).filter((w) => w !== '');
      if (words.length >= 1 && words.length <= 3 && item.length <= 30 && /\p{L}/u.test(item)) out.push(item);
    }
  }
  return [...new Set(out)];
}

/**
 * What the request says about a boolean parameter: true when every word of what it is about (its name without a
 * leading verb such as `include_`, `is_`, `use_`) is written in the request ("…including human impact" for
 * `include_human_impact`, "detailed information" for `detailed`); false when a negation stands just before
 * ("without tolls"); undefined when the request does not name it.
 */
export function flagMention(name: string, text: string): boolean | undefined {
  const words = nameWords(name);
  while (words.length > 1 && FLAG_VERBS.includes(words[0] ?? '')) words.shift();
  const about = words.filter((w) => w.length >= 3 && !LINKING.has(w));
  if (about.length === 0) return undefined;
  const tokens = tokenize(text);
  // "multi-player" writes `multiplayer`: a hyphen inside a word is a spelling of the closed compound.
  const at = about.map((w) =>
    tokens.findIndex((t) => sameWord(t.lower, w) || sameWord(t.lower.replaceAll('-', ''), w)),
  );
  if (at.some((i) => i === -1)) return undefined;
  const first = Math.min(...at);
  const before = tokens.slice(Math.max(0, first - 3), first).map((t) => t.lower);
  const negated = before.some((w) => NEGATIONS.includes(w) && !words.includes(w));
  return !negated;
}

/**
 * What a boolean parameter's description says each value means — "private (true) or public (false)", "'true' for
 * smoking rooms, 'false' for non-smoking rooms" — read against the request: the value whose meaning the request names
 * (by the words that tell the two meanings apart), when it names exactly one and no negation stands just before it.
 * Undefined otherwise.
 */
export function describedFlag(description: string, text: string): boolean | undefined {
  const sides: { value: boolean; words: string[] }[] = [];
  for (const m of description.matchAll(/((?:[\p{L}-]+\s+){0,1}[\p{L}-]+)\s*\(\s*(true|false)\s*\)/giu))
    sides.push({ value: (m[2] ?? '').toLowerCase() === 'true', words: nameWords(m[1] ?? '') });
  for (const m of description.matchAll(
    /['"]?\b(true|false)\b['"]?\s+(?:for|means|if)\s+((?:[\p{L}-]+\s*){1,3}?)(?=\s*(?:[,.;)]|\band\b|\bor\b|$))/giu,
  ))
    sides.push({ value: (m[1] ?? '').toLowerCase() === 'true', words: nameWords(m[2] ?? '') });
  if (!sides.some((x) => x.value) || !sides.some((x) => !x.value)) return undefined;
  const tokens = tokenize(text);
  const named = new Set<boolean>();
  for (const side of sides) {
    const others = sides.filter((x) => x.value !== side.value).flatMap((x) => x.words);
    const own = side.words.filter((w) => w.length >= 3 && !LINKING.has(w) && !others.includes(w));
    if (own.length === 0) continue;
    const at = own.map((w) => tokens.findIndex((t) => sameWord(t.lower, w)));
    if (at.some((i) => i === -1)) continue;
    const first = Math.min(...at);
    const before = tokens.slice(Math.max(0, first - 3), first).map((t) => t.lower);
    if (before.some((w) => NEGATIONS.includes(w))) return undefined;
    named.add(side.value);
  }
  return named.size === 1 ? [...named][0] : undefined;
}

const WORD = new RegExp(String.raw`${SPACED}(?:${SPACED}|['’.&-])*|${UNSPACED}`, 'gu');

/**
 * The proper names of a text: runs of capitalised words that do not stand first in their sentence ("the Treaty of
 * Tordesillas", "stocks of Apple Inc.", "by James Plensa"), with the small words that join the parts of a name
 * between them; a possessive "'s" and a closing full stop (but for initials) are not part of the name. "I" is no name.
 */
/**
 * The name of a gazetteer city of two or more words written from `words[at]` on ("San Francisco", "Los Angeles"), if
 * one is: the run of capitalised words, longest first.
 */
function cityNameAt(
  text: string,
  words: readonly { text: string; start: number; end: number }[],
  at: number,
): string | undefined {
  for (let last = Math.min(words.length - 1, at + 3); last > at; last--) {
    const run = words.slice(at, last + 1);
    if (!run.every((w) => /^\p{Lu}/u.test(w.text))) continue;
    const first = run[0];
    const end = run[run.length - 1];
    if (!first || !end) continue;
    const value = text.slice(first.start, end.end);
    if (/^[\p{L} .'-]+$/u.test(value) && isCityName(value)) return value;
  }
  return undefined;
}

/** What an imperative's object starts with: an article, a determiner, an object pronoun ("Find a …", "Show me …"). */
const CLAUSE_OBJECT_START = new Set(['a', 'an', 'the', 'me', 'us', 'my', 'our', ...DETERMINERS]);

// The abbreviations of companies' legal forms written after their names, as the ISO 20275 list of entity legal forms
// gives them for English-, German- and French-speaking jurisdictions (Co., Ltd., Inc., LLC, PLC, GmbH, AG, S.A. …),
// each with its optional full stop and the comma often written before it.
const LEGAL_FORM_AFTER =
  /^(?:\.?,?\s+(?:Co|Corp|Inc|Ltd|Limited|LLC|LLP|PLC|Pty|GmbH|AG|KG|SA|SAS|SARL|S\.A|B\.V|N\.V|BV|NV)\b\.?)+/u;

export function properNames(text: string): Candidate<string>[] {
  const words = [...text.matchAll(WORD)].map((m) => ({
    text: m[0],
    start: m.index,
    end: m.index + m[0].length,
  }));
  const out: Candidate<string>[] = [];
  // Chinese has no capitals of its own: a capitalised Latin word in Chinese text is a name wherever it stands.
  const chinese = /\p{Script=Han}/u.test(text);
  const sentenceStart = (at: number) =>
    !chinese && /(?:^|[.!?:;。！？；：]["'’”)]?)\s*["'‘“(]?$/u.test(text.slice(0, at));
  // The pronoun "I" (and "I'm", "I'd") is capitalised but names nobody.
  const capital = (w: string) => /^\p{Lu}/u.test(w) && !isPronounI(w);
  let i = 0;
  while (i < words.length) {
    const first = words[i];
    // A sentence's first word is capitalised anyway — unless it starts the name of a city ("… today? San Francisco"):
    // then the name is the whole city, not its second word.
    const startsCity =
      first !== undefined &&
      capital(first.text) &&
      sentenceStart(first.start) &&
      cityNameAt(text, words, i) !== undefined;
    if (!first || !capital(first.text) || (sentenceStart(first.start) && !startsCity)) {
      i++;
      continue;
    }
    // "Friday's Atlas minutes", "December's Beacon review": a month or weekday in the possessive says when; the name
    // starts after it.
    if (/['’]s$/u.test(first.text) && CALENDAR.has(first.text.toLowerCase().replace(/['’]s$/u, ''))) {
      i++;
      continue;
    }
    let last = i;
    let j = i + 1;
    while (j < words.length) {
      const w = words[j];
      const prev = words[j - 1];
      if (!w || !prev || !/^[ ]+$/.test(text.slice(prev.end, w.start))) break;
      // "… Gavin Brocker. I'd like …": a full stop after a word of more than one letter ends the sentence, and the name.
      if (/\p{L}{2,}\.$/u.test(prev.text)) break;
      // "… played by Liverpool F.C. Include its statistics": after an abbreviation's dots closing a name ("F.C.",
      // "D.C."), a capitalised word followed by a lower-case one opens the next sentence. Initials opening a name
      // ("C.J. Rush in the cast", "J. R. R. Tolkien") are followed by the rest of it.
      if (
        j - 1 > i &&
        /(?:\p{Lu}\.){2,}$/u.test(prev.text) &&
        capital(w.text) &&
        /^\p{Ll}/u.test(words[j + 1]?.text ?? '')
      )
        break;
      if (capital(w.text) || /^\p{N}/u.test(w.text)) {
        last = j;
        j++;
        continue;
      }
      if (NAME_JOINERS.has(w.text.toLowerCase()) && capital(words[j + 1]?.text ?? '')) {
        j++;
        continue;
      }
      break;
    }
    const end = words[last];
    // "…from the Isolation album, Find a selection of tracks": one capitalised word after a comma and before a
    // determiner starts a clause (an imperative written with a capital), not a name.
    const clauseVerb =
      last === i &&
      /,\s*$/.test(text.slice(0, first.start)) &&
      CLAUSE_OBJECT_START.has((words[i + 1]?.text ?? '').toLowerCase());
    // "in December", "on Friday the 13th": a month or weekday starts a time, not a name.
    if (end && !clauseVerb && !CALENDAR.has(first.text.toLowerCase().replace(/\.$/, ''))) {
      // A company's legal form after its name ("Blue Harbor Trading Co., Ltd.", "Acme, Inc.") is part of the name.
      const legal = LEGAL_FORM_AFTER.exec(text.slice(end.end))?.[0] ?? '';
      let value = text.slice(first.start, end.end + legal.length).replace(/['’]s$/u, '');
      // A closing full stop is the sentence's, but for initials ("D.C.", "J.") and a legal form's ("Co., Ltd.").
      if (/\.$/.test(value) && !/(?:^|\s)(?:\p{Lu}\.)+$/u.test(value) && legal === '')
        value = value.slice(0, -1);
      out.push({ value, start: first.start, end: first.start + value.length });
      if (legal !== '') {
        const after = end.end + legal.length;
        while (last + 1 < words.length && (words[last + 1]?.start ?? Infinity) < after) last++;
      }
    }
    i = last + 1;
  }
  return out;
}

// "yellow and blue", "a human and a chimp": two lower-case words joined by "and", each after an optional article.
const PAIR =
  /(?<![\p{L}\p{N}'-])(?:(?:an?|the)\s+)?(\p{Ll}[\p{Ll}-]+)\s+and\s+(?:(?:an?|the)\s+)?(\p{Ll}[\p{Ll}-]+)(?![\p{L}\p{N}'-])/gu;

/**
 * The two words a request joins with "and" for a numbered pair of parameters (`color1`, `color2`; `species1`,
 * `species2`), in the order written: the pair beside the parameters' shared name word ("yellow and blue colors"),
 * else the request's only such pair. Function words are no value; undefined when nothing settles it.
 */
export function coordinatedPair(text: string, nameWord: string): [string, string] | undefined {
  const pairs = [...text.matchAll(PAIR)]
    .map((m) => ({ a: m[1] ?? '', b: m[2] ?? '', start: m.index, end: m.index + m[0].length }))
    .filter((p) => ![p.a, p.b].some((w) => NOT_A_MODIFIER.has(w) || sameWord(w, nameWord)));
  const beside = pairs.filter((p) => {
    const after = /^\s+([\p{L}-]+)/u.exec(text.slice(p.end))?.[1]?.toLowerCase();
    const before = /([\p{L}-]+)\s+$/u.exec(text.slice(0, p.start))?.[1]?.toLowerCase();
    return [after, before].some((w) => w !== undefined && sameWord(w, nameWord));
  });
  const chosen = beside.length === 1 ? beside[0] : pairs.length === 1 ? pairs[0] : undefined;
  return chosen ? [chosen.a, chosen.b] : undefined;
}

/**
 * The command line a request writes after a command parameter's own word ("using the command echo %time%", "the
 * command called start calc", "command: dir C:\\"): the rest of its line, up to a sentence's closing mark — a
 * command has spaces, switches and quotes of its own. Nothing when a function word follows the word ("the command
 * to list files" describes the command, it does not write it).
 */
export function commandAfterName(text: string, words: readonly string[]): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/[\p{L}]+/gu)) {
    if (!words.some((w) => m[0].toLowerCase() === w)) continue;
    const rest = text.slice(m.index + m[0].length);
    const lead = /^(?:\s+(?:called|named|is)\b)?\s*([:=])?\s+/iu.exec(rest);
    if (!lead) continue;
    // The word names the value that follows when it is written as a noun with an article ("the command", "the exact
    // command") or as a label ("command: …"); "of command prompt" is no command written.
    const named = /\b(?:the|a|this|that)\s+(?:[\p{L}-]+\s+)?$/iu.test(text.slice(0, m.index));
    if (!named && lead[1] === undefined) continue;
    const line = rest.slice(lead[0].length).split('\n')[0] ?? '';
    const value = line.replace(/[.?!]\s.*$/su, '').replace(/[\s.?!,;]+$/u, '');
    const head = value.split(/\s/)[0]?.toLowerCase() ?? '';
    if (value === '' || NOT_A_MODIFIER.has(head) || CLAUSE_OBJECT_START.has(head)) continue;
    out.push(value);
  }
  return [...new Set(out)];
}

// An expression in a variable, written without spaces: "y=x^2", "x**3+1", "2*x". It has an operator and a letter.
const EXPRESSION =
  /(?<![\p{L}\p{N}_])(?=[^\s]*[a-z])(?=[^\s]*[=^*+/])[a-z0-9.]+(?:(?:\*\*|[=^*+\-/])[a-z0-9.()]+)+(?![\p{L}\p{N}_])/gu;

/**
 * The mathematical expressions written in `text` without spaces ("the curve y=x^2" → "y=x^2"). A variable set to a
 * number ("x=1") is a point, not an expression.
 */
export function writtenExpressions(text: string): string[] {
  const written = [...text.matchAll(EXPRESSION)].map((m) => m[0].replace(/[.]+$/, ''));
  return [...new Set(written.filter((e) => !/^[a-z]=-?[\d.]+$/.test(e)))];
}

/**
 * The proper name written right before a parameter's own word, the word in lower case ("in Santa Clara county" for
 * `county`, "in C key" for `key`): English names a thing of a kind as "<Name> <kind>". A capitalised word after the
 * name is part of it ("Santa Clara County" is a name the name rules read whole).
 */
export function nameBeforeOwnWord(text: string, words: readonly string[]): string[] {
  const own = words.filter((w) => w.length > 1);
  if (own.length === 0) return [];
  const quoted = quotedSpans(text);
  return properNames(text)
    .filter((n) => {
      // A quoted name ("'Stradivarius' maker") is read by the quote rules.
      if (/['"‘’“”`]/.test(n.value) || quoted.some((q) => n.start < q.end && q.start < n.end)) return false;
      const next = /^\s+(\p{Ll}[\p{Ll}-]*)/u.exec(text.slice(n.end))?.[1];
      return next !== undefined && own.some((w) => [w, `${w}s`].includes(next));
    })
    .map((n) => n.value);
}

/**
 * The words written after "with <label>" up to the sentence's end ("add todo with content go to sleep at 9 pm" →
 * "go to sleep at 9 pm"), for a parameter that carries the user's own words. Not when a function word follows the
 * label ("with content about …", "with the message that …": those describe the words, they do not write them).
 */
export function valuesWithLabel(text: string, labels: readonly string[]): string[] {
  const out: string[] = [];
  for (const label of labels) {
    if (label.length < 3) continue;
    // The label is the parameter's whole name ("with content …", "with file name …"): one of its words ("with fuel
    // efficiency of 25 MPG" for `fuel_type`) labels nothing.
    const written = label.split(' ').join(String.raw`[\s_-]?`);
    const re = new RegExp(String.raw`\bwith\s+(?:the\s+|a\s+)?${written}\s+([^\n.?!]{2,300})`, 'giu');
    for (const m of text.matchAll(re)) {
      const value = (m[1] ?? '').trim();
      const head = value.split(/\s+/)[0]?.toLowerCase() ?? '';
      if (value === '' || NOT_A_MODIFIER.has(head) || /^(?:saying|says|reading|reads|like)$/.test(head))
        continue;
      // A quoted passage is read by the quote rules ("with the baseline text 'v1 intro'").
      if (/['"‘’“”`]/.test(value)) continue;
      out.push(value);
    }
  }
  return [...new Set(out)];
}
