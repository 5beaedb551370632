import {
  DURATION,
  OPERATION_WORDING,
  PER_TIME,
  RATE_WORDS,
  TIME_WORDS,
  type Operation,
} from './calculation-words.js';
import { NUMERAL_CHARS, parseChineseNumeral } from './chinese-numerals.js';
import { TIME_UNITS, commensurable, conversion, parseUnit, type Unit } from './units.js';

// SP-3 "compute only over verified figures": the figures a source page states, read into named inputs for the
// compute sandbox, and the calculation a request asks for, written as an expression over those names.
// Deterministic and conservative: nothing is computed here and nothing is invented — every input is a number quoted
// in a passage, its name says whose figure it is and in which unit, and an expression is written only when the
// request's wording names the operation and exactly one pair (or group) of figures of one unit answers it.

/** A number a passage states, with whose it is (`label`) and its unit. */
export interface Figure {
  /** The input name: `<label>_<unit>`, lower-case, `[a-z0-9_]` ("postgresql_17_transactions_per_second"). */
  name: string;
  label: string;
  unit: string;
  value: number;
  /** The words it was read from ("52,300 transactions per second"). */
  text: string;
  /** The clause it stands in ("The Z7 reached 2800 MB/s sequential read in our tests"): what it is a figure of. */
  context: string;
  /** The title of the page it was read from, when the passages of several pages are read together. */
  source?: string;
}

// Words that end a unit phrase or cannot be a unit ("16 averaged", "3 was"): verbs and function words.
const NOT_UNITS = new Set([
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'averaged',
  'be',
  'between',
  'by',
  'for',
  'from',
  'in',
  'is',
  'of',
  'on',
  'or',
  'over',
  'than',
  'the',
  'to',
  'under',
  'was',
  'were',
  'with',
]);

// A sentence ends at . ! ? followed by white space ("1.45 ms" and "3.2 GB/s" keep their decimals).
const SENTENCE_END = /(?<=[.!?])\s+(?=\S)/;
// A number (thousands separators, decimals) not glued to a word before it ("Z7", "v2" are names, not figures),
// then the unit: one token ("ms", "GB/s", "IOPS", "%", "x"), or "<word> per <word>" ("transactions per second").
const FIGURE =
  /(?<![\p{L}\p{N}.,-])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\d,]*\d)\s*(%|[\p{L}][\p{L}/]*(?:\s+per\s+\p{L}+)?)?/gu;

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/%/g, 'percent')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Whose figures a sentence states: a "Name:" lead ("Sequential read: 3.2 GB/s"), else its leading run of
 * capitalised words and numbers ("PostgreSQL 16 averaged …" → "PostgreSQL 16", "The Z7 reached …" → "Z7").
 */
function labelOf(sentence: string): string | null {
  const lead = /^\s*([\p{L}\p{N} -]{1,40}):/u.exec(sentence);
  if (lead?.[1]) return lead[1].trim();
  const words = sentence.trim().split(/\s+/);
  if (/^(?:the|a|an)$/i.test(words[0] ?? '')) words.shift();
  const run: string[] = [];
  for (const w of words) {
    const bare = w.replace(/[,;:]$/, '');
    if (!/^(?:\p{Lu}|\p{N})/u.test(bare) || run.length === 4) break;
    run.push(bare);
    if (bare !== w) break;
  }
  return run.length > 0 ? run.join(' ') : null;
}

/** The clause of a sentence around a position: between the commas, semicolons or dashes that bound it. */
function clauseAt(sentence: string, at: number): string {
  // (a comma inside a number, "44,100", is a thousands separator: a clause ends at one followed by a space)
  const bound = /[,;]\s|\s[–—-]\s/gu;
  let start = 0;
  let end = sentence.length;
  for (const m of sentence.matchAll(bound)) {
    if (m.index < at) start = m.index + m[0].length;
    else {
      end = m.index;
      break;
    }
  }
  return sentence.slice(start, end).trim();
}

/** True when the number sits inside the sentence's label ("PostgreSQL 17 …": 17 names, it does not measure). */
function inLabel(sentence: string, label: string, at: number): boolean {
  const start = sentence.indexOf(label);
  return start !== -1 && at >= start && at < start + label.length;
}

/**
 * The figures of passages, in text order, each under a unique name. A number without a unit ("queue depth 32",
 * a year) is not a figure: it cannot be compared with anything safely.
 */
export function readFigures(
  passages: readonly string[],
  sources: readonly (string | undefined)[] = [],
): Figure[] {
  const figures: Figure[] = [];
  const taken = new Map<string, number>();
  passages.forEach((passage, p) => {
    for (const sentence of passage.split(SENTENCE_END)) {
      const label = labelOf(sentence) ?? `passage ${String(p + 1)}`;
      for (const m of sentence.matchAll(FIGURE)) {
        const unit = (m[3] ?? '').trim();
        if (unit === '' || NOT_UNITS.has(unit.toLowerCase().split(/\s/)[0] ?? '')) continue;
        if (inLabel(sentence, label, m.index)) continue;
        const value = Number(`${(m[1] ?? '').replace(/,/g, '')}${m[2] ?? ''}`);
        if (!Number.isFinite(value)) continue;
        const base = `${slug(label)}_${slug(unit)}`;
        const seen = taken.get(base) ?? 0;
        taken.set(base, seen + 1);
        const source = sources[p];
        figures.push({
          name: seen === 0 ? base : `${base}_${String(seen + 1)}`,
          label,
          unit,
          value,
          text: m[0].trim(),
          context: clauseAt(sentence, m.index),
          ...(source !== undefined ? { source } : {}),
        });
      }
    }
  });
  return figures;
}

function operationOf(request: string): Operation | undefined {
  return OPERATION_WORDING.find((w) => w.pattern.test(request))?.operation;
}

// Function words that say nothing of whose a figure is ("the", "its", "what"); the unit-ending words above are some.
const FUNCTION_WORDS = new Set([
  ...NOT_UNITS,
  's',
  'it',
  'its',
  'our',
  'their',
  'this',
  'that',
  'what',
  'which',
  'does',
  'do',
  'did',
  'how',
  'much',
  'many',
  'more',
  'less',
  'per',
]);

/** A word of a text and where it starts; Latin letters, digits and Chinese characters make separate words. */
interface Word {
  word: string;
  at: number;
}

function wordsAt(text: string): Word[] {
  return [
    ...text.toLowerCase().matchAll(/\p{Script=Han}+|(?:(?!\p{Script=Han})\p{L})+|\p{N}+(?:\.\p{N}+)?/gu),
  ].map((m) => ({
    // "writes" and "write", "tests" and "test" are one word to compare.
    word: m[0].length > 3 && m[0].endsWith('s') && !m[0].endsWith('ss') ? m[0].slice(0, -1) : m[0],
    at: m.index,
  }));
}

function wordsOf(text: string): string[] {
  return wordsAt(text).map((w) => w.word);
}

/** Where in the request its words of a set occur (character offsets). */
function hitsIn(request: readonly Word[], words: ReadonlySet<string>): number[] {
  return request.filter((w) => words.has(w.word)).map((w) => w.at);
}

/** A figure the request names: by its label's own words and the words of its clause, with where they occur. */
interface Named {
  f: Figure;
  unit: Unit;
  score: number;
  hits: number[];
}

/**
 * How the request names each figure of a group: its label's own words (those the group's other labels lack) count
 * two, each other content word of its clause one ("measured sequential read" names "2800 MB/s sequential read in our
 * tests", "write speed … cache is full" names "writes drop to 900 MB/s once the 200 GB cache is full").
 */
function named(request: readonly Word[], group: readonly { f: Figure; unit: Unit }[]): Named[] {
  const labels = [...new Set(group.map((g) => g.f.label))];
  return group.map(({ f, unit }) => {
    const others = new Set(labels.filter((l) => l !== f.label).flatMap(wordsOf));
    const own = new Set(wordsOf(f.label).filter((w) => !others.has(w) && !FUNCTION_WORDS.has(w)));
    const labelWords = new Set(wordsOf(f.label));
    const clause = new Set(
      wordsOf(f.context.replace(f.text, ' ')).filter(
        (w) => !labelWords.has(w) && !FUNCTION_WORDS.has(w) && !/^\p{N}/u.test(w),
      ),
    );
    const labelHits = hitsIn(request, own);
    const clauseHits = hitsIn(request, clause);
    const score =
      (labelHits.length > 0 ? 2 : 0) +
      new Set(request.filter((w) => clause.has(w.word)).map((w) => w.word)).size;
    return { f, unit, score, hits: [...labelHits, ...clauseHits].sort((a, b) => a - b) };
  });
}

/**
 * How strongly a unit answers the request: its own words named — or abbreviated by their initials, as units of
 * several words are ("TPS" for transactions per second, "QPS", "RPM") — or the kind a comparative implies.
 */
function unitScore(unit: string, parsed: Unit, request: string): number {
  const req = new Set(wordsOf(request));
  let score = wordsOf(unit).filter((w) => w !== 'per' && req.has(w)).length * 2;
  const initials = unit
    .split(/[\s/]+/u)
    .map((w) => w[0] ?? '')
    .join('')
    .toLowerCase();
  if (initials.length >= 2 && score === 0 && acronymsOf(request).has(initials)) score += 2;
  if (RATE_WORDS.test(request) && parsed.perSeconds !== undefined) score += 1;
  if (TIME_WORDS.test(request) && parsed.kind === 'time') score += 1;
  return score;
}

/** The acronyms a request writes: Latin words of two or more capitals ("TPS", "IOPS"), lower-cased. */
function acronymsOf(request: string): Set<string> {
  return new Set(
    (request.match(/(?<![A-Za-z0-9])[A-Z]{2,}(?![A-Za-z0-9])/gu) ?? []).map((a) => a.toLowerCase()),
  );
}

// "A than B", "A compared to B", "A比B", "A vs B": what follows the marker is the base of the comparison.
const BASE_MARKER =
  /\bthan\b|\b(?:above|below)\b|\bcompared\s+(?:to|with)\b|\bversus\b|\bvs\.?(?=\s|$)|\bagainst\b|\brelative\s+to\b|相比|相对于|比(?!较|例|率|值|重|如)/iu;

/**
 * The two operands in the request's order: the subject first, the base second. The base is the one the request names
 * after its comparison marker ("17 than 16", "write speed … compared to its measured sequential read", 17比16);
 * without a marker, the one named first is the subject — except "from A to B", whose base is A.
 */
function subjectAndBase(request: string, pair: readonly [Named, Named]): [Named, Named] {
  const [x, y] = pair;
  const own = (n: Named, other: Named) => n.hits.filter((h) => !other.hits.includes(h));
  const marker = BASE_MARKER.exec(request);
  if (marker) {
    const after = (n: Named, o: Named) => {
      const hits = own(n, o);
      return hits.length === 0 ? 0 : hits.filter((h) => h > marker.index).length / hits.length;
    };
    const [ax, ay] = [after(x, y), after(y, x)];
    if (ax !== ay) return ax < ay ? [x, y] : [y, x];
  }
  const first = (n: Named, o: Named) => Math.min(...own(n, o), Number.POSITIVE_INFINITY);
  const ordered: [Named, Named] = first(x, y) <= first(y, x) ? [x, y] : [y, x];
  const fromTo = /\bfrom\b/i.test(request) && /\bto\b/i.test(request) && !/\bthan\b/i.test(request);
  const zhFromTo = /从[^，。？！?]*(?:到|至|涨到|降到|增加到|减少到)/u.test(request);
  return fromTo || zhFromTo ? [ordered[1], ordered[0]] : ordered;
}

/**
 * The subject and the base of a comparison of things named by code, given in the order of `codes`: the thing named
 * first is the subject ("the X9's read beats the Z7's", X9比Z7快) — unless a comparison marker stands before both
 * codes ("compared with the Z7, how much faster is the X9", 相比Z7，X9…), whose thing right after it is the base.
 */
function codedSubjectAndBase(
  request: string,
  codes: readonly string[],
  pair: readonly [Named, Named],
): [Named, Named] {
  const lower = request.toLowerCase();
  const [first = 0, second = 0] = codes.map((c) => lower.indexOf(c));
  const marker = BASE_MARKER.exec(request);
  return marker && marker.index < Math.min(first, second) ? [pair[1], pair[0]] : [pair[0], pair[1]];
}

/**
 * Whether a code the request writes ("Z7", "PG17") names a figure's words: its number is one of them and its letters
 * abbreviate another — in order, from its first letter ("pg" of "postgresql", "z" of "z").
 */
function codeIn(code: string, words: ReadonlySet<string>): boolean {
  const letters = /^[a-z]+/u.exec(code)?.[0] ?? '';
  const number = code.slice(letters.length);
  const abbreviates = (w: string) => {
    if (w[0] !== letters[0]) return false;
    let i = 0;
    for (const ch of w) if (ch === letters[i]) i++;
    return i === letters.length;
  };
  return words.has(number) && [...words].some(abbreviates);
}

function ref(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? `inputs.${name}` : `inputs[${JSON.stringify(name)}]`;
}

/** A figure's input in another unit of its kind: the input times the conversion, when there is one. */
function term(n: { f: Figure; unit: Unit }, to: Unit): string {
  const k = conversion(n.unit, to);
  return Math.abs(k - 1) < 1e-12 ? ref(n.f.name) : `${ref(n.f.name)} * ${String(Number(k.toPrecision(12)))}`;
}

/** A unit of data the request writes: the first after `from` (where it asks per a time), else the last before. */
function dataUnitAsked(request: string, from: number): Unit | undefined {
  const units = [...request.matchAll(/[A-Za-z]+/gu)].flatMap((m) => {
    const u = parseUnit(m[0]);
    return u?.kind === 'data' && u.perSeconds === undefined ? [{ u, at: m.index }] : [];
  });
  return (units.find((x) => x.at >= from) ?? units.filter((x) => x.at < from).at(-1))?.u;
}

/**
 * The unit the request asks its answer in, for figures of one kind: a unit of that kind it writes ("in MB", 多少GB)
 * — the one after the rate it asks for, when it asks per a time ("每天能写多少GB") — and the time it asks per ("per
 * hour", 每天), else the figures' own.
 */
function askedUnit(request: string, own: Unit): Unit {
  const per = PER_TIME.exec(request);
  const perWord = per?.slice(1).find((g) => Boolean(g));
  const perSeconds = perWord !== undefined ? TIME_UNITS[perWord.toLowerCase()] : undefined;
  const written = own.kind === 'data' ? dataUnitAsked(request, per ? per.index : 0) : undefined;
  return {
    kind: own.kind,
    factor: written?.factor ?? own.factor,
    ...(own.perSeconds !== undefined ? { perSeconds: perSeconds ?? own.perSeconds } : {}),
  };
}

/** The expression for a request, or why none is written. */
export type Calculation = { expression: string; note: string } | { expression: undefined; note: string };

/**
 * A quantity spread over a time the request gives, per a time it asks ("1,200 TBW … 按5年质保算平均每天能写多少GB",
 * "how much can I write per day over the 5-year warranty"): the one figure of a quantity (not a rate) whose unit the
 * request names, divided by the duration in the asked time, in the asked unit.
 */
function spreadOverTime(request: string, figures: readonly Figure[]): Calculation | undefined {
  const per = PER_TIME.exec(request);
  const duration = DURATION.exec(request);
  if (!per || !duration) return undefined;
  const perWord = per.slice(1).find((g) => Boolean(g)) ?? '';
  const perSeconds = TIME_UNITS[perWord.toLowerCase()];
  const durationSeconds = TIME_UNITS[(duration[2] ?? '').toLowerCase()];
  const length = Number(duration[1]);
  if (perSeconds === undefined || durationSeconds === undefined || !Number.isFinite(length)) return undefined;
  const req = new Set(wordsOf(request));
  const amounts = figures
    .map((f) => ({ f, unit: parseUnit(f.unit) }))
    .filter(
      (x): x is { f: Figure; unit: Unit } =>
        x.unit !== undefined && x.unit.perSeconds === undefined && x.unit.kind !== 'time',
    );
  // The amount whose unit the request writes ("多少TBW"), else the one of the kind of the unit it asks ("多少GB").
  const byName = amounts.filter((x) => req.has(wordsOf(x.f.unit)[0] ?? ''));
  const asked = dataUnitAsked(request, per.index);
  const quantities = byName.length > 0 ? byName : amounts.filter((x) => x.unit.kind === asked?.kind);
  const [only, another] = quantities;
  if (!only || another) return undefined;
  const to = askedUnit(request, only.unit);
  const periods = (length * durationSeconds) / perSeconds;
  return {
    expression: `Math.round(${term(only, to)} / ${String(Number(periods.toPrecision(12)))} * 100) / 100`,
    note: `${only.f.label} ${only.f.text} spread over ${duration[0]}, per ${perWord}`,
  };
}

/**
 * The expression a request asks for over named figures: the operation from its wording (calculation-words.ts), the
 * operands from the figures of one kind of unit that the request names — by their labels' own words ("PostgreSQL 17
 * than 16") or the words of their clauses ("the measured sequential read") — converted to one unit (units.ts) and
 * to the unit the request asks ("per hour", 多少GB). A quantity spread over a time the request gives ("按5年质保算
 * 平均每天") is divided by it. When the wording names no operation, or no kind of figure or more than one answers
 * it, or a third figure is named as well as the second, no expression is written.
 */
export function calculationFor(written: string, figures: readonly Figure[]): Calculation {
  // Emphasis marks are not words ("per *hour*").
  const request = written.replace(/[*`]+/gu, '');
  const operation = operationOf(request);
  if (operation === undefined || operation === 'average') {
    const spread = spreadOverTime(request, figures);
    if (spread) return spread;
  }
  if (operation === undefined) {
    const time = timeAtRate(request, figures);
    if (time) return time;
  }
  if (!operation) return { expression: undefined, note: 'the request names no calculation' };
  const reqWords = wordsAt(request);
  const groups: { unit: Unit; members: { f: Figure; unit: Unit }[] }[] = [];
  for (const f of figures) {
    const unit = parseUnit(f.unit);
    if (!unit) continue;
    const group = groups.find((g) => commensurable(g.unit, unit));
    if (group) group.members.push({ f, unit });
    else groups.push({ unit, members: [{ f, unit }] });
  }
  const candidates: { unit: Unit; unitText: string; operands: Named[]; score: number }[] = [];
  const codes = [
    ...new Set((request.match(/\b[A-Za-z]+\d+[A-Za-z\d]*\b/gu) ?? []).map((c) => c.toLowerCase())),
  ];
  for (const { unit, members } of groups) {
    const ranked = named(reqWords, members)
      .filter((n) => n.score > 0)
      .sort((x, y) => y.score - x.score);
    const several = operation === 'total' || operation === 'average';
    if (several) {
      if (ranked.length < 2) continue;
      candidates.push({
        unit,
        unitText: members[0]?.f.unit ?? '',
        operands: ranked,
        score: unitScore(members[0]?.f.unit ?? '', unit, request),
      });
      continue;
    }
    // Things compared by code ("the X9's … beat the Z7's …"), each with figures of its own (its name in the figure's
    // words or its page's title): one operand of each — the one the request's words name best, and of two it names
    // alike, the one its source states first, as a page states its headline figure first.
    if (codes.length >= 2) {
      const all = named(reqWords, members);
      const each = codes.slice(0, 2).map((c) => {
        const of = all.filter((n) =>
          codeIn(c, new Set(wordsOf(`${n.f.label} ${n.f.context} ${n.f.source ?? ''}`))),
        );
        return of.reduce<Named | undefined>(
          (best, n) => (!best || n.score > best.score ? n : best),
          undefined,
        );
      });
      const [a, b] = each;
      if (a && b && a !== b) {
        candidates.push({
          unit,
          unitText: members[0]?.f.unit ?? '',
          operands: codedSubjectAndBase(request, codes, [a, b]),
          score: unitScore(members[0]?.f.unit ?? '', unit, request) * 10 + a.score + b.score,
        });
        continue;
      }
    }
    const [x, y, third] = ranked;
    if (!x || !y || (third && third.score === y.score)) continue;
    candidates.push({
      unit,
      unitText: members[0]?.f.unit ?? '',
      operands: subjectAndBase(request, [x, y]),
      score: unitScore(members[0]?.f.unit ?? '', unit, request) * 10 + x.score + y.score,
    });
  }
  // A comparison of things the request names by code ("the X9's … beat the Z7's …") is over figures of those things:
  // a pair of figures of only one of them answers another question.
  if (codes.length >= 2)
    for (let i = candidates.length - 1; i >= 0; i--) {
      const words = new Set(
        (candidates[i]?.operands ?? []).flatMap((n) =>
          wordsOf(`${n.f.label} ${n.f.context} ${n.f.source ?? ''}`),
        ),
      );
      if (!codes.every((c) => codeIn(c, words))) candidates.splice(i, 1);
    }
  candidates.sort((x, y) => y.score - x.score);
  const [best, second] = candidates;
  if (!best)
    return (
      comparedWithGiven(request, operation, figures) ?? {
        expression: undefined,
        note: 'no two figures of one unit match what the request compares',
      }
    );
  if (second && second.score === best.score)
    return {
      expression: undefined,
      note: `ambiguous: the request could compare ${slug(best.unitText)} or ${slug(second.unitText)}`,
    };
  const own = best.operands[0]?.unit ?? best.unit;
  const common = operation === 'percent_change' || operation === 'ratio' ? own : askedUnit(request, own);
  const terms = best.operands.map((n) => term(n, common));
  const [a = '', b = ''] = terms;
  const [na, nb] = best.operands;
  // A factor is how many times the larger figure holds the smaller; the words say which is larger ("drops", "faster").
  const larger =
    na && nb && na.f.value * conversion(na.unit, own) < nb.f.value * conversion(nb.unit, own)
      ? [b, a]
      : [a, b];
  const expression =
    operation === 'percent_change'
      ? `Math.round(((${a} - ${b}) / ${b.includes(' ') ? `(${b})` : b}) * 10000) / 100`
      : operation === 'ratio'
        ? `Math.round((${String(larger[0])} / ${String(larger[1]).includes(' ') ? `(${String(larger[1])})` : String(larger[1])}) * 100) / 100`
        : operation === 'difference'
          ? `${a} - ${b}`
          : operation === 'total'
            ? terms.join(' + ')
            : `(${terms.join(' + ')}) / ${String(terms.length)}`;
  const k = conversion(own, common);
  const inUnit = k === 1 ? '' : `, ×${String(Number(k.toPrecision(6)))} for the unit asked`;
  return {
    expression,
    note: `${operation.replace('_', ' ')} of ${best.operands.map((n) => `${n.f.label} ${n.f.text}`).join(' vs ')}${inUnit}`,
  };
}

// A number the request writes right after its comparison marker ("比50万", "than 500,000", "against 1.5k"): the base
// of a comparison with one figure a source states. Arabic (thousands separators, 万 / 亿, k / M) or a Chinese numeral.
const GIVEN_BASE = new RegExp(
  String.raw`(?:${BASE_MARKER.source})\s*(?:the\s+|a\s+)?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[${NUMERAL_CHARS}]+)\s*([万亿]|[kKmM](?![A-Za-z]))?`,
  'u',
);

/** The value of a number the request writes as its base, with its multiplier (万, 亿, k, M). */
function givenValue(digits: string, multiplier: string | undefined): number | undefined {
  const base = /^[\d,.]+$/u.test(digits) ? Number(digits.replace(/,/g, '')) : parseChineseNumeral(digits);
  if (base === undefined || !Number.isFinite(base)) return undefined;
  const multipliers: Readonly<Record<string, number>> = { 万: 1e4, 亿: 1e8, k: 1e3, m: 1e6 };
  return base * (multipliers[(multiplier ?? '').toLowerCase()] ?? 1);
}

/**
 * A comparison of one stated figure with a number the request gives as its base ("随机读IOPS比50万高出百分之几", "how
 * much higher than 500,000 are its IOPS?"): the figure whose unit the request names — the only one — against that
 * number, taken in the figure's own unit (a bare number compared with a figure is in the figure's unit).
 */
function comparedWithGiven(
  request: string,
  operation: Operation,
  figures: readonly Figure[],
): Calculation | undefined {
  if (operation !== 'percent_change' && operation !== 'ratio' && operation !== 'difference') return undefined;
  const m = GIVEN_BASE.exec(request);
  const b = m ? givenValue(m[1] ?? '', m[2]) : undefined;
  if (!m || b === undefined || b === 0) return undefined;
  const named = figures.flatMap((f) => {
    const unit = parseUnit(f.unit);
    return unit && unitScore(f.unit, unit, request) >= 2 ? [f] : [];
  });
  const [only, another] = named;
  if (!only || another) return undefined;
  const a = ref(only.name);
  const base = String(b);
  const expression =
    operation === 'percent_change'
      ? `Math.round(((${a} - ${base}) / ${base}) * 10000) / 100`
      : operation === 'ratio'
        ? only.value >= b
          ? `Math.round((${a} / ${base}) * 100) / 100`
          : `Math.round((${base} / ${a}) * 100) / 100`
        : `${a} - ${base}`;
  return {
    expression,
    note: `${operation.replace('_', ' ')} of ${only.label} ${only.text} vs ${base}, the number the request gives`,
  };
}

// A length of time asked: "how many hours", "how long", 多少小时, 多久. Group: the unit asked, when named.
const TIME_ASKED =
  /\bhow\s+many\s+(seconds|minutes|hours|days|weeks|months|years)\b|\bhow\s+long\b|多少\s*(秒钟?|分钟|个?小时|天)|多久|多长时间/iu;
// An amount the request gives: a number and a unit of data, not a rate ("4 TB", "2TB", 1.5 GB).
const AMOUNT = /(?<![\p{L}\p{N}.])(\d+(?:\.\d+)?)\s*([A-Za-z]+)(?![A-Za-z]*\s*\/)/gu;

/**
 * The time to move an amount the request gives at a rate a source states ("how many hours to read 4 TB at its
 * sequential read speed", 按顺序读速度读完4TB要多久): the one amount of data the request writes over the rate figure of
 * that kind the request names best (by its label's and clause's words), in the time asked.
 */
function timeAtRate(request: string, figures: readonly Figure[]): Calculation | undefined {
  const asked = TIME_ASKED.exec(request);
  if (!asked) return undefined;
  const amounts = [...request.matchAll(AMOUNT)].flatMap((m) => {
    const unit = parseUnit(m[2] ?? '');
    return unit?.kind === 'data' && unit.perSeconds === undefined
      ? [{ value: Number(m[1]), unit, text: m[0] }]
      : [];
  });
  const [amount, other] = amounts;
  if (!amount || other) return undefined;
  const rates = figures.flatMap((f) => {
    const unit = parseUnit(f.unit);
    return unit?.perSeconds !== undefined && unit.kind === amount.unit.kind ? [{ f, unit }] : [];
  });
  const ranked = named(wordsAt(request), rates)
    .filter((n) => n.score > 0)
    .sort((x, y) => y.score - x.score);
  const [best, second] = ranked;
  if (!best || (second && second.score === best.score)) return undefined;
  const word = (asked[1] ?? asked[2] ?? '').toLowerCase().replace(/^个/u, '');
  const seconds = TIME_UNITS[word] ?? TIME_UNITS[word.replace(/s$/u, '')] ?? best.unit.perSeconds ?? 1;
  // amount in the rate's unit of data, over the rate, times the rate's time, in the time asked
  const inRateUnit = Number((amount.value * (amount.unit.factor / best.unit.factor)).toPrecision(12));
  const k = Number(((best.unit.perSeconds ?? 1) / seconds).toPrecision(12));
  return {
    expression: `Math.round(${String(inRateUnit)} / ${ref(best.f.name)}${k === 1 ? '' : ` * ${String(k)}`} * 100) / 100`,
    note: `time for ${amount.text} at ${best.f.label} ${best.f.text}${word ? `, in ${word}` : ''}`,
  };
}
