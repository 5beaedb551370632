import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ErrorClass } from '@signalbox/contracts';
import { CONNECTION_ERRORS } from './connection-errors.js';
import { ExecutorConfigError, SsrfRefusedError, ToolCallError } from './errors.js';
import { declaredError, reportedError, shortText } from './declared-errors.js';
import type { ResolvedAddress, SsrfGuard } from './ssrf-guard.js';
import type { ToolInvocation, TransportAdapter } from './transport.js';

/** Options of {@link createHttpTransport}. */
export interface HttpTransportOptions {
  /** The SSRF guard every target passes (RS-6). */
  guard: SsrfGuard;
  /** Where `base_url_env` and `auth_secret_env` are read. @default process.env */
  env?: NodeJS.ProcessEnv;
  /** Responses larger than this are refused as `internal`. @default 10 MiB */
  maxResponseBytes?: number;
  /**
   * Idle keep-alive connections are closed after this (below the 5 s keep-alive timeout of Node servers, so an
   * idle connection is not reused just as the server closes it; a `Keep-Alive: timeout=` hint shortens it further).
   * @default 4000
   */
  keepAliveIdleMs?: number;
}

/** What one attempt learned about its connection, for the caller's fresh-connection retry. */
interface SendState {
  /** The request went out on a pooled keep-alive connection. */
  reusedSocket: boolean;
  /** The whole request was handed to the connection (so the tool may have received it). */
  sent: boolean;
  /** A response (status line) arrived. */
  answered: boolean;
  /** The attempt failed with a connection error (see CONNECTION_ERRORS). */
  connectionFailed: boolean;
}

interface HttpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** EX-5 class of an HTTP status, before the tool's declared error codes are consulted. */
export function classifyStatus(status: number): ErrorClass {
  if (status === 401 || status === 403) return 'permission';
  if (status === 429) return 'rate_limited';
  // Every call carries an Idempotency-Key; a 409 answers a request whose key is still being processed (IETF
  // draft-ietf-httpapi-idempotency-key-header: "the resource server MUST reply with an HTTP 409 status code" when a
  // request is retried while the original is in flight — the case of an executor restarted mid-call). Sent again
  // later, the same key gets the stored outcome: transient, not a parameter to re-ask.
  if (status === 409) return 'transient';
  if (status === 408 || status >= 500) return status === 501 ? 'capability_mismatch' : 'transient';
  if (status === 405) return 'capability_mismatch';
  return 'parameter';
}

function targetUrl(invocation: ToolInvocation, env: NodeJS.ProcessEnv): URL {
  const binding = invocation.tool.transport;
  if (binding?.kind !== 'http') throw new ExecutorConfigError(`${invocation.tool.name} has no http binding`);
  if (binding.base_url_env) {
    const base = env[binding.base_url_env];
    if (!base)
      throw new ExecutorConfigError(
        `${binding.base_url_env} (base URL of ${invocation.tool.name}) is not set`,
      );
    return new URL(binding.url.replace(/^\/?/, ''), base.endsWith('/') ? base : `${base}/`);
  }
  return new URL(binding.url);
}

// Connects to an address the guard vetted instead of resolving the name again, so DNS cannot change the answer
// between the check and the connection (rebinding). TLS still verifies the certificate against the host name.
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const all = (options as { all?: boolean }).all === true;
    const first = addresses[0];
    if (!first) {
      callback(new Error('no vetted address'), '', 4);
      return;
    }
    if (all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
}

/**
 * EX-1 HTTP adapter: JSON over HTTP. GET sends the arguments as query parameters, other methods as a JSON body.
 * Sends `Idempotency-Key`, and `Authorization: Bearer <secret>` read from the environment variable the binding
 * names (the secret never appears in errors or events). Statuses map to EX-5 classes; a declared error code in
 * the body (`{ "error": { "code": … } }`) takes its declared class and retriability.
 */
export function createHttpTransport(options: HttpTransportOptions): TransportAdapter {
  const env = options.env ?? process.env;
  const maxBytes = options.maxResponseBytes ?? 10 * 1024 * 1024;
  const idleMs = options.keepAliveIdleMs ?? 4000;
  // The transport's own connection pools, so a connection failure can drop exactly the pooled connections to the
  // failed peer (never shared with other code in the process, as http.globalAgent would be).
  const agents = {
    http: new http.Agent({ keepAlive: true, timeout: idleMs, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, timeout: idleMs, scheduling: 'lifo' }),
  };

  /** Closes every idle pooled connection to the URL's host and port (agent names start with `host:port:`). */
  function dropIdleConnections(url: URL): void {
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const prefix = `${url.hostname.replace(/^\[|\]$/g, '')}:${port}:`;
    for (const [name, sockets] of Object.entries(agent.freeSockets)) {
      if (name.startsWith(prefix)) for (const socket of sockets ?? []) socket.destroy();
    }
  }

  function send(
    url: URL,
    invocation: ToolInvocation,
    addresses: ResolvedAddress[],
    timeoutMs: number,
    fresh: boolean,
    state: SendState,
  ): Promise<HttpResponse> {
    const binding = invocation.tool.transport;
    const method = binding?.kind === 'http' ? binding.method : 'POST';
    const headers: Record<string, string> = {
      accept: 'application/json',
      'idempotency-key': invocation.idempotencyKey,
    };
    if (binding?.kind === 'http' && binding.auth_secret_env) {
      const secret = env[binding.auth_secret_env];
      if (!secret) {
        return Promise.reject(
          new ToolCallError(
            'permission',
            `the credential variable ${binding.auth_secret_env} is not set`,
            invocation.tool.name,
          ),
        );
      }
      headers.authorization = `Bearer ${secret}`;
    }
    let body: string | undefined;
    if (method === 'GET') {
      for (const [k, v] of Object.entries(invocation.arguments))
        url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
    } else {
      body = JSON.stringify(invocation.arguments);
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const client = url.protocol === 'https:' ? https : http;
    const tool = invocation.tool.name;
    return new Promise<HttpResponse>((resolve, reject) => {
      const req = client.request(url, {
        method,
        headers,
        lookup: pinnedLookup(addresses),
        timeout: timeoutMs,
        // A retry after a failed pooled connection goes out on a connection of its own.
        agent: fresh ? false : url.protocol === 'https:' ? agents.https : agents.http,
      });
      const timer = setTimeout(() => {
        // A pooled connection that never answered may be one of several to a peer that vanished without closing
        // them (a host gone, a network partition): the next call starts on fresh connections.
        if (req.reusedSocket && !state.answered) dropIdleConnections(url);
        req.destroy(
          new ToolCallError(
            'transient',
            `${tool}: no response within ${String(invocation.timeoutMs)} ms`,
            tool,
            {
              code: 'timeout',
              mayHaveActed: state.sent,
            },
          ),
        );
      }, timeoutMs);
      req.on('finish', () => {
        state.sent = true;
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        state.reusedSocket = req.reusedSocket;
        if (err instanceof ToolCallError) {
          reject(err);
          return;
        }
        const code = (err as NodeJS.ErrnoException).code;
        const connectionFailed = code !== undefined && CONNECTION_ERRORS.has(code);
        // The peer is gone or restarted: the other idle connections to it are suspect too.
        if (connectionFailed) {
          state.connectionFailed = true;
          dropIdleConnections(url);
        }
        reject(
          new ToolCallError('transient', `${tool}: connection failed (${code ?? err.name})`, tool, {
            cause: err,
            mayHaveActed: state.sent,
            connectionFailed,
          }),
        );
      });
      req.on('response', (res) => {
        state.answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            req.destroy(
              new ToolCallError('internal', `${tool}: response larger than ${String(maxBytes)} bytes`, tool, {
                mayHaveActed: true,
              }),
            );
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(
            err instanceof ToolCallError
              ? err
              : new ToolCallError('transient', `${tool}: response interrupted`, tool, {
                  mayHaveActed: true,
                  // The connection broke before the answer was complete: the tool went away mid-answer.
                  connectionFailed: true,
                }),
          );
        });
      });
      req.end(body);
    });
  }

  /**
   * One attempt; when it failed on a pooled keep-alive connection that turned out dead (the tool restarted, or
   * closed it just then) before any answer, it is sent once more on a fresh connection — within the same time
   * limit, and only when that cannot make the tool act twice: the request certainly never left (not fully written),
   * or the tool is a read or idempotent by key (the executor's retry rule). Any other failure goes to the caller's
   * retry policy and circuit breaker.
   */
  async function sendWithFreshRetry(
    url: URL,
    invocation: ToolInvocation,
    addresses: ResolvedAddress[],
  ): Promise<HttpResponse> {
    const deadline = Date.now() + invocation.timeoutMs;
    const first: SendState = { reusedSocket: false, sent: false, answered: false, connectionFailed: false };
    try {
      return await send(url, invocation, addresses, invocation.timeoutMs, false, first);
    } catch (err) {
      const { tool } = invocation;
      const replayable = !first.sent || tool.action === 'read' || tool.idempotent;
      const remaining = deadline - Date.now();
      if (!first.reusedSocket || !first.connectionFailed || first.answered || !replayable || remaining <= 0)
        throw err;
      const second: SendState = {
        reusedSocket: false,
        sent: false,
        answered: false,
        connectionFailed: false,
      };
      try {
        return await send(url, invocation, addresses, remaining, true, second);
      } catch (retryErr) {
        if (retryErr instanceof ToolCallError && first.sent && !retryErr.mayHaveActed)
          throw new ToolCallError(retryErr.errorClass, retryErr.message, tool.name, {
            cause: retryErr,
            ...(retryErr.code ? { code: retryErr.code } : {}),
            mayHaveActed: true,
            connectionFailed: retryErr.connectionFailed,
          });
        throw retryErr;
      }
    }
  }

  return {
    close() {
      agents.http.destroy();
      agents.https.destroy();
      return Promise.resolve();
    },
    async call(invocation) {
      const tool = invocation.tool.name;
      let url: URL;
      let addresses: ResolvedAddress[];
      try {
        url = targetUrl(invocation, env);
        addresses = await options.guard.check(url);
      } catch (err) {
        if (err instanceof SsrfRefusedError)
          throw new ToolCallError('permission', `${tool}: ${err.message}`, tool, {
            cause: err,
            code: 'ssrf_refused',
          });
        if (err instanceof ExecutorConfigError)
          throw new ToolCallError('internal', `${tool}: ${err.message}`, tool, {
            cause: err,
            code: 'misconfigured',
          });
        throw new ToolCallError('transient', `${tool}: cannot resolve the tool's host`, tool, { cause: err });
      }
      const response = await sendWithFreshRetry(url, invocation, addresses);
      let parsed: unknown = null;
      if (response.body.trim()) {
        try {
          parsed = JSON.parse(response.body) as unknown;
        } catch {
          parsed = response.status >= 200 && response.status < 300 ? response.body : null;
        }
      }
      if (response.status >= 200 && response.status < 300) return parsed;
      const reported = reportedError(parsed);
      const declared = declaredError(invocation.tool, reported.code);
      const errorClass = declared?.errorClass ?? classifyStatus(response.status);
      const retryAfter = response.headers['retry-after'];
      throw new ToolCallError(
        errorClass,
        `${tool}: HTTP ${String(response.status)}${reported.code ? ` ${reported.code}` : ''}${
          reported.message ? `: ${shortText(reported.message)}` : ''
        }`,
        tool,
        {
          ...(declared ? { retriable: declared.retriable } : {}),
          ...(reported.code ? { code: reported.code } : {}),
          retryAfterMs: parseRetryAfter(typeof retryAfter === 'string' ? retryAfter : undefined),
          // A 429 or 503 was refused before acting; any other status reached the tool's logic.
          mayHaveActed: response.status !== 429 && response.status !== 503,
        },
      );
    },
  };
}
