import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ErrorClass } from '@signalbox/contracts';
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

  function send(url: URL, invocation: ToolInvocation, addresses: ResolvedAddress[]): Promise<HttpResponse> {
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
      let sent = false;
      const req = client.request(url, {
        method,
        headers,
        lookup: pinnedLookup(addresses),
        timeout: invocation.timeoutMs,
      });
      const timer = setTimeout(() => {
        req.destroy(
          new ToolCallError(
            'transient',
            `${tool}: no response within ${String(invocation.timeoutMs)} ms`,
            tool,
            {
              code: 'timeout',
              mayHaveActed: sent,
            },
          ),
        );
      }, invocation.timeoutMs);
      req.on('finish', () => {
        sent = true;
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        if (err instanceof ToolCallError) reject(err);
        else
          reject(
            new ToolCallError(
              'transient',
              `${tool}: connection failed (${(err as NodeJS.ErrnoException).code ?? err.name})`,
              tool,
              {
                mayHaveActed: sent,
              },
            ),
          );
      });
      req.on('response', (res) => {
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
              : new ToolCallError('transient', `${tool}: response interrupted`, tool, { mayHaveActed: true }),
          );
        });
      });
      req.end(body);
    });
  }

  return {
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
      const response = await send(url, invocation, addresses);
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
