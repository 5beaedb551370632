// What a request asks for: the phrase after its question or command words, up to the first qualifier ("What is the
// freezing point of water at 10 kPa?" → "freezing point of water"). Read by the fit (retrieval.ts, fit-features.ts)
// and by the parts of a request (intent.ts).
import { tokens } from './text.js';

const LEAD =
  /^(?:\s*(?:what['’]s|whats|what|which|who['’]s|whom|whose|who|how|when|where|why|is|are|was|were|do|does|did|can|could|would|will|should|please|kindly|i|we|need|want|would like|to|you|me|us|tell|give|show|find|get|calculate|compute|determine|estimate|identify|retrieve|fetch|solve|list|provide|search|look|lookup|check|predict|generate|create|convert|make|out|up|for|the|a|an|is|are|many|much|long|far|kind|type|of|it|there|my|our|your|this|that|these|those|current|currently|some|all)\b[\s,?]*)+/i;
const STOP_AT =
  /\b(?:given|with|for|if|when|where|using|that|which|who|in|at|from|by|on|to|after|before|between|based|assuming|and|whose|during|within|into|per|than)\b/i;

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;
// A Chinese question names the thing it asks for right after its question word (什么 "what", 哪些/哪个/哪家/哪种/哪款/
// 哪位 "which") when that word stands where the thing is the question's head: after 有 ("there is": 北京周末有什么好玩
// 的地方 → 好玩的地方, 有哪些型号) or opening a clause (哪家店还开着 → 店还开着). After a subject and its verb the phrase asks
// an attribute of what came before (扫描是在哪个站点 "at which station was the scan"), and a question word followed by a
// general noun (什么时候 "when", 什么地方 "where", 什么东西) or by a copula or an auxiliary (哪些是明天到期的 "which ones
// are due tomorrow", 哪个会先到) names no thing: the sentence stays the target. The phrase runs to the next
// punctuation; a closing particle (吗, 呢, 啊, 吧, 呀) is dropped.
const CHINESE_ASKED =
  /(?:^|[\s，。？！、；：,.?!;:]|有|有没有)(?:什么|哪些|哪个|哪家|哪种|哪款|哪位)(?!时候|时间|地方|东西|事情|意思|样子|情况|是|有|在|会|能|要|可以|已经|还)([^\s，。？！、；：,.?!;:]+?)[吗呢啊吧呀]?(?=[\s，。？！、；：,.?!;:]|$)/u;

/** The thing a Chinese question asks for, after its question word (`CHINESE_ASKED`), or null. */
export function chineseAskedPhrase(sentence: string): string | null {
  if (!CJK.test(sentence)) return null;
  const phrase = CHINESE_ASKED.exec(sentence)?.[1];
  return phrase && CJK.test(phrase) ? phrase : null;
}

/**
 * The phrase of what a request asks for: after the question or command words, up to the first qualifier; in a
 * Chinese question, after its question word ({@link chineseAskedPhrase}).
 */
export function targetPhrase(request: string): string {
  const first = (request.split(/[.?!\n]/).find((s) => s.trim().length > 0) ?? request).trim();
  const chinese = chineseAskedPhrase(first.split(/[。？！]/u).find((s) => s.trim().length > 0) ?? first);
  if (chinese !== null) return chinese;
  const rest = first.replace(LEAD, '');
  const stop = rest.search(STOP_AT);
  return stop > 0 ? rest.slice(0, stop) : rest;
}

/** The words of what a request asks for (the content tokens of {@link targetPhrase}, at most six). */
export function targetTerms(request: string): string[] {
  return [...new Set(tokens(targetPhrase(request)))].slice(0, 6);
}
