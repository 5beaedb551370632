// The separate, pure scoring features of the TD-6 fit score (is this tool the right one at all?). Each feature reads
// the request and one tool's documents and returns a number or a finding; `retrieval.ts` weighs them with
// RETRIEVAL_CONFIG. They are lexical and domain-free on purpose: closed classes of mutually exclusive qualifiers (data:
// vocabulary/qualifier-classes.ts),
// typed argument evidence, the asked-for words in what the tool says it does, and question forms no tool answers.
import type { AskedActKind } from '@signalbox/contracts';
import { WRITE_ACT_KINDS, asksListenerToAct, chineseClauses, nameActKind } from './acts.js';
import { remembered, stem, tokens, words } from './text.js';
import { chineseAskedPhrase } from './target.js';
import {
  CHINESE_GENERAL_NOUNS,
  GENERAL_NOUNS,
  QUANTIFYING_NOUNS,
  RECORD_NOUNS,
} from './vocabulary/general-nouns.js';
import { QUALIFIER_CLASSES } from './vocabulary/qualifier-classes.js';

export { QUALIFIER_CLASSES };

/** A text as a padded sequence of stemmed words, so phrases match on word boundaries (" p value "). */
function stemmedSequence(text: string): string {
  return ` ${words(text).map(stem).join(' ')} `;
}

const SENSES: readonly { cls: string; sense: number; phrases: string[] }[] = Object.entries(
  QUALIFIER_CLASSES,
).flatMap(([cls, senses]) =>
  senses.map((phrases, sense) => ({ cls, sense, phrases: phrases.map((p) => stemmedSequence(p)) })),
);

/**
 * The qualifier senses a text names, per class (class → sense indexes). Remembered per text: a decision reads the
 * request's asked-for words against every visible tool's core text, in each ranking it makes.
 */
export const qualifierSenses: (text: string) => ReadonlyMap<string, ReadonlySet<number>> = remembered(
  sensesOf,
  4096,
);

function sensesOf(text: string): Map<string, Set<number>> {
  const sequence = stemmedSequence(text);
  const out = new Map<string, Set<number>>();
  for (const s of SENSES)
    if (s.phrases.some((p) => sequence.includes(p))) {
      const set = out.get(s.cls) ?? new Set<number>();
      set.add(s.sense);
      out.set(s.cls, set);
    }
  return out;
}

/**
 * A qualifier contradiction: the asked-for words name a sense the tool's name and purpose never name, while they name
 * another sense of the same class. Returns the class (for the explanation), or null when nothing contradicts.
 */
export function qualifierConflict(askedFor: string, toolCore: string): string | null {
  const asked = qualifierSenses(askedFor);
  if (asked.size === 0) return null;
  const offered = qualifierSenses(toolCore);
  for (const [cls, senses] of asked) {
    const other = offered.get(cls);
    if (other && ![...senses].some((s) => other.has(s))) return cls;
  }
  return null;
}

/** What a required parameter needs from the request. */
export interface RequiredParameter {
  name: string;
  /** JSON Schema type (undefined: any). */
  type: string | undefined;
  /** Stemmed words of its name, description and enum values. */
  terms: ReadonlySet<string>;
  /** Whether it holds a date, year, month or day (its name or description says so). */
  temporal: boolean;
  /** Whether it takes a URL (`format: uri`): only a URL in the request fills it. @default false */
  url?: boolean;
  /** Whether an earlier step's output feeds it (a `depends_on` names it): the request need not carry it. */
  fed?: boolean;
}

/** The values a request carries: numbers, quoted strings, proper names, temporal expressions. */
export interface RequestValues {
  numbers: number;
  quoted: boolean;
  /** Capitalised or all-caps words that are not the first word of a sentence (names, places, acronyms). */
  names: boolean;
  temporal: boolean;
  /** Tokens with a digit inside (IDs, codes, "2x", "C6H12O6"). */
  codes: boolean;
  /** An http(s) URL. */
  url: boolean;
  /** An e-mail address. */
  email: boolean;
  /** Content words outside what the request asks for (its qualifiers: "in the plasma membrane", "about psychology"). */
  qualifiers: number;
  /**
   * Whether the text is a question ("…?", "how many …", 吗, 多少) that asks only to look something up, about no thing
   * of the asker's own ("my order"): its own content is what a search looks for.
   */
  question?: boolean;
}

const NUMBER_WORDS =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|twice|double|triple)\b/gi;
const TEMPORAL =
  /\b(?:\d{4}|\d{1,2}(?:st|nd|rd|th)|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow|yesterday|tonight|weekend|century|decade|season|ago|next|last|upcoming|past)\b/i;

/**
 * Extracts the value evidence of a request (deterministic regular expressions, no model). `askedFor` are the tokens
 * of what the request asks for; the other content words are its qualifiers, candidate values of string parameters.
 */
export function requestValues(request: string, askedFor: readonly string[] = []): RequestValues {
  const asked = new Set(askedFor);
  const content = new Set(tokens(request));
  // Chinese puts what is asked for last (下周一深圳天气, 伦敦现在几度: the weather, the degrees) and its qualifiers
  // before it, and has no capitals to mark a name: every content word but the head is a qualifier.
  const qualifiers = /\p{Script=Han}/u.test(request)
    ? Math.max(0, content.size - 1)
    : [...content].filter((t) => !asked.has(t)).length;
  const numbers =
    (request.match(/\d+(?:[.,]\d+)*/g) ?? []).length + (request.match(NUMBER_WORDS) ?? []).length;
  let names = false;
  for (const sentence of request.split(/[.?!\n:;]+\s+|\n/)) {
    const raw = sentence.trim().split(/\s+/);
    for (let i = 1; i < raw.length; i++) {
      const w = (raw[i] ?? '').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
      if (w === 'I' || w.length === 0) continue;
      if (/^\p{Lu}/u.test(w)) names = true;
    }
  }
  return {
    numbers,
    quoted: /(["'`“‘])[^"'`”’]{1,200}?(["'`”’])/.test(request.replace(/(\w)['’](\w)/g, '$1$2')),
    names,
    temporal: TEMPORAL.test(request),
    codes: /\b(?=\w*\d)(?=\w*[A-Za-z])\w+\b/.test(request),
    url: /\bhttps?:\/\/\S+/i.test(request),
    email: /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/u.test(request),
    qualifiers,
    question:
      QUESTION.test(request.trim()) &&
      !OWN_THINGS.test(request) &&
      // (one that asks for an act — "could you turn it down to 70?" — is a request, whatever its question mark)
      !asksListenerToAct(request),
  };
}

// The asker's own things ("my parcel", "our invoices", 我的快递): records about them are kept, not published — what a
// search of published content finds does not answer a question about them.
const OWN_THINGS = /\b(?:my|our|mine|ours)\b|我的|我们的|咱们的/iu;
// A question: ending in a question mark, opening with a question word or an auxiliary ("does …", "how many …"), or a
// Chinese question particle or word.
const QUESTION =
  /[?？]$|^(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|has|have|had|should)\b|[吗呢]$|什么|多少|哪|谁|几[个点号天时]|是否|有没有/iu;

/**
 * Required-argument coverage (0..1): the share of required parameters the request can plausibly fill. A numeric
 * parameter takes one of the request's numbers (each number fills one parameter); a temporal one needs a date-like
 * expression or a number; any other needs a word the parameter documents, a quoted value, a proper name or a code.
 * A tool whose inputs the request cannot supply is not what the request is about.
 */
export function argumentCoverage(
  parameters: readonly RequiredParameter[],
  requestTokens: ReadonlySet<string>,
  values: RequestValues,
): number {
  if (parameters.length === 0) return 1;
  let numbersLeft = values.numbers;
  let covered = 0;
  for (const p of parameters) {
    // A URL parameter takes a URL from the request or from the step that feeds it (a search's results), nothing else.
    if (p.url) {
      if (values.url || p.fed) covered++;
      continue;
    }
    const named = [...p.terms].some((t) => requestTokens.has(t));
    const numeric = p.type === 'number' || p.type === 'integer';
    if (numeric) {
      if (numbersLeft > 0) {
        numbersLeft--;
        covered++;
      } else if (named) covered += 0.5; // the quantity is named ("velocity v") but no value is given
      continue;
    }
    if (p.type === 'boolean') {
      covered++;
      continue;
    }
    if (p.temporal) {
      if (values.temporal || values.numbers > 0) covered++;
      continue;
    }
    // A parameter that takes the user's question as free text (a search's `query`) is filled by a question's own
    // content, whatever its casing: "how many more transactions per hour does 17 push than 16?" is its own query.
    // (An instruction — "tell me what it says about performance." — names what to do with something else.)
    if (takesQuestion(p) && values.question === true && requestTokens.size > 0) {
      covered++;
      continue;
    }
    if (named || values.quoted || values.names || values.codes || values.qualifiers > 0) covered++;
    else if (p.type === 'array' && values.numbers > 1) covered++;
  }
  return covered / parameters.length;
}

/**
 * Question forms that ask for advice, an opinion or a judgement ("what is the best way…", "how can I…", "should I…"):
 * tools compute and look things up; they do not recommend. Returns the matched cue, or null.
 */
export function adviceCue(request: string): string | null {
  return adviceCueOf(request);
}

// (remembered: a decision scores its request and each of its parts against the tools, each ranking reading the cue)
const adviceCueOf = remembered((request: string): string | null => {
  const match =
    /\b(?:what(?:'s| is| are) the best|best way|how (?:can|could|should|do) (?:i|we)|should (?:i|we)|most suitable|what (?:type|kind) of \w+ (?:should|is best))\b/i.exec(
      request,
    );
  return match ? match[0] : null;
}, 4096);

/**
 * The kind of change a tool's name says it makes (RG2-naming: a verb first or last in the name — `add_mtnards_server`,
 * `refund_create` — or first in its last segment, as imported names put it: `Hotels_4_ReserveHotel`,
 * `api.rename_site`), whatever its declared `action`: imported tools (BFCL, OpenAI lists) carry no side-effect
 * information and are assumed reads, but their names still say what they do. Null when the name names no change.
 */
export function nameChangeKind(name: string): AskedActKind | null {
  return nameActKind(name, (k) => WRITE_ACT_KINDS.has(k) && k !== 'act') ?? null;
}

/**
 * An act contradiction (TD-5 / TD-6): the request only asks something (every act it asks for is a look-up,
 * `readActs`) and the tool's name says it makes a change ("retrieve a list of the servers" → not `add_server`; "tell
 * me the rules" → not `set_rules`): a question is not answered by a tool named for a change. Changes asked of a tool
 * named for another kind of change are the plan's intent rules' to refuse (TD-5: a change is served by a tool of its
 * kind), with the act named in the reason; here they contradict nothing. `changeKind`: the tool's `nameChangeKind`.
 * Returns 1 for a contradiction, else 0.
 */
export function actConflict(asked: ReadonlySet<AskedActKind>, changeKind: AskedActKind | null): number {
  if (changeKind === null || asked.size === 0) return 0;
  return [...asked].every((k) => k === 'look_up') ? 1 : 0;
}

// A question or command whose object is a definite noun phrase: "what is the X", "what's the X", "calculate the X",
// "find me the X". The definite article says the request names the particular thing it wants; "how many …", "who
// won …", "find restaurants …" name it less surely and are left to the other features.
const NAMED_ASK =
  /^\s*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?|please\s+)?(?:what(?:['’]s|\s+is|\s+are|\s+was|\s+were)|calculate|compute|find|determine|estimate|get|tell\s+me|give\s+me)\s+(?:me\s+)?the\s+/iu;
// "What/which X <auxiliary> …": a wh-determiner question names its thing X before its verb ("which museums are open in
// Berlin", "what random read IOPS does the datasheet list"); X is one to three words, the auxiliary follows it.
const AUXILIARY = String.raw`(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b`;
const WHAT_X = new RegExp(
  String.raw`^\s*(?:(?:can|could|would)\s+you\s+(?:please\s+)?tell\s+me\s+)?(?:what|which)\s+((?:(?!${AUXILIARY})[\p{L}\p{N}'’-]+\s+){1,3}?)${AUXILIARY}`,
  'iu',
);
// A sentence's end followed by more text ("98.2" and "3.5" are no ends: no space follows their dot).
const SENTENCE_END = /[.?!。？！](?=\s+\S)|\n\s*\S/u;
const stemmed = (list: readonly string[]) => new Set(list.map((w) => tokens(w)[0] ?? w));
const RECORD = stemmed(RECORD_NOUNS);
const NOT_THE_THING = new Set([
  ...stemmed(GENERAL_NOUNS),
  ...stemmed(QUANTIFYING_NOUNS),
  ...RECORD,
  ...CHINESE_GENERAL_NOUNS,
]);

/**
 * The words of the one thing a request names as what it asks for (`askedFor`: its target phrase), or none when it
 * names no one thing: it is not one sentence asking "what is the X …" / "calculate the X …" (`NAMED_ASK`), it asks
 * more than one thing (`oneAsk()` false, read last as it costs: the planner scores each ask on its own), or the X
 * opens a list ("the wind speed and temperature": each thing is scored as a piece of its own). In "the X of Y" the
 * thing is X, and Y is what it is asked of ("the mean of an experiment" asks for a mean); when X is a general,
 * quantifying or record noun ("the result of", "the total quantity of", "the name of", vocabulary/general-nouns.ts),
 * the thing is Y. A Chinese question names its thing after its question word (target.ts `chineseAskedPhrase`: 有什么
 * 好玩的地方 → 好玩, 地方 being a general noun); a Chinese request without one names none.
 */
export function namedAsk(request: string, askedFor: string, oneAsk: () => boolean): string[] {
  const text = request.trim();
  if (chineseAskedPhrase(text) !== null) {
    // One ask: one Chinese clause (its sentences are not space-separated, so SENTENCE_END does not see them).
    if (askedFor !== chineseAskedPhrase(text) || chineseClauses(text).length !== 1) return [];
    return [...new Set(tokens(askedFor))].filter((t) => !NOT_THE_THING.has(t));
  }
  const whatX = WHAT_X.exec(text)?.[1];
  if (whatX !== undefined) {
    if (SENTENCE_END.test(text) || !oneAsk()) return [];
    return [...new Set(tokens(whatX))].filter((t) => !NOT_THE_THING.has(t));
  }
  if (!NAMED_ASK.test(text) || SENTENCE_END.test(text) || !oneAsk()) return [];
  const at = text.indexOf(askedFor);
  if (askedFor.trim() === '' || at === -1) return [];
  if (/^\s*(?:,|and\b|or\b|&)/iu.test(text.slice(at + askedFor.length))) return [];
  // The English of-genitive puts the thing first and what it belongs to after "of" ("the mean of an experiment");
  // a general or quantifying noun before "of" stands for what follows it ("the total quantity of paint").
  for (const segment of askedFor.split(/\s+of\s+/iu)) {
    const words = [...new Set(tokens(segment))];
    // "the profile of X", "the details of X": a record of X, whose attributes no one word names.
    if (words.some((t) => RECORD.has(t))) return [];
    const thing = words.filter((t) => !NOT_THE_THING.has(t));
    if (thing.length > 0) return thing;
  }
  return [];
}

/**
 * Whether two stemmed words are forms of one word that the light stemmer (text.ts `stem`) leaves apart: one abbreviates
 * or derives from the other ("prob" / "probability", "prefer" / "preferenc"), or they differ only in the last letter
 * the stemmer rewrites ("movi" / "movy" from movie / movies). Words under four letters only match exactly.
 */
function sameWord(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 4) return false;
  if (long.startsWith(short)) return true;
  return (
    short.length === long.length &&
    short.slice(0, -1) === long.slice(0, -1) &&
    /[eiy]/u.test(short.slice(-1)) &&
    /[eiy]/u.test(long.slice(-1))
  );
}

// Parameter names that take the user's question itself as free text (the search-API conventions: `q`, `query`,
// `keywords`, `search_term`, `question`, `prompt`).
const QUESTION_PARAMETER_WORDS: ReadonlySet<string> = new Set([
  'q',
  'query',
  'keyword',
  'keywords',
  'search',
  'question',
  'prompt',
]);

/** Whether a parameter takes the user's question itself: a string named as in `QUESTION_PARAMETER_WORDS`. */
function takesQuestion(p: RequiredParameter): boolean {
  return p.type === 'string' && words(p.name).some((w) => QUESTION_PARAMETER_WORDS.has(w));
}

/**
 * Whether a tool finds or reads open-ended content: it reads the page at a URL it requires (a page reader), or each
 * input it requires is the user's question as free text (a search: a string named as in `QUESTION_PARAMETER_WORDS`).
 * It returns whatever the content says, so its own documents cannot name the thing asked — as a record tool names
 * none of the attributes it returns.
 */
export function readsOpenContent(required: readonly RequiredParameter[]): boolean {
  return required.some((p) => p.url === true) || (required.length > 0 && required.every(takesQuestion));
}

/**
 * Whether a tool's name says it returns a record of something (`get_game_item_stats`, `board_game_info`,
 * `sculpture.get_details`, `history_fact.fetch`): the last dotted segment that says more than a verb (`verbs`: the
 * name words that say what a tool does, not what it is about) has a record noun (vocabulary/general-nouns.ts). A
 * segment before it only says where the tool belongs (`statistics.calculate_p_value` returns a p-value).
 */
export function namesRecord(name: string, verbs: ReadonlySet<string>): boolean {
  for (const segment of name.split(/[./]/).reverse()) {
    // Every word, stop words and single letters too: the "p" of `calculate_p_value` says what the tool gives.
    const terms = words(segment).map((w) => tokens(w)[0] ?? w);
    if (terms.some((t) => RECORD.has(t))) return true;
    if (terms.some((t) => !verbs.has(t))) return false;
  }
  return false;
}

/**
 * Whether what a tool's purpose says it gives (`product`: the purpose up to its first qualifier, `targetPhrase` —
 * "Retrieves the current weather information") is a record (a record noun, vocabulary/general-nouns.ts): the same
 * evidence as a name that says so, in its description's words.
 */
export function givesRecord(product: string): boolean {
  return tokens(product).some((t) => RECORD.has(t));
}

/**
 * Whether a tool names nowhere the thing a request asks for (TD-6): none of the words of `named` (`namedAsk`) is in
 * what it says it does and gives (`vocabulary`: name, purpose, returns, tags, examples — not what its parameters
 * take). A tool that computes or looks up one thing does not answer a question about another, however near the domain
 * ("the area of a triangle" is no body mass index; "the time in New York" no weather forecast). A tool that returns a
 * record of something (`record`: `namesRecord`) names any attribute of it. Returns 1 when it names none of them, else
 * 0 (0 also when nothing is named).
 */
export function askedUnnamed(
  named: readonly string[],
  vocabulary: ReadonlySet<string>,
  record: boolean,
): number {
  if (named.length === 0 || record) return 0;
  const names = (t: string) => {
    if (vocabulary.has(t)) return true;
    for (const v of vocabulary) if (sameWord(t, v)) return true;
    return false;
  };
  return named.some(names) ? 0 : 1;
}
