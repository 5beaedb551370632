// What a request asks for: the phrase after its question or command words, up to the first qualifier ("What is the
// freezing point of water at 10 kPa?" → "freezing point of water"). Read by the fit (retrieval.ts, fit-features.ts)
// and by the parts of a request (intent.ts).
import { tokens } from './text.js';

const LEAD =
  /^(?:\s*(?:what['’]s|whats|what|which|who['’]s|whom|whose|who|how|when|where|why|is|are|was|were|do|does|did|can|could|would|will|should|please|kindly|i|we|need|want|would like|to|you|me|us|tell|give|show|find|get|calculate|compute|determine|estimate|identify|retrieve|fetch|solve|list|provide|search|look|lookup|check|predict|generate|create|convert|make|out|up|for|the|a|an|is|are|many|much|long|far|kind|type|of|it|there|my|our|your|this|that|these|those|current|currently|some|all)\b[\s,?]*)+/i;
const STOP_AT =
  /\b(?:given|with|for|if|when|where|using|that|which|who|in|at|from|by|on|to|after|before|between|based|assuming|and|whose|during|within|into|per|than)\b/i;

/** The phrase of what a request asks for: after the question or command words, up to the first qualifier. */
export function targetPhrase(request: string): string {
  const first = (request.split(/[.?!\n]/).find((s) => s.trim().length > 0) ?? request).trim();
  const rest = first.replace(LEAD, '');
  const stop = rest.search(STOP_AT);
  return stop > 0 ? rest.slice(0, stop) : rest;
}

/** The words of what a request asks for (the content tokens of {@link targetPhrase}, at most six). */
export function targetTerms(request: string): string[] {
  return [...new Set(tokens(targetPhrase(request)))].slice(0, 6);
}
