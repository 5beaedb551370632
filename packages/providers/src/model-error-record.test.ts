import { describe, expect, it } from 'vitest';
import { hashModelRequest } from './canonical-json.js';
import {
  InvalidModelRequestError,
  type ProviderError,
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  UnexpectedModelCallError,
} from './errors.js';
import { RecordedModelError, modelErrorFromRecord, recordModelError } from './model-error-record.js';
import type { ModelRequest } from './model-types.js';
import { createReplayProvider } from './recording-provider.js';

/** Through JSON, as the event log keeps it. */
const stored = (error: unknown) =>
  RecordedModelError.parse(JSON.parse(JSON.stringify(recordModelError(error))) as unknown);

describe('recordModelError and modelErrorFromRecord', () => {
  it('keeps what a provider error says of itself, and rebuilds the same class with the same data', () => {
    const cases: ProviderError[] = [
      new ProviderTimeoutError('request timed out after 30000 ms', { model: 'gpt-4o-mini' }),
      new ProviderRateLimitedError('429 slow down', { status: 429, retryAfterMs: 1500, model: 'm' }),
      new ProviderUnavailableError('connect ECONNREFUSED 127.0.0.1:9'),
      new ProviderRequestError('400 content refused', { status: 400, code: 'content_filter', model: 'm' }),
      new ProviderResponseError('the completion has no choices', { status: 200 }),
      new InvalidModelRequestError('messages: at least one'),
    ];
    for (const error of cases) {
      const record = stored(error);
      expect(record).toMatchObject({ name: error.name, message: error.message, retriable: error.retriable });
      const again = modelErrorFromRecord(record);
      expect(again).toBeInstanceOf(error.constructor);
      expect(again).toMatchObject({
        name: error.name,
        message: error.message,
        retriable: error.retriable,
        model: error.model,
        status: error.status,
      });
    }
    expect(stored(cases[0])).toEqual({
      name: 'ProviderTimeoutError',
      message: 'request timed out after 30000 ms',
      timeout: true,
      retriable: true,
      model: 'gpt-4o-mini',
    });
    expect(stored(cases[1])).toMatchObject({ timeout: false, status: 429, retryAfterMs: 1500 });
    expect(modelErrorFromRecord(stored(cases[1]))).toMatchObject({ retryAfterMs: 1500 });
    expect(modelErrorFromRecord(stored(cases[3]))).toMatchObject({ code: 'content_filter', status: 400 });
  });

  it('keeps built-in classes, a retriable flag, a timeout by name, and the name of any other class', () => {
    const plain = modelErrorFromRecord(stored(Object.assign(new Error('rate limited'), { retriable: true })));
    expect(plain.constructor).toBe(Error);
    expect(plain).toMatchObject({ message: 'rate limited', retriable: true });
    expect(modelErrorFromRecord(stored(new TypeError('bad tools')))).toBeInstanceOf(TypeError);
    const aborted = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    expect(stored(aborted)).toMatchObject({ name: 'TimeoutError', timeout: true });
    // A class this package cannot rebuild keeps its name and message, so "Name: message" reads the same.
    const scripted = new UnexpectedModelCallError(0, 'the script ended');
    const rebuilt = modelErrorFromRecord(stored(scripted));
    expect(`${rebuilt.name}: ${rebuilt.message}`).toBe(`${scripted.name}: ${scripted.message}`);
    expect(rebuilt).toMatchObject({ retriable: false });
    expect(stored('a string thrown')).toEqual({ name: 'Error', message: 'a string thrown', timeout: false });
  });
});

describe('replaying a recorded failure', () => {
  const judge: ModelRequest = { messages: [{ role: 'user', content: 'is this a refund receipt?' }] };
  const response = {
    content: 'yes',
    toolCalls: [],
    usage: { inputTokens: 3, outputTokens: 1 },
    model: 'm',
    finishReason: 'stop',
  };

  it('rejects with the recorded error, then gives the later outcomes of the same request in recorded order', async () => {
    const requestHash = hashModelRequest(judge);
    const replay = createReplayProvider([
      { requestHash, request: judge, error: stored(new ProviderTimeoutError('timed out', { model: 'm' })) },
      { requestHash, request: judge, response },
    ]);
    const error = await replay.complete(judge).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ message: 'timed out', retriable: true });
    expect((await replay.complete(judge)).content).toBe('yes');
    expect(replay.callCount).toBe(2);
  });

  it('refuses a recorded failure without an error name, or with a request that does not match its hash', () => {
    const requestHash = hashModelRequest(judge);
    expect(() =>
      createReplayProvider([
        { requestHash, request: judge, error: { name: '', message: 'x', timeout: false } },
      ]),
    ).toThrow(/recorded exchange #0: invalid at error.name/);
    expect(() =>
      createReplayProvider([
        {
          requestHash,
          request: { messages: [{ role: 'user', content: 'else' }] },
          error: stored(new Error('down')),
        },
      ]),
    ).toThrow(/does not match its request/);
  });
});
