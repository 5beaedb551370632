// Verbs of saying: what a text, page or person states ("Does the datasheet say anything about …?", "What does the
// changelog mention about …?", 文档里有没有提到 …). Source: Levin, "English Verb Classes and Alternations" (1993),
// §37.7 "Say verbs" (say, mention, state, report, claim, note) with the verbs of stating content that describe what a
// document holds (list, cover, describe, specify, document); for Chinese, the common verbs of saying and writing
// (说, 讲, 提到, 提及, 写, 列, 记载, 描述) as in Li & Thompson, "Mandarin Chinese" (1981).

/** English base forms and third-person forms, lower-case. */
export const EN_SAYING_VERBS: readonly string[] = [
  'say',
  'says',
  'mention',
  'mentions',
  'state',
  'states',
  'report',
  'reports',
  'claim',
  'claims',
  'note',
  'notes',
  'list',
  'lists',
  'cover',
  'covers',
  'describe',
  'describes',
  'specify',
  'specifies',
  'document',
  'documents',
];

/** Chinese verbs of saying and writing. */
export const ZH_SAYING_VERBS: readonly string[] = ['说', '讲', '提到', '提及', '写', '列', '记载', '描述'];
