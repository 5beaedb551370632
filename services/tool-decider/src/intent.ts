// The parts of a request: its asks, the things each ask lists, and the phrases it asks to be searched for. What the
// request asks to be done (its acts) is read by `acts.ts`.
import { ACT_READ_CHARS, readActs } from './acts.js';
import { targetPhrase } from './target.js';

/** What the request wants: information (`question`) or a change in the world (`action`) — see `readActs`. */
export type RequestIntent = 'question' | 'action';

// A search verb and what it is for, up to the next clause ("… and also look up …") or the end of the sentence.
const SEARCH_ACT =
  /\b(?:search(?:\s+(?:for|on))?|look\s+up|look\s+for|google)\s+([^.?!,;]{1,200}?)(?=\s+(?:and|then)\b|\s*[.?!,;]|\s*$)/giu;

/**
 * What a request asks to be searched for, one phrase per search verb: "Search for X and also look up Y" → [X, Y].
 * The deterministic planner drafts one search per phrase, so that two wordings of the same search meet the
 * duplicate rule (TD-5) instead of silently becoming one.
 */
export function searchedFor(request: string): string[] {
  return [...request.matchAll(SEARCH_ACT)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

// Verbs that open a new ask after "and" / "then" ("…, and find …", "Then get …"); a bare "and" inside a phrase
// ("length and breadth", "accelerates and then slows") does not split.
const ASK_VERBS =
  'find|calculate|compute|get|book|buy|determine|estimate|tell|show|give|list|search|look|convert|predict|check|send|' +
  'create|make|order|reserve|invest|withdraw|locate|display|retrieve|fetch|identify|generate|translate|schedule|plan|' +
  'analy[sz]e|compare|count|recommend|play|what|how|which|who|where|when';
// Where one ask ends and another begins: a sentence's end (not the dot of a numbered item, "1. …", whose number opens
// the text, a line, a sentence or a list after a colon — "of 7. Then …" ends a sentence), ", then …" / ", and
// finally …" / ", followed by …", "also" / "as well as" (not inside a question: "can we also …"), "then <verb>",
// ", and the …", ", and has / where / … (a question of its own)", or "and [-ly adverb] <verb>" ("and separately
// check …").
// The words a question opens with: an auxiliary or a wh-word.
const QUESTION_OPENERS =
  'has|have|had|is|are|was|were|did|does|do|can|could|will|would|should|what|where|when|which|who|whose|how|why';
// "Can we also give it a nickname?": "also" between a question's auxiliary and subject and its verb is inside the
// clause, not the start of one — the ask starts at the auxiliary ("Find the hotel, can you also book it?").
const AUXILIARIES = 'can|could|will|would|should|shall|may|might|must|do|does|did';
const SUBJECTS = 'i|we|you|they|he|she|it|someone|somebody';
// (A numbered list's next item — "… 2) please open …" after a "1) …" — starts an ask too, as a new line would.)
const ASK_BOUNDARY = new RegExp(
  String.raw`(?<=[.?!])(?<!(?:^|[:：;；(（]\s*|[.?!]\s+|\n\s*)\d{1,2}\.)\s+|\s+(?=\(?[2-9]\)\s*\p{L})(?<=(?:^|[\s:])\(?1\)\s*\p{L}.*)|\s*,\s*(?:and\s+)?(?:then|finally|lastly|afterwards|after\s+that|followed\s+by)\b,?\s*|\s+and\s+(?:then\s+)?(?:finally|lastly)\b,?\s*|(?<!\b(?:${AUXILIARIES})\s+(?:${SUBJECTS})\s*)\s*[,;]?\s*\b(?:and\s+)?(?:also|as\s+well\s+as)\b,?\s*|\s*[,;]\s*(?:and\s+)?(?=(?:${AUXILIARIES})\s+(?:${SUBJECTS})\s+also\b)|\s*[,;]?\s*\b(?:and\s+)?then\s+(?=(?:${ASK_VERBS})\b)|\s*,\s*and\s+(?=(?:the|a|an)\b)|\s*,\s*and\s+(?=(?:${QUESTION_OPENERS})\b)|\s*[,;]?\s+and\s+(?:\p{L}+ly,?\s+)?(?=(?:${ASK_VERBS})\b)`,
  'giu',
);

// A sentence that opens a next item of a list of things to do: a word of sequence or addition ("Then, I'm looking to
// buy a flute.", "After that, …", "Additionally, …"), an ordinal subject ("The second option is a bond that …") or the
// item it is about, put first ("For the MBTI, my preferences are …"); or the number or bullet of a list item
// ("2) Calculate …").
const NEXT_ITEM =
  /^\s*(?:\(?\d{1,2}[.):]|[-*•·])\s|^\W*(?:and\s+|but\s+)?(?:(?:then|afterwards|also|additionally|moreover|furthermore|besides|plus)\b|(?:first(?:ly)?|second(?:ly)?|third(?:ly)?|next|finally|lastly|last|after\s+that|in\s+addition)\s*,|(?:the\s+|an?\s+)?(?:first|second|third|fourth|fifth|next|last|other|another)\s+\p{L}+\b|(?:for|as\s+for|regarding|concerning|about)\s+[^,.?!]{1,60},)/iu;

/**
 * Whether a sentence asks nothing: no question, no act read in it (`readActs` finds no verb where a request puts its
 * verbs and no thing wanted, and gives its fallback, a look-up over the whole text), and no word that opens a next
 * item of a list. Such a sentence states something — a value ("The network ID is 'office-network-001'."), a limit
 * ("And let's limit it to 5 articles.") — that details the ask before it.
 */
function asksNothing(sentence: string): boolean {
  return STATES.test(sentence) && !NEXT_ITEM.test(sentence) && !asksSomething(sentence);
}

// A finite verb that states something: an auxiliary, a copula or a modal, or one of their contractions ("Web ID is
// 1234", "I'll be in Los Angeles", "here's the key", "let's limit it"). A sentence without one says a thing wanted
// with the rest left out ("Just the decisions, no need for the rest."): an ask, not a detail.
const STATES =
  /\b(?:is|are|was|were|be|been|am|has|have|had|do|does|did|will|would|shall|should|can|could|may|might|must)\b|\b(?:it|that|there|here|what|who|he|she|let)['’]s\b|\p{L}['’](?:re|ve|ll|d|m)\b/iu;

/** Whether a sentence asks something: a question, or an act `readActs` reads in it (not only its fallback). */
function asksSomething(sentence: string): boolean {
  // (a text longer than a request's acts are read in is taken to ask: reading it costs, and it is no one detail)
  if (sentence.length > ACT_READ_CHARS || /[?？]\W*$/u.test(sentence)) return true;
  const acts = readActs(sentence);
  return !(acts.length === 1 && acts[0]?.cue === 'request');
}

/**
 * The separate asks of a request, in order ("Find X. Also, calculate Y" → ["Find X.", "calculate Y"]); one part
 * when it asks one thing. Parts under three words are folded into the one before (a trailing "please"). A sentence
 * that asks nothing (`asksNothing`), parted from an ask before it only by its sentence end, is no ask of its own
 * either: it details that ask ("Rename website 'Frank' to 'Bob'. Web ID is 1234"), so it is folded into it — a tool
 * it fits is not asked for by it, and the ask it details reads its values. A sentence that asks nothing after another
 * such sentence, or before any ask, stays a part (a story told before the asks: "John has $5000 to invest. The first
 * option is …"), and "also" and the other joining words start an ask however short ("…. Also the LCM of 15 and 25.").
 */
export function requestParts(request: string): string[] {
  // (whether a part asks is read only when a sentence after it may be folded into it: reading acts costs)
  const parts: { text: string; asks: () => boolean }[] = [];
  let from = 0;
  let sentenceEnd = false;
  const add = (raw: string, afterSentenceEnd: boolean) => {
    const part = raw.trim();
    if (part === '') return;
    const previous = parts.at(-1);
    if (previous !== undefined && part.split(/\s+/).length < 3) previous.text = `${previous.text} ${part}`;
    else if (previous?.asks() && afterSentenceEnd && asksNothing(part))
      previous.text = `${previous.text} ${part}`;
    else {
      let asks: boolean | undefined;
      parts.push({ text: part, asks: () => (asks ??= asksSomething(part)) });
    }
  };
  for (const m of request.matchAll(ASK_BOUNDARY)) {
    add(request.slice(from, m.index), sentenceEnd);
    sentenceEnd = m[0].trim() === '';
    from = m.index + m[0].length;
  }
  add(request.slice(from), sentenceEnd);
  return parts.map((p) => p.text);
}

// Where the things one ask names are listed: a semicolon, a comma before a word, or "and" (quoted titles such as
// 'Pride and Prejudice' excepted). Commas between figures ("3, 4, 5") list values, not things.
const PIECE_BOUNDARY = /\s*;\s*|\s*,\s+(?:and\s+)?(?=[\p{L}'"])|\s+and\s+/giu;
// Words that open a qualifier of what a piece names ("the median for these points", "a park with a playground").
const QUALIFIER =
  /\b(?:for|of|in|on|at|from|with|between|by|during|about|near|within|after|before|since|using|that|which|who|whose|where|when)\b/iu;
// Quoted spans: a title or a value, never split ("'Pride and Prejudice'"); an apostrophe inside a word is no quote.
const QUOTED = /(?<![\p{L}\p{N}])'[^']{1,80}'(?![\p{L}\p{N}])|"[^"]{1,80}"|“[^”]{1,80}”/gu;

const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * The things one ask names, each as a text of its own ("Get the median and the variance of these points" → "Get the
 * median of these points", "Get the variance of these points"); one piece when the ask names one thing. A listed
 * bare noun ("the median", "temperature") shares the ask's lead words and the qualifier of the next full piece
 * ("… for Boston"); a short bare piece right after a qualified one continues its qualifier ("for Boston, USA",
 * "Procter and Gamble") and is folded into it. The planner scores each piece on its own words: two pieces whose
 * best tools differ ask for two tools.
 */
export function askPieces(ask: string): string[] {
  const text = ask.trim().replace(/^["“](.*)["”]$/su, '$1');
  const quoted = [...text.matchAll(QUOTED)].map((m) => [m.index, m.index + m[0].length] as const);
  const segments: { text: string; sep: string }[] = [];
  let from = 0;
  let sep = '';
  for (const m of text.matchAll(PIECE_BOUNDARY)) {
    if (quoted.some(([a, b]) => m.index > a && m.index < b)) continue;
    segments.push({ text: text.slice(from, m.index), sep });
    sep = m[0];
    from = m.index + m[0].length;
  }
  segments.push({ text: text.slice(from), sep });
  const bare = (t: string) => !QUALIFIER.test(t) && wordCount(t) <= 4;
  // A segment that modifies the one before rather than naming a thing of its own: a participle or a preposition
  // ("…, departing on Monday", "…, in the morning"), a clause of its own subject ("…, and I'd like it in blue"), or
  // a name's apposition ("Rome, Italy", "Austin, TX").
  const modifier = (t: string, previous: string) =>
    /^(?:\p{L}+(?:ing|ed)|for|of|in|on|at|from|to|with|by|during|near|within|after|before|since|via|including|except|i|i'\p{L}+|we|you|he|she|it|they|it's|there|here)\b/iu.test(
      t,
    ) ||
    (/^\p{Lu}/u.test(t) && /\p{Lu}[\p{L}.]*$/u.test(previous));
  const pieces: string[] = [];
  for (const s of segments) {
    const part = s.text.trim();
    if (part === '') continue;
    const last = pieces.at(-1);
    // A short piece continues the one before: a place's qualifier ("Boston, USA"), a name ("Gas and Electric"),
    // a figure ("96 and 128"). A bare noun after a bare noun is one more thing listed.
    if (
      last !== undefined &&
      ((bare(part) && !bare(last)) || (!bare(part) && wordCount(part) < 3) || modifier(part, last))
    )
      pieces[pieces.length - 1] = `${last}${s.sep}${part}`;
    else pieces.push(part);
  }
  if (pieces.length < 2) return [ask.trim()];
  // The lead words of the first piece ("Determine the ") open every listed piece that has none of its own.
  const first = pieces[0] ?? '';
  const target = targetPhrase(first);
  const lead = target.trim() === '' ? '' : first.slice(0, Math.max(0, first.indexOf(target)));
  // A piece has lead words of its own ("what is …", "find …") when what it asks for does not stand at its start.
  const ownLead = (piece: string) =>
    !piece.replace(/^(?:the|a|an)\s+/iu, '').startsWith(targetPhrase(piece).trim());
  const opened = (piece: string) =>
    lead === '' || ownLead(piece)
      ? piece
      : `${lead}${/\b(?:the|a|an)\s+$/iu.test(lead) ? piece.replace(/^(?:the|a|an)\s+/iu, '') : piece}`;
  return pieces.map((piece, i) => {
    if (!bare(piece)) return opened(piece);
    // A listed bare noun takes the qualifier of the full piece that ends the list: "the median" + "variance for
    // these points". A full piece with lead words of its own ends no list ("Hi, are there …").
    const next = pieces.slice(i + 1).find((p) => !bare(p));
    const at = next === undefined || ownLead(next) ? -1 : next.search(QUALIFIER);
    return at === -1 || next === undefined ? opened(piece) : `${opened(piece)} ${next.slice(at)}`;
  });
}
