import { describe, expect, it } from 'vitest';
import { canonicalJson } from '@signalbox/contracts';
import { hashModelRequest } from './canonical-json.js';
import { InvalidModelRequestError, UnrecordedRequestError } from './errors.js';
import type { ModelRequest } from './model-types.js';
import { createRecordingProvider, createReplayProvider } from './recording-provider.js';
import { createScriptedProvider } from './scripted-provider.js';

const plan: ModelRequest = {
  messages: [{ role: 'user', content: 'refund order A1' }],
  tools: [
    { name: 'refund_create', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } },
  ],
  toolChoice: 'auto',
  temperature: 0,
};
const judge: ModelRequest = { messages: [{ role: 'user', content: 'is this a refund receipt?' }] };

describe('canonicalJson and hashModelRequest', () => {
  it('ignores key order and undefined members, but not values', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: 1 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"x":1,"y":2}]},"b":1}',
    );
    const reordered = {
      temperature: 0,
      toolChoice: 'auto',
      tools: plan.tools,
      messages: [{ content: 'refund order A1', role: 'user' }],
      maxTokens: undefined,
    } as ModelRequest;
    expect(hashModelRequest(reordered)).toBe(hashModelRequest(plan));
    expect(hashModelRequest({ ...plan, temperature: 0.1 })).not.toBe(hashModelRequest(plan));
    expect(hashModelRequest(plan)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(() => canonicalJson(loop)).toThrow(/circular/);
  });
});

describe('recording and replay', () => {
  it('records each exchange with its request hash and replays the same answers without the live model', async () => {
    const live = createScriptedProvider([
      { respond: { toolCalls: [{ name: 'refund_create', arguments: { order_id: 'A1' } }] } },
      { respond: { content: 'yes' } },
    ]);
    const recording = createRecordingProvider(live);

    const planned = await recording.complete(plan);
    const judged = await recording.complete(judge);
    live.assertConsumed();

    expect(planned.requestHash).toBe(hashModelRequest(plan));
    const exchanges = recording.exchanges();
    expect(exchanges.map((exchange) => exchange.requestHash)).toEqual([
      hashModelRequest(plan),
      hashModelRequest(judge),
    ]);
    expect(exchanges[0]!.request).toEqual(plan);

    // The corpus goes through JSON (the event log), as it would in re-decide.
    const replay = createReplayProvider(JSON.parse(JSON.stringify(exchanges)) as typeof exchanges);
    expect(await replay.complete(judge)).toEqual(judged);
    expect(await replay.complete(plan)).toEqual(planned);
    expect(replay.callCount).toBe(2);
  });

  it('throws UnrecordedRequestError for a request that was never recorded', async () => {
    const recording = createRecordingProvider(createScriptedProvider([{ respond: { content: 'ok' } }]));
    await recording.complete(plan);
    const replay = createReplayProvider(recording.exchanges());

    const changed: ModelRequest = { ...plan, messages: [{ role: 'user', content: 'refund order A2' }] };
    const error = await replay.complete(changed).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(UnrecordedRequestError);
    expect(error).toMatchObject({ requestHash: hashModelRequest(changed), retriable: false });
  });

  it('answers a request recorded twice in recorded order, then repeats the last answer', async () => {
    const recording = createRecordingProvider(
      createScriptedProvider([{ respond: { content: 'first' } }, { respond: { content: 'second' } }]),
    );
    await recording.complete(judge);
    await recording.complete(judge);
    const replay = createReplayProvider(recording.exchanges());

    const answers = [];
    for (let call = 0; call < 3; call += 1) answers.push((await replay.complete(judge)).content);

    expect(answers).toEqual(['first', 'second', 'second']);
  });

  it('does not record failed calls, and keeps recordings immune to later mutation', async () => {
    const recording = createRecordingProvider(
      createScriptedProvider([{ respond: { error: new Error('down') } }, { respond: { content: 'ok' } }]),
    );
    await expect(recording.complete(plan)).rejects.toThrow('down');
    const request = structuredClone(judge);
    const response = await recording.complete(request);
    (request.messages[0] as { content: string }).content = 'mutated';
    response.content = 'mutated';

    const exchanges = recording.exchanges();
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]!.request).toEqual(judge);
    expect(exchanges[0]!.response.content).toBe('ok');
  });

  it('refuses a corpus whose hash does not match its request, or that is malformed', () => {
    const response = {
      content: 'x',
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      model: 'm',
      finishReason: 'stop',
    };
    expect(() =>
      createReplayProvider([{ requestHash: hashModelRequest(judge), request: plan, response }]),
    ).toThrow(/does not match its request/);
    expect(() =>
      createReplayProvider([
        {
          requestHash: hashModelRequest(plan),
          request: plan,
          response: { ...response, usage: undefined },
        } as never,
      ]),
    ).toThrow(InvalidModelRequestError);
  });
});
