// The OpenAI-compatible adapter (IF-4): chat.completions through the official `openai` SDK, which also owns the
// transport retries (429 honouring Retry-After / retry-after-ms, 408, 409, 5xx, connection errors, timeouts).
// What is left after its retries is classified into a `ProviderError` with `retriable` as data.
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import {
  InvalidModelRequestError,
  ProviderError,
  ProviderRateLimitedError,
  ProviderRequestError,
  ProviderResponseError,
  ProviderTimeoutError,
  ProviderUnavailableError,
} from './errors.js';
import {
  ModelRequest,
  type ModelMessage,
  type ModelProvider,
  type ModelResponse,
  type ToolCall,
  type ToolChoice,
} from './model-types.js';
import { parseToolArguments } from './tool-call-arguments.js';

/** How to reach one OpenAI-compatible endpoint for one model — the endpoint part of a registry model profile. */
export interface OpenAiProviderOptions {
  /** Base URL including the API version path, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /** The API key, sent as a bearer token. Never logged and never part of an error message. */
  apiKey: string;
  /** The model name the endpoint knows (`gpt-4.1-mini`, `Qwen/Qwen2.5-7B-Instruct`…). */
  model: string;
  /** Timeout of one HTTP attempt, in milliseconds. @default 60_000 */
  timeoutMs?: number;
  /** Retries of the SDK after the first attempt (429, 408, 409, 5xx, connection errors, timeouts). @default 2 */
  maxRetries?: number;
  /** Extra headers sent with every request (e.g. a gateway's routing header). @default {} */
  defaultHeaders?: Record<string, string>;
  /**
   * The body field `maxTokens` is sent as: `max_tokens` (understood by every OpenAI-compatible server) or
   * `max_completion_tokens` (required by OpenAI's reasoning models). @default 'max_tokens'
   */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
}

/** A `ModelProvider` bound to one endpoint and model. */
export interface OpenAiProvider extends ModelProvider {
  /** The model name requests are sent with. */
  readonly model: string;
  /** The endpoint's base URL (never the key). */
  readonly baseURL: string;
}

interface ResolvedOptions {
  baseURL: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxRetries: number;
  defaultHeaders: Record<string, string>;
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
}

function resolveOptions(options: OpenAiProviderOptions): ResolvedOptions {
  let url: URL;
  try {
    url = new URL(options.baseURL);
  } catch {
    throw new TypeError(`createOpenAiProvider: baseURL is not a URL: ${JSON.stringify(options.baseURL)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createOpenAiProvider: baseURL must be http(s), got ${url.protocol}`);
  }
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    // Local servers (vLLM, Ollama) accept any key; an empty one is almost always a missing secret.
    throw new TypeError(
      'createOpenAiProvider: apiKey is empty (pass any non-empty value for servers without auth)',
    );
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new TypeError('createOpenAiProvider: model is empty');
  }
  const resolved: ResolvedOptions = {
    baseURL: options.baseURL,
    apiKey: options.apiKey,
    model: options.model,
    timeoutMs: options.timeoutMs ?? 60_000,
    maxRetries: options.maxRetries ?? 2,
    defaultHeaders: { ...options.defaultHeaders },
    maxTokensField: options.maxTokensField ?? 'max_tokens',
  };
  if (!Number.isFinite(resolved.timeoutMs) || resolved.timeoutMs <= 0) {
    throw new RangeError(`createOpenAiProvider: timeoutMs must be > 0, got ${resolved.timeoutMs}`);
  }
  if (!Number.isInteger(resolved.maxRetries) || resolved.maxRetries < 0) {
    throw new RangeError(
      `createOpenAiProvider: maxRetries must be an integer >= 0, got ${resolved.maxRetries}`,
    );
  }
  return resolved;
}

/**
 * Creates a provider for one OpenAI-compatible endpoint and model. Options are checked here, before any request:
 * a bad URL, an empty key or model, or a non-positive timeout throws at construction.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): OpenAiProvider {
  const resolved = resolveOptions(options);
  const client = new OpenAI({
    baseURL: resolved.baseURL,
    apiKey: resolved.apiKey,
    timeout: resolved.timeoutMs,
    maxRetries: resolved.maxRetries,
    defaultHeaders: resolved.defaultHeaders,
    // Explicit nulls: the SDK would otherwise pick OPENAI_ORG_ID / OPENAI_PROJECT_ID up from the environment and
    // send them to whatever endpoint this profile names.
    organization: null,
    project: null,
    // The SDK's own logs are off: its debug output would carry request bodies; our callers log identifiers only.
    logLevel: 'off',
  });

  return {
    model: resolved.model,
    baseURL: resolved.baseURL,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      const parsed = ModelRequest.safeParse(request);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const path = issue?.path.join('.') ?? '';
        throw new InvalidModelRequestError(
          `invalid model request at ${path || '(root)'}: ${issue?.message ?? ''}`,
          {
            model: resolved.model,
          },
        );
      }
      const body = toChatCompletionParams(parsed.data, resolved);
      let completion: ChatCompletion;
      try {
        completion = await client.chat.completions.create(body);
      } catch (error) {
        throw toProviderError(error, resolved);
      }
      return fromChatCompletion(completion, resolved.model);
    },
  };
}

function toMessageParam(message: ModelMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0
          ? {
              tool_calls: message.toolCalls.map((call) => ({
                id: call.id,
                type: 'function' as const,
                function: { name: call.name, arguments: call.rawArguments },
              })),
            }
          : {}),
      };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

function toToolChoice(choice: ToolChoice): ChatCompletionToolChoiceOption {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** Maps a validated request onto the chat-completions body. */
function toChatCompletionParams(
  request: ModelRequest,
  options: Pick<ResolvedOptions, 'model' | 'maxTokensField'>,
): ChatCompletionCreateParamsNonStreaming {
  const body: ChatCompletionCreateParamsNonStreaming = {
    model: options.model,
    messages: request.messages.map(toMessageParam),
  };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool): ChatCompletionTool => ({
      type: 'function',
      function: {
        name: tool.name,
        parameters: tool.parameters,
        ...(tool.description === undefined ? {} : { description: tool.description }),
        ...(tool.strict === undefined ? {} : { strict: tool.strict }),
      },
    }));
  }
  if (request.toolChoice !== undefined) body.tool_choice = toToolChoice(request.toolChoice);
  if (request.responseFormat !== undefined) {
    body.response_format = {
      type: 'json_schema',
      json_schema: {
        name: request.responseFormat.name ?? 'response',
        schema: request.responseFormat.schema,
        strict: request.responseFormat.strict ?? true,
      },
    };
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxTokens !== undefined) body[options.maxTokensField] = request.maxTokens;
  return body;
}

function fromChatCompletion(completion: ChatCompletion, model: string): ModelResponse {
  // Some OpenAI-compatible servers answer 200 with an error object and no choices; guard the shape ourselves.
  const choices = (completion as Partial<ChatCompletion>).choices;
  const choice = Array.isArray(choices) ? choices[0] : undefined;
  if (!choice?.message) {
    throw new ProviderResponseError('the endpoint answered without a choice (no message in `choices`)', {
      model,
    });
  }
  const toolCalls: ToolCall[] = [];
  for (const call of choice.message.tool_calls ?? []) {
    // Custom (free-form) tools are never offered by this adapter; an endpoint inventing one is reported as a call
    // whose arguments cannot be used rather than dropped.
    if (call.type !== 'function') {
      toolCalls.push({
        id: call.id,
        name: call.custom.name,
        arguments: null,
        rawArguments: call.custom.input,
        argumentsError: 'custom tool calls are not supported',
      });
      continue;
    }
    const rawArguments = typeof call.function.arguments === 'string' ? call.function.arguments : '';
    toolCalls.push({
      id: call.id,
      name: call.function.name,
      rawArguments,
      ...parseToolArguments(rawArguments),
    });
  }
  return {
    content: choice.message.content ?? null,
    toolCalls,
    usage: {
      inputTokens: completion.usage?.prompt_tokens ?? 0,
      outputTokens: completion.usage?.completion_tokens ?? 0,
    },
    model: typeof completion.model === 'string' && completion.model !== '' ? completion.model : model,
    finishReason: typeof choice.finish_reason === 'string' ? choice.finish_reason : 'unknown',
  };
}

/** Milliseconds from `retry-after-ms`, or `Retry-After` as seconds or an HTTP date; undefined when unusable. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const millis = headers?.get('retry-after-ms');
  if (millis != null && millis.trim() !== '' && Number.isFinite(Number(millis))) {
    return Math.max(0, Number(millis));
  }
  const value = headers?.get('retry-after');
  if (value == null || value.trim() === '') return undefined;
  if (Number.isFinite(Number(value))) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function redact(text: string, apiKey: string): string {
  return text.split(apiKey).join('[redacted]');
}

function mentionsKey(error: APIError, apiKey: string): boolean {
  if (error.message.includes(apiKey)) return true;
  try {
    return JSON.stringify(error.error ?? null).includes(apiKey);
  } catch {
    return true;
  }
}

function toProviderError(error: unknown, options: ResolvedOptions): unknown {
  const { model, apiKey } = options;
  if (error instanceof ProviderError) return error;
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderTimeoutError(`model ${model}: no answer within ${options.timeoutMs} ms`, {
      model,
      cause: error,
    });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return new ProviderUnavailableError(`model ${model}: endpoint unreachable: ${redact(reason, apiKey)}`, {
      model,
      cause: error,
    });
  }
  if (error instanceof APIError) {
    // `instanceof` narrows to APIError<any, any, any>; pin the SDK's declared defaults instead.
    const apiError = error as APIError;
    const status = typeof apiError.status === 'number' ? apiError.status : undefined;
    const detail = redact(apiError.message, apiKey);
    // A server that echoes the key (some do, in "invalid key" messages) must not smuggle it out through `cause`.
    const cause = mentionsKey(apiError, apiKey) ? undefined : apiError;
    const base = { model, ...(status === undefined ? {} : { status }), ...(cause ? { cause } : {}) };
    if (status === 429) {
      const wait = retryAfterMs(apiError.headers);
      return new ProviderRateLimitedError(`model ${model}: rate limited: ${detail}`, {
        ...base,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
      });
    }
    if (status === 408) return new ProviderTimeoutError(`model ${model}: request timeout: ${detail}`, base);
    if (status !== undefined && status >= 500) {
      return new ProviderUnavailableError(`model ${model}: server error: ${detail}`, base);
    }
    const code = typeof apiError.code === 'string' ? apiError.code : undefined;
    return new ProviderRequestError(`model ${model}: request refused: ${detail}`, {
      ...base,
      ...(code === undefined ? {} : { code }),
    });
  }
  // Programmer errors (TypeError…) and anything unknown pass through untouched: retrying cannot fix them.
  return error;
}
