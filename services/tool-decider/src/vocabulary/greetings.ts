// Vocabulary data of the asked-act reader (acts.ts), kept apart from the code that reads it.
//
// Source: general Chinese — the phatic openers and closers of a chat message (寒暄语): the greetings, the check that
// someone is there (在吗), the forms of address of online shops (亲) and thanks, as any textbook of spoken Chinese or
// a shop's chat log shows them. A clause that is only one of these asks for nothing, though 吗 ends 在吗 as a question.

/** Chinese clauses that only greet, check that someone is there, address or thank: no ask of their own. */
export const ZH_PHATIC_CLAUSES: ReadonlySet<string> = new Set([
  '在吗',
  '在么',
  '在不在',
  '有人吗',
  '有人在吗',
  '你好',
  '您好',
  '你们好',
  '哈喽',
  '嗨',
  '亲',
  '亲亲',
  '客服你好',
  '客服您好',
  '早上好',
  '上午好',
  '中午好',
  '下午好',
  '晚上好',
  '谢谢',
  '谢谢你',
  '谢谢您',
  '多谢',
  '麻烦了',
  '辛苦了',
]);
