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

/** True when the number sits inside the sentence's label ("PostgreSQL 17 …": 17 names, it does not measure). */
function inLabel(sentence: string, label: string, at: number): boolean {
  const start = sentence.indexOf(label);
  return start !== -1 && at >= start && at < start + label.length;
}

/**
 * The figures of passages, in text order, each under a unique name. A number without a unit ("queue depth 32",
 * a year) is not a figure: it cannot be compared with anything safely.
 */
export function readFigures(passages: readonly string[]): Figure[] {
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
        figures.push({
          name: seen === 0 ? base : `${base}_${String(seen + 1)}`,
          label,
          unit,
          value,
          text: m[0].trim(),
        });
      }
    }
  });
  return figures;
}

/** The operation a request asks for over two figures (or a group, for total / average). */
type Operation = 'percent_change' | 'ratio' | 'difference' | 'total' | 'average';

function operationOf(request: string): Operation | undefined {
  if (/\b(?:in|as\s+a)\s+percent(?:age)?\b|\bpercentage\b|%|\bper\s*cent\b/i.test(request))
    return 'percent_change';
  if (
    /\bhow\s+many\s+times\b|\bratio\b|\btimes\s+(?:faster|slower|more|less|higher|lower|bigger|larger)\b/i.test(
      request,
    )
  )
    return 'ratio';
  if (/\b(?:average|mean)\b/i.test(request)) return 'average';
  if (/\b(?:total|sum)\b/i.test(request)) return 'total';
  if (
    /\bdifference\b|\bhow\s+much\s+(?:faster|slower|more|less|higher|lower|bigger|smaller|larger|quicker|cheaper)\b/i.test(
      request,
    )
  )
    return 'difference';
  return undefined;
}

const RATE_UNIT = /\bper\b|\/|\b(?:tps|iops|qps|rps)\b/i;
const TIME_UNIT = /^(?:ms|s|sec|seconds?|milliseconds?|minutes?|hours?|days?)$/i;

/** Words of a text, lower-case, for matching labels and units against the request. */
function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Where a label's own words (those the other labels lack) first occur in the request; -1 if they do not. */
function mentionAt(request: string, label: string, others: readonly string[]): number {
  const otherWords = new Set(others.flatMap(wordsOf));
  const own = wordsOf(label).filter((w) => !otherWords.has(w));
  const req = wordsOf(request);
  const at = own.length > 0 ? req.findIndex((w) => own.includes(w)) : -1;
  return at;
}

/** How strongly a unit answers the request: its own words named, or the kind a comparative implies. */
function unitScore(unit: string, request: string): number {
  const req = new Set(wordsOf(request));
  let score = wordsOf(unit).filter((w) => w !== 'per' && req.has(w)).length * 2;
  if (/\b(?:faster|quicker|throughput)\b/i.test(request) && RATE_UNIT.test(unit)) score += 1;
  if (/\b(?:slower|latency|longer)\b/i.test(request) && TIME_UNIT.test(unit)) score += 1;
  return score;
}

function ref(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? `inputs.${name}` : `inputs[${JSON.stringify(name)}]`;
}

/** The expression for a request, or why none is written. */
export type Calculation = { expression: string; note: string } | { expression: undefined; note: string };

/**
 * The expression a request asks for over named figures: the operation from its wording ("in percent" → percent
 * change, "how many times" → ratio, "difference / how much faster" → difference, "total", "average"), the operands
 * from the figures of one unit whose labels the request names ("PostgreSQL 17 than 16": 17 is compared with 16).
 * When the wording names no operation, or no unit or more than one answers it, no expression is written.
 */
export function calculationFor(request: string, figures: readonly Figure[]): Calculation {
  const operation = operationOf(request);
  if (!operation) return { expression: undefined, note: 'the request names no calculation' };
  const byUnit = new Map<string, Figure[]>();
  for (const f of figures) byUnit.set(slug(f.unit), [...(byUnit.get(slug(f.unit)) ?? []), f]);
  const candidates: { unit: string; operands: Figure[]; score: number }[] = [];
  for (const [unit, group] of byUnit) {
    const labels = [...new Set(group.map((f) => f.label))];
    if (labels.length < 2) continue;
    const named = group
      .map((f) => ({
        f,
        at: mentionAt(
          request,
          f.label,
          labels.filter((l) => l !== f.label),
        ),
      }))
      .filter((x) => x.at !== -1);
    const pair = operation === 'total' || operation === 'average' ? named : named.slice(0, 2);
    if (operation !== 'total' && operation !== 'average' && named.length !== 2) continue;
    if (pair.length < 2) continue;
    // "A than B": A is named first; "from A to B": A is the base, so B comes first.
    const fromTo = /\bfrom\b/i.test(request) && /\bto\b/i.test(request) && !/\bthan\b/i.test(request);
    const ordered = [...pair].sort((x, y) => (fromTo ? y.at - x.at : x.at - y.at)).map((x) => x.f);
    candidates.push({ unit, operands: ordered, score: unitScore(group[0]?.unit ?? unit, request) });
  }
  candidates.sort((x, y) => y.score - x.score);
  const [best, second] = candidates;
  if (!best)
    return { expression: undefined, note: 'no two figures of one unit match what the request compares' };
  if (second && second.score === best.score)
    return {
      expression: undefined,
      note: `ambiguous: the request could compare ${best.unit} or ${second.unit}`,
    };
  const [a, b] = best.operands.map((f) => ref(f.name));
  const all = best.operands.map((f) => ref(f.name));
  const expression =
    operation === 'percent_change'
      ? `Math.round(((${String(a)} - ${String(b)}) / ${String(b)}) * 10000) / 100`
      : operation === 'ratio'
        ? `Math.round((${String(a)} / ${String(b)}) * 100) / 100`
        : operation === 'difference'
          ? `${String(a)} - ${String(b)}`
          : operation === 'total'
            ? all.join(' + ')
            : `(${all.join(' + ')}) / ${String(all.length)}`;
  return {
    expression,
    note: `${operation.replace('_', ' ')} of ${best.operands.map((f) => `${f.label} ${f.text}`).join(' vs ')}`,
  };
}
