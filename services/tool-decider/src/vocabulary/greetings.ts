// Vocabulary data of the asked-act reader (acts.ts), kept apart from the code that reads it.
//
// Source: general Chinese — the phatic openers and closers of a chat message (寒暄语): the greetings, the check that
// someone is there (在吗), the forms of address of online shops (亲), thanks, and the acknowledgements and closers that
// end a chat (好的, 收到, 没别的了, 就这些), as any textbook of spoken Chinese or a shop's chat log shows them. A clause that
// is only one of these asks for nothing, though 吗 ends 在吗 as a question.

/** Chinese clauses that only greet, check that someone is there, address, thank or close: no ask of their own. */
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
  '好的',
  '好的谢谢',
  '好嘞',
  '嗯',
  '嗯嗯',
  '收到',
  '明白了',
  '知道了',
  '没事了',
  '没有了',
  '没别的了',
  '没啥别的了',
  '没什么别的了',
  '就这些',
  '就这样',
  '先这样',
]);
