import { z } from 'zod';
import { DemoToolsEnvError } from './errors.js';

const port = z.coerce.number().int().min(0).max(65_535);

/** The demo tools' environment (OP-5), parsed once at start. */
export const Env = z.object({
  /** PostgreSQL connection string holding the demo state. */
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'expected a postgres:// connection string'),
  /** @default 8090 */
  HTTP_PORT: port.default(8090),
  /** @default 0.0.0.0 (inside a container the other services reach it) */
  HTTP_HOST: z.string().min(1).default('0.0.0.0'),
  /** Schema of the demo tables. @default demo_tools */
  DEMO_TOOLS_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'a lower-case SQL identifier')
    .default('demo_tools'),
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  /** How long SIGTERM waits for in-flight requests (and closing the pool and telemetry) before exiting. @default 10000 */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1).max(600_000).default(10_000),
});
export type Env = z.infer<typeof Env>;

// Connection strings may carry passwords; never echo them back in an error.
function shown(name: string, value: string | undefined): string {
  if (value === undefined) return 'not set';
  if (name === 'DATABASE_URL') return 'got a value (hidden)';
  return `got ${JSON.stringify(value)}`;
}

/** Parses `process.env` once; throws {@link DemoToolsEnvError} naming every bad variable. */
export function loadEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const result = Env.safeParse(env);
  if (result.success) return result.data;
  throw new DemoToolsEnvError(
    result.error.issues.map((issue) => {
      const name = issue.path.map(String).join('.') || '(environment)';
      const first = issue.path[0];
      return `${name}: ${issue.message} (${shown(name, typeof first === 'string' ? env[first] : undefined)})`;
    }),
  );
}
