// Wiring only: environment → PostgreSQL → migrate + seed → HTTP/MCP server; SIGTERM drains and closes.
import pg from 'pg';
import { closeOnSignal } from '@signalbox/stage-kit';
import { startTelemetry } from '@signalbox/telemetry';
import { createDemoStore } from './demo-store.js';
import { loadEnv } from './env.js';
import { createDemoToolsServer } from './server.js';

// OB-3: the OpenTelemetry SDK (process and runtime metrics) when an OTLP endpoint is set, else nothing; the shutdown
// below (closeOnSignal, the one owner of a process's shutdown) stops it last, so the drain's own metrics go out too.
await startTelemetry({ service: 'demo-tools' });
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

// SIGTERM (or SIGINT): in-flight requests finish, then the pool closes, then the telemetry, within
// SHUTDOWN_GRACE_MS; past it the process exits anyway.
closeOnSignal({
  drainTimeoutMs: env.SHUTDOWN_GRACE_MS,
  logger: app.log,
  closables: [
    { name: 'http server', close: () => app.close() },
    { name: 'postgresql pool', close: () => pool.end() },
  ],
});
