// The one owner of a process's shutdown: on SIGTERM (or SIGINT) it closes what the process holds, in the order
// given, and last the process's telemetry (so the spans of the drain are exported), within the drain time, then exits. A second listener elsewhere would race it to process.exit, and whatever
// it meant to close would never be closed.
import { shutdownTelemetry } from '@signalbox/telemetry';

/** Something a process holds open until it stops: the stage runtime, an HTTP server, a pool, MCP clients. */
export interface Closable {
  /** Named in the shutdown's logs. */
  name: string;
  close(): Promise<void> | void;
}

/** The logging surface shutdown needs (pino's shape). */
export interface ShutdownLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ShutdownOptions {
  /**
   * What to close, in order: what stops taking work first (the stage runtime drains and commits), then what that
   * work used (tool clients, stores), then the bus and the event log.
   */
  closables: readonly Closable[];
  /** How long the closing may take; past it the process exits anyway (`DRAIN_TIMEOUT_MS`). */
  drainTimeoutMs: number;
  logger: ShutdownLogger;
  /**
   * Flushed and stopped after every closable, as the resource `telemetry`: the last spans and metrics, the drain's
   * own included. @default the process's telemetry (`shutdownTelemetry` of @signalbox/telemetry; none started: a no-op)
   */
  telemetry?: { shutdown(): Promise<void> };
  /** @default ['SIGTERM', 'SIGINT'] */
  signals?: readonly NodeJS.Signals[];
  /** Ends the process with the outcome's code: 0 when everything closed in time, else 1. @default process.exit */
  exit?: (code: number) => void;
}

/** How a shutdown ended. */
export type ShutdownOutcome = 'closed' | 'failed' | 'timeout';

export interface ShutdownHandle {
  /** Closes everything in order (once, however often it is called); the process is not exited. */
  shutdown(reason: string): Promise<ShutdownOutcome>;
}

/**
 * Listens for the signals and, on the first, closes `closables` in order within `drainTimeoutMs`, then exits. A
 * resource that fails to close is logged and the rest are still closed; a drain past its time leaves the rest
 * unclosed (the process is about to exit) and says so.
 */
export function closeOnSignal(options: ShutdownOptions): ShutdownHandle {
  const { closables, drainTimeoutMs, logger } = options;
  if (!Number.isInteger(drainTimeoutMs) || drainTimeoutMs < 1) {
    throw new RangeError(`drainTimeoutMs must be a positive integer, got ${String(drainTimeoutMs)}`);
  }
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const telemetry = options.telemetry ?? { shutdown: shutdownTelemetry };
  const inOrder: readonly Closable[] = [
    ...closables,
    { name: 'telemetry', close: () => telemetry.shutdown() },
  ];
  let closing: Promise<ShutdownOutcome> | undefined;

  async function closeAll(): Promise<'closed' | 'failed'> {
    let failed = false;
    for (const closable of inOrder) {
      try {
        await closable.close();
        logger.info({ resource: closable.name }, 'closed');
      } catch (err) {
        failed = true;
        logger.error({ resource: closable.name, err }, 'failed to close');
      }
    }
    return failed ? 'failed' : 'closed';
  }

  const shutdown = (reason: string): Promise<ShutdownOutcome> => {
    closing ??= (async () => {
      logger.info({ reason, drain_timeout_ms: drainTimeoutMs }, 'shutting down');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => {
          resolve('timeout');
        }, drainTimeoutMs);
      });
      const outcome = await Promise.race([closeAll(), timeout]);
      clearTimeout(timer);
      if (outcome === 'timeout') logger.warn({}, 'drain timed out; in-flight inputs will be re-delivered');
      else logger.info({ outcome }, 'shut down');
      return outcome;
    })();
    return closing;
  };

  for (const signal of options.signals ?? (['SIGTERM', 'SIGINT'] as const)) {
    process.once(signal, () => {
      void shutdown(signal).then((outcome) => {
        exit(outcome === 'closed' ? 0 : 1);
      });
    });
  }
  return { shutdown };
}
