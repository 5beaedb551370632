import type { FastifyReply, FastifyRequest } from 'fastify';
import { DemoToolsConfigError, type GenericErrorCode } from './errors.js';
import type { ErrorClass, ToolSpec } from './tools/tool-spec.js';

/** Values of the `x-demo-fault` header. */
export const DEMO_FAULTS = ['500', '429', 'timeout', '403', 'empty', 'slow'] as const;

/** One of {@link DEMO_FAULTS}. */
export type DemoFault = (typeof DEMO_FAULTS)[number];

/** The header that injects a fault into one request; without it nothing is ever injected. */
export const FAULT_HEADER = 'x-demo-fault';

/** Timings of injected faults. */
export interface FaultOptions {
  /** `slow`: how long the answer is delayed before the tool runs normally. @default 1500 */
  slowMs?: number;
  /** `timeout`: how long the request is held (unless the client gives up first) before a 504. @default 30000 */
  timeoutMs?: number;
  /** `429`: the `Retry-After` header, in seconds. @default 1 */
  retryAfterSeconds?: number;
}

/** {@link FaultOptions} with every default applied. */
export type ResolvedFaultOptions = Required<FaultOptions>;

/** Resolves fault timings once; throws {@link DemoToolsConfigError} on negative or non-finite values. */
export function resolveFaultOptions(options: FaultOptions = {}): ResolvedFaultOptions {
  const resolved = {
    slowMs: options.slowMs ?? 1500,
    timeoutMs: options.timeoutMs ?? 30_000,
    retryAfterSeconds: options.retryAfterSeconds ?? 1,
  };
  for (const [name, value] of Object.entries(resolved)) {
    if (!Number.isFinite(value) || value < 0) {
      throw new DemoToolsConfigError(`faults.${name} must be a non-negative number (got ${String(value)})`);
    }
  }
  return resolved;
}

/** The tool's first declared code of a class, so injected faults look like the tool's real failures. */
function declaredCode(
  tool: ToolSpec | undefined,
  errorClass: ErrorClass,
  fallback: GenericErrorCode,
): string {
  const found = tool ? Object.entries(tool.errors).find(([, e]) => e.class === errorClass) : undefined;
  return found ? found[0] : fallback;
}

/** Waits `ms`, or less when the client goes away or the server closes (via `pending`). */
function hold(reply: FastifyReply, ms: number, pending: Set<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const release = (): void => {
      clearTimeout(timer);
      reply.raw.off('close', release);
      pending.delete(release);
      resolve();
    };
    const timer = setTimeout(release, ms);
    reply.raw.on('close', release);
    pending.add(release);
  });
}

/**
 * Applies the request's `x-demo-fault`, if any. Returns true when the fault answered the request (the tool must not
 * run), false when the tool should run (no header, or `slow` after its delay). Faults answer before the tool acts,
 * so an injected failure never leaves a side effect behind. `empty` is answered by `onEmpty` (HTTP: a 200 with no
 * body).
 */
export async function applyFault(
  request: FastifyRequest,
  reply: FastifyReply,
  tool: ToolSpec | undefined,
  options: ResolvedFaultOptions,
  pending: Set<() => void>,
  onEmpty: () => void,
): Promise<boolean> {
  const header = request.headers[FAULT_HEADER];
  if (header === undefined) return false;
  const fault = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  const send = (status: number, code: string, message: string): true => {
    void reply.code(status).send({ error: { code, message: `${message} (injected by ${FAULT_HEADER})` } });
    return true;
  };
  switch (fault as DemoFault) {
    case '500':
      return send(500, declaredCode(tool, 'transient', 'internal_error'), 'the service failed');
    case '429':
      void reply.header('retry-after', String(options.retryAfterSeconds));
      return send(429, declaredCode(tool, 'rate_limited', 'rate_limited'), 'too many requests');
    case '403':
      return send(403, declaredCode(tool, 'permission', 'forbidden'), 'access refused');
    case 'timeout':
      await hold(reply, options.timeoutMs, pending);
      return send(
        504,
        declaredCode(tool, 'transient', 'timeout'),
        `no answer within ${String(options.timeoutMs)} ms`,
      );
    case 'empty':
      onEmpty();
      return true;
    case 'slow':
      // Like a real slow server, the tool still acts when the client has given up meanwhile.
      await hold(reply, options.slowMs, pending);
      return false;
    default:
      return send(
        400,
        'invalid_fault',
        `unknown ${FAULT_HEADER} value ${JSON.stringify(fault)}; use ${DEMO_FAULTS.join(', ')}`,
      );
  }
}
