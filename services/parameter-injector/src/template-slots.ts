// A value the request writes where the tool's own description names the parameter (PI-2): a request is often the
// tool's purpose said with values — "Retrieve the boiling point and melting point of a substance" and "Find the
// boiling point and melting point of water"; "Get the list of proteins in a specific cell compartment" and "the names
// of proteins found in the plasma membrane"; "the average price and ratings of an instrument from a particular
// manufacturer" and "the average price and ratings of piano from Yamaha". Where the purpose writes the parameter
// ("a substance") after a preposition ("of"), the request's words after the same preposition — behind the same word
// ("point of"), or the request's only such preposition — are the value, up to where the phrase ends.
//
// Only for a lower-case or capitalised phrase of one to four words that no other rule took; a value of the tool's own
// words, a number or a date is none.
import type { ParameterHints } from '@signalbox/registry';
import { DETERMINERS, PHRASE_ENDS } from './parameter-vocabulary.js';
import { nameWords, sameWord, tokenize, type Token } from './spans.js';

// The prepositions a purpose introduces a parameter with.
const SLOT_PREPOSITIONS = new Set(['of', 'in', 'for', 'from', 'about', 'during', 'on', 'at', 'with', 'by']);
// Words that stand between a preposition and the noun it introduces, in a purpose ("in a specific cell compartment",
// "of a given molecule", "from a particular manufacturer") or a request ("in the plasma membrane").
const QUALIFIERS = new Set([
  'a',
  'an',
  'the',
  'its',
  'their',
  'his',
  'her',
  'my',
  'given',
  'specified',
  'specific',
  'particular',
  'certain',
  'chosen',
  'selected',
  ...DETERMINERS,
]);
const ENDS = new Set([...PHRASE_ENDS, 'based', 'including', 'whose', 'what', 'how', 'why']);
const MAX_WORDS = 4;
const GENERIC_NAME_WORDS = new Set(['name', 'names', 'value', 'values', 'info', 'data', 'text', 'string']);

/** Where the purpose writes a parameter: the preposition before it and the word before that ("point" of "point of"). */
interface Slot {
  preposition: string;
  anchor: string | undefined;
}

/** The slots of `purpose` where the parameter's last name word (or its description's last word) stands. */
function slotsOf(p: ParameterHints, purpose: readonly Token[]): Slot[] {
  const name = nameWords(p.path.slice(p.path.lastIndexOf('.') + 1)).filter((w) => w.length >= 3);
  // `dish_name`, `element_name`: the thing named is the head, not "name".
  const head = name.filter((w) => !GENERIC_NAME_WORDS.has(w)).pop();
  if (head === undefined) return [];
  const out: Slot[] = [];
  purpose.forEach((t, i) => {
    if (!sameWord(t.lower, head)) return;
    // Back over the parameter's other name words and the qualifiers to the preposition.
    let j = i - 1;
    while (j >= 0 && (QUALIFIERS.has(purpose[j]?.lower ?? '') || name.includes(purpose[j]?.lower ?? ''))) j--;
    const preposition = purpose[j]?.lower;
    if (preposition === undefined || !SLOT_PREPOSITIONS.has(preposition)) return;
    out.push({ preposition, anchor: purpose[j - 1]?.lower });
  });
  return out;
}

/** The phrase written after the preposition at `at` in the request: qualifiers skipped, up to where it ends. */
function phraseAfter(text: string, tokens: readonly Token[], at: number): string | undefined {
  let k = at + 1;
  while (k < tokens.length && QUALIFIERS.has(tokens[k]?.lower ?? '')) k++;
  const first = tokens[k];
  if (!first) return undefined;
  let last = k;
  while (last + 1 < tokens.length && last + 1 - k < MAX_WORDS) {
    const next = tokens[last + 1];
    const prev = tokens[last];
    if (!next || !prev || ENDS.has(next.lower)) break;
    // Punctuation between words ends the phrase ("… in mitochondria? …").
    if (!/^\s+$/.test(text.slice(prev.end, next.start))) break;
    last++;
  }
  // The phrase ends at punctuation, an end word, or the text's end; a longer run is no phrase of one value.
  const after = tokens[last + 1];
  const endsHere =
    !after || ENDS.has(after.lower) || !/^\s+$/.test(text.slice(tokens[last]?.end ?? 0, after.start));
  if (!endsHere || ENDS.has(first.lower)) return undefined;
  return text.slice(first.start, tokens[last]?.end ?? first.end);
}

/**
 * For each of `params` (open entity parameters of one tool), the value the request writes where the tool's purpose
 * writes the parameter (see the file comment); `isTaken` says which values other rules already gave.
 */
export function slotValues(
  params: readonly ParameterHints[],
  purpose: string,
  text: string,
  isTaken: (value: string) => boolean,
): Map<string, string> {
  const out = new Map<string, string>();
  const words = tokenize(purpose).filter((t) => /\p{L}/u.test(t.text));
  const tokens = tokenize(text).filter((t) => /\p{L}|\p{N}/u.test(t.text));
  const purposeWords = new Set(words.map((t) => t.lower));
  const found = new Map<string, Set<string>>();
  for (const p of params) {
    const own = nameWords(p.path.slice(p.path.lastIndexOf('.') + 1));
    for (const slot of slotsOf(p, words)) {
      const at = tokens
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => t.lower === slot.preposition)
        .map(({ i }) => i);
      // Behind the same word as in the purpose ("melting point of water"), within two words ("proteins found in"),
      // else the request's only such preposition.
      const anchored = at.filter((i) =>
        [tokens[i - 1], tokens[i - 2]].some(
          (t) => t !== undefined && slot.anchor !== undefined && sameWord(t.lower, slot.anchor),
        ),
      );
      const chosen = anchored.length > 0 ? anchored : at.length === 1 ? at : [];
      for (const i of chosen) {
        let value = phraseAfter(text, tokens, i);
        if (value === undefined) continue;
        // "in C key": the parameter's own word is what the value is, not part of it.
        const valueWords = value.split(/\s+/u);
        if (valueWords.length > 1 && own.includes(valueWords[valueWords.length - 1]?.toLowerCase() ?? ''))
          value = valueWords.slice(0, -1).join(' ');
        if (
          /\p{N}/u.test(value) ||
          isTaken(value) ||
          nameWords(value).every((w) => purposeWords.has(w) || own.includes(w))
        )
          continue;
        const set = found.get(p.path) ?? new Set<string>();
        set.add(value);
        found.set(p.path, set);
      }
    }
  }
  // One value per parameter, and no value two parameters would take.
  const owners = new Map<string, number>();
  for (const values of found.values()) for (const v of values) owners.set(v, (owners.get(v) ?? 0) + 1);
  for (const [field, values] of found) {
    const [only] = [...values];
    if (values.size === 1 && only !== undefined && owners.get(only) === 1) out.set(field, only);
  }
  return out;
}
