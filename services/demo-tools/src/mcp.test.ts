import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  importMcpTools,
  loadRegistryDir,
  validateAgainstSchema,
  type ToolDefinition,
} from '@signalbox/registry';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoStore, type DemoStore } from './demo-store.js';
import { MCP_IDEMPOTENCY_META_KEY, MCP_SERVER_NAME } from './mcp.js';
import { createDemoToolsServer } from './server.js';

// IF-5: the reach pack over MCP, through the official SDK client against the listening server.

let schema: IsolatedSchema;
let store: DemoStore;
let app: FastifyInstance;
let url: URL;
const reach = new Map<string, ToolDefinition>();

async function connect(headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'demo-tools-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

beforeAll(async () => {
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'demo_mcp');
  store = createDemoStore(schema.pool, { schema: schema.name });
  await store.migrate();
  await store.seed();
  app = createDemoToolsServer({ store, now: () => new Date('2026-11-30T09:00:00Z') });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  url = new URL('/mcp', address);
  const registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../registry/packs/reach'));
  for (const tool of registry.content.tools) reach.set(tool.name, tool);
});

afterAll(async () => {
  await app.close();
  await schema.drop();
});

describe('MCP (stateless streamable HTTP at /mcp)', () => {
  it('tools/list gives the reach tools with their schemas and annotations', async () => {
    const client = await connect();
    try {
      expect(client.getServerVersion()?.name).toBe(MCP_SERVER_NAME);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['create_ticket', 'get_weather']);
      const weather = tools.find((t) => t.name === 'get_weather')!;
      expect(weather.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
      });
      expect(weather.inputSchema).toMatchObject({
        type: 'object',
        required: ['city'],
        additionalProperties: false,
      });
      expect(tools.find((t) => t.name === 'create_ticket')!.annotations).toMatchObject({
        readOnlyHint: false,
      });
      // The registry's MCP importer reads the hints back as the packs declare them (RG-6).
      const imported = importMcpTools({ tools }, { server: 'demo' });
      const actions = Object.fromEntries(imported.tools.map((t) => [t.name, [t.action, t.permission]]));
      expect(actions).toEqual({
        get_weather: [reach.get('get_weather')!.action, reach.get('get_weather')!.permission],
        create_ticket: [reach.get('create_ticket')!.action, reach.get('create_ticket')!.permission],
      });
    } finally {
      await client.close();
    }
  });

  it('tools/call answers like the HTTP route, valid against the returns schema', async () => {
    const client = await connect();
    try {
      const result = await client.callTool({ name: 'get_weather', arguments: { city: '北京' } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ city: 'Beijing', unit: 'celsius' });
      expect(validateAgainstSchema(reach.get('get_weather')!.returns, result.structuredContent)).toEqual([]);
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(JSON.parse(text)).toEqual(result.structuredContent);
      const http = await app.inject({ method: 'POST', url: '/reach/weather', payload: { city: '北京' } });
      expect(http.json()).toEqual(result.structuredContent);

      const unknown = await client.callTool({ name: 'get_weather', arguments: { city: 'Atlantis' } });
      expect(unknown.isError).toBe(true);
      expect(unknown.structuredContent).toMatchObject({ error: { code: 'unknown_city' } });
      const invalid = await client.callTool({ name: 'get_weather', arguments: {} });
      expect(invalid.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('create_ticket acts once per _meta.idempotency_key', async () => {
    const client = await connect();
    try {
      const key = `idem_mcp_${String(Date.now())}`;
      const args = {
        name: 'create_ticket',
        arguments: { title: 'Please call me back' },
        _meta: { [MCP_IDEMPOTENCY_META_KEY]: key },
      };
      const first = await client.callTool(args);
      const second = await client.callTool(args);
      expect(first.structuredContent).toMatchObject({ status: 'created', priority: 'low' });
      expect(second.structuredContent).toEqual(first.structuredContent);
      expect(await store.countActions('ticket_created', { idempotencyKey: key })).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('x-demo-fault applies to tools/call only: initialize and tools/list still work', async () => {
    const client = await connect({ 'x-demo-fault': '500' });
    try {
      expect((await client.listTools()).tools).toHaveLength(2);
      const before = await store.countActions('ticket_created');
      await expect(
        client.callTool({ name: 'create_ticket', arguments: { title: 'Faulty call' } }),
      ).rejects.toThrow(/ticket_service_unavailable/);
      expect(await store.countActions('ticket_created')).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('GET /mcp is 405 (stateless: no SSE stream)', async () => {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' } });
    expect(response.status).toBe(405);
  });
});
