// PI-2 / TD-5: a write's free-text content (a ticket's title, an e-mail's body, a message's text) is the user's own
// words about the matter — never the instruction that asks for the write. "I need to open a ticket." or
// "Send an email to Chen Jie." say what to do and nothing to put in it: the content is missing, and the injector asks
// for it instead of filing the request sentence as a ticket title or mailing it as a body.
import type { ToolDefinition } from '@signalbox/registry';
import { RECORD_NOUNS_ZH } from './parameter-vocabulary.js';

const RECORD_NOUNS = Object.keys(RECORD_NOUNS_ZH).sort((a, b) => b.length - a.length);

// English words that only frame an instruction: pronouns, determiners, auxiliaries, politeness, wanting.
const FRAME = new Set(
  (
    'i me my we us our you your it this that the a an some any to for of with please pls kindly can could would will ' +
    'need want like wanna just now today me hi hello hey thanks thank ok okay new one another quick again also ' +
    "i'd i'm i'll we'd we'll id im"
  ).split(' '),
);
// English verbs that ask for a write (the instruction's own verb).
const WRITE_VERBS = new Set(
  (
    'open create file raise log submit make add send email e-mail mail message text post forward notify tell write ' +
    'start issue book schedule register put lodge set up'
  ).split(' '),
);
// Chinese request markers, write verbs with their measure words, and the particles around them.
const ZH_FRAME =
  /帮我|帮忙|麻烦你?|请你?|我要|我想要?|想要|需要|给我|替我|一下|能不能|可以|可不可以|吗|吧|呢|啊|哈|了|(?:开|提交?|创建|新建|建|发送?|写|登记)(?:一)?(?:个|张|封|条|份)?/gu;

/**
 * Whether the request says nothing beyond the instruction for a write of this tool: every English word frames the
 * ask, is a write verb, names the tool's own object (its name words: "ticket", "email") or the recipient, and the
 * Chinese left after the request markers and write verbs is at most the tool's object (工单, 邮件) — two to three
 * characters. `otherValues` are the words that name other parameters' values (enum values and synonyms).
 */
export function instructionOnly(
  request: string,
  tool: ToolDefinition,
  recipient: string | undefined,
  otherValues: readonly string[] = [],
): boolean {
  if (tool.action === 'read') return false;
  let text = request.toLowerCase();
  if (recipient) text = text.replace(recipient.toLowerCase(), ' ');
  // A word that names another parameter's value ("urgent" → priority, 投诉 → category) is that parameter's value, not
  // something to write: "提个投诉工单，加急" asks for an urgent complaint ticket and says nothing about the matter.
  for (const value of [...otherValues].sort((a, b) => b.length - a.length)) {
    const v = value.toLowerCase().replace(/_/g, ' ');
    if (v.length < 2) continue;
    const escaped = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    text = text.replace(
      /\p{Script=Han}/u.test(v) ? new RegExp(escaped, 'gu') : new RegExp(`\\b${escaped}\\b`, 'gu'),
      ' ',
    );
  }
  // An id with the record it names ("for order 20261101001", "订单1234") says which record, not what to write: the
  // tool takes it as a parameter of its own.
  text = text
    .replace(new RegExp(`(?:${RECORD_NOUNS.join('|')})[:：\\s]*[a-z-]*\\d[\\w.-]*`, 'gu'), ' ')
    .replace(/(?:\b[a-z]+\s+(?:(?:no\.?|number|#)\s*)?)?#?[a-z-]*\d[\w.-]*/gu, ' ')
    .replace(/\b(?:the|this|that|my|our)\s+order\b/gu, ' ');
  const nameWords = new Set(
    tool.name
      .toLowerCase()
      .split(/[^a-z0-9]+/u)
      .filter(Boolean),
  );
  const latin = (text.match(/[a-z][a-z'-]*/gu) ?? []).filter(
    (w) => !FRAME.has(w) && !WRITE_VERBS.has(w) && !nameWords.has(w) && !nameWords.has(w.replace(/s$/u, '')),
  );
  if (latin.length > 0 || /\d/u.test(text)) return false;
  const han = text.replace(ZH_FRAME, '').match(/\p{Script=Han}/gu) ?? [];
  return han.length <= 3;
}
