import type { TaskSpec } from '@signalbox/contracts';
import type { TaskLabel } from '@signalbox/registry';

/** MS-2: what the selector knows about a task before choosing a model. */
export interface TaskAnalysis {
  labels: TaskLabel[];
  /** Estimated prompt tokens: request, context and text attachments (≈ 4 characters a token). */
  token_estimate: number;
  /** Tokens the answer is expected to take, for the cost estimate. */
  output_token_estimate: number;
  needs_vision: boolean;
  needs_long_context: boolean;
  /** How many tool calls the request seems to need. */
  tool_complexity: 'none' | 'low' | 'medium' | 'high';
  /** Why each label was given (copied into decision_reason). */
  evidence: string[];
}

/** Above this many prompt tokens a task counts as `long_document`. */
export const LONG_CONTEXT_TOKENS = 16_000;

const CHARS_PER_TOKEN = 4;

// Keyword cues per label, English and Chinese (the design notes' users write both). Word boundaries only for Latin
// words; CJK has none.
const CUES: Readonly<
  Record<Exclude<TaskLabel, 'tool_use' | 'long_document' | 'vision' | 'conversation'>, RegExp>
> = {
  extraction:
    /\b(extract|pull out|find (?:the|all)|list (?:the|all)|parse|what (?:is|are) the)\b|提取|抽取|找出/i,
  classification:
    /\b(classify|categori[sz]e|which (?:category|type|kind)|is (?:this|it) (?:a|an|spam))\b|分类|归类/i,
  summarization: /\b(summari[sz]e|summary|tl;?dr|minutes|recap|report|digest)\b|总结|摘要|纪要|周报/i,
  multi_step_reasoning:
    /\b(and then|then|after that|compare|analy[sz]e|why|step by step|plan)\b|然后|比较|分析/i,
  calculation:
    /\b(calculate|compute|sum|average|total|percent(?:age)?|how (?:much|many))\b|\d+\s*[-+*/^%]\s*\d+|计算|多少/i,
};

// Requests that want something done or looked up in a system need tools.
const TOOL_CUES =
  /\b(order|refund|track|ship|deliver|invoice|repair|ticket|weather|search|look ?up|find|send|email|e-mail|message|schedule|book|create|cancel|check|status|minutes|report|visit|page|url|compute|calculate|contact)\b|https?:\/\/|订单|退款|物流|发票|维修|天气|搜索|发送|查询|会议/i;

const ACTION_VERBS =
  /\b(refund|track|send|email|create|cancel|book|search|visit|compute|calculate|generate|check|look ?up|find|list|parse|notify|schedule)\b/gi;

/**
 * The deterministic task analyser (MS-2): labels from cues in the request, a token estimate, vision and
 * long-context needs and a tool-complexity estimate. It never asks a model to rate itself.
 */
export function analyseTask(task: TaskSpec): TaskAnalysis {
  const evidence: string[] = [];
  const labels = new Set<TaskLabel>();
  const text = [task.request, ...task.context.filter((m) => m.role === 'user').map((m) => m.content)].join(
    '\n',
  );

  const contextChars = task.context.reduce((n, m) => n + m.content.length, 0);
  const attachmentTokens = task.attachments
    .filter((a) => a.media_type.startsWith('text/') || a.media_type === 'application/pdf')
    .reduce((n, a) => n + Math.ceil(a.size_bytes / CHARS_PER_TOKEN), 0);
  const token_estimate = Math.ceil((task.request.length + contextChars) / CHARS_PER_TOKEN) + attachmentTokens;

  for (const [label, cue] of Object.entries(CUES) as [TaskLabel, RegExp][]) {
    const hit = cue.exec(text);
    if (hit) {
      labels.add(label);
      evidence.push(`${label}: "${hit[0]}"`);
    }
  }
  const toolHit = TOOL_CUES.exec(text);
  if (toolHit) {
    labels.add('tool_use');
    evidence.push(`tool_use: "${toolHit[0]}"`);
  }
  const needs_vision =
    task.required_modalities.includes('image') ||
    task.attachments.some((a) => a.media_type.startsWith('image/'));
  if (needs_vision) {
    labels.add('vision');
    evidence.push('vision: image input');
  }
  const needs_long_context = token_estimate > LONG_CONTEXT_TOKENS;
  if (needs_long_context) {
    labels.add('long_document');
    evidence.push(`long_document: ~${String(token_estimate)} tokens`);
  }
  if (labels.size === 0) {
    labels.add('conversation');
    evidence.push('conversation: no task cue');
  }

  const verbs = new Set((text.match(ACTION_VERBS) ?? []).map((v) => v.toLowerCase().replace(/\s+/g, '')));
  const tool_complexity = !labels.has('tool_use')
    ? 'none'
    : verbs.size <= 1
      ? 'low'
      : verbs.size <= 3
        ? 'medium'
        : 'high';
  const output_token_estimate = labels.has('summarization') || labels.has('long_document') ? 800 : 300;

  return {
    labels: [...labels].sort(),
    token_estimate,
    output_token_estimate,
    needs_vision,
    needs_long_context,
    tool_complexity,
    evidence,
  };
}
