import { z } from 'zod';
import { StageEnv, parseEnv } from '@signalbox/stage-kit';
import { McpServers } from './mcp-transport.js';

const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The executor's environment (OP-5): the stage variables plus its registry, transports and limits. */
export const Env = StageEnv.extend({
  /** A directory of registry YAML (tools, agents, scenes, tenants). */
  SIGNALBOX_REGISTRY_DIR: z.string().min(1),
  /**
   * SSRF allow-list (RS-6), comma-separated host names, IP addresses and CIDR ranges that may be private, loopback
   * or link-local, each with the port it may be reached on: `demo-tools:8090,10.20.0.0/16:443,127.0.0.1:8088`,
   * `[fd00::1]:8443`, `[fd00::]/8:9000`; `:*` allows any port. An entry without a port allows only the scheme's
   * default port (80 for http, 443 for https). @default '' (none)
   */
  SIGNALBOX_EXECUTOR_ALLOW_HOSTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  /**
   * MCP servers by id as JSON: `{ "<id>": { "transport": "stdio", "command": "…", "args": […] } | { "transport":
   * "http", "url": "…", "auth_secret_env": "…" } }`. @default {}
   */
  SIGNALBOX_EXECUTOR_MCP_SERVERS: z
    .string()
    .default('{}')
    .transform((text, ctx) => {
      try {
        return McpServers.parse(JSON.parse(text));
      } catch (err) {
        ctx.addIssue({
          code: 'custom',
          message: `not valid MCP server configuration JSON: ${(err as Error).message}`,
        });
        return z.NEVER;
      }
    }),
  /** Schema of the executor's own tables. @default the connection's search_path */
  SIGNALBOX_EXECUTOR_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .optional(),
  /** Create the executor's tables at start. @default true */
  SIGNALBOX_EXECUTOR_MIGRATE: flag.default(true),
  /** Run the event-log migrations at start (development). @default false */
  SIGNALBOX_MIGRATE_EVENT_LOG: flag.default(false),
  /** Outputs larger than this travel by reference (EL-3). @default 65536 */
  SIGNALBOX_EXECUTOR_INLINE_OUTPUT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(64 * 1024),
  /** Consecutive failures that open a tool's circuit breaker. @default 5 */
  SIGNALBOX_EXECUTOR_BREAKER_THRESHOLD: z.coerce.number().int().min(1).default(5),
  /**
   * The longest cool-down of an open breaker: it lets one probe call through after
   * `SIGNALBOX_EXECUTOR_BREAKER_PROBE_MS`, doubling after each failed probe up to this. @default 30000
   */
  SIGNALBOX_EXECUTOR_BREAKER_OPEN_MS: z.coerce.number().int().min(100).default(30_000),
  /** The first cool-down of an open breaker before its probe call. @default 1000 */
  SIGNALBOX_EXECUTOR_BREAKER_PROBE_MS: z.coerce.number().int().min(10).default(1000),
  /**
   * Issue 21, "a brief outage delays, it does not fail": how long a tool call goes on being tried, after its retry
   * policy's attempts, while it fails without reaching the tool (connection refused or reset before sending, breaker
   * open — one half-open probe at a time —, 503, 429 with Retry-After), before the failure is reported `transient`
   * (and the task re-planned). The call holds its batch, so its partition, meanwhile; a drain (SIGTERM) ends the wait
   * at once and leaves the input for redelivery. 0 reports such a failure at once. @default 30000
   */
  SIGNALBOX_EXECUTOR_OUTAGE_BUDGET_MS: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /**
   * Issue 21 item 3: how long a concurrency lease of a tool (`limits.concurrency`, shared by every executor replica in
   * PostgreSQL) lives without renewal; a running call renews it every third of this, so the slots of a replica that
   * died are free again within this. @default 10000
   */
  SIGNALBOX_EXECUTOR_LEASE_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** Heap limit of one compute evaluation. @default 33554432 (32 MiB) */
  SIGNALBOX_EXECUTOR_COMPUTE_MEMORY_BYTES: z.coerce
    .number()
    .int()
    .min(1024 * 1024)
    .default(32 * 1024 * 1024),
});
export type Env = z.infer<typeof Env>;

/** Parses `process.env` once; throws naming every bad variable. */
export const loadEnv = (env: NodeJS.ProcessEnv = process.env): Env => parseEnv(Env, env, 'executor');
