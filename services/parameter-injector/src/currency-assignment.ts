// Which currency of a request goes to which currency parameter of a tool (PI-2): "How many Canadian dollars can I
// get for 500 US dollars?" gives base_currency `USD` and target_currency `CAD`. A currency is found by its name
// (ISO 4217, `CURRENCY_NAMES`) or its code written as one ("USD"), and given as its code.
// - The start of a conversion (`from_currency`, `base_currency`, `source_currency`) takes the currency written after
//   "from" or right after the amount ("500 US dollars"); the end (`to_currency`, `target_currency`) the one after
//   "to", "into" or "in". When one side is settled and the request names two currencies, the other side takes the
//   other one. A cue that names two currencies for one side settles nothing.
// - A lone currency parameter takes the one currency the request names; several → none.
import type { ParameterHints } from '@signalbox/registry';
import { CURRENCY_NAMES } from './parameter-vocabulary.js';
import { nameWords, placeDirection } from './spans.js';

/** A currency named in a request, as its ISO 4217 code, with where it stands. */
export interface CurrencyMention {
  code: string;
  start: number;
  end: number;
}

const CODES = new Set(Object.values(CURRENCY_NAMES));
const NAME_PATTERN = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${Object.keys(CURRENCY_NAMES)
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/\./g, '\\.'))
    .join('|')})(?:e?s)?(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])(${[...CODES].join('|')})(?![\p{L}\p{N}])`,
  'gu',
);

/** The currencies a text names, in text order: names in any case, codes in capitals. */
export function currencyMentions(text: string): CurrencyMention[] {
  const lower = text.toLowerCase();
  const out: CurrencyMention[] = [];
  for (const m of lower.matchAll(NAME_PATTERN)) {
    const written = text.slice(m.index, m.index + m[0].length);
    // A code counts only written in capitals ("USD", not the word "try").
    if (m[2] && written !== written.toUpperCase()) continue;
    const code = m[1] ? CURRENCY_NAMES[m[1]] : m[2]?.toUpperCase();
    if (code) out.push({ code, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** True for a parameter that names a currency (`currency`, `to_currency`, `base_currency`). */
export function isCurrencyParameter(hints: ParameterHints): boolean {
  return nameWords(hints.path.slice(hints.path.lastIndexOf('.') + 1)).some((w) => w === 'currency');
}

function sideOf(path: string): 'start' | 'end' | null {
  const name = path.slice(path.lastIndexOf('.') + 1);
  const words = nameWords(name);
  // In foreign exchange the base currency is the one converted from, the quote currency the one converted to.
  if (words.includes('base')) return 'start';
  if (words.includes('quote')) return 'end';
  return placeDirection(name);
}

/**
 * The currencies of `text` given to the currency parameters among `params` (see the file comment), as field →
 * { code, note }. Parameters without a currency are absent.
 */
export function assignCurrencies(
  params: readonly ParameterHints[],
  text: string,
): Map<string, { value: string; note: string }> {
  const out = new Map<string, { value: string; note: string }>();
  const wanting = params.filter(isCurrencyParameter);
  if (wanting.length === 0) return out;
  const mentions = currencyMentions(text);
  const codes = [...new Set(mentions.map((m) => m.code))];
  if (codes.length === 0) return out;
  if (wanting.length === 1 && wanting[0] && sideOf(wanting[0].path) === null) {
    if (codes.length === 1 && codes[0])
      out.set(wanting[0].path, { value: codes[0], note: 'the one currency named' });
    return out;
  }
  const before = (m: CurrencyMention) => text.slice(0, m.start);
  const startCue = mentions.filter(
    (m) => /\bfrom\s+(?:the\s+)?$/i.test(before(m)) || /\d\s*$/.test(before(m)),
  );
  const endCue = mentions.filter((m) => /\b(?:to|into|in)\s+(?:the\s+)?$/i.test(before(m)));
  const only = (ms: CurrencyMention[]) => {
    const set = [...new Set(ms.map((m) => m.code))];
    return set.length === 1 ? set[0] : undefined;
  };
  let from = only(startCue);
  let to = only(endCue.filter((m) => m.code !== from));
  if (codes.length === 2) {
    if (from && !to) to = codes.find((c) => c !== from);
    else if (to && !from) from = codes.find((c) => c !== to);
  }
  for (const p of wanting) {
    const side = sideOf(p.path);
    if (side === 'start' && from)
      out.set(p.path, { value: from, note: `the currency converted from (${from})` });
    if (side === 'end' && to && to !== from)
      out.set(p.path, { value: to, note: `the currency converted to (${to})` });
  }
  return out;
}
