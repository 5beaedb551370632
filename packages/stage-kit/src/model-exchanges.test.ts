import { describe, expect, it } from 'vitest';
import type { ModelExchange } from '@signalbox/event-log';
import {
  InvalidModelRequestError,
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  RecordedModelError,
  UnexpectedModelCallError,
  UnrecordedRequestError,
  hashModelRequest,
  modelErrorFromRecord,
  recordModelError,
  type ModelProvider,
  type ModelRequest,
} from '@signalbox/providers';
import { createScriptedProvider } from '@signalbox/providers/testing';
import { isRetriable, retryAfterMsOf } from '@signalbox/retry';
import { limitModelCalls, recordExchanges, replayExchanges, type ModelLookup } from './model-exchanges.js';

const ask = (text: string): ModelRequest => ({
  messages: [{ role: 'user', content: text }],
  tools: [{ name: 'get_weather', description: 'Current weather of a city.', parameters: { type: 'object' } }],
  toolChoice: 'auto',
  temperature: 0,
});

describe('recordExchanges', () => {
  it('records each call with profile, hash and latency, and model and tokens when answered, in the order asked', async () => {
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
      // The failed call: nothing answered, so no model or tokens — but its place, its latency and its error.
      ['light_model', null, null, null, 25],
      ['light_model', 'qwen2.5-7b', 12, 3, 25],
    ]);
    expect(exchanges[0]?.request).toEqual(ask('weather in Berlin'));
    expect(exchanges[0]?.request_hash).toBe(hashModelRequest(ask('weather in Berlin')));
    expect(exchanges[0]).not.toHaveProperty('error');
    expect(exchanges[1]).toEqual({
      profile_id: 'light_model',
      model: null,
      request_hash: hashModelRequest(ask('weather in Paris')),
      request: ask('weather in Paris'),
      response: null,
      input_tokens: null,
      output_tokens: null,
      latency_ms: 25,
      error: { name: 'Error', message: 'rate limited', timeout: false, retriable: true },
    });
    // Stored as JSON: the undefined member is gone, and the hash is the same as without it.
    expect(exchanges[2]?.request).toEqual(ask('tell me a joke'));
    expect(exchanges[2]?.request_hash).toBe(hashModelRequest(ask('tell me a joke')));
    expect(exchanges[0]?.response).toMatchObject({
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Berlin' }, rawArguments: '{"city":"Berlin"}' }],
    });
  });

  it('records a provider error with its class, message, timeout and retriability, and rethrows it unchanged', async () => {
    const timeout = new ProviderTimeoutError('request timed out after 30000 ms', { model: 'gpt-4o-mini' });
    const recorder = recordExchanges(() => ({ complete: () => Promise.reject(timeout) }));
    const error = await recorder
      .models('light_model')
      ?.complete(ask('weather in Oslo'))
      .catch((e: unknown) => e);
    expect(error).toBe(timeout);
    expect(recorder.exchanges().map((x) => x.error)).toEqual([
      {
        name: 'ProviderTimeoutError',
        message: 'request timed out after 30000 ms',
        timeout: true,
        retriable: true,
        model: 'gpt-4o-mini',
      },
    ]);
  });

  it('keeps the asked order when a failing call and a successful one run concurrently', async () => {
    // The first call asked fails last, the second answers first: the slots are taken when the calls start.
    let failFirst: (error: Error) => void = () => undefined;
    const models = (id: string): ModelProvider | undefined =>
      id === 'judge'
        ? {
            complete: () =>
              new Promise((_, reject) => {
                failFirst = reject;
              }),
          }
        : createScriptedProvider([{ respond: { content: 'sunny' } }]);
    const recorder = recordExchanges(models);
    const failing = recorder.models('judge')?.complete(ask('is the step done?'));
    const answered = await recorder.models('light_model')?.complete(ask('weather in Berlin'));
    expect(answered?.content).toBe('sunny');
    expect(recorder.exchanges().map((x) => x.profile_id)).toEqual(['light_model']);
    failFirst(new ProviderUnavailableError('connect ECONNREFUSED 127.0.0.1:9'));
    await expect(failing).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(recorder.exchanges().map((x) => [x.profile_id, x.error?.name ?? null])).toEqual([
      ['judge', 'ProviderUnavailableError'],
      ['light_model', null],
    ]);

    // Replayed in the same concurrent shape: the same failure and the same answer, each counted.
    const replay = replayExchanges(JSON.parse(JSON.stringify(recorder.exchanges())) as ModelExchange[]);
    const [judged, again] = await Promise.allSettled([
      replay.models('judge')?.complete(ask('is the step done?')),
      replay.models('light_model')?.complete(ask('weather in Berlin')),
    ]);
    expect(judged.status).toBe('rejected');
    expect((judged as PromiseRejectedResult).reason).toBeInstanceOf(ProviderUnavailableError);
    expect(again).toEqual({ status: 'fulfilled', value: answered });
    expect(replay.replayed).toBe(2);
    expect(replay.unrecorded()).toEqual([]);
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

  it('answers a recorded failure by throwing an equivalent error, so a fallback is taken again', async () => {
    const refusal = new ProviderRequestError('400 content refused', { status: 400, code: 'content_filter' });
    const recorder = recordExchanges(() => ({ complete: () => Promise.reject(refusal) }));
    await expect(recorder.models('light_model')?.complete(ask('weather in Berlin'))).rejects.toBe(refusal);
    // Through JSON, as the event log keeps it.
    const stored = JSON.parse(JSON.stringify(recorder.exchanges())) as ModelExchange[];

    const replay = replayExchanges(stored);
    const error: unknown = await replay
      .models('light_model')
      ?.complete(ask('weather in Berlin'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderRequestError);
    expect(error).not.toBe(refusal);
    expect(error).toMatchObject({
      name: 'ProviderRequestError',
      message: '400 content refused',
      retriable: false,
      status: 400,
      code: 'content_filter',
    });
    expect(replay.replayed).toBe(1);
    expect(replay.unrecorded()).toEqual([]);
    // A decision that falls back on the failure comes out the same as when recorded.
    const decide = async (models: ModelLookup) => {
      try {
        return (await models('light_model')?.complete(ask('weather in Berlin')))?.content ?? 'deterministic';
      } catch (e) {
        return `fallback: ${(e as Error).message}`;
      }
    };
    expect(await decide(replayExchanges(stored).models)).toBe('fallback: 400 content refused');
    // Without the recorded failure it would not: the profile was configured, the request is not recorded.
    expect(await decide(replayExchanges([], { configured: ['light_model'] }).models)).toMatch(
      /^fallback: no recorded model response/,
    );
  });

  it('refuses recorded exchanges whose hash does not match their request', async () => {
    const { exchanges } = await recorded();
    const tampered = exchanges.map((x) => ({ ...x, request: ask('weather in Rome') }));
    expect(() => replayExchanges(tampered).models('light_model')).toThrow(/does not match its request/);
  });
});

describe('limitModelCalls', () => {
  /** Models whose calls answer (or fail) only when the test says; counts the calls out at once, over all of them. */
  function gate() {
    let out = 0;
    let most = 0;
    const pending: { content: string; settle: (fail: boolean) => void }[] = [];
    const model = (): ModelProvider => ({
      complete(request) {
        out++;
        most = Math.max(most, out);
        const content = String(request.messages[0]?.content);
        return new Promise((resolve, reject) => {
          pending.push({
            content,
            settle: (fail) => {
              out--;
              if (fail) reject(new Error(`${content} failed`));
              else
                resolve({
                  content,
                  toolCalls: [],
                  model: 'm',
                  finishReason: 'stop',
                  usage: { inputTokens: 1, outputTokens: 1 },
                });
            },
          });
        });
      },
    });
    const settle = (content: string, fail = false) => {
      const at = pending.findIndex((p) => p.content === content);
      pending.splice(at, 1)[0]?.settle(fail);
    };
    return { model, settle, started: () => pending.map((p) => p.content).sort(), most: () => most };
  }
  const ask = (content: string): ModelRequest => ({ messages: [{ role: 'user', content }] });
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('lets at most the limit of calls out at once, across profiles, the rest in the order they came', async () => {
    const g = gate();
    const [a, b] = [g.model(), g.model()];
    const models = limitModelCalls((profile) => (profile === 'a' ? a : b), 2);
    expect(models('a')).toBe(models('a'));
    const calls = ['1', '2', '3', '4', '5'].map((n, i) => {
      const model = models(i % 2 ? 'b' : 'a');
      if (!model) throw new Error('no model');
      return model.complete(ask(n));
    });
    const results = Promise.allSettled(calls);
    await tick();
    expect(g.started()).toEqual(['1', '2']);
    // A failed call frees its slot like an answered one; the next in line goes.
    g.settle('1', true);
    await tick();
    expect(g.started()).toEqual(['2', '3']);
    g.settle('3');
    await tick();
    expect(g.started()).toEqual(['2', '4']);
    g.settle('2');
    g.settle('4');
    await tick();
    expect(g.started()).toEqual(['5']);
    g.settle('5');
    expect((await results).map((r) => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    expect(g.most()).toBe(2);
  });

  it('refuses a limit that is not a positive integer, and gives no model for a profile without one', () => {
    expect(() => limitModelCalls(() => undefined, 0)).toThrow(RangeError);
    expect(() => limitModelCalls(() => undefined, 1.5)).toThrow(RangeError);
    expect(limitModelCalls(() => undefined, 1)('any')).toBeUndefined();
  });
});

describe('provider errors under the one retry classification', () => {
  it('are retriable for @signalbox/retry exactly when they say so, also rebuilt from their record (a replay)', () => {
    const cases = [
      new ProviderTimeoutError('request timed out after 30000 ms'),
      new ProviderRateLimitedError('429 slow down', { status: 429, retryAfterMs: 1500 }),
      new ProviderUnavailableError('connect ECONNREFUSED 127.0.0.1:9'),
      new ProviderRequestError('400 content refused', { status: 400 }),
      new ProviderResponseError('the completion has no choices'),
      new InvalidModelRequestError('messages: at least one'),
      new UnrecordedRequestError('abc', { known: 0 }),
      new UnexpectedModelCallError(0, 'no step left'),
    ];
    expect(cases.map((e) => isRetriable(e))).toEqual([true, true, true, false, false, false, false, false]);
    for (const error of cases) {
      const record = RecordedModelError.parse(JSON.parse(JSON.stringify(recordModelError(error))));
      const rebuilt = modelErrorFromRecord(record);
      expect(isRetriable(rebuilt), error.name).toBe(error.retriable);
    }
    expect(retryAfterMsOf(cases[1])).toBe(1500);
  });
});
