import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMemoryBus } from '@signalbox/bus/testing';
import { createPgEventStore } from '@signalbox/event-log';
import { loadRegistryDir } from '@signalbox/registry';
import { testEndpoints } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '../app.js';
import { hashApiKey } from '../auth.js';
import { listenLocally } from '../listen-locally.js';

// The /mcp endpoint's own checks — key, agent, scenario, session ownership — before any task exists; the calls
// through the five workers are the e2e suite's (test/e2e/mcp.test.ts).
const KEY_A = 'sk-mcp-routes-a';
const KEY_B = 'sk-mcp-routes-b';
let app: FastifyInstance;
let baseUrl: string;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const headers = (key: string, extra: Record<string, string> = {}) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  ...extra,
});

/** The JSON-RPC error message of a refused request. */
const message = (res: { json: () => unknown }) =>
  (res.json() as { error: { message: string } }).error.message;

beforeAll(async () => {
  const registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../../registry/packs/reach'));
  app = createApiApp({
    bus: createMemoryBus(),
    store: createPgEventStore({ connectionString: testEndpoints().databaseUrl }),
    apiKeys: { [hashApiKey(KEY_A)]: 'default', [hashApiKey(KEY_B)]: 'other' },
    registry,
  });
  baseUrl = await listenLocally(app);
});
afterAll(async () => {
  await app.close();
});

describe('/mcp', () => {
  it('refuses a missing or wrong key like /v1 (401, Bearer challenge)', async () => {
    const none = await app.inject({ method: 'POST', url: '/mcp', payload: initialize });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: headers('sk-wrong'),
      payload: initialize,
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({
      error: { code: 'unauthorized', message: 'the API key is not valid' },
    });
  });

  it('needs the agent of the connection, one the registry declares, and a known scenario', async () => {
    const post = (extra: Record<string, string>, url = '/mcp') =>
      app.inject({ method: 'POST', url, headers: headers(KEY_A, extra), payload: initialize });
    const missing = await post({});
    expect(missing.statusCode).toBe(400);
    expect(message(missing)).toMatch(/X-Signalbox-Agent header or an \?agent= query parameter/);
    const unknown = await post({ 'x-signalbox-agent': 'ghost' });
    expect(message(unknown)).toBe('agent ghost is not in the registry (agents: reach_agent)');
    const scenario = await post({ 'x-signalbox-agent': 'reach_agent', 'x-signalbox-scenario': 'refund' });
    expect(message(scenario)).toBe('scenario refund is not in the registry (scenarios: support, weather)');
    const notInit = await app.inject({
      method: 'POST',
      url: '/mcp?agent=reach_agent',
      headers: headers(KEY_A),
      payload: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(notInit.statusCode).toBe(400);
    expect(message(notInit)).toBe('the first request of an MCP session must be initialize');
  });

  it("lists the scenario's tools when the connection names one; another tenant cannot use the session", async () => {
    const transport = new StreamableHTTPClientTransport(
      new URL('/mcp?agent=reach_agent&scenario=weather', baseUrl),
      {
        requestInit: { headers: { authorization: `Bearer ${KEY_A}` } },
      },
    );
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['get_weather', 'run_task', 'answer', 'get_trace']);
    expect(tools[0]?.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(tools[0]?.outputSchema?.type).toBe('object');

    const sessionId = transport.sessionId ?? '';
    const stolen = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: headers(KEY_B, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
      payload: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(stolen.statusCode).toBe(404);
    expect(message(stolen)).toBe('no such MCP session: initialize a new one');
    await client.close();
  });

  it('closes a session idle for sessionIdleMs: its next request is told to initialize again', async () => {
    const registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../../registry/packs/reach'));
    const idle = createApiApp({
      bus: createMemoryBus(),
      store: createPgEventStore({ connectionString: testEndpoints().databaseUrl }),
      apiKeys: { [hashApiKey(KEY_A)]: 'default' },
      registry,
      mcp: { sessionIdleMs: 50, registryPollMs: 20 },
    });
    try {
      const opened = await idle.inject({
        method: 'POST',
        url: '/mcp?agent=reach_agent',
        headers: headers(KEY_A),
        payload: initialize,
      });
      expect(opened.statusCode).toBe(200);
      const sessionId = String(opened.headers['mcp-session-id']);
      const list = () =>
        idle.inject({
          method: 'POST',
          url: '/mcp',
          headers: headers(KEY_A, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }),
          payload: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        });
      await new Promise((r) => setTimeout(r, 300));
      const later = await list();
      expect(later.statusCode).toBe(404);
      expect(message(later)).toBe('no such MCP session: initialize a new one');
    } finally {
      await idle.close();
    }
  });
});
