import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createApiApp, hashApiKey } from '@signalbox/api';
import { listenLocally } from '@signalbox/api/testing';
import { createMemoryBus } from '@signalbox/bus/testing';
import { createPgEventStore } from '@signalbox/event-log';
import { loadRegistryDir } from '@signalbox/registry';
import { testEndpoints } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDevServer } from '../dev/dev-server-file.js';
import { UsageError } from '../errors.js';
import { mcpTarget, relayMcp, remoteTransport } from './mcp.js';

describe('signalbox mcp: where it connects', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'signalbox-mcp-home-'));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('flags win over the environment; the endpoint is <api>/mcp', () => {
    const target = mcpTarget(
      {
        SIGNALBOX_API_URL: 'http://env.example:1',
        SIGNALBOX_API_KEY: 'env-key',
        SIGNALBOX_AGENT: 'env_agent',
      },
      { apiUrl: 'http://127.0.0.1:8080/', apiKey: 'flag-key', agent: 'reach_agent', scenario: 'weather' },
    );
    expect(target).toMatchObject({
      apiKey: 'flag-key',
      agent: 'reach_agent',
      scenario: 'weather',
      source: 'flag',
    });
    expect(target.endpoint.href).toBe('http://127.0.0.1:8080/mcp');
    expect(
      mcpTarget(
        { SIGNALBOX_API_URL: 'http://env.example:1', SIGNALBOX_API_KEY: 'k', SIGNALBOX_AGENT: 'a' },
        {},
      ),
    ).toMatchObject({ agent: 'a', apiKey: 'k', source: 'environment' });
  });

  it("without a URL, the running dev server's record gives the URL and its key", () => {
    writeDevServer(
      { SIGNALBOX_HOME: home },
      {
        url: 'http://127.0.0.1:4321',
        api_key: 'dev-key',
        pid: process.pid,
        started_at: new Date().toISOString(),
      },
    );
    const target = mcpTarget({ SIGNALBOX_HOME: home }, { agent: 'reach_agent' });
    expect(target).toMatchObject({ apiKey: 'dev-key', source: 'dev server' });
    expect(target.endpoint.href).toBe('http://127.0.0.1:4321/mcp');
    // A URL given by hand never gets the dev server's key.
    expect(() =>
      mcpTarget({ SIGNALBOX_HOME: home }, { agent: 'reach_agent', apiUrl: 'http://other:1' }),
    ).toThrow(/SIGNALBOX_API_KEY is not set/);
  });

  it('names what is missing', () => {
    const empty = { SIGNALBOX_HOME: join(home, 'nothing') };
    expect(() => mcpTarget(empty, {})).toThrow(UsageError);
    expect(() => mcpTarget(empty, {})).toThrow(/--agent/);
    expect(() => mcpTarget(empty, { agent: 'a' })).toThrow(/no API to connect to/);
    expect(() => mcpTarget(empty, { agent: 'a', apiUrl: 'not a url', apiKey: 'k' })).toThrow(
      /not a URL: not a url/,
    );
  });
});

describe('signalbox mcp: the relay to /mcp', () => {
  const KEY = 'sk-cli-mcp-test';
  let app: FastifyInstance;
  let baseUrl: string;
  beforeAll(async () => {
    const registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../../registry/packs/reach'));
    // tools/list reads the registry only: no task is submitted here (the e2e suite runs calls on the five workers).
    app = createApiApp({
      bus: createMemoryBus(),
      store: createPgEventStore({ connectionString: testEndpoints().databaseUrl }),
      apiKeys: { [hashApiKey(KEY)]: 'default' },
      registry,
    });
    baseUrl = await listenLocally(app);
  });
  afterAll(async () => {
    await app.close();
  });

  function relayed(key: string, agent: string) {
    const [hostSide, relaySide] = InMemoryTransport.createLinkedPair();
    const logged: string[] = [];
    const target = mcpTarget({}, { apiUrl: baseUrl, apiKey: key, agent });
    const relay = relayMcp(relaySide, remoteTransport(target), (line) => logged.push(line));
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    return { client, logged, relay, connect: () => client.connect(hostSide) };
  }

  it("relays the session: the agent's visible tools reach the host", async () => {
    const { client, relay, connect } = relayed(KEY, 'reach_agent');
    await connect();
    expect(client.getServerVersion()?.name).toBe('signalbox');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['create_ticket', 'get_weather', 'run_task', 'answer', 'get_trace']);
    await client.close();
    await relay;
  });

  it("answers the host with the API's reason when the API refuses", async () => {
    const bad = relayed('sk-wrong', 'reach_agent');
    await expect(bad.connect()).rejects.toThrow(/HTTP 401: .*the API key is not valid/);
    expect(bad.logged.join('\n')).toMatch(/401/);
    const unknown = relayed(KEY, 'no_such_agent');
    await expect(unknown.connect()).rejects.toThrow(
      /agent no_such_agent is not in the registry \(agents: reach_agent\)/,
    );
  });
});
