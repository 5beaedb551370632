// The one list of Node's socket error codes that mean the connection itself failed — refused, reset, broken, timed
// out, unreachable — so the peer is away (or restarting), whatever was asked of it. Each user adds what its own
// client reports besides (the bus: DNS failures of a broker restarting; the executor: undici's codes under fetch).

/** Node's system error codes of a connection that failed or could not be made. */
export const SOCKET_CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
]);
