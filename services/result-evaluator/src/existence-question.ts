// Whether a request asks if something exists at all ("did we have a meeting on Tuesday?", "上周二有没有开过会？"). To
// such a question a look-up that found nothing is the answer — "no" — and not a value to correct (issue 20 item 7).

// English: "is there / are there / was there / were there …", "did we have / have you got / does she have any …",
// "any meetings yesterday?" — each at the start of a clause, as a question is asked. "Is there a way to …" and "is
// there anything you can do" ask for help, not whether a thing exists.
const EN_EXISTENCE = new RegExp(
  String.raw`(?:^|[.?!;,:]\s*|\b(?:and|but|so|also|then)\s+)(?:` +
    String.raw`(?:is|are|was|were|has|have|had)\s+there\s+(?:been\s+)?(?!(?:a|any|some)\s+(?:way|chance|option)\b|anything\s+you\b)` +
    String.raw`|(?:do|does|did|have|has|had)\s+(?:we|you|they|i|he|she|it|the\s+\w+)\s+(?:have|had|hold|held|got|get|receive|received)\s+(?:any|a|an)\b` +
    String.raw`|any\s+\w+(?:\s+\w+)?\s+(?:yesterday|today|tomorrow|last|this|on|in|from|for|at)\b)`,
  'iu',
);

// Chinese: 有没有 / 有无 / 是否有 / 有沒有 X, and 有 X 吗 within one clause ("前天有开会吗？"). 有没有办法 / 有没有可能 ("is
// there a way", "could you") ask for help.
// (所有 "all", 没有 "not have", 拥有, 具有, 只有 are other words than 有 "there is".)
const ZH_EXISTENCE =
  /(?:有没有|有沒有|有无|有無|是否有)(?!办法|辦法|可能|空)|(?<![所没沒拥擁具只还還])有[^，,。.！!？?；;]{1,20}[吗嗎]/u;

/** True when the request asks whether something exists (a yes/no question of existence), in English or Chinese. */
export function asksWhetherAnyExists(request: string): boolean {
  return EN_EXISTENCE.test(request) || ZH_EXISTENCE.test(request);
}
