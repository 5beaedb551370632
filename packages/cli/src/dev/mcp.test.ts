// Issue 23's MCP server on the dev server (issue 22's `npm start`): each registry the dev server runs (a demo pack, a
// user's `--registry` folder) serves its own agents, and `/mcp` serves a connection's agent from the one that declares
// it — the rule the dev server routes that agent's tasks by. Also: a trace's model calls are priced by the registry
// whose profiles its decisions were taken under (the viewer's cost column).
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { submittedMessage } from '@signalbox/api';
import { deterministicEventId, type Envelope } from '@signalbox/contracts';
import { testTask } from '@signalbox/contracts/testing';
import { createPgliteEventStore, type ModelExchange } from '@signalbox/event-log';
import { loadRegistryDir, toolsForAnyScenario } from '@signalbox/registry';
import { tempDirs } from '@signalbox/test-support';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { writeDevServer } from './dev-server-file.js';
import { DEV_TENANT, startDevServer, type DevServer } from './server.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const temps = tempDirs();
const temp = (prefix: string) => temps.make(prefix);
afterAll(() => temps.removeAll());

/** The deterministic stages: no model endpoint of this machine reaches the dev server. */
const env = { ...process.env, SIGNALBOX_LLM_BASE_URL: undefined, SIGNALBOX_LLM_API_KEY: undefined };

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The names an agent's tools/list should show: its registry's visible set, then the three pipeline tools. */
async function expectedTools(pack: string, agent: string): Promise<string[]> {
  const registry = await loadRegistryDir(join(repoRoot, 'registry', 'packs', pack));
  return [
    ...toolsForAnyScenario(registry, { agent, tenant: DEV_TENANT, scenario: null }).map((t) => t.name),
    'run_task',
    'answer',
    'get_trace',
  ];
}

describe('signalbox dev: /mcp', { timeout: 300_000 }, () => {
  let dev: DevServer | undefined;
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close().catch(() => undefined);
    await dev?.close();
    dev = undefined;
  });

  async function connect(server: DevServer, agent: string): Promise<Client> {
    const client = new Client({ name: 'dev-mcp-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
        requestInit: {
          headers: { authorization: `Bearer ${server.apiKey}`, 'x-signalbox-agent': agent },
        },
      }),
    );
    clients.push(client);
    return client;
  }

  it("serves each agent from its own pack, runs calls through that pack's pipeline, relays stdio from the dev server's record, and tells a user registry's sessions when it reloads", async () => {
    // A user's folder: the reach pack under their own agent id.
    const userDir = await temp('signalbox-dev-mcp-pack-');
    await cp(join(repoRoot, 'registry', 'packs', 'reach'), userDir, { recursive: true });
    for (const file of ['agents.yaml', 'scenes.yaml', 'tools.yaml'])
      await writeFile(
        join(userDir, file),
        (await readFile(join(userDir, file), 'utf8')).replaceAll('reach_agent', 'my_agent'),
      );
    dev = await startDevServer({
      port: 0,
      databasePort: null,
      packs: ['reach', 'office'],
      runDemo: false,
      registryDirs: [userDir],
      reloadDebounceMs: 100,
      mcpPollMs: 100,
      env,
    });
    const server = dev;

    // Two agents of two packs: each sees its own visible tools.
    const reach = await connect(server, 'reach_agent');
    const office = await connect(server, 'office_agent');
    const reachTools = (await reach.listTools()).tools.map((t) => t.name);
    const officeTools = (await office.listTools()).tools.map((t) => t.name);
    expect(reachTools).toEqual(await expectedTools('reach', 'reach_agent'));
    expect(officeTools).toEqual(await expectedTools('office', 'office_agent'));
    expect(reachTools).not.toEqual(officeTools);

    // A read tool of the reach pack, through the reach pipeline (the demo weather backend), then its trace.
    const called = await reach.callTool({ name: 'get_weather', arguments: { city: 'Berlin' } });
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ city: 'Berlin' });
    const taskId = called._meta?.['signalbox/task_id'];
    expect(typeof taskId).toBe('string');
    const trace = await reach.callTool({ name: 'get_trace', arguments: { task_id: taskId } });
    const stages = (trace.structuredContent as { events: { stage: string }[] }).events.map((e) => e.stage);
    expect(stages).toEqual(expect.arrayContaining(['api', 'tool_decider', 'executor', 'result_evaluator']));

    // run_task: free text through all five stages of the agent's pack.
    const ran = await reach.callTool({
      name: 'run_task',
      arguments: { request: 'What is the weather in Berlin today?' },
    });
    expect(ran.structuredContent).toMatchObject({ state: 'finished', status: 'success' });

    // An agent no registry declares is refused with the agents that are served.
    await expect(connect(server, 'no_such_agent')).rejects.toThrow(
      /agent no_such_agent is not in the registry \(agents: .*my_agent.*reach_agent.*office_agent/,
    );

    // The newcomer's path: `signalbox mcp --agent office_agent`, its URL and key from the dev server's record.
    const home = await temp('signalbox-dev-mcp-home-');
    writeDevServer(
      { SIGNALBOX_HOME: home },
      { url: server.url, api_key: server.apiKey, pid: process.pid, started_at: new Date().toISOString() },
    );
    const relayed = new Client({ name: 'dev-mcp-stdio-test', version: '1.0.0' });
    // The child's environment: this one's, without anything that would name another API or agent.
    const stdioEnv: Record<string, string> = {};
    const named = new Set(['SIGNALBOX_API_URL', 'SIGNALBOX_API_KEY', 'SIGNALBOX_AGENT']);
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !named.has(k) && !k.startsWith('SIGNALBOX_LLM_')) stdioEnv[k] = v;
    await relayed.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [
          '--conditions=@signalbox/source',
          '--import',
          'tsx',
          'packages/cli/src/main.ts',
          'mcp',
          '--agent',
          'office_agent',
        ],
        cwd: repoRoot,
        env: { ...stdioEnv, SIGNALBOX_HOME: home },
        stderr: 'pipe',
      }),
    );
    clients.push(relayed);
    expect((await relayed.listTools()).tools.map((t) => t.name)).toEqual(officeTools);

    // A user registry reloads: its agent's session is told; a session of a demo pack is not.
    const mine = await connect(server, 'my_agent');
    let mineChanged = 0;
    let reachChanged = 0;
    mine.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      mineChanged += 1;
    });
    reach.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      reachChanged += 1;
    });
    const before = server.registries[0]?.status().registry_version;
    const toolsFile = join(userDir, 'tools.yaml');
    await writeFile(
      toolsFile,
      (await readFile(toolsFile, 'utf8')).replace(
        'Look up the current weather',
        'Look up the present weather',
      ),
    );
    await waitFor('the edit was loaded', () =>
      Promise.resolve(server.registries[0]?.status().registry_version !== before ? true : undefined),
    );
    await waitFor('tools/list_changed on the user registry session', () =>
      Promise.resolve(mineChanged > 0 ? true : undefined),
    );
    // Several poll intervals later, the demo pack's session has heard nothing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reachChanged).toBe(0);
    const weather = (await mine.listTools()).tools.find((t) => t.name === 'get_weather');
    expect(weather?.description).toContain('Look up the present weather');
  });

  it("prices a trace's model calls with the registry of the profiles they were made under", async () => {
    // A data folder holding a task whose tool decider asked a model twice under the reach pack's profiles (as a dev
    // server with a model endpoint records it), then served by the dev server.
    const dataDir = await temp('signalbox-dev-cost-');
    const registry = await loadRegistryDir(join(repoRoot, 'registry', 'packs', 'reach'));
    const price = registry.profile('light_model')?.cost_per_1k_tokens;
    if (!price) throw new Error('the reach pack has no light_model profile');
    const db = new PGlite(dataDir);
    const store = createPgliteEventStore({ pglite: db });
    await store.migrate();
    const taskId = 'dev-cost-1';
    const task = testTask({
      request: 'What is the weather in Berlin today?',
      locale: 'en',
      reference_time: new Date().toISOString(),
      proposed_call: null,
    });
    const submitted = submittedMessage({
      task_id: taskId,
      tenant_id: DEV_TENANT,
      agent_id: 'reach_agent',
      task,
      causation_id: null,
      decision_reason: 'submitted',
      occurred_at: new Date(),
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    const exchange = (input: number, output: number): ModelExchange => ({
      profile_id: 'light_model',
      model: 'scripted',
      request_hash: 'a'.repeat(64),
      request: {},
      response: null,
      input_tokens: input,
      output_tokens: output,
      latency_ms: 120,
    });
    const envelope: Envelope = {
      ...submitted.event.envelope,
      event_id: deterministicEventId({
        task_id: taskId,
        stage: 'tool_decider',
        causation_id: submitted.event.envelope.event_id,
        event_type: 'task_planned',
      }),
      stage: 'tool_decider',
      event_type: 'task_planned',
      causation_id: submitted.event.envelope.event_id,
      decision_reason: 'planned with a model',
      input_source: 'pipeline',
      profiles_version: registry.versions.profiles_version,
    };
    await store.append([submitted.event]);
    await store.append([
      { envelope, topic: null, payload: {}, exchanges: [exchange(1000, 200), exchange(500, 100)] },
    ]);
    await db.close();

    dev = await startDevServer({
      port: 0,
      databasePort: null,
      packs: ['reach'],
      runDemo: false,
      dataDir,
      env,
    });
    const res = await fetch(`${dev.url}/v1/traces/${taskId}`, {
      headers: { authorization: `Bearer ${dev.apiKey}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      events: { stage: string; model_calls: { count: number; cost_usd: number | null } }[];
    };
    const planned = body.events.find((e) => e.stage === 'tool_decider');
    expect(planned?.model_calls.count).toBe(2);
    expect(planned?.model_calls.cost_usd).toBeCloseTo(1.5 * price.input + 0.3 * price.output, 12);
  });
});
