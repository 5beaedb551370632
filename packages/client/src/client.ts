import { randomUUID } from 'node:crypto';
import {
  argumentsHash,
  type AnswerAccepted,
  type AnswerRequest,
  type ErrorResponse,
  type SubmitTaskRequest,
  type TaskAccepted,
  type TaskEventType,
  type TaskStatus,
  type TraceEventDetail,
  type TraceList,
  type TraceListItem,
  type TraceTimeline,
} from '@signalbox/contracts';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import {
  SignalboxApiError,
  SignalboxClientError,
  SignalboxConnectionError,
  SignalboxTimeoutError,
} from './errors.js';

/** Options of {@link createSignalboxClient}; checked once, a bad value throws before any request. */
export interface SignalboxClientOptions {
  /** Where the API is, e.g. `http://127.0.0.1:8080` (the client appends the `/v1/…` paths). */
  baseUrl: string | URL;
  /** A tenant API key (sent as `Authorization: Bearer <key>`). */
  apiKey: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /**
   * How many times a call that failed retriably (`503`, an unreachable API) is made again. Submissions are retried
   * with the same Idempotency-Key and answers are deterministic on the server, so a retry never starts a task twice.
   * @default 3
   */
  maxRetries?: number;
  /** The first retry's delay; it doubles, capped at 5 s, jittered (or the API's `Retry-After`). @default 250 */
  retryDelayMs?: number;
  /** How long one request may take (event streams excepted). @default 30000 */
  requestTimeoutMs?: number;
}

/** Options of {@link SignalboxClient.submitTask}. */
export interface SubmitOptions {
  /**
   * `Idempotency-Key`: the same key of the same tenant always names the same task, so a submission sent again (by
   * this client's retries or by the caller) never runs twice. @default a random UUID per call
   */
  idempotencyKey?: string;
  /** A W3C `traceparent` to join the caller's trace (OB-2). */
  traceparent?: string;
  signal?: AbortSignal;
}

/** What {@link SignalboxClient.submitTask} answers. */
export interface SubmittedTask extends TaskAccepted {
  /** The Idempotency-Key the task was submitted with. */
  idempotency_key: string;
  /** True when an earlier submission with this key made the task (`Idempotent-Replayed`). */
  replayed: boolean;
}

/** A confirmation of one exact call (EX-2): by its real arguments (hashed here), or by the hash the API gave. */
export type ConfirmationInput =
  | { tool: string; arguments: unknown; arguments_hash?: undefined }
  | { tool: string; arguments_hash: string; arguments?: unknown };

/** One server-sent event of a task (see `GET /v1/tasks/:id/events`). */
export interface TaskEvent {
  /** `status`: the task moved on; `end`: it is finished or failed, and the stream ends. */
  type: TaskEventType;
  status: TaskStatus;
}

/** Options of {@link SignalboxClient.waitForTask}. */
export interface WaitOptions {
  /** `events`: follow the server-sent events; `poll`: read the task with backoff. @default 'events' */
  via?: 'events' | 'poll';
  /** Give up (SignalboxTimeoutError) after this long. @default 120000 */
  timeoutMs?: number;
  /** Called with each status seen while waiting. */
  onStatus?: (status: TaskStatus) => void;
  /** The first delay between two reads when polling; it grows by half up to 5 s. @default 250 */
  pollIntervalMs?: number;
  signal?: AbortSignal;
}

/** `GET /v1/traces` filters (EL-5); the tenant is always the key's. */
export interface TraceQuery {
  status?: 'success' | 'partial_success' | 'failed' | 'need_clarification';
  degraded?: boolean;
  revision_count_above?: number;
  tool?: string;
  agent?: string;
  from?: string | Date;
  to?: string | Date;
  /** Page size, 1–200. @default 50 */
  limit?: number;
  /** `next_cursor` of the previous page. */
  cursor?: string;
}

/** The typed client of the Signalbox HTTP API. */
export interface SignalboxClient {
  /** `POST /v1/tasks`, with an Idempotency-Key (a fresh one unless given). */
  submitTask(task: SubmitTaskRequest, options?: SubmitOptions): Promise<SubmittedTask>;
  /** `GET /v1/tasks/:id`. */
  getTask(taskId: string, options?: { signal?: AbortSignal }): Promise<TaskStatus>;
  /** `GET /v1/tasks/:id/events`: the task's events as they come; ends after the `end` event or when the stream does. */
  taskEvents(taskId: string, options?: { signal?: AbortSignal }): AsyncGenerator<TaskEvent, void, undefined>;
  /** Waits until the task is finished or failed; answers its final status. */
  waitForTask(taskId: string, options?: WaitOptions): Promise<TaskStatus>;
  /** `POST /v1/tasks/:id/answers` with an answer to the task's questions (and optionally a confirmation). */
  answer(taskId: string, body: AnswerRequest, options?: { signal?: AbortSignal }): Promise<AnswerAccepted>;
  /**
   * Confirms a pending call (EX-2). Given the call's `arguments`, the client computes `arguments_hash` exactly as the
   * executor does (sha256 of the RFC 8785 canonical JSON); given `arguments_hash` (a task's `pending_confirmation`,
   * whose shown arguments are redacted), it sends that hash.
   */
  confirm(
    taskId: string,
    confirmation: ConfirmationInput,
    options?: { answer?: string; signal?: AbortSignal },
  ): Promise<AnswerAccepted>;
  /** `GET /v1/traces`: one page. */
  listTraces(query?: TraceQuery, options?: { signal?: AbortSignal }): Promise<TraceList>;
  /** Every trace matching `query`, page after page. */
  traces(
    query?: TraceQuery,
    options?: { signal?: AbortSignal },
  ): AsyncGenerator<TraceListItem, void, undefined>;
  /** `GET /v1/traces/:taskId`: the task's timeline. */
  getTrace(taskId: string, options?: { signal?: AbortSignal }): Promise<TraceTimeline>;
  /** `GET /v1/traces/:taskId/events/:eventId`: one decision with its payload. */
  getTraceEvent(
    taskId: string,
    eventId: string,
    options?: { signal?: AbortSignal },
  ): Promise<TraceEventDetail>;
}

interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

const MAX_DELAY_MS = 5000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

/** A client of the API at `options.baseUrl` with `options.apiKey`. */
export function createSignalboxClient(options: SignalboxClientOptions): SignalboxClient {
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${String(options.baseUrl)}`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`baseUrl must be http(s), got ${base.protocol}`);
  }
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
    throw new TypeError('apiKey is empty: pass a tenant API key');
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const maxRetries = nonNegativeInteger('maxRetries', options.maxRetries ?? 3);
  const retryDelayMs = nonNegativeInteger('retryDelayMs', options.retryDelayMs ?? 250);
  const requestTimeoutMs = nonNegativeInteger('requestTimeoutMs', options.requestTimeoutMs ?? 30_000);
  const authorization = `Bearer ${options.apiKey}`;
  // A base URL with a path (`https://host/signalbox/`) keeps it: `/v1/…` is appended, not put at the root.
  const urlOf = (path: string) => new URL(`${base.pathname.replace(/\/$/, '')}${path}`, base);

  const failure = async (response: Response, what: string): Promise<SignalboxApiError> => {
    const text = await response.text().catch(() => '');
    let body: Partial<ErrorResponse> = {};
    try {
      body = JSON.parse(text) as Partial<ErrorResponse>;
    } catch {
      // Not the API's JSON (a proxy's page): the status says what happened.
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    return new SignalboxApiError(
      response.status,
      body.error?.code ?? `http_${String(response.status)}`,
      body.error?.message ?? (text.slice(0, 200) || response.statusText),
      body.error?.fields ?? [],
      what,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined,
    );
  };

  /** One request, without retries: the response when it is a 2xx, else the API's error. */
  const send = async (spec: RequestSpec, accept: string, timeout: boolean): Promise<Response> => {
    const what = `${spec.method} ${spec.path}`;
    const signals = [spec.signal, timeout ? AbortSignal.timeout(requestTimeoutMs) : undefined].filter(
      (s): s is AbortSignal => s !== undefined,
    );
    let response: Response;
    try {
      response = await fetchImpl(urlOf(spec.path), {
        method: spec.method,
        headers: {
          authorization,
          accept,
          ...(spec.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...spec.headers,
        },
        ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
        ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
      });
    } catch (error) {
      // The caller's own abort is theirs to handle, not a connection problem.
      if (spec.signal?.aborted) throw spec.signal.reason;
      const reason = (error as Error).name === 'TimeoutError' ? 'did not answer in time' : 'is unreachable';
      throw new SignalboxConnectionError(`${what}: the API at ${base.origin} ${reason}`, { cause: error });
    }
    if (!response.ok) throw await failure(response, what);
    return response;
  };

  /** A JSON request, retried while it fails retriably. */
  const request = async (spec: RequestSpec): Promise<{ body: unknown; response: Response }> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await send(spec, 'application/json', true);
        return { body: await response.json(), response };
      } catch (error) {
        if (!(error instanceof SignalboxClientError) || !error.retriable || attempt >= maxRetries)
          throw error;
        const backoff = Math.min(MAX_DELAY_MS, retryDelayMs * 2 ** attempt) * (0.5 + Math.random() / 2);
        const asked = error instanceof SignalboxApiError ? error.retryAfterMs : undefined;
        await sleep(Math.max(backoff, asked ?? 0), spec.signal);
      }
    }
  };

  const taskPath = (taskId: string) => `/v1/tasks/${encodeURIComponent(taskId)}`;
  const tracePath = (taskId: string) => `/v1/traces/${encodeURIComponent(taskId)}`;

  async function* taskEvents(
    taskId: string,
    eventOptions: { signal?: AbortSignal } = {},
  ): AsyncGenerator<TaskEvent, void, undefined> {
    const response = await send(
      { method: 'GET', path: `${taskPath(taskId)}/events`, signal: eventOptions.signal },
      'text/event-stream',
      false,
    );
    if (!response.body) return;
    const pending: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (message) => pending.push(message) });
    const decoder = new TextDecoder();
    const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
        while (pending.length > 0) {
          const message = pending.shift();
          if (message === undefined) break;
          if (message.event === 'error') {
            const body = JSON.parse(message.data) as ErrorResponse;
            throw new SignalboxApiError(
              200,
              body.error.code,
              body.error.message,
              [],
              `GET ${taskPath(taskId)}/events`,
            );
          }
          if (message.event !== 'status' && message.event !== 'end') continue;
          const event: TaskEvent = { type: message.event, status: JSON.parse(message.data) as TaskStatus };
          yield event;
          if (event.type === 'end') return;
        }
      }
    } finally {
      // Closing the body ends the request: the server stops following the task.
      await reader.cancel().catch(() => undefined);
    }
  }

  const waitByEvents = async (taskId: string, signal: AbortSignal, onStatus: (s: TaskStatus) => void) => {
    for (let attempt = 0; ; attempt++) {
      try {
        for await (const event of taskEvents(taskId, { signal })) {
          onStatus(event.status);
          if (event.type === 'end') return event.status;
          attempt = 0;
        }
      } catch (error) {
        if (signal.aborted || !(error instanceof SignalboxClientError) || !error.retriable) throw error;
      }
      // The stream ended before the task did (a restart, a proxy's idle timeout): open a new one.
      await sleep(Math.min(MAX_DELAY_MS, retryDelayMs * 2 ** Math.min(attempt, 5)), signal);
    }
  };

  const waitByPolling = async (
    taskId: string,
    signal: AbortSignal,
    onStatus: (s: TaskStatus) => void,
    first: number,
  ) => {
    let delay = first;
    let last: string | undefined;
    for (;;) {
      const status = (await request({ method: 'GET', path: taskPath(taskId), signal })).body as TaskStatus;
      if (status.last_event.event_id !== last) onStatus(status);
      last = status.last_event.event_id;
      if (status.state !== 'running') return status;
      await sleep(delay, signal);
      delay = Math.min(MAX_DELAY_MS, Math.round(delay * 1.5));
    }
  };

  const queryString = (query: TraceQuery): string => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query) as [
      string,
      string | number | boolean | Date | undefined,
    ][]) {
      if (value === undefined) continue;
      params.set(key, value instanceof Date ? value.toISOString() : String(value));
    }
    const text = params.toString();
    return text === '' ? '' : `?${text}`;
  };

  const client: SignalboxClient = {
    async submitTask(task, submitOptions = {}) {
      const key = submitOptions.idempotencyKey ?? randomUUID();
      const { body, response } = await request({
        method: 'POST',
        path: '/v1/tasks',
        body: task,
        headers: {
          'idempotency-key': key,
          ...(submitOptions.traceparent !== undefined ? { traceparent: submitOptions.traceparent } : {}),
        },
        signal: submitOptions.signal,
      });
      return {
        ...(body as TaskAccepted),
        idempotency_key: key,
        replayed: response.headers.get('idempotent-replayed') === 'true',
      };
    },

    async getTask(taskId, getOptions = {}) {
      return (await request({ method: 'GET', path: taskPath(taskId), signal: getOptions.signal }))
        .body as TaskStatus;
    },

    taskEvents,

    async waitForTask(taskId, waitOptions = {}) {
      const timeoutMs = waitOptions.timeoutMs ?? 120_000;
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = waitOptions.signal ? AbortSignal.any([waitOptions.signal, timeout]) : timeout;
      const onStatus = waitOptions.onStatus ?? (() => undefined);
      try {
        return waitOptions.via === 'poll'
          ? await waitByPolling(taskId, signal, onStatus, waitOptions.pollIntervalMs ?? 250)
          : await waitByEvents(taskId, signal, onStatus);
      } catch (error) {
        if (timeout.aborted && !waitOptions.signal?.aborted) {
          throw new SignalboxTimeoutError(taskId, timeoutMs);
        }
        throw error;
      }
    },

    async answer(taskId, body, answerOptions = {}) {
      return (
        await request({
          method: 'POST',
          path: `${taskPath(taskId)}/answers`,
          body,
          signal: answerOptions.signal,
        })
      ).body as AnswerAccepted;
    },

    async confirm(taskId, confirmation, confirmOptions = {}) {
      const hash =
        confirmation.arguments_hash !== undefined
          ? confirmation.arguments_hash
          : argumentsHash(confirmation.arguments);
      return client.answer(
        taskId,
        {
          ...(confirmOptions.answer !== undefined ? { answer: confirmOptions.answer } : {}),
          confirmation: { tool: confirmation.tool, arguments_hash: hash },
        },
        confirmOptions.signal ? { signal: confirmOptions.signal } : {},
      );
    },

    async listTraces(query = {}, listOptions = {}) {
      return (
        await request({
          method: 'GET',
          path: `/v1/traces${queryString(query)}`,
          signal: listOptions.signal,
        })
      ).body as TraceList;
    },

    async *traces(query = {}, listOptions = {}) {
      let cursor = query.cursor;
      do {
        const page = await client.listTraces(
          { ...query, ...(cursor !== undefined ? { cursor } : {}) },
          listOptions,
        );
        yield* page.traces;
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined);
    },

    async getTrace(taskId, traceOptions = {}) {
      return (await request({ method: 'GET', path: tracePath(taskId), signal: traceOptions.signal }))
        .body as TraceTimeline;
    },

    async getTraceEvent(taskId, eventId, traceOptions = {}) {
      return (
        await request({
          method: 'GET',
          path: `${tracePath(taskId)}/events/${encodeURIComponent(eventId)}`,
          signal: traceOptions.signal,
        })
      ).body as TraceEventDetail;
    },
  };
  return client;
}
