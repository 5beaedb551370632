// EV-1 layer 3: a model judge, asked only when a model is configured for the task's profile and the hard checks
// and heuristics are inconclusive. It runs in its own context — the request, what the step was for, what the tool
// documents it returns and what it returned; no plan, no conversation, no earlier reasoning — with a prompt that
// asks for quality control only (never for the answer or the next tool). Its verdict is one more finding.
import type { PreparedCall, StepResult, TaskSpec } from '@signalbox/contracts';
import type { ModelProvider, ModelRequest } from '@signalbox/providers';
import { descriptionText, type ToolDefinition } from '@signalbox/registry';
import { z } from 'zod';
import type { Finding } from './checks.js';

export const JUDGE_SYSTEM_PROMPT =
  'You are a quality-control reviewer of one tool call. You are shown the user request, what this step was ' +
  'for, what the tool documents it returns, the arguments and the output. Judge only whether the output is ' +
  'usable evidence for the step: "pass" if it does what the step was for, "partial" if it is relevant but ' +
  'incomplete or unclear, "fail" if it is wrong, about something else than asked, or an error dressed as a ' +
  'result. Do not answer the request, do not suggest tools or arguments. Reply with JSON only.';

const Verdict = z.object({
  verdict: z.enum(['pass', 'partial', 'fail']),
  reason: z.string().min(1).max(2000),
});

/** The JSON Schema the judge's reply must match (structured output). */
export const VERDICT_SCHEMA = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['pass', 'partial', 'fail'] },
    reason: { type: 'string' },
  },
  required: ['verdict', 'reason'],
  additionalProperties: false,
} as const;

/** How much of an output the judge sees; the rest is cut with a marker (its context stays small and cheap). */
const MAX_OUTPUT_CHARS = 8000;

/** Inconclusive (EV-1): nothing failed or came back partial, but something was noted (error words, slowness). */
export function isInconclusive(findings: readonly Finding[]): boolean {
  return findings.length > 0 && findings.every((f) => f.severity === 'note');
}

/** What the judge sees of one step. */
export interface JudgeInput {
  task: TaskSpec;
  purpose: string;
  tool: ToolDefinition | undefined;
  call: PreparedCall;
  result: StepResult;
  /** What the checks noted, so the judge knows why it is asked. */
  notes: readonly string[];
}

/** The judge's request (exported so tests and replays see the exact request). */
export function judgeRequest(input: JudgeInput): ModelRequest {
  const output = JSON.stringify(input.result.output);
  const shown =
    output.length > MAX_OUTPUT_CHARS
      ? `${output.slice(0, MAX_OUTPUT_CHARS)}… [${String(output.length - MAX_OUTPUT_CHARS)} more characters]`
      : output;
  return {
    messages: [
      { role: 'system', content: JUDGE_SYSTEM_PROMPT },
      {
        role: 'user',
        content: [
          `Request: ${input.task.request}`,
          `Step purpose: ${input.purpose}`,
          `Tool: ${input.call.tool}${input.tool ? ` — ${descriptionText(input.tool)}` : ''}`,
          `Arguments: ${JSON.stringify(input.call.arguments)}`,
          `Output: ${shown}`,
          `Automatic checks noted: ${input.notes.join('; ')}`,
        ].join('\n'),
      },
    ],
    responseFormat: { name: 'step_verdict', schema: VERDICT_SCHEMA, strict: true },
    temperature: 0,
    maxTokens: 300,
  };
}

/**
 * Asks the judge. A pass is a note; partial and fail become findings that change the status and the route
 * ("fail" is a tool problem: re-plan). When the model cannot be reached or answers off-format, the judge is
 * recorded as unavailable and the checks' own (inconclusive) result stands — a judge never blocks a task.
 */
export async function judgeStep(provider: ModelProvider, input: JudgeInput): Promise<Finding> {
  let verdict: z.infer<typeof Verdict>;
  let model = 'model';
  try {
    const response = await provider.complete(judgeRequest(input));
    model = response.model;
    verdict = Verdict.parse(JSON.parse(response.content ?? ''));
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return {
      check: 'model_judge',
      severity: 'note',
      kind: 'none',
      message: `model judge unavailable (${(why ?? '').slice(0, 200)}); the checks' result stands`,
    };
  }
  const message = `model judge (${model}): ${verdict.verdict} — ${verdict.reason}`;
  if (verdict.verdict === 'pass') return { check: 'model_judge', severity: 'note', kind: 'none', message };
  if (verdict.verdict === 'partial')
    return { check: 'model_judge', severity: 'partial', kind: 'empty', message };
  return { check: 'model_judge', severity: 'fail', kind: 'tool', message };
}
