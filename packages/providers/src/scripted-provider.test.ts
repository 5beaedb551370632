import { describe, expect, it } from 'vitest';
import { ScriptNotConsumedError, UnexpectedModelCallError } from './errors.js';
import type { ModelRequest } from './model-types.js';
import { createScriptedProvider } from './scripted-provider.js';

const tools = [
  { name: 'order_status_query', parameters: { type: 'object' } },
  { name: 'refund_create', parameters: { type: 'object' } },
];

function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return { messages: [{ role: 'user', content: text }], tools, ...extra };
}

describe('createScriptedProvider', () => {
  it('answers matching calls in order and builds tool calls with parsed arguments', async () => {
    const provider = createScriptedProvider([
      {
        expect: { lastUserMessage: 'refund', toolNames: ['refund_create', 'order_status_query'] },
        respond: { toolCalls: [{ name: 'order_status_query', arguments: { order_id: 'A1' } }] },
      },
      { expect: (request) => request.toolChoice === 'none', respond: { content: 'Done.' } },
    ]);

    const first = await provider.complete(ask('I want a refund for A1'));
    const second = await provider.complete(ask('thanks', { toolChoice: 'none' }));

    expect(first.toolCalls).toEqual([
      {
        id: 'call_1_1',
        name: 'order_status_query',
        arguments: { order_id: 'A1' },
        rawArguments: '{"order_id":"A1"}',
        argumentsError: null,
      },
    ]);
    expect(first.finishReason).toBe('tool_calls');
    expect(second).toMatchObject({
      content: 'Done.',
      toolCalls: [],
      finishReason: 'stop',
      model: 'scripted',
    });
    expect(provider.requests).toHaveLength(2);
    expect(() => {
      provider.assertConsumed();
    }).not.toThrow();
  });

  it('rejects a call whose last user message does not match', async () => {
    const provider = createScriptedProvider([
      { expect: { lastUserMessage: /refund/ }, respond: { content: 'x' } },
    ]);

    const error = await provider.complete(ask('where is my parcel?')).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnexpectedModelCallError);
    expect((error as Error).message).toMatch(/step 1: last user message "where is my parcel\?"/);
    // The step was not consumed: the script is still owed its call.
    expect(() => {
      provider.assertConsumed();
    }).toThrow(ScriptNotConsumedError);
  });

  it('rejects a call offering other tools than expected (exact set)', async () => {
    const provider = createScriptedProvider([
      { label: 'decide', expect: { toolNames: ['order_status_query'] }, respond: { content: 'x' } },
    ]);

    await expect(provider.complete(ask('refund'))).rejects.toThrow(
      /decide: tools offered \[order_status_query, refund_create\], expected \[order_status_query\]/,
    );
  });

  it('rejects when the predicate says no, with its reason', async () => {
    const provider = createScriptedProvider([
      { expect: (request) => (request.temperature === 0 ? true : 'temperature must be 0'), respond: {} },
      { expect: () => false, respond: {} },
    ]);

    await expect(provider.complete(ask('a', { temperature: 1 }))).rejects.toThrow(/temperature must be 0/);
    await provider.complete(ask('a', { temperature: 0 }));
    await expect(provider.complete(ask('b'))).rejects.toThrow(/the predicate returned false/);
  });

  it('checks tool choice and structured output expectations', async () => {
    const provider = createScriptedProvider([
      { expect: { toolChoice: { name: 'refund_create' }, structuredOutput: false }, respond: {} },
      { expect: { structuredOutput: true }, respond: {} },
    ]);

    await expect(provider.complete(ask('a', { toolChoice: 'auto' }))).rejects.toThrow(/tool choice "auto"/);
    await provider.complete(ask('a', { toolChoice: { name: 'refund_create' } }));
    await expect(provider.complete(ask('b'))).rejects.toThrow(/expected a response format/);
  });

  it('rejects a call after the script has ended', async () => {
    const provider = createScriptedProvider([{ respond: { content: 'only one' } }]);
    await provider.complete(ask('a'));

    const error = await provider.complete(ask('b')).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnexpectedModelCallError);
    expect(error).toMatchObject({ callIndex: 1 });
    expect((error as Error).message).toMatch(/script has ended/);
  });

  it('assertConsumed names the steps that were never called', async () => {
    const provider = createScriptedProvider([
      { label: 'plan', respond: {} },
      { label: 'inject', respond: {} },
      { label: 'judge', respond: {} },
    ]);
    await provider.complete(ask('a'));

    expect(() => {
      provider.assertConsumed();
    }).toThrow(/2 of 3 step\(s\) never called: inject, judge/);
  });

  it('rejects with a scripted error and reports malformed scripted arguments', async () => {
    const failure = new Error('endpoint down');
    const provider = createScriptedProvider([
      { respond: { error: failure } },
      { respond: { toolCalls: [{ name: 'refund_create', rawArguments: '{oops' }] } },
    ]);

    await expect(provider.complete(ask('a'))).rejects.toBe(failure);
    const response = await provider.complete(ask('a'));
    expect(response.toolCalls[0]).toMatchObject({ arguments: null, rawArguments: '{oops' });
    expect(response.toolCalls[0]!.argumentsError).toMatch(/not valid JSON/);
    provider.assertConsumed();
  });
});
