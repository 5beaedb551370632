import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createDemoStore, createDemoToolsServer, type DemoStore } from '@signalbox/demo-tools';
import { testEndpoints } from '@signalbox/test-support';

/** The demo tool backends serving in this process (see startDemoTools); the test closes them. */
export interface DemoTools {
  /** The pool the demo store runs on (the test also drops its schemas through it, then ends it). */
  pool: pg.Pool;
  store: DemoStore;
  server: Awaited<ReturnType<typeof createDemoToolsServer>>;
  /** `http://127.0.0.1:<port>`, the SIGNALBOX_DEMO_TOOLS_URL of the executor. */
  url: string;
}

/**
 * Starts the demo tool backends on a free port of 127.0.0.1, their store migrated and seeded in the schema
 * `<schemaName>_demo`, answering as of `now` (an ISO time: the demo's "now", so that relative dates are fixed).
 */
export async function startDemoTools(schemaName: string, now: string): Promise<DemoTools> {
  const pool = new pg.Pool({ connectionString: testEndpoints().databaseUrl, max: 4 });
  const store = createDemoStore(pool, { schema: `${schemaName}_demo` });
  await store.migrate();
  await store.seed();
  const server = createDemoToolsServer({ store, now: () => new Date(now) });
  await server.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${String((server.server.address() as AddressInfo).port)}`;
  return { pool, store, server, url };
}
