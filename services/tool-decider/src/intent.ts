// TD-5 intent vs side effect: is the request a question / lookup, or does it ask for something to be done?

/** What the request wants: information (`question`) or a change in the world (`action`). */
export type RequestIntent = 'question' | 'action';

const ACTION_CUES: readonly RegExp[] = [
  /\b(?:i|we)\s+(?:want|would like|need|wish)\s+(?:a|an|my|our|the|to\s+(?:get|have|return|cancel|create|open|book|send|delete|remove|file|request|claim))\b/i,
  /\b(?:i|we)\s+(?:want|need)\s+(?:my|our)\s+money\s+back\b/i,
  /\bmoney back\b/i,
  /^\s*(?:please\s+)?(?:create|issue|book|send|cancel|delete|remove|refund|open|file|submit|schedule|add|update|change|pay|order|post|publish|generate|make|register|reserve|transfer|start|repair|fix)\b/i,
  /\b(?:please|can you|could you|would you)\s+(?:create|issue|book|send|cancel|delete|remove|refund|open|file|submit|schedule|add|update|change|pay|post|publish|generate|make|register|reserve|transfer|start|repair|fix)\b/i,
  // "Turn the minutes into a report": a transformation asked for, not a question about the minutes.
  /^\s*(?:please\s+)?(?:turn|convert|transform)\b[^.?!]{1,200}?\binto\b/i,
  // An imperative joined on after "and" / "then" ("… and send it to the group"): the request also asks for an act.
  /\b(?:and|then|and then)\s+(?:please\s+)?(?:create|issue|book|send|e-?mail|cancel|delete|remove|refund|open|file|submit|schedule|post|publish|forward|notify|share|register|reserve|transfer)\s+(?:it|them|this|that|the|a|an|my|our|to|me|us)\b/i,
  /(?:我要|我想要|帮我|请帮|申请|给我退|退款吧|发送|创建|删除|取消)/,
];

/** Deterministic intent: an action cue makes it an action; anything else is a question or lookup. */
export function detectIntent(request: string): { intent: RequestIntent; cue: string | null } {
  for (const cue of ACTION_CUES) {
    const match = cue.exec(request);
    if (match) return { intent: 'action', cue: match[0].trim() };
  }
  return { intent: 'question', cue: null };
}

/** Something the request asks to be done beyond its lead: a thing to produce, or an act joined on after "and". */
export type RequestedAct =
  | { kind: 'produce'; phrase: string }
  | { kind: 'act'; verb: string; phrase: string }
  | { kind: 'compute'; phrase: string };

const PRODUCE =
  /\b(?:turn|convert|transform)\b[^.?!]{1,200}?\binto\s+([\p{L}\p{N}'-]+(?:\s+[\p{L}\p{N}'-]+){0,5}?)(?=\s+(?:and|then|for|to|with)\b|\s*[.?!,;]|\s*$)/giu;
const JOINED_ACT =
  /\b(?:and|then|and then)\s+(?:please\s+)?(create|issue|book|send|e-?mail|cancel|delete|remove|refund|open|file|submit|schedule|post|publish|forward|notify|share|register|reserve|transfer)\s+((?:it|them|this|that|the|a|an|my|our|to|me|us)\b[^.?!,;]{0,120})/giu;

// A calculation asked for over figures: "how much faster … in percent", "how many times …", "the difference
// between …", "calculate / compute …". Arithmetic belongs in the sandbox, never in the model (SP-3).
const CALCULATION =
  /\b(?:how\s+(?:much|many\s+times)\s+(?:faster|slower|more|less|higher|lower|bigger|smaller|larger|quicker|cheaper)|how\s+many\s+times|(?:in|as\s+a)\s+percent(?:age)?|percentage\s+(?:change|difference|increase|decrease|gain)|(?:the\s+)?difference\s+between|(?:the\s+)?ratio\s+(?:of|between)|calculate|compute|work\s+out)\b[^.?!]{0,160}/iu;

/**
 * The acts a multi-part request names besides its lead: "turn … into the weekly report" (produce "the weekly
 * report"), "… and send it to the group" (act "send") and a calculation over figures ("how much faster …, in
 * percent": compute). The deterministic planner adds a tool for each, so a chained request is served whole rather
 * than by its first clause only.
 */
export function requestedActs(request: string): RequestedAct[] {
  const acts: RequestedAct[] = [];
  const calculation = CALCULATION.exec(request);
  if (calculation) acts.push({ kind: 'compute', phrase: calculation[0].trim() });
  for (const m of request.matchAll(PRODUCE)) acts.push({ kind: 'produce', phrase: (m[1] ?? '').trim() });
  for (const m of request.matchAll(JOINED_ACT))
    acts.push({
      kind: 'act',
      verb: (m[1] ?? '').toLowerCase().replace(/^e-mail$/, 'email'),
      phrase: (m[2] ?? '').trim(),
    });
  return acts;
}

// A search verb and what it is for, up to the next clause ("… and also look up …") or the end of the sentence.
const SEARCH_ACT =
  /\b(?:search(?:\s+(?:for|on))?|look\s+up|look\s+for|google)\s+([^.?!,;]{1,200}?)(?=\s+(?:and|then)\b|\s*[.?!,;]|\s*$)/giu;

/**
 * What a request asks to be searched for, one phrase per search verb: "Search for X and also look up Y" → [X, Y].
 * The deterministic planner drafts one search per phrase, so that two wordings of the same search meet the
 * duplicate rule (TD-5) instead of silently becoming one.
 */
export function searchedFor(request: string): string[] {
  return [...request.matchAll(SEARCH_ACT)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

// Verbs that open a new ask after "and" / "then" ("…, and find …", "Then get …"); a bare "and" inside a phrase
// ("length and breadth", "accelerates and then slows") does not split.
const ASK_VERBS =
  'find|calculate|compute|get|book|buy|determine|estimate|tell|show|give|list|search|look|convert|predict|check|send|' +
  'create|make|order|reserve|invest|withdraw|locate|display|retrieve|fetch|identify|generate|translate|schedule|plan|' +
  'analy[sz]e|compare|count|recommend|play|what|how|which|who|where|when';
// Where one ask ends and another begins: a sentence end, "also" / "as well as", "then <verb>", ", and the …", or
// "and <verb>".
const ASK_BOUNDARY = new RegExp(
  String.raw`(?<=[.?!])\s+|\s*[,;]?\s*\b(?:and\s+)?(?:also|as\s+well\s+as)\b,?\s*|\s*[,;]?\s*\b(?:and\s+)?then\s+(?=(?:${ASK_VERBS})\b)|\s*,\s*and\s+(?=(?:the|a|an)\b)|\s*[,;]?\s+and\s+(?=(?:${ASK_VERBS})\b)`,
  'giu',
);

/**
 * The separate asks of a request, in order ("Find X. Also, calculate Y" → ["Find X.", "calculate Y"]); one part
 * when it asks one thing. Parts under three words are folded into the one before (a trailing "please").
 */
export function requestParts(request: string): string[] {
  const parts: string[] = [];
  for (const raw of request.split(ASK_BOUNDARY)) {
    const part = raw.trim();
    if (part === '') continue;
    const previous = parts.at(-1);
    if (part.split(/\s+/).length < 3 && previous !== undefined)
      parts[parts.length - 1] = `${previous} ${part}`;
    else parts.push(part);
  }
  return parts;
}
