// A strict scripted Model for the Agents SDK, so the example runs in tests without a language model: each model call
// takes the next scripted turn, which sees the request (the tools offered, the items so far) and returns the output
// items. A call beyond the script, or a streamed call, throws — an agent that asks the model more than the test
// expects fails loudly instead of passing by accident.
import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** One scripted model answer. */
export type ScriptedTurn = (request: ModelRequest) => ModelResponse['output'];

/** A function call the model makes. */
export function toolCall(
  name: string,
  args: Record<string, unknown>,
  callId = `call_${name}`,
): ModelResponse['output'][number] {
  return { type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' };
}

/** A final assistant message. */
export function say(text: string): ModelResponse['output'][number] {
  return {
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text }],
  };
}

/** The text of a tool's output as the SDK hands it back: a string, a text item, or a list of content items. */
function outputText(output: unknown): string {
  if (typeof output === 'string') {
    // An MCP tool's content list may arrive as its JSON text.
    try {
      const parsed: unknown = JSON.parse(output);
      if (Array.isArray(parsed) && parsed.every((p) => typeof p === 'object' && p !== null && 'type' in p))
        return outputText(parsed);
    } catch {
      // Plain text.
    }
    return output;
  }
  if (Array.isArray(output)) return output.map(outputText).join('\n');
  if (typeof output === 'object' && output !== null && 'text' in output) return String(output.text);
  return JSON.stringify(output);
}

/** The outputs of the function calls in a request's input, as text, by call id (what the tools answered). */
export function toolOutputs(request: ModelRequest): Map<string, string> {
  const outputs = new Map<string, string>();
  if (typeof request.input === 'string') return outputs;
  for (const item of request.input)
    if (item.type === 'function_call_result') outputs.set(item.callId, outputText(item.output));
  return outputs;
}

/** The strict scripted model: `requests` records every request it was given. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: ScriptedTurn[];

  constructor(turns: readonly ScriptedTurn[]) {
    this.#turns = [...turns];
  }

  getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (!turn)
      return Promise.reject(
        new Error(`ScriptedModel: unexpected model call ${String(this.requests.length)}`),
      );
    return Promise.resolve({
      usage: new Usage(),
      output: turn(request),
      responseId: `scripted_${String(this.requests.length)}`,
    });
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('ScriptedModel does not stream; run the agent without stream: true');
  }

  /** Throws unless every scripted turn was used. */
  assertDone(): void {
    if (this.#turns.length > 0)
      throw new Error(`ScriptedModel: ${String(this.#turns.length)} scripted turn(s) never asked for`);
  }
}
