// Wiring only: environment → PostgreSQL → migrate + seed → HTTP/MCP server; SIGTERM drains and closes.
import pg from 'pg';
import { startTelemetry } from '@signalbox/telemetry';
import { createDemoStore } from './demo-store.js';
import { loadEnv } from './env.js';
import { createDemoToolsServer } from './server.js';

// OB-3: the OpenTelemetry SDK (process and runtime metrics) when an OTLP endpoint is set, else nothing.
const telemetry = await startTelemetry({ service: 'demo-tools' });
const env = loadEnv();
const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 8 });
const store = createDemoStore(pool, { schema: env.DEMO_TOOLS_SCHEMA });
const app = createDemoToolsServer({ store, logger: { level: env.LOG_LEVEL } });
// An idle client whose backend went away (PostgreSQL restarting: SQLSTATE 57P01) makes the pool emit 'error': unheard,
// that is an uncaught exception and the process died. The pool has dropped the client and opens a new one for the
// next query (which fails, as a 503 of the tool, while the server is down).
pool.on('error', (error: Error & { code?: unknown }) => {
  app.log.warn(
    { err: { name: error.name, message: error.message, code: error.code } },
    'an idle PostgreSQL connection failed; the pool replaces it',
  );
});
await store.migrate();
await store.seed();

const address = await app.listen({ port: env.HTTP_PORT, host: env.HTTP_HOST });
app.log.info({ address, schema: store.schema }, 'demo-tools listening');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, 'demo-tools draining');
  // In-flight requests finish within the grace period; past it the process exits anyway.
  const timer = setTimeout(() => process.exit(1), env.SHUTDOWN_GRACE_MS);
  timer.unref();
  try {
    await app.close();
    await pool.end();
    await telemetry.shutdown();
    process.exit(0);
  } catch {
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
