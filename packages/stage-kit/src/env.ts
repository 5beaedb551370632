import { z } from 'zod';
import { CeilingVariables } from './ceilings.js';
import { EnvError } from './errors.js';

// 0 asks the OS for a free port (tests, several workers on one host).
const port = z.coerce.number().int().min(0).max(65_535);
const positiveInt = z.coerce.number().int().min(1);

/**
 * OP-5: the environment every stage worker reads. Services extend it with their own variables
 * (`StageEnv.extend({...})`) and parse once in `env.ts` with {@link parseEnv}.
 */
export const StageEnv = z.object({
  /** Comma-separated `host:port` list. */
  KAFKA_BROKERS: z
    .string()
    .min(1)
    .refine(
      (v) => v.split(',').every((b) => /^[^:\s]+:\d{1,5}$/.test(b.trim())),
      'expected host:port[,host:port…]',
    ),
  /** Confluent-compatible schema registry API base URL. */
  SCHEMA_REGISTRY_URL: z.url(),
  /** PostgreSQL connection string of the event log. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection string'),
  /** Namespace prepended to every topic and subject (several environments on one cluster). @default '' */
  SIGNALBOX_TOPIC_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]*$/, 'letters, digits, ".", "_" and "-" only')
    .default(''),
  /** Consumer group of this stage; defaults to `signalbox.<stage>`. */
  SIGNALBOX_GROUP_ID: z.string().min(1).optional(),
  /** Port of the liveness/readiness/metrics HTTP server. @default 8080 */
  HTTP_PORT: port.default(8080),
  /** @default 0.0.0.0 (inside a pod the kubelet probes it) */
  HTTP_HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** Messages decided concurrently within a batch (different keys only). @default 16 */
  STAGE_CONCURRENCY: positiveInt.max(1024).default(16),
  /**
   * Partitions handled concurrently. The topics have 6: a worker owning them all handles them in one round rather
   * than in sequential rounds (about twice the per-hop latency at 2). @default 6
   */
  PARTITIONS_CONCURRENTLY: positiveInt.max(64).default(6),
  /** Model calls in flight at once across the worker's decisions; beyond it calls wait (IF-4). @default 32 */
  MODEL_CONCURRENCY: positiveInt.max(1024).default(32),
  /** A consumer silent this long loses its partitions to the others (after a crash, too). @default 10000 */
  KAFKA_SESSION_TIMEOUT_MS: z.coerce.number().int().min(6000).max(300_000).default(10_000),
  /**
   * How often handled offsets are committed; 0 = after every batch. A crash re-delivers at most this much, answered
   * from the event log (EL-2). @default 500
   */
  KAFKA_COMMIT_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  /**
   * Longest a fetch long-polls when nothing new is there (the broker answers as soon as something is), and how long
   * kafkajs waits between fetches while every partition is paused (RS-3). @default 100
   */
  KAFKA_MAX_WAIT_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  /**
   * How long a publish made while no produce request is out waits for others to share its request (the producer's
   * `linger.ms`): fewer, fuller requests when messages trickle in, for a few milliseconds. 0 = at once. @default 5
   */
  KAFKA_LINGER_MS: z.coerce.number().int().min(0).max(1_000).default(5),
  /** Likewise for the event log: how long an append made while no statement is out waits for company. @default 5 */
  EVENT_LOG_APPEND_LINGER_MS: z.coerce.number().int().min(0).max(1_000).default(5),
  /** How long SIGTERM waits for in-flight work before exiting. @default 25000 */
  DRAIN_TIMEOUT_MS: positiveInt.default(25_000),
  // FL-6: the ceilings of every task, one variable each (ceilings.ts); every stage parses them, each enforces its own.
  ...CeilingVariables,
});
export type StageEnv = z.infer<typeof StageEnv>;

/**
 * Parses the environment once at start. Throws {@link EnvError} naming every missing or invalid variable and why,
 * before any side effect.
 */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: NodeJS.ProcessEnv,
  service: string,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    const value = typeof issue.path[0] === 'string' ? env[issue.path[0]] : undefined;
    const shown =
      value === undefined ? 'not set' : `got ${JSON.stringify(redactValue(issue.path[0], value))}`;
    return `${name}: ${issue.message} (${shown})`;
  });
  throw new EnvError(problems, service);
}

// Connection strings may carry passwords; never echo them back in an error.
function redactValue(name: PropertyKey | undefined, value: string): string {
  if (typeof name === 'string' && /URL|PASSWORD|SECRET|TOKEN|KEY/i.test(name)) {
    try {
      const u = new URL(value);
      if (u.password) u.password = '***';
      return u.toString();
    } catch {
      return '<redacted>';
    }
  }
  return value;
}
