// Asking a model (PI-2 proposals, PI-4 re-asks) through the providers port. The model is offered exactly the one
// tool and must call it; it sees the request, the conversation, the reference time and earlier outputs. A re-ask
// names each failing field with its exact reason and asks for that field only; anything else it returns is ignored.
import type { StepRecord, TaskSpec } from '@signalbox/contracts';
import type { ModelProvider, ModelRequest } from '@signalbox/providers';
import { descriptionText, stripExtensions, type ToolDefinition } from '@signalbox/registry';
import { ModelUnavailableError } from './errors.js';
import { redactArguments } from './redaction.js';
import type { FieldError } from './validate.js';

const SYSTEM_PROMPT = [
  'You fill in the arguments of one tool call for a user request.',
  'Use only values the user stated (in the request or the conversation) or that earlier tool outputs contain.',
  'Resolve relative dates against the reference time and time zone given.',
  'Leave out any argument whose value you cannot find. Never invent a value.',
].join(' ');

function taskText(task: TaskSpec, history: readonly StepRecord[]): string {
  const lines = [
    `Request: ${task.request}`,
    `Reference time: ${task.reference_time} (time zone ${task.time_zone})`,
  ];
  const context = task.context.filter((m) => m.role !== 'system');
  if (context.length > 0) {
    lines.push('Conversation:', ...context.slice(-10).map((m) => `- ${m.role}: ${m.content.slice(0, 2000)}`));
  }
  const outputs = history.filter((h) => h.result.ok && h.result.output !== null);
  if (outputs.length > 0) {
    lines.push(
      'Earlier tool outputs:',
      ...outputs
        .slice(-5)
        .map(
          (h) =>
            `- step ${String(h.call.step_index)} ${h.call.tool}: ${JSON.stringify(h.result.output).slice(0, 2000)}`,
        ),
    );
  }
  return lines.join('\n');
}

function toolFor(tool: ToolDefinition): NonNullable<ModelRequest['tools']>[number] {
  return {
    name: tool.name,
    description: descriptionText(tool),
    parameters: stripExtensions(tool.parameters),
  };
}

async function ask(
  provider: ModelProvider,
  request: ModelRequest,
  tool: string,
): Promise<Record<string, unknown> | null> {
  let response;
  try {
    response = await provider.complete(request);
  } catch (err) {
    // A provider error that may pass is retried by the stage runtime (bounded); anything else is not ours to hide.
    if ((err as { retriable?: unknown }).retriable === true) {
      throw new ModelUnavailableError(
        `asking the model for ${tool}'s arguments failed: ${(err as Error).message}`,
        { cause: err },
      );
    }
    throw err;
  }
  const call = response.toolCalls.find((c) => c.name === tool) ?? response.toolCalls[0];
  return call?.arguments ?? null;
}

/** PI-2: the model's proposed arguments for the step, or null when it proposed none (or unparseable ones). */
export async function proposeArguments(
  provider: ModelProvider,
  tool: ToolDefinition,
  task: TaskSpec,
  history: readonly StepRecord[],
  purpose: string,
): Promise<Record<string, unknown> | null> {
  return ask(
    provider,
    {
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content: `${taskText(task, history)}\nStep purpose: ${purpose}\nCall ${tool.name} with the arguments you can find.`,
        },
      ],
      tools: [toolFor(tool)],
      toolChoice: { name: tool.name },
      temperature: 0,
    },
    tool.name,
  );
}

/**
 * PI-4: one re-ask. The message names every failing field with its exact reason and asks to fix only those; the
 * current arguments are shown with sensitive values redacted. Returns only the named fields the model gave.
 */
export async function askToFix(
  provider: ModelProvider,
  tool: ToolDefinition,
  task: TaskSpec,
  history: readonly StepRecord[],
  current: Record<string, unknown>,
  errors: readonly FieldError[],
  sensitive: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const fields = errors.map((e) => e.field.split('.')[0] ?? e.field);
  const problems = errors.map((e) => `- ${e.field}: ${e.reason}`).join('\n');
  const answer = await ask(
    provider,
    {
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        {
          role: 'user',
          content:
            `${taskText(task, history)}\nThe arguments of ${tool.name} failed validation:\n${problems}\n` +
            `Current arguments: ${JSON.stringify(redactArguments(current, sensitive))}\n` +
            `Fix only ${fields.join(', ')}: call ${tool.name} with just ${fields.length === 1 ? 'that field' : 'those fields'}. ` +
            'Leave out a field you cannot find in the request.',
        },
      ],
      tools: [toolFor(tool)],
      toolChoice: { name: tool.name },
      temperature: 0,
    },
    tool.name,
  );
  const out: Record<string, unknown> = {};
  for (const field of fields) if (answer && Object.hasOwn(answer, field)) out[field] = answer[field];
  return out;
}
