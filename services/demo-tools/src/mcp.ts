import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance } from 'fastify';
import { executeTool } from './execute-tool.js';
import { applyFault, type ResolvedFaultOptions } from './fault.js';
import type { ToolContext, ToolSpec } from './tools/tool-spec.js';

/** Where an MCP client puts the idempotency key of a write (EX-3): `params._meta.idempotency_key`. */
export const MCP_IDEMPOTENCY_META_KEY = 'idempotency_key';

/** The MCP server's name in `initialize`. */
export const MCP_SERVER_NAME = 'signalbox-demo-tools';

/** Options of {@link registerMcpRoutes}. */
export interface McpRouteOptions {
  /** The tools to serve over MCP. */
  tools: readonly ToolSpec[];
  /** Context of one call (store, clock) — the key comes from the request's `_meta`. */
  context: (idempotencyKey: string | undefined) => ToolContext;
  faults: ResolvedFaultOptions;
  pendingFaults: Set<() => void>;
}

function textResult(body: unknown, isError: boolean): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(body) }],
    structuredContent: body as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

function buildMcpServer(options: McpRouteOptions): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: '1.0.0' });
  for (const tool of options.tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: tool.parameters,
        // RG-6: the registry's importer maps these hints back to action and permission.
        annotations: {
          readOnlyHint: tool.action === 'read',
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: tool.openWorld,
        },
      },
      async (args: unknown, extra): Promise<CallToolResult> => {
        const meta: Record<string, unknown> | undefined = extra._meta;
        const key = meta?.[MCP_IDEMPOTENCY_META_KEY];
        const answer = await executeTool(
          tool,
          args,
          options.context(typeof key === 'string' ? key : undefined),
        );
        // A declared refusal is a tool result with isError (the model may read it), not a protocol error.
        return textResult(answer.body, answer.status >= 400);
      },
    );
  }
  return server;
}

/**
 * Mounts the MCP streamable HTTP endpoint at `/mcp` in stateless mode: every POST gets a fresh server and transport
 * (no session id), so any replica can answer any request. GET and DELETE (SSE streams, session end) answer 405.
 * `x-demo-fault` applies to `tools/call` requests only, so a client can still initialize and list tools.
 */
export function registerMcpRoutes(app: FastifyInstance, options: McpRouteOptions): void {
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  app.post('/mcp', async (request, reply) => {
    const body = request.body as { method?: unknown; params?: { name?: unknown } } | undefined;
    if (body?.method === 'tools/call') {
      const tool = typeof body.params?.name === 'string' ? byName.get(body.params.name) : undefined;
      const faulted = await applyFault(request, reply, tool, options.faults, options.pendingFaults, () => {
        const id = (request.body as { id?: unknown }).id ?? null;
        void reply.code(200).send({ jsonrpc: '2.0', id, result: { content: [] } });
      });
      if (faulted) return reply;
    }
    const server = buildMcpServer(options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the Node response itself.
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, request.body);
    return reply;
  });
  const notAllowed = {
    jsonrpc: '2.0',
    error: { code: -32000, message: 'Method not allowed: this MCP server is stateless (POST only).' },
    id: null,
  };
  app.get('/mcp', (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
  app.delete('/mcp', (_request, reply) => reply.code(405).header('allow', 'POST').send(notAllowed));
}
