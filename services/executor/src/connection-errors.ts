import { SOCKET_CONNECTION_ERRORS } from '@signalbox/retry';

// What counts as the connection itself failing — refused, reset, broken, unreachable — for every transport: the peer
// is gone or restarted, so the failure is not the tool's answer, even when the request had been sent (issue 21).

/**
 * Codes of connection errors: Node's socket errors (@signalbox/retry's one list), and undici's (the `fetch` under the
 * MCP SDK's streamable HTTP client) for a socket the peer closed (`UND_ERR_SOCKET`, "other side closed") and a
 * connect that timed out.
 */
export const CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  ...SOCKET_CONNECTION_ERRORS,
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Of those, the codes of a connection never made: nothing was sent on it, so the tool cannot have acted. */
export const CONNECT_FAILURES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']);

// Causes are followed this deep: `fetch failed` → the socket error is one or two levels down.
const MAX_CAUSE_DEPTH = 5;

/**
 * The code of the connection error `err` is or wraps (`fetch` reports one as `TypeError('fetch failed')` with the
 * socket error as its cause; a connect to several addresses as an AggregateError), or undefined when it is none.
 */
export function connectionErrorCode(err: unknown, depth = 0): string | undefined {
  if (typeof err !== 'object' || err === null || depth > MAX_CAUSE_DEPTH) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && CONNECTION_ERRORS.has(code)) return code;
  if (err instanceof AggregateError) {
    for (const inner of err.errors) {
      const found = connectionErrorCode(inner, depth + 1);
      if (found) return found;
    }
  }
  return connectionErrorCode((err as { cause?: unknown }).cause, depth + 1);
}
