import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';
import { parseApiKeys } from './auth.js';

/**
 * The API's environment (OP-5). From the stage variables it keeps what an HTTP front door needs (bus, event log,
 * HTTP, logging, the drain time of a SIGTERM); the consumer-group settings of the stage workers do not apply.
 */
export const Env = StageEnv.pick({
  KAFKA_BROKERS: true,
  SCHEMA_REGISTRY_URL: true,
  DATABASE_URL: true,
  SIGNALBOX_TOPIC_PREFIX: true,
  HTTP_PORT: true,
  HTTP_HOST: true,
  LOG_LEVEL: true,
  DRAIN_TIMEOUT_MS: true,
}).extend({
  /**
   * API keys per tenant as JSON `{ "<sha256 hex of the key>": "<tenant id>" }`. Only hashes are configured, so
   * the environment (and anything that dumps it) never holds a usable key.
   */
  SIGNALBOX_API_KEYS: z.string().transform((text, ctx) => {
    try {
      return parseApiKeys(text);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  }),
  /** A registry directory whose versions `GET /v1/registry/versions` reports as loaded. */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1).optional(),
  /**
   * Registry names whose latest publication (RG-3, `registry publish`) `GET /v1/registry/versions` reports,
   * comma-separated. @default the base name of SIGNALBOX_REGISTRY_DIR (what `registry publish` names it)
   */
  SIGNALBOX_REGISTRY_NAMES: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0),
    ),
  /** Largest request body in bytes; larger ones get 413. @default 1048576 (1 MiB) */
  SIGNALBOX_API_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /**
   * How long a submission or answer waits for the broker to acknowledge its publish before it answers `503` +
   * `Retry-After` (the task stays recorded; the same request again publishes it). @default 5000
   */
  SIGNALBOX_API_PUBLISH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'api');
