/**
 * The logger the bus writes to: structural, so a pino logger fits as is. The bus logs identifiers (topic, partition,
 * offset, group, key), never payloads (OB-1).
 */
export interface BusLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

/** A logger that drops everything: the default. */
export const silentLogger: BusLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
