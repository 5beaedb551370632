// MCP through the official SDK against real servers started here: streamable HTTP on 127.0.0.1 and a stdio script.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { importMcpTools, type ToolDefinition } from '@signalbox/registry';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { createExecutorStore, type ExecutorStore } from './executor-store.js';
import { createExecutor, type Executor } from './executor.js';
import { ToolCallError } from './errors.js';
import { createMcpTransport, type McpTransport } from './mcp-transport.js';
import { createSsrfGuard } from './ssrf-guard.js';

let schema: IsolatedSchema;
let store: ExecutorStore;
let httpServer: http.Server;
let mcp: McpTransport;
let executor: Executor;
let refunds = 0;
const seenKeys: string[] = [];

function buildServer(): McpServer {
  const server = new McpServer({ name: 'refunds', version: '1.0.0' });
  server.registerTool(
    'order_lookup',
    {
      description: 'Looks up an order.\nReturns: its status.\nNot for: refunds (use refund_create).',
      inputSchema: { order_id: z.string().regex(/^[0-9]+$/) },
      annotations: { readOnlyHint: true },
    },
    ({ order_id }) => ({
      content: [{ type: 'text', text: JSON.stringify({ order_id, status: 'delivered' }) }],
    }),
  );
  server.registerTool(
    'refund_create',
    {
      description: 'Creates a refund.',
      inputSchema: { order_id: z.string(), amount: z.number() },
      outputSchema: { refund_id: z.string() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    ({ order_id }, extra) => {
      const key = extra._meta?.idempotency_key;
      seenKeys.push(typeof key === 'string' ? key : '');
      refunds++;
      return { content: [], structuredContent: { refund_id: `rf-${order_id}` } };
    },
  );
  server.registerTool(
    'fails_always',
    { description: 'Always fails.', annotations: { readOnlyHint: true } },
    () => ({ isError: true, content: [{ type: 'text', text: 'upstream_down: the backend is unavailable' }] }),
  );
  return server;
}

/**
 * A streamable HTTP MCP server of {@link buildServer}, one session per client. `drop` sees each request's JSON body
 * first: when it says so, the connection is destroyed without an answer (a server killed mid-call).
 */
function mcpHttpServer(drop: (body: { method?: string } | undefined) => boolean = () => false): http.Server {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as { method?: string }) : undefined;
      if (drop(body)) {
        req.socket.destroy();
        return;
      }
      void (async () => {
        const sessionId = req.headers['mcp-session-id'];
        let transport = typeof sessionId === 'string' ? transports.get(sessionId) : undefined;
        if (!transport) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => randomUUID(),
            onsessioninitialized: (id: string) => {
              transports.set(id, created);
            },
          });
          await buildServer().connect(created);
          transport = created;
        }
        await transport.handleRequest(req, res, body);
      })();
    });
  });
}

beforeAll(async () => {
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'executor_mcp');
  store = createExecutorStore({ pool: schema.pool });
  await store.migrate();
  httpServer = mcpHttpServer();
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const port = (httpServer.address() as AddressInfo).port;
  mcp = createMcpTransport({
    servers: {
      refunds: { transport: 'http', url: `http://127.0.0.1:${String(port)}/mcp` },
      words: {
        transport: 'stdio',
        command: process.execPath,
        args: [fileURLToPath(new URL('./fixtures/stdio-mcp-server.mjs', import.meta.url))],
        env: {},
        env_from: {},
      },
    },
    guard: createSsrfGuard({ allow: [`127.0.0.1:${String(port)}`] }),
  });
  executor = createExecutor({ store, transports: { mcp } });
});
afterAll(async () => {
  await mcp.close();
  httpServer.closeAllConnections();
  await new Promise((resolve) => httpServer.close(resolve));
  await store.close();
  await schema.drop();
});

async function importedTools(server: string): Promise<Map<string, ToolDefinition>> {
  const listed = await mcp.listTools(server);
  const imported = importMcpTools(listed, { server });
  expect(imported.problems).toEqual([]);
  return new Map(imported.tools.map((t) => [t.name, t]));
}

const call = (tool: ToolDefinition, args: Record<string, unknown>, task = randomUUID()) =>
  executor.execute({
    tenant_id: 'acme',
    task_id: task,
    step_index: 0,
    tool,
    arguments: args,
    needs_fresh_data: false,
  });

describe('MCP over streamable HTTP', () => {
  it('imports tools/list through the registry importer with annotations mapped', async () => {
    const tools = await importedTools('refunds');
    expect([...tools.keys()].sort()).toEqual(['fails_always', 'order_lookup', 'refund_create']);
    expect(tools.get('order_lookup')).toMatchObject({
      action: 'read',
      permission: 'read_only',
      transport: { kind: 'mcp', server: 'refunds' },
    });
    expect(tools.get('refund_create')).toMatchObject({
      action: 'write',
      idempotent: true,
      evidence: 'action_receipt',
    });
  });

  it('runs tools/call and returns the parsed output', async () => {
    const tools = await importedTools('refunds');
    const r = await call(tools.get('order_lookup')!, { order_id: '123' });
    expect(r).toMatchObject({
      ok: true,
      output: { order_id: '123', status: 'delivered' },
      output_kind: 'source',
    });
  });

  it('passes the idempotency key in _meta and never acts twice for one key', async () => {
    const tools = await importedTools('refunds');
    const before = refunds;
    const task = randomUUID();
    const first = await call(tools.get('refund_create')!, { order_id: '9', amount: 5 }, task);
    const again = await call(tools.get('refund_create')!, { order_id: '9', amount: 5 }, task);
    expect(first).toMatchObject({ ok: true, output: { refund_id: 'rf-9' }, output_kind: 'action_receipt' });
    expect(again).toEqual(first);
    expect(refunds - before).toBe(1);
    expect(seenKeys.at(-1)).toBe(first.idempotency_key);
  });

  it('maps invalid arguments to parameter, an unknown tool to unknown_tool and a tool error to its class', async () => {
    const tools = await importedTools('refunds');
    const bad = await call(tools.get('order_lookup')!, { order_id: 'abc' });
    expect(bad).toMatchObject({ ok: false, error_class: 'parameter' });
    const missing = await call(
      {
        ...tools.get('order_lookup')!,
        name: 'ghost_tool',
        transport: { kind: 'mcp', server: 'refunds', tool: 'ghost_tool' },
      },
      {},
    );
    expect(missing).toMatchObject({ ok: false, error_class: 'unknown_tool' });
    const failing = tools.get('fails_always')!;
    const declared = {
      ...failing,
      errors: [
        { code: 'upstream_down', meaning: 'Backend down.', retriable: true, class: 'transient' as const },
      ],
    };
    const r = await call(declared, {});
    expect(r).toMatchObject({ ok: false, error_class: 'transient' });
    const undeclared = await call(failing, {});
    expect(undeclared).toMatchObject({ ok: false, error_class: 'internal' });
  });

  it('an unconfigured server makes the tool unknown_tool', async () => {
    const tools = await importedTools('refunds');
    const r = await call(
      { ...tools.get('order_lookup')!, transport: { kind: 'mcp', server: 'nowhere' } },
      { order_id: '1' },
    );
    expect(r).toMatchObject({ ok: false, error_class: 'unknown_tool' });
  });

  it('refuses a loopback MCP server that is not allow-listed (SSRF)', async () => {
    const strict = createMcpTransport({
      servers: { refunds: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } },
      guard: createSsrfGuard(),
    });
    try {
      const tools = await importedTools('refunds');
      const r = await createExecutor({ store, transports: { mcp: strict } }).execute({
        tenant_id: 'acme',
        task_id: randomUUID(),
        step_index: 0,
        tool: tools.get('order_lookup')!,
        arguments: { order_id: '1' },
        needs_fresh_data: false,
      });
      expect(r).toMatchObject({ ok: false, error_class: 'permission' });
    } finally {
      await strict.close();
    }
  });
});

describe('MCP connection failures (issue 21: classified as the HTTP transport classifies its own)', () => {
  /** The error `mcp.call` rejects with for `tool` on `server` (never sent before: a fresh invocation). */
  async function callError(transport: McpTransport, server: string, tool: string): Promise<ToolCallError> {
    const listed = await importedTools('refunds');
    const definition = {
      ...listed.get('order_lookup')!,
      name: tool,
      transport: { kind: 'mcp' as const, server, tool: 'order_lookup' },
    };
    const failed = await transport
      .call({
        tool: definition,
        arguments: { order_id: '1' },
        idempotencyKey: `idem_${randomUUID()}`,
        timeoutMs: 5_000,
        tenantId: 'acme',
      })
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    expect(failed).toBeInstanceOf(ToolCallError);
    return failed as ToolCallError;
  }

  /** The port `server` listens on, on loopback. */
  async function listening(server: http.Server): Promise<number> {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  /** A transport with one streamable HTTP server `id` on a loopback port, allow-listed. */
  const transportTo = (id: string, port: number) =>
    createMcpTransport({
      servers: { [id]: { transport: 'http', url: `http://127.0.0.1:${String(port)}/mcp` } },
      guard: createSsrfGuard({ allow: [`127.0.0.1:${String(port)}`] }),
    });

  it('a refused connection is a connection failure that cannot have acted', async () => {
    // A port that was just listened on and closed again: nothing accepts there.
    const closed = http.createServer();
    const port = await listening(closed);
    await new Promise((resolve) => closed.close(resolve));
    const refused = transportTo('gone', port);
    try {
      const err = await callError(refused, 'gone', 'refused_lookup');
      expect(err).toMatchObject({ errorClass: 'transient', connectionFailed: true, mayHaveActed: false });
      expect(err.message).toBe('refused_lookup: MCP server connection failed (ECONNREFUSED)');
    } finally {
      await refused.close();
    }
  });

  it('a connection reset after the call was sent is a connection failure that may have acted', async () => {
    // A server that answers the handshake, then drops the connection of every tools/call without an answer.
    const dropping = mcpHttpServer((body) => body?.method === 'tools/call');
    const resetting = transportTo('flaky', await listening(dropping));
    try {
      const err = await callError(resetting, 'flaky', 'reset_lookup');
      expect(err).toMatchObject({ errorClass: 'transient', connectionFailed: true, mayHaveActed: true });
      expect(err.message).toMatch(
        /^reset_lookup: MCP server connection failed \((ECONNRESET|UND_ERR_SOCKET)\)$/,
      );
    } finally {
      await resetting.close();
      dropping.closeAllConnections();
      await new Promise((resolve) => dropping.close(resolve));
    }
  });
});

describe('MCP over stdio', () => {
  it('imports and calls a tool of a stdio server, passing the key in _meta', async () => {
    const tools = await importedTools('words');
    const tool = tools.get('word_count')!;
    expect(tool).toMatchObject({ action: 'read', transport: { kind: 'mcp', server: 'words' } });
    const r = await call(tool, { text: 'one two  three' });
    expect(r).toMatchObject({ ok: true, output: { words: 3, key: r.idempotency_key } });
  });
});
