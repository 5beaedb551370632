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
// The first words of English compound prepositions ("based on", "according to", "depending on", "due to").
const COMPOUND_LEADS = new Set(['based', 'according', 'depending', 'due', 'relative', 'thanks', 'prior']);
const GENERIC_NAME_WORDS = new Set(['name', 'names', 'value', 'values', 'info', 'data', 'text', 'string']);

/** Where the purpose writes a parameter: the preposition before it and the words before that ("point" of "point of"). */
interface Slot {
  preposition: string;
  anchors: string[];
}

/** The word of a parameter's name that says what it is: `dish_name` → dish, `cell_compartment` → compartment. */
function headOf(p: ParameterHints): string | undefined {
  // `dish_name`, `element_name`: the thing named is the head, not "name".
  return nameWords(p.path.slice(p.path.lastIndexOf('.') + 1))
    .filter((w) => w.length >= 3 && !GENERIC_NAME_WORDS.has(w))
    .pop();
}

/** The slots of `purpose` where the parameter's head word stands. */
function slotsOf(p: ParameterHints, purpose: readonly Token[]): Slot[] {
  const name = nameWords(p.path.slice(p.path.lastIndexOf('.') + 1)).filter((w) => w.length >= 3);
  const head = headOf(p);
  if (head === undefined) return [];
  const out: Slot[] = [];
  purpose.forEach((t, i) => {
    // The word itself or its plural ("a sportsperson" is no "sport").
    if (t.lower !== head && t.lower !== `${head}s` && t.lower !== `${head}es`) return;
    // Back over the parameter's other name words and the qualifiers to the preposition.
    let j = i - 1;
    while (j >= 0 && (QUALIFIERS.has(purpose[j]?.lower ?? '') || name.includes(purpose[j]?.lower ?? ''))) j--;
    const preposition = purpose[j]?.lower;
    if (preposition === undefined || !SLOT_PREPOSITIONS.has(preposition)) return;
    // The two words before the preposition ("services available in", "melting point of"), qualifiers aside.
    const anchors = purpose
      .slice(Math.max(0, j - 3), j)
      .map((w) => w.lower)
      .filter((w) => !QUALIFIERS.has(w) && !SLOT_PREPOSITIONS.has(w))
      .slice(-2);
    // "based on", "according to": a compound preposition is written whole, or the slot is not there.
    const compound = COMPOUND_LEADS.has(purpose[j - 1]?.lower ?? '');
    out.push({ preposition, anchors: compound ? [purpose[j - 1]?.lower ?? ''] : anchors });
  });
  return out;
}

/** The phrase written after the preposition at `at` in the request: qualifiers skipped, up to where it ends. */
function phraseAfter(
  text: string,
  tokens: readonly Token[],
  at: number,
): { value: string; start: number } | undefined {
  let k = at + 1;
  // Lower-case qualifiers only: "from New York" starts with a name, not with the quantifier "new".
  while (k < tokens.length && QUALIFIERS.has(tokens[k]?.text ?? '')) k++;
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
  return { value: text.slice(first.start, tokens[last]?.end ?? first.end), start: first.start };
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
  // Where the values found so far end, by the word the purpose writes for them ("of a given molecule in a specified
  // organelle": the organelle's "in" stands behind the molecule's value in the request, "ATP synthase in …").
  const valueEnds = new Map<string, number[]>();
  const read = (p: ParameterHints) => {
    const own = nameWords(p.path.slice(p.path.lastIndexOf('.') + 1));
    for (const slot of slotsOf(p, words)) {
      const at = tokens
        .map((t, i) => ({ t, i }))
        .filter(({ t }) => t.lower === slot.preposition)
        .map(({ i }) => i);
      // Behind the same word as in the purpose ("melting point of water"), within two words ("proteins found in"),
      // else the request's only such preposition.
      const anchored = at.filter(
        (i) =>
          [tokens[i - 1], tokens[i - 2]].some(
            (t) => t !== undefined && slot.anchors.some((a) => sameWord(t.lower, a)),
          ) || slot.anchors.some((a) => (valueEnds.get(a) ?? []).includes(tokens[i - 1]?.end ?? -1)),
      );
      // Without the word, the request's only such preposition — for a name ("from Yamaha"): "on the basis of" is
      // no slot for a product.
      const chosen = anchored.length > 0 ? anchored : at.length === 1 ? at : [];
      for (const i of chosen) {
        const phrase = phraseAfter(text, tokens, i);
        if (phrase === undefined) continue;
        let value = phrase.value;
        if (anchored.length === 0 && !/^\p{Lu}/u.test(value)) continue;
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
        const head = headOf(p);
        if (head !== undefined)
          valueEnds.set(head, [...(valueEnds.get(head) ?? []), phrase.start + value.length]);
      }
    }
  };
  for (const p of params) read(p);
  // Once, again, for the parameters whose slot stands behind another's value.
  for (const p of params) if (!found.has(p.path)) read(p);
  // One value per parameter, and no value two parameters would take.
  const owners = new Map<string, number>();
  for (const values of found.values()) for (const v of values) owners.set(v, (owners.get(v) ?? 0) + 1);
  for (const [field, values] of found) {
    const [only] = [...values];
    if (values.size === 1 && only !== undefined && owners.get(only) === 1) out.set(field, only);
  }
  return out;
}

// The longest object read after a verb ("the law of universal gravitation"): a noun phrase of a few words.
const MAX_OBJECT_WORDS = 5;

/**
 * The object of the verb the tool's own words name, for a tool's one open entity parameter: a request asks for the
 * tool's act as a verb with its object — "Who discovered radium?" to a discoverer look-up, "Who invented the theory of
 * relativity and in which year?" to an invention look-up — and what the act is done to is what the tool is asked
 * about. The verb is a past form (-ed) of a word of the tool's name or purpose ("discovered" ~ "discoverer"), written
 * once; the object is the words after it, articles skipped, up to punctuation or a phrase end ("of" inside the phrase
 * joins its nouns: "theory of relativity"), one to five words with no number, not taken, and not only the tool's words.
 */
export function verbObject(
  p: ParameterHints,
  toolText: string,
  text: string,
  isTaken: (value: string) => boolean,
): string | undefined {
  const toolWords = nameWords(toolText).filter((w) => w.length >= 5);
  const own = nameWords(p.path.slice(p.path.lastIndexOf('.') + 1));
  const tokens = tokenize(text).filter((t) => /\p{L}|\p{N}/u.test(t.text));
  const verbs = tokens
    .map((t, i) => ({ t, i }))
    .filter(({ t }) => /^\p{Ll}+ed$/u.test(t.text) && toolWords.some((w) => sameWord(t.lower, w)));
  const [verb] = verbs;
  if (verbs.length !== 1 || verb === undefined) return undefined;
  let k = verb.i + 1;
  while (k < tokens.length && QUALIFIERS.has(tokens[k]?.text ?? '')) k++;
  const first = tokens[k];
  // The object follows the verb in the same phrase: no punctuation between them.
  if (!first || ENDS.has(first.lower) || !/^[\s\p{L}]+$/u.test(text.slice(verb.t.end, first.start)))
    return undefined;
  let last = k;
  while (last + 1 < tokens.length && last + 1 - k < MAX_OBJECT_WORDS) {
    const next = tokens[last + 1];
    const prev = tokens[last];
    if (!next || !prev || !/^\s+$/.test(text.slice(prev.end, next.start))) break;
    // "theory of relativity": "of" between two words of the phrase joins them; any other phrase end ends it.
    const after = tokens[last + 2];
    const joins =
      next.lower === 'of' &&
      after !== undefined &&
      /^\s+$/.test(text.slice(next.end, after.start)) &&
      !ENDS.has(after.lower) &&
      !QUALIFIERS.has(after.lower);
    if (ENDS.has(next.lower) && !joins) break;
    last++;
  }
  const after = tokens[last + 1];
  const endsHere =
    !after || ENDS.has(after.lower) || !/^\s+$/.test(text.slice(tokens[last]?.end ?? 0, after.start));
  if (!endsHere) return undefined;
  const value = text.slice(first.start, tokens[last]?.end ?? first.end);
  const purposeWords = new Set(nameWords(toolText));
  if (
    /\p{N}/u.test(value) ||
    isTaken(value) ||
    nameWords(value).every((w) => purposeWords.has(w) || own.includes(w))
  )
    return undefined;
  return value;
}

// A parameter for what something is about: its name says topic, or its description "topic" / "subject matter".
const TOPIC_NAME = /(?:^|_)topics?$/i;
const TOPIC_DESCRIPTION = /\b(?:topic|subject matter)\b/i;

/** True for a parameter that names what something is about (`topic`, "The subject matter of the case"). */
export function isTopicParameter(p: ParameterHints): boolean {
  const name = p.path.slice(p.path.lastIndexOf('.') + 1);
  const description = typeof p.schema.description === 'string' ? p.schema.description : '';
  return TOPIC_NAME.test(name) || TOPIC_DESCRIPTION.test(description);
}

/**
 * What the request says a thing is about, for a topic parameter: English introduces a topic with "about",
 * "regarding", "concerning" or "related to" ("a law case about fraud from 2010", "cases related to land disputes in
 * New York") — the phrase after the one such marker, articles skipped, up to where it ends (one to four words, no
 * number). Several markers or none → no value.
 */
export function topicValues(text: string): string[] {
  const tokens = tokenize(text).filter((t) => /\p{L}|\p{N}/u.test(t.text));
  const markers = tokens
    .map((t, i) => ({ t, i }))
    .filter(
      ({ t, i }) =>
        ['about', 'regarding', 'concerning'].includes(t.lower) ||
        (t.lower === 'to' && ['related', 'relating'].includes(tokens[i - 1]?.lower ?? '')),
    );
  const [marker] = markers;
  if (markers.length !== 1 || marker === undefined) return [];
  const phrase = phraseAfter(text, tokens, marker.i);
  if (phrase === undefined || /\p{N}/u.test(phrase.value)) return [];
  return [phrase.value];
}
