import { describe, expect, it } from 'vitest';
import { UnrecordedRequestError, hashModelRequest, type ModelRequest } from '@signalbox/providers';
import { createScriptedProvider } from '@signalbox/providers/testing';
import { recordExchanges, replayExchanges } from './model-exchanges.js';

const ask = (text: string): ModelRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [{ name: 'get_weather', description: 'Current weather of a city.', parameters: { type: 'object' } }],
  toolChoice: 'auto',
  temperature: 0,
});

describe('recordExchanges', () => {
  it('records each answered call with profile, model, hash, tokens and latency, in the order asked', async () => {
    const scripted = createScriptedProvider(
      [
        {
          respond: {
            toolCalls: [{ name: 'get_weather', arguments: { city: 'Berlin' } }],
            usage: { inputTokens: 30, outputTokens: 7 },
          },
        },
        { respond: { error: Object.assign(new Error('rate limited'), { retriable: true }) } },
        { respond: { content: 'no tool fits', usage: { inputTokens: 12, outputTokens: 3 } } },
      ],
      { model: 'qwen2.5-7b' },
    );
    let now = 1000;
    const recorder = recordExchanges(
      (id) => (id === 'light_model' ? scripted : undefined),
      () => (now += 25),
    );
    const model = recorder.models('light_model');
    expect(recorder.models('light_model')).toBe(model);
    expect(recorder.models('mid_model')).toBeUndefined();

    await model?.complete(ask('weather in Berlin'));
    await expect(model?.complete(ask('weather in Paris'))).rejects.toThrow('rate limited');
    await model?.complete({ ...ask('tell me a joke'), maxTokens: undefined });

    const exchanges = recorder.exchanges();
    expect(
      exchanges.map((x) => [x.profile_id, x.model, x.input_tokens, x.output_tokens, x.latency_ms]),
    ).toEqual([
      ['light_model', 'qwen2.5-7b', 30, 7, 25],
      ['light_model', 'qwen2.5-7b', 12, 3, 25],
    ]);
    expect(exchanges[0]?.request).toEqual(ask('weather in Berlin'));
    expect(exchanges[0]?.request_hash).toBe(hashModelRequest(ask('weather in Berlin')));
    // Stored as JSON: the undefined member is gone, and the hash is the same as without it.
    expect(exchanges[1]?.request).toEqual(ask('tell me a joke'));
    expect(exchanges[1]?.request_hash).toBe(hashModelRequest(ask('tell me a joke')));
    expect(exchanges[0]?.response).toMatchObject({
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Berlin' }, rawArguments: '{"city":"Berlin"}' }],
    });
  });
});

describe('replayExchanges', () => {
  async function recorded() {
    const scripted = createScriptedProvider([
      { respond: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Berlin' } }] } },
    ]);
    const recorder = recordExchanges(() => scripted);
    const answer = await recorder.models('light_model')?.complete(ask('weather in Berlin'));
    return { exchanges: recorder.exchanges(), answer };
  }

  it('answers a recorded request of the same profile with the recorded response, without a live model', async () => {
    const { exchanges, answer } = await recorded();
    const replay = replayExchanges(exchanges);
    // Key order does not matter: the lookup is by canonical hash.
    const { temperature, toolChoice, ...rest } = ask('weather in Berlin');
    const again = await replay.models('light_model')?.complete({ temperature, ...rest, toolChoice });
    expect(again).toEqual(answer);
    expect(replay.replayed).toBe(1);
    expect(replay.unrecorded()).toEqual([]);
  });

  it('refuses and lists a request never recorded; leaves a profile with nothing recorded deterministic', async () => {
    const { exchanges } = await recorded();
    const replay = replayExchanges(exchanges);
    const error: unknown = await replay
      .models('light_model')
      ?.complete(ask('weather in Paris'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecordedRequestError);
    expect(replay.unrecorded()).toEqual([
      {
        profile_id: 'light_model',
        request_hash: hashModelRequest(ask('weather in Paris')),
        asked_live: false,
      },
    ]);
    // Another profile was not asked when the decision was recorded and has no model here: deterministic, as then.
    expect(replay.models('mid_model')).toBeUndefined();
  });

  it('refuses a configured profile with nothing recorded, and asks a live model only when given one', async () => {
    const { exchanges } = await recorded();
    const strict = replayExchanges(exchanges, { configured: ['mid_model'] });
    await expect(strict.models('mid_model')?.complete(ask('weather in Berlin'))).rejects.toBeInstanceOf(
      UnrecordedRequestError,
    );

    const live = createScriptedProvider([{ respond: { content: 'live answer' } }]);
    const withLive = replayExchanges(exchanges, { live: (id) => (id === 'light_model' ? live : undefined) });
    const answer = await withLive.models('light_model')?.complete(ask('weather in Paris'));
    expect(answer?.content).toBe('live answer');
    expect(withLive.unrecorded()).toEqual([
      {
        profile_id: 'light_model',
        request_hash: hashModelRequest(ask('weather in Paris')),
        asked_live: true,
      },
    ]);
    // The recorded request is still answered from the recording, not live.
    await withLive.models('light_model')?.complete(ask('weather in Berlin'));
    live.assertConsumed();
    expect(live.requests).toHaveLength(1);
  });

  it('refuses recorded exchanges whose hash does not match their request', async () => {
    const { exchanges } = await recorded();
    const tampered = exchanges.map((x) => ({ ...x, request: ask('weather in Rome') }));
    expect(() => replayExchanges(tampered).models('light_model')).toThrow(/does not match its request/);
  });
});
