import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
  InvalidModelRequestError,
} from './errors.js';
import type { ModelRequest } from './model-types.js';
import { createOpenAiProvider, retryAfterMs } from './openai-provider.js';

// A tiny chat-completions server: each test queues the answers it wants and inspects the requests it received.

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  delayMs?: number;
}

interface FakeEndpoint {
  baseURL: string;
  received: Received[];
  answer(...answers: Answer[]): void;
}

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    ),
  );
});

async function startEndpoint(): Promise<FakeEndpoint> {
  const received: Received[] = [];
  const queue: Answer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      });
      const answer = queue.shift() ?? { status: 500, body: { error: { message: 'no answer queued' } } };
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
        res.end(JSON.stringify(answer.body ?? {}));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    answer: (...answers) => queue.push(...answers),
  };
}

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}): Answer {
  return {
    body: {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'test-model-2025',
      choices: [
        { index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop', logprobs: null },
      ],
      usage: { prompt_tokens: 42, completion_tokens: 7, total_tokens: 49 },
      ...extra,
    },
  };
}

const API_KEY = 'sk-test-SECRET-0123456789';

const weatherTool = {
  name: 'weather_query',
  description: 'Current weather of a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
  },
};

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You call tools.' },
    { role: 'user', content: 'Weather in Paris and Lyon?' },
  ],
  tools: [weatherTool],
  toolChoice: 'required',
  temperature: 0,
  maxTokens: 256,
};

describe('createOpenAiProvider', () => {
  it('sends model, messages, tools and tool_choice, and parses tool calls and usage', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer({
      body: {
        ...completion({}).body!,
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'c1',
                  type: 'function',
                  function: { name: 'weather_query', arguments: '{"city":"Paris"}' },
                },
                {
                  id: 'c2',
                  type: 'function',
                  function: { name: 'weather_query', arguments: '{"city":"Lyon","unit":"c"}' },
                },
              ],
            },
          },
        ],
      },
    });
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'test-model',
      defaultHeaders: { 'x-gateway-route': 'blue' },
    });

    const response = await provider.complete(request);

    expect(endpoint.received).toHaveLength(1);
    const sent = endpoint.received[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers['x-gateway-route']).toBe('blue');
    expect(sent.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'You call tools.' },
        { role: 'user', content: 'Weather in Paris and Lyon?' },
      ],
      tools: [{ type: 'function', function: weatherTool }],
      tool_choice: 'required',
      temperature: 0,
      max_tokens: 256,
    });
    expect(response).toEqual({
      content: null,
      toolCalls: [
        {
          id: 'c1',
          name: 'weather_query',
          arguments: { city: 'Paris' },
          rawArguments: '{"city":"Paris"}',
          argumentsError: null,
        },
        {
          id: 'c2',
          name: 'weather_query',
          arguments: { city: 'Lyon', unit: 'c' },
          rawArguments: '{"city":"Lyon","unit":"c"}',
          argumentsError: null,
        },
      ],
      usage: { inputTokens: 42, outputTokens: 7 },
      model: 'test-model-2025',
      finishReason: 'tool_calls',
    });
  });

  it('sends a named tool choice, response_format json_schema and tool-call history', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(completion({ content: '{"label":"tool_use"}' }));
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'm',
      maxTokensField: 'max_completion_tokens',
    });
    const schema = { type: 'object', properties: { label: { type: 'string' } }, required: ['label'] };

    const response = await provider.complete({
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          toolCalls: [{ id: 'c1', name: 'weather_query', rawArguments: '{"city":"Paris"}' }],
        },
        { role: 'tool', toolCallId: 'c1', content: '{"temp":21}' },
      ],
      tools: [weatherTool],
      toolChoice: { name: 'weather_query' },
      responseFormat: { name: 'labels', schema },
      maxTokens: 32,
    });

    const body = endpoint.received[0]!.body;
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'weather_query' } });
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'labels', schema, strict: true },
    });
    expect(body.max_completion_tokens).toBe(32);
    expect(body).not.toHaveProperty('max_tokens');
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'weather_query', arguments: '{"city":"Paris"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
    ]);
    expect(response.content).toBe('{"label":"tool_use"}');
    expect(response.toolCalls).toEqual([]);
    expect(response.finishReason).toBe('stop');
  });

  it('reports malformed tool-call arguments instead of dropping the call', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(
      completion({
        content: null,
        tool_calls: [
          { id: 'bad', type: 'function', function: { name: 'weather_query', arguments: '{"city": "Par' } },
          { id: 'arr', type: 'function', function: { name: 'weather_query', arguments: '["Paris"]' } },
          { id: 'empty', type: 'function', function: { name: 'weather_query', arguments: '' } },
        ],
      }),
    );
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    const { toolCalls } = await provider.complete(request);

    expect(toolCalls).toHaveLength(3);
    expect(toolCalls[0]).toMatchObject({ id: 'bad', arguments: null, rawArguments: '{"city": "Par' });
    expect(toolCalls[0]!.argumentsError).toMatch(/not valid JSON/);
    expect(toolCalls[1]).toMatchObject({ id: 'arr', arguments: null, rawArguments: '["Paris"]' });
    expect(toolCalls[1]!.argumentsError).toMatch(/must be a JSON object, got an array/);
    expect(toolCalls[2]).toMatchObject({ id: 'empty', arguments: {}, argumentsError: null });
  });

  it('waits for Retry-After on a 429, then succeeds', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(
      { status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down' } } },
      completion({ content: 'ok' }),
    );
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    const started = Date.now();
    const response = await provider.complete(request);

    expect(response.content).toBe('ok');
    expect(endpoint.received).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('classifies a 429 left after the retries as rate limited with the Retry-After hint', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer({ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'quota' } } });
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'm',
      maxRetries: 0,
    });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderRateLimitedError);
    expect(error).toMatchObject({ retriable: true, retryAfterMs: 7000, status: 429, model: 'm' });
    expect(endpoint.received).toHaveLength(1);
  });

  it('retries a 500, then succeeds', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(
      { status: 500, body: { error: { message: 'boom' } } },
      completion({ content: 'recovered' }),
    );
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    const response = await provider.complete(request);

    expect(response.content).toBe('recovered');
    expect(endpoint.received).toHaveLength(2);
  });

  it('reports a 5xx left after the retries as retriable unavailability', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(
      { status: 503, headers: { 'retry-after-ms': '1' }, body: { error: { message: 'down' } } },
      {
        status: 503,
        body: { error: { message: 'still down' } },
      },
    );
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'm',
      maxRetries: 1,
    });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ retriable: true, status: 503 });
    expect(endpoint.received).toHaveLength(2);
  });

  it('does not retry a 400 and reports it as a non-retriable request error with its code', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer(
      {
        status: 400,
        body: { error: { message: 'Invalid schema for function', code: 'invalid_function_parameters' } },
      },
      completion({ content: 'must not be reached' }),
    );
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'm',
      maxRetries: 3,
    });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderRequestError);
    expect(error).toMatchObject({ retriable: false, status: 400, code: 'invalid_function_parameters' });
    expect((error as Error).message).toContain('Invalid schema for function');
    expect(endpoint.received).toHaveLength(1);
  });

  it('never puts the API key into an error, even when the server echoes it', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer({ status: 401, body: { error: { message: `Incorrect API key provided: ${API_KEY}` } } });
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderRequestError);
    expect((error as Error).message).toContain('[redacted]');
    expect(inspect(error, { depth: 10 })).not.toContain(API_KEY);
    expect(JSON.stringify(error)).not.toContain(API_KEY);
  });

  it('times out a slow endpoint as a retriable timeout', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer({ ...completion({ content: 'late' }), delayMs: 1_000 });
    const provider = createOpenAiProvider({
      baseURL: endpoint.baseURL,
      apiKey: API_KEY,
      model: 'm',
      timeoutMs: 100,
      maxRetries: 0,
    });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect(error).toMatchObject({ retriable: true });
  });

  it('reports an unreachable endpoint as retriable unavailability', async () => {
    const endpoint = await startEndpoint();
    const baseURL = endpoint.baseURL;
    await new Promise<void>((resolve) =>
      servers.pop()!.close(() => {
        resolve();
      }),
    );
    const provider = createOpenAiProvider({ baseURL, apiKey: API_KEY, model: 'm', maxRetries: 0 });

    const error = await provider.complete(request).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(error).toMatchObject({ retriable: true, status: undefined });
  });

  it('reports a 200 without choices as a response error', async () => {
    const endpoint = await startEndpoint();
    endpoint.answer({ body: { id: 'x', object: 'chat.completion', model: 'm', choices: [] } });
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    await expect(provider.complete(request)).rejects.toBeInstanceOf(ProviderResponseError);
  });

  it('refuses an invalid request before sending anything', async () => {
    const endpoint = await startEndpoint();
    const provider = createOpenAiProvider({ baseURL: endpoint.baseURL, apiKey: API_KEY, model: 'm' });

    await expect(provider.complete({ messages: [] })).rejects.toBeInstanceOf(InvalidModelRequestError);
    expect(endpoint.received).toHaveLength(0);
  });

  it('throws at construction on bad options', () => {
    const ok = { baseURL: 'http://127.0.0.1:1/v1', apiKey: 'k', model: 'm' };
    expect(() => createOpenAiProvider({ ...ok, baseURL: 'not a url' })).toThrow(/baseURL/);
    expect(() => createOpenAiProvider({ ...ok, baseURL: 'ftp://host/v1' })).toThrow(/http/);
    expect(() => createOpenAiProvider({ ...ok, apiKey: '' })).toThrow(/apiKey/);
    expect(() => createOpenAiProvider({ ...ok, model: ' ' })).toThrow(/model/);
    expect(() => createOpenAiProvider({ ...ok, timeoutMs: 0 })).toThrow(RangeError);
    expect(() => createOpenAiProvider({ ...ok, maxRetries: -1 })).toThrow(RangeError);
    expect(createOpenAiProvider(ok)).toMatchObject({ model: 'm', baseURL: ok.baseURL });
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, Retry-After seconds and Retry-After dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});
