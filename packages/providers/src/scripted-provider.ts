// The strict scripted fake (`@signalbox/providers/testing`): a test states, step by step, which request it expects
// and what the model answers. Anything else — a request that does not match, a call after the script ended, steps
// left over — is an error, so a test cannot pass while the code under test asks the model something else.
import { UnexpectedModelCallError, ScriptNotConsumedError } from './errors.js';
import type { ModelProvider, ModelRequest, ModelResponse, ModelUsage } from './model-types.js';
import { parseToolArguments } from './tool-call-arguments.js';

/** A partial match on a request; every given field must hold. */
export interface ScriptedExpectation {
  /** The last user message contains this text (string) or matches this pattern (RegExp). */
  lastUserMessage?: string | RegExp;
  /** The offered tools are exactly these names (order ignored); `[]` means no tools offered. */
  toolNames?: readonly string[];
  /** The request's tool choice equals this. */
  toolChoice?: ModelRequest['toolChoice'];
  /** A response format was (true) or was not (false) requested. */
  structuredOutput?: boolean;
}

/** A tool call as a script writes it: arguments as an object, or raw text to simulate malformed output. */
export type ScriptedToolCall =
  | { name: string; arguments: Record<string, unknown>; id?: string }
  | { name: string; rawArguments: string; id?: string };

/** What a step answers; omitted fields get neutral defaults (no content, no tool calls, zero usage). */
export interface ScriptedReply {
  content?: string | null;
  toolCalls?: readonly ScriptedToolCall[];
  usage?: ModelUsage;
  /** @default 'tool_calls' when there are tool calls, else 'stop' */
  finishReason?: string;
  /** @default the provider's `model` option */
  model?: string;
}

/** One expected call and its answer. */
export interface ScriptStep {
  /** A label for failure messages. @default `step <n>` */
  label?: string;
  /**
   * What the request must look like: a partial match, or a predicate returning true — or a string saying why the
   * request is wrong. Omit to accept any request (still exactly one call).
   */
  expect?: ScriptedExpectation | ((request: ModelRequest) => boolean | string);
  /** The answer (or a function of the request), or `{ error }` to make the call reject with that error. */
  respond: ScriptedReply | ((request: ModelRequest) => ScriptedReply) | { error: Error };
}

/** Options of {@link createScriptedProvider}. */
export interface ScriptedProviderOptions {
  /** The model name reported in responses. @default 'scripted' */
  model?: string;
}

/** The scripted fake: a `ModelProvider` plus what tests need to check it was used as scripted. */
export interface ScriptedProvider extends ModelProvider {
  /** The requests received so far, in order (including rejected ones). */
  readonly requests: readonly ModelRequest[];
  /** Throws `ScriptNotConsumedError` when steps are left. */
  assertConsumed(): void;
}

function lastUserMessage(request: ModelRequest): string | undefined {
  for (let index = request.messages.length - 1; index >= 0; index -= 1) {
    const message = request.messages[index];
    if (message?.role === 'user') return message.content;
  }
  return undefined;
}

function mismatch(expect: ScriptedExpectation, request: ModelRequest): string | undefined {
  if (expect.lastUserMessage !== undefined) {
    const text = lastUserMessage(request);
    const wanted = expect.lastUserMessage;
    const ok =
      text !== undefined &&
      (typeof wanted === 'string' ? text.includes(wanted) : new RegExp(wanted).test(text));
    if (!ok) return `last user message ${JSON.stringify(text)} does not match ${String(wanted)}`;
  }
  if (expect.toolNames !== undefined) {
    const offered = (request.tools ?? []).map((tool) => tool.name).sort();
    const wanted = [...expect.toolNames].sort();
    if (JSON.stringify(offered) !== JSON.stringify(wanted)) {
      return `tools offered [${offered.join(', ')}], expected [${wanted.join(', ')}]`;
    }
  }
  if (
    expect.toolChoice !== undefined &&
    JSON.stringify(request.toolChoice) !== JSON.stringify(expect.toolChoice)
  ) {
    return `tool choice ${JSON.stringify(request.toolChoice)}, expected ${JSON.stringify(expect.toolChoice)}`;
  }
  if (
    expect.structuredOutput !== undefined &&
    (request.responseFormat !== undefined) !== expect.structuredOutput
  ) {
    return expect.structuredOutput
      ? 'expected a response format, none requested'
      : 'unexpected response format';
  }
  return undefined;
}

function toResponse(reply: ScriptedReply, stepIndex: number, model: string): ModelResponse {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => {
    const rawArguments = 'rawArguments' in call ? call.rawArguments : JSON.stringify(call.arguments);
    return {
      id: call.id ?? `call_${stepIndex + 1}_${index + 1}`,
      name: call.name,
      rawArguments,
      ...parseToolArguments(rawArguments),
    };
  });
  return {
    content: reply.content ?? null,
    toolCalls,
    usage: reply.usage ?? { inputTokens: 0, outputTokens: 0 },
    model: reply.model ?? model,
    finishReason: reply.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
  };
}

/**
 * Creates a strict scripted provider. Each call consumes the next step: it must match the step's `expect`, else the
 * call rejects with `UnexpectedModelCallError` (the step stays unconsumed); a call after the last step rejects too.
 */
export function createScriptedProvider(
  script: readonly ScriptStep[],
  options: ScriptedProviderOptions = {},
): ScriptedProvider {
  const steps = [...script];
  const model = options.model ?? 'scripted';
  const requests: ModelRequest[] = [];
  let next = 0;
  const label = (index: number): string => steps[index]?.label ?? `step ${index + 1}`;

  return {
    requests,
    complete(request) {
      const callIndex = requests.length;
      requests.push(structuredClone(request));
      const step = steps[next];
      if (step === undefined) {
        return Promise.reject(
          new UnexpectedModelCallError(
            callIndex,
            `the script has ended (${steps.length} step(s), all consumed)`,
          ),
        );
      }
      let problem: string | undefined;
      if (typeof step.expect === 'function') {
        const verdict = step.expect(request);
        problem = verdict === true ? undefined : verdict === false ? 'the predicate returned false' : verdict;
      } else if (step.expect !== undefined) {
        problem = mismatch(step.expect, request);
      }
      if (problem !== undefined) {
        return Promise.reject(new UnexpectedModelCallError(callIndex, `${label(next)}: ${problem}`));
      }
      const stepIndex = next;
      next += 1;
      if ('error' in step.respond) return Promise.reject(step.respond.error);
      const reply = typeof step.respond === 'function' ? step.respond(request) : step.respond;
      return Promise.resolve(toResponse(reply, stepIndex, model));
    },
    assertConsumed() {
      if (next < steps.length) {
        const left = steps.slice(next).map((_, offset) => label(next + offset));
        throw new ScriptNotConsumedError(steps.length - next, steps.length, left);
      }
    },
  };
}
