// PI-2 / TD-10 "no unasked write": what a write says is what the user asked it to say. A message, an e-mail's subject
// or body, a chat text carries words the user gives for it — written against its label (handled in
// `string-assignment.ts`), quoted, after the instruction and a colon ("ping the group: the build is green"), or as
// what a verb of saying introduces ("tell them that …", 跟陈杰说一声，…). Without such words the request only asks
// for the send: the value is missing and the injector asks for it, instead of mailing the instruction itself ("Send
// an email to Chen Jie." as a body). A parameter that describes the user's matter — a ticket's summary of the
// problem, a repair's "what is wrong, in the customer's words" — is different: the user's description of the
// complaint is that value, so the request is used unless it only asks for the write (`instruction-only.ts`).
import {
  ADDRESSED_SPEECH_VERBS_EN,
  ADDRESSEES_ZH,
  MESSAGE_NOUNS_EN,
  NEXT_STEP_ZH,
  SPEECH_SOFTENERS_ZH,
  SPEECH_VERBS_EN,
  SPEECH_VERBS_ZH,
} from './speech-words.js';
import { chinesePersonNames } from './chinese-names.js';
import { quotedSpans } from './spans.js';

// The documentation of a parameter that describes the user's matter rather than carrying a message: a problem, a
// complaint, a fault, a reason — or the user's "own words" about it.
const MATTER =
  /\b(?:problem|issue|complaint|fault|defect|symptom|wrong|reason)s?\b|\bown words\b|\bin the \w+['’]s? words\b/i;

// The name or documentation of a parameter that is a message's words: its text, body, subject line or content.
const MESSAGE_PART = /\b(?:message|msg|text|body|subject|content|caption)s?\b/i;

/**
 * Whether an own-words parameter of a write carries a message to deliver — its name or documentation calls it the
 * message, its text, body, subject or content (`text`: "The message.", `subject`: "The subject line") — and does not
 * describe the user's matter ({@link describesMatter}). Other own-words fields of a write (an undocumented `title`)
 * are read as the matter.
 */
export function carriesMessage(name: string, description: string): boolean {
  return (
    !describesMatter(name, description) && MESSAGE_PART.test(`${name.replace(/[_-]+/g, ' ')} ${description}`)
  );
}

/**
 * Whether an own-words parameter of a write describes the user's matter (`title`: "One-line summary of the problem",
 * `issue`: "What is wrong with the product, in the customer's words") — the request describing the complaint is its
 * value — rather than carrying a message to deliver (`text`: "The message.", `subject`: "The subject line").
 */
export function describesMatter(name: string, description: string): boolean {
  return MATTER.test(`${name.replace(/[_-]+/g, ' ')} ${description}`);
}

/** Words the request gives a message to say, with how they were found. */
export interface DeliveredWords {
  value: string;
  note: string;
}

/** Options of {@link deliveredWords}. */
export interface DeliveredWordsOptions {
  /**
   * The labels of the tool's parameters (their name words and the Chinese terms of their descriptions): a colon
   * after one of them ("主题：值班表") labels that parameter's value, it does not open the message.
   */
  labels: readonly string[];
  /** The one addressed, when the request names one ("Chen Jie", 张敏): not part of what is said. */
  recipient?: string | undefined;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * What the request gives a message to say (rules at the top of this file), in this order: the words after the
 * instruction and its one colon; in Chinese, what follows a verb of saying and the one addressed, up to a connective
 * that opens another step; in English, the that-clause of a verb of saying or of a message noun, or what follows
 * "saying" / "to say", to the sentence's end. Undefined when the request gives no such words.
 */
export function deliveredWords(request: string, options: DeliveredWordsOptions): DeliveredWords | undefined {
  const text = request.trim();
  const afterColon = wordsAfterInstructionColon(text, options.labels);
  if (afterColon !== undefined)
    return { value: afterColon, note: 'the words after the instruction and its colon' };
  const quoted = oneQuotedPassage(text, options.labels);
  if (quoted !== undefined) return { value: quoted, note: 'the one passage the request quotes' };
  const zh = saidInChinese(text, options.recipient);
  if (zh !== undefined) return { value: zh, note: 'the words a verb of saying introduces (说 / 通知 …)' };
  const en = saidInEnglish(text, options.recipient);
  if (en !== undefined) return { value: en, note: 'the words a verb of saying introduces ("that …")' };
  return undefined;
}

/**
 * The request's one quoted passage that no parameter's label introduces (`post "deploy finished" in the chat`): words
 * a user quotes in an ask to send are the words to send, verbatim. A quote after a label (主题“…”) is that value's.
 */
function oneQuotedPassage(text: string, labels: readonly string[]): string | undefined {
  const labelled = labels.filter((l) => l.length >= 2).map(escape);
  const labelBefore =
    labelled.length > 0 ? new RegExp(`(?:${labelled.join('|')})\\s*(?:[:：是为写]\\s*)?$`, 'iu') : undefined;
  const quotes = quotedSpans(text);
  const free = quotes.filter((q) => !labelBefore?.test(text.slice(0, q.start)));
  const [only] = free;
  if (quotes.length !== 1 || !only) return undefined;
  const words = only.value.split(/\s+/).filter(Boolean).length;
  return words >= 2 || (only.value.match(/\p{Script=Han}/gu) ?? []).length >= 2 ? only.value : undefined;
}

// A colon that opens words: a full-width one anywhere, or an ASCII one followed by a space (not a time "10:30", not a
// URL's "https:").
const COLON = /：|:(?=\s)/gu;

/** The words after the request's one instruction colon — not a colon that labels a parameter's value. */
function wordsAfterInstructionColon(text: string, labels: readonly string[]): string | undefined {
  const labelled = labels.filter((l) => l.length >= 2).map(escape);
  const labelBefore = labelled.length > 0 ? new RegExp(`(?:${labelled.join('|')})\\s*$`, 'iu') : undefined;
  const colons = [...text.matchAll(COLON)].filter((m) => !labelBefore?.test(text.slice(0, m.index)));
  if (colons.length !== 1 || [...text.matchAll(COLON)].length !== 1) return undefined;
  const at = colons[0]?.index ?? -1;
  const before = text.slice(0, at).trim();
  const after = text
    .slice(at + 1)
    .trim()
    .replace(/^["“'‘「『](.*)["”'’」』]$/u, '$1')
    .trim();
  // An instruction of some length before it and words after it (two Latin words, or two characters of Chinese).
  const enough = (s: string) =>
    s.split(/\s+/).filter(Boolean).length >= 2 || (s.match(/\p{Script=Han}/gu) ?? []).length >= 2;
  return enough(before) && enough(after) && /[\p{L}\p{N}]$/u.test(before) ? after : undefined;
}

const SPEECH_ZH = new RegExp(
  `(?:${[...SPEECH_VERBS_ZH].sort((a, b) => b.length - a.length).join('|')})(?!明|法|服|话)`,
  'gu',
);
const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' });
const SOFTENER_ZH = new RegExp(`^(?:${SPEECH_SOFTENERS_ZH.join('|')})`, 'u');
const ADDRESSEE_ZH = new RegExp(
  `^(?:${[...ADDRESSEES_ZH].sort((a, b) => b.length - a.length).join('|')})`,
  'u',
);
const NEXT_STEP = new RegExp(`[，,；;。.!！?？\\s]*(?:${NEXT_STEP_ZH.join('|')})`, 'u');

/** In Chinese: what follows the last verb of saying (and the one it addresses), to a connective opening another step. */
function saidInChinese(text: string, recipient: string | undefined): string | undefined {
  for (const m of [...text.matchAll(SPEECH_ZH)].reverse()) {
    let rest = text.slice(m.index + m[0].length);
    rest = rest.replace(SOFTENER_ZH, '');
    // 说下今天…: 下 standing as a word of its own softens the verb; in 下午 / 下周 it starts what is said.
    if ([...SEGMENTER.segment(rest)][0]?.segment === '下') rest = rest.slice(1);
    if (recipient && rest.startsWith(recipient)) rest = rest.slice(recipient.length);
    else {
      // 提醒张敏明天交周报: the one a verb of informing addresses is a personal name, not what is said.
      const person = chinesePersonNames(rest, true)[0];
      if (person && rest.length > person.name.length + 1) rest = rest.slice(person.name.length);
    }
    rest = rest.replace(ADDRESSEE_ZH, '').replace(SOFTENER_ZH, '');
    rest = rest.replace(/^[\s，,：:、]+/u, '');
    const next = NEXT_STEP.exec(rest);
    const said = (next ? rest.slice(0, next.index) : rest).replace(/[\s，,；;。.]+$/u, '').trim();
    if ((said.match(/[\p{Script=Han}\p{L}\p{N}]/gu) ?? []).length >= 2 && /\p{Script=Han}/u.test(said))
      return said;
  }
  return undefined;
}

const VERB_OR_NOUN_EN = new RegExp(
  `\\b(?:${[...SPEECH_VERBS_EN, ...ADDRESSED_SPEECH_VERBS_EN, ...MESSAGE_NOUNS_EN].map(escape).join('|')})\\b`,
  'giu',
);

/**
 * In English: what "saying" / "to say" introduces, or the that-clause written within a few words after a verb of
 * saying or a message noun ("a quick reminder that …", "let the team know that …", "drop a note in the chat that …"),
 * to the sentence's end; or what follows "tell/remind <the one addressed>".
 */
function saidInEnglish(text: string, recipient: string | undefined): string | undefined {
  const sentenceEnd = (s: string) => {
    const end = /[.!?](?=\s+\p{Lu}|\s*$)/u.exec(s);
    const cut = end ? s.slice(0, end.index + (end[0] === '.' ? 0 : 1)) : s;
    return cut.trim();
  };
  const saying = /\b(?:saying|to say|that says|which says)\s+(?:that\s+)?(.+)/isu.exec(text);
  if (saying?.[1]) {
    const said = sentenceEnd(unquote(saying[1]));
    if (said.split(/\s+/).length >= 2) return said;
  }
  // "email Zhang Min and say the build is green": "say" joined to the ask takes its content clause with "that" left
  // out, as English allows after verbs of saying.
  const bareSay = /(?:^|\b(?:and|then)\s+|[,;]\s*)(?:just\s+)?say\s+(?:that\s+)?(.+)/isu.exec(text);
  if (bareSay?.[1]) {
    const said = sentenceEnd(unquote(bareSay[1]));
    if (said.split(/\s+/).length >= 2) return said;
  }
  // "let the Beacon group know the demo moved", "tell Li Wei I'll be late", "remind Zhang Min to send the rota": what
  // follows the one addressed (a pronoun, a group or team, one or two capitalised names — not the pronoun "I").
  const addressed = String.raw`(?:${recipient ? `${escape(recipient)}|` : ''}him|her|them|everyone|everybody|all|(?:[\p{L}-]+\s+){0,2}(?:group|team|channel|chat)|(?!I\b|I['’])\p{Lu}[\p{L}'’-]*(?:\s+(?!I\b|I['’])\p{Lu}[\p{L}'’-]*)?)`;
  for (const m of text.matchAll(VERB_OR_NOUN_EN)) {
    const rest = text.slice(m.index + m[0].length);
    const clause = /^((?:\s+[^\s.!?]+){0,6}?)\s+that\s+(.+)/su.exec(rest);
    if (!clause?.[2]) continue;
    // What may stand between the word and its that-clause: nothing after a verb of saying ("say that …"); the one
    // addressed after a verb that addresses someone ("remind Li Wei and Chen Jie that …" — right after the verb,
    // "that" is a determiner: "email that report"); where the message goes after a message noun ("a note in the
    // Atlas chat that …"). Anything else makes "that" a relative pronoun ("the report that I wrote").
    const between = (clause[1] ?? '').trim();
    const word = m[0].toLowerCase();
    const fits = ADDRESSED_SPEECH_VERBS_EN.includes(word)
      ? new RegExp(
          String.raw`^(?:the\s+)?${addressed}(?:\s+and\s+(?:the\s+)?${addressed})*(?:\s+(?:on|by|via)\s+\S+)?$`,
          'u',
        ).test(between)
      : MESSAGE_NOUNS_EN.includes(word)
        ? between === '' || /^(?:in|on|to|for|at)\s/iu.test(between)
        : between === '';
    if (!fits) continue;
    const said = sentenceEnd(clause[2]);
    if (said.split(/\s+/).length >= 2) return said;
  }
  const told =
    new RegExp(
      String.raw`\b(?:[Tt]ell|[Rr]emind|[Ii]nform|[Ww]arn)\s+(?:the\s+)?${addressed}\s+(?:that\s+)?(.+)`,
      'su',
    ).exec(text) ??
    new RegExp(String.raw`\b[Ll]et\s+(?:the\s+)?${addressed}\s+know\s+(?:that\s+)?(.+)`, 'su').exec(text);
  if (told?.[1]) {
    const said = sentenceEnd(told[1]).replace(/^(?:to|about)\s+/iu, '');
    if (said.split(/\s+/).length >= 2) return said;
  }
  return undefined;
}

function unquote(s: string): string {
  return s.trim().replace(/^["“'‘](.*?)["”'’]/u, '$1');
}
