import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { DemoStore } from './demo-store.js';
import { ToolFailure } from './errors.js';
import { errorBody, executeTool } from './execute-tool.js';
import { applyFault, resolveFaultOptions, type FaultOptions } from './fault.js';
import { registerMcpRoutes } from './mcp.js';
import { DEMO_TOOLS } from './tools/catalog.js';
import { REACH_TOOLS } from './tools/reach.js';
import type { ToolContext } from './tools/tool-spec.js';

/** Options of {@link createDemoToolsServer}. */
export interface DemoToolsServerOptions {
  /** Where state and side effects live; migrated and seeded by the caller. */
  store: DemoStore;
  /**
   * A logger instance (e.g. pino), `{ level }` for fastify's own pino, or `false` for none. Request bodies are never
   * logged (they carry sensitive fields). @default false
   */
  logger?: FastifyBaseLogger | { level: string } | false;
  /** The clock: timestamps, "today" for repairs and weather, days late. @default () => new Date() */
  now?: () => Date;
  /** Timings of `x-demo-fault` injections. */
  faults?: FaultOptions;
  /** Serve the reach pack over MCP at `/mcp`. @default true */
  mcp?: boolean;
}

function buildFastify(logger: FastifyBaseLogger | { level: string } | false): FastifyInstance {
  if (logger === false) return Fastify({ logger: false });
  if ('child' in logger) return Fastify({ loggerInstance: logger });
  return Fastify({ logger: { level: logger.level } });
}

/** Header set on a write's answer when its Idempotency-Key had already acted (the stored answer is replayed). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Builds the demo tool backends as a fastify instance (not listening: `listen` is the caller's): a `POST` route per
 * http binding of the four packs, `/mcp` for the reach pack, `GET /healthz`. Options are resolved here, once;
 * bad timings throw before anything is registered.
 */
export function createDemoToolsServer(options: DemoToolsServerOptions): FastifyInstance {
  const faults = resolveFaultOptions(options.faults);
  const now = options.now ?? ((): Date => new Date());
  const { store } = options;
  const app = buildFastify(options.logger ?? false);
  const pendingFaults = new Set<() => void>();
  const context = (idempotencyKey: string | undefined): ToolContext => ({ store, now, idempotencyKey });

  // Held `timeout`/`slow` faults are released so that close() does not wait for them.
  app.addHook('preClose', (done) => {
    for (const release of [...pendingFaults]) release();
    done();
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ToolFailure) return reply.code(error.status).send(errorBody(error));
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Unparsable JSON, wrong content type, an empty body: the client's arguments are at fault.
      return reply
        .code(status)
        .send({ error: { code: 'invalid_arguments', message: (error as Error).message } });
    }
    request.log.error({ err: error }, 'tool handler failed');
    return reply.code(500).send({ error: { code: 'internal_error', message: 'the demo backend failed' } });
  });

  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send({ error: { code: 'unknown_route', message: `no tool at ${request.method} ${request.url}` } }),
  );

  app.get('/healthz', () => ({ status: 'ok' }));

  for (const tool of DEMO_TOOLS) {
    app.post(tool.path, {
      preHandler: async (request, reply) => {
        const faulted = await applyFault(request, reply, tool, faults, pendingFaults, () => {
          void reply.code(200).send();
        });
        if (faulted) return reply;
        return undefined;
      },
      handler: async (request, reply) => {
        const header = request.headers['idempotency-key'];
        const key = Array.isArray(header) ? header[0] : header;
        const answer = await executeTool(tool, request.body, context(key));
        if (answer.replayed) void reply.header(REPLAYED_HEADER, 'true');
        return reply.code(answer.status).send(answer.body);
      },
    });
  }

  if (options.mcp ?? true) registerMcpRoutes(app, { tools: REACH_TOOLS, context, faults, pendingFaults });
  return app;
}
