// TD-5 intent vs side effect: is the request a question / lookup, or does it ask for something to be done?

/** What the request wants: information (`question`) or a change in the world (`action`). */
export type RequestIntent = 'question' | 'action';

const ACTION_CUES: readonly RegExp[] = [
  /\b(?:i|we)\s+(?:want|would like|need|wish)\s+(?:a|an|my|our|the|to\s+(?:get|have|return|cancel|create|open|book|send|delete|remove|file|request|claim))\b/i,
  /\b(?:i|we)\s+(?:want|need)\s+(?:my|our)\s+money\s+back\b/i,
  /\bmoney back\b/i,
  /^\s*(?:please\s+)?(?:create|issue|book|send|cancel|delete|remove|refund|open|file|submit|schedule|add|update|change|pay|order|post|publish|generate|make|register|reserve|transfer|start|repair|fix)\b/i,
  /\b(?:please|can you|could you|would you)\s+(?:create|issue|book|send|cancel|delete|remove|refund|open|file|submit|schedule|add|update|change|pay|post|publish|generate|make|register|reserve|transfer|start|repair|fix)\b/i,
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
