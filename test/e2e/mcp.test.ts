// Issue 23 acceptance: Signalbox as a governed MCP server, end to end. The five workers run as separate processes
// (each service's real src/main.ts) on real Kafka + schema registry + PostgreSQL; the API (with /mcp) and the demo
// tool backends run in this process. Clients are the MCP SDK's own, over streamable HTTP and over stdio (the real
// `signalbox mcp` command as a child process). The registry is the reach pack with two changes made here: a second
// agent (weather_agent) that sees only get_weather, and create_ticket marked requires_confirmation (EX-2).
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { createApiApp, hashApiKey } from '@signalbox/api';
import { runSignalboxAgent } from '@signalbox/examples/agents-sdk';
import { submitAndWait } from '@signalbox/examples/fetch';
import { ScriptedModel, say, toolCall, toolOutputs } from '@signalbox/examples/testing';
import type { Bus } from '@signalbox/bus';
import type { DemoStore } from '@signalbox/demo-tools';
import { createPgEventStore, type EventStore, type StoredEvent } from '@signalbox/event-log';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import {
  createIsolatedSchema,
  testEndpoints,
  uniqueName,
  type IsolatedSchema,
} from '@signalbox/test-support';
import {
  WORKER_SERVICES,
  startServiceProcess,
  stopServiceProcess,
  workerEnv,
  type ServiceProcess,
} from '../support/services.js';
import { startDemoTools, type DemoTools } from '../support/demo-tools.js';
import { prefixedBus, prepareTopics } from '../support/topics.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const endpoints = testEndpoints();
const KEY = `sk-${uniqueName('mcp')}`;
const REFERENCE_TIME = '2026-11-30T09:00:00.000Z';

type Doc = Record<string, unknown> & {
  tools?: Record<string, unknown>[];
  agents?: Record<string, unknown>[];
};

/** The reach pack copied to `dir`, with `edit` applied to its tools and agents. */
async function registryCopy(dir: string, edit: (tools: Doc, agents: Doc) => void): Promise<void> {
  await cp(join(root, 'registry/packs/reach'), dir, { recursive: true });
  const tools = YAML.parse(await readFile(join(dir, 'tools.yaml'), 'utf8')) as Doc;
  const agents = YAML.parse(await readFile(join(dir, 'agents.yaml'), 'utf8')) as Doc;
  edit(tools, agents);
  await writeFile(join(dir, 'tools.yaml'), YAML.stringify(tools));
  await writeFile(join(dir, 'agents.yaml'), YAML.stringify(agents));
}

const tool = (doc: Doc, name: string) => {
  const found = doc.tools?.find((t) => t.name === name);
  if (!found) throw new Error(`the reach pack has no ${name}`);
  return found;
};

let dirs: string[] = [];
let schema: IsolatedSchema;
let store: EventStore;
let pool: pg.Pool;
let demo: DemoStore;
let demoServer: DemoTools['server'];
let bus: Bus;
let services: ServiceProcess[] = [];
let api: ReturnType<typeof createApiApp>;
let baseUrl: string;
let registryNow: Registry;
let registryNext: Registry;
const clients: Client[] = [];

beforeAll(async () => {
  const base = await mkdtemp(join(tmpdir(), 'signalbox-mcp-'));
  dirs = [base];
  const first = join(base, 'v1');
  const second = join(base, 'v2');
  const common = (tools: Doc, agents: Doc) => {
    agents.agents?.push({
      id: 'weather_agent',
      description: 'Answers weather questions.',
      max_permission: 'write',
    });
    tool(tools, 'get_weather').visible_agents = ['weather_agent'];
    tool(tools, 'create_ticket').requires_confirmation = true;
  };
  await registryCopy(first, common);
  // The registry change: weather_agent may now open tickets too.
  await registryCopy(second, (tools, agents) => {
    common(tools, agents);
    tool(tools, 'create_ticket').visible_agents = ['weather_agent'];
  });
  registryNow = await loadRegistryDir(first);
  registryNext = await loadRegistryDir(second);

  schema = await createIsolatedSchema(endpoints.databaseUrl, 'e2e_mcp');
  store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
  const demoTools = await startDemoTools(schema.name, REFERENCE_TIME);
  pool = demoTools.pool;
  demo = demoTools.store;
  demoServer = demoTools.server;
  const demoUrl = demoTools.url;

  const prefix = `${uniqueName('e2emcp')}.`;
  bus = prefixedBus('e2e-mcp', prefix);
  await prepareTopics(bus, prefix);
  const env = {
    ...workerEnv({ prefix, schema, registryDir: first }),
    SIGNALBOX_EXECUTOR_SCHEMA: `${schema.name}_executor`,
    SIGNALBOX_DEMO_TOOLS_URL: demoUrl,
    SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(demoUrl).host,
  };
  services = WORKER_SERVICES.map((s) =>
    startServiceProcess(s, { ...env, SIGNALBOX_GROUP_ID: uniqueName(s) }),
  );
  await Promise.all(services.map((s) => s.started));

  api = createApiApp({
    bus,
    store,
    apiKeys: { [hashApiKey(KEY)]: 'default' },
    registry: registryNow,
    mcp: { registry: () => registryNow, registryPollMs: 200 },
  });
  await api.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${String((api.server.address() as AddressInfo).port)}`;
}, 180_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await api.close();
  await Promise.all(services.map((s) => stopServiceProcess(s)));
  await bus.close().catch(() => undefined);
  await demoServer.close();
  await pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_demo" CASCADE`);
  await pool.query(`DROP SCHEMA IF EXISTS "${schema.name}_executor" CASCADE`);
  await pool.end();
  await store.close();
  await schema.drop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
}, 60_000);

/** An MCP SDK client over streamable HTTP, as `agent`; `elicit` answers the server's elicitations. */
async function httpClient(
  agent: string,
  options: { key?: string; elicit?: (message: string) => ElicitResult } = {},
): Promise<Client> {
  const client = new Client(
    { name: 'e2e', version: '1.0.0' },
    { capabilities: options.elicit ? { elicitation: {} } : {} },
  );
  const { elicit } = options;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), {
      requestInit: {
        headers: { authorization: `Bearer ${options.key ?? KEY}`, 'x-signalbox-agent': agent },
      },
    }),
  );
  clients.push(client);
  return client;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta: Record<string, unknown> = {},
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args, _meta: meta }, undefined, {
    timeout: 90_000,
  })) as CallToolResult;
}

const taskOf = (result: CallToolResult) => String(result._meta?.['signalbox/task_id']);
const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** `stage:event_type` of every row, in log order. */
function path(events: readonly StoredEvent[]): string[] {
  return events.map((e) => `${e.envelope.stage}:${e.envelope.event_type}`);
}

const ONE_STEP = [
  'api:task_submitted',
  'model_selector:model_selected',
  'tool_decider:task_planned',
  'parameter_injector:step_prepared',
  'executor:step_executed',
  'result_evaluator:task_finished',
];

describe('the MCP server over streamable HTTP, on the five workers', () => {
  it('lists only the agent’s visible tools, with schemas and annotations; another agent sees its own set', async () => {
    const reach = await httpClient('reach_agent');
    const { tools } = await reach.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['answer', 'create_ticket', 'get_trace', 'get_weather', 'run_task'].sort(),
    );
    const weather = tools.find((t) => t.name === 'get_weather');
    expect(weather?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(weather?.inputSchema.required).toEqual(['city']);
    // The registry's extension keywords (normalizers, synonyms) are not part of the published schema.
    expect(JSON.stringify(weather?.inputSchema)).not.toContain('normalizers');
    expect(tools.find((t) => t.name === 'create_ticket')?.annotations?.readOnlyHint).toBe(false);

    const other = await httpClient('weather_agent');
    expect((await other.listTools()).tools.map((t) => t.name).sort()).toEqual(
      ['answer', 'get_trace', 'get_weather', 'run_task'].sort(),
    );
  });

  it('a read tool: its structured result, and the call is a trace of all five stages', async () => {
    const client = await httpClient('reach_agent');
    await client.listTools();
    const result = await call(client, 'get_weather', { city: 'Beijing' });
    expect(result.isError).not.toBe(true);
    expect(result.structuredContent).toMatchObject({ city: 'Beijing', unit: 'celsius' });
    const events = await store.readTask(taskOf(result));
    expect(path(events)).toEqual(ONE_STEP);
    expect((events[0]?.payload as { task: { proposed_call: unknown } }).task.proposed_call).toEqual({
      tool: 'get_weather',
      arguments: { city: 'Beijing' },
      conversation: null,
    });
    const trace = await call(client, 'get_trace', { task_id: taskOf(result) });
    expect((trace.structuredContent as { events: unknown[] }).events).toHaveLength(ONE_STEP.length);
  });

  it('a write the conversation does not ask for is refused with the reason; nothing is executed', async () => {
    const client = await httpClient('reach_agent');
    const before = await demo.countActions('ticket_created');
    const result = await call(
      client,
      'create_ticket',
      { title: 'Weather is bad' },
      { 'signalbox/conversation': "What's the weather in Beijing today?" },
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/refused \(tool decider\)/);
    expect(textOf(result)).toMatch(/create_ticket/);
    const events = await store.readTask(taskOf(result));
    expect(path(events)).toEqual([
      'api:task_submitted',
      'model_selector:model_selected',
      'tool_decider:task_finished',
    ]);
    expect(events.at(-1)?.envelope.decision_reason).toContain('intent_side_effect');
    expect(await demo.countActions('ticket_created')).toBe(before);
  });

  it('a tool that needs confirmation: asked by elicitation, confirmed, executed once; the same key again runs nothing', async () => {
    const asked: string[] = [];
    const client = await httpClient('reach_agent', {
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    await client.listTools();
    const before = await demo.countActions('ticket_created');
    const meta = {
      'signalbox/conversation': 'Please open a support ticket: my screen is broken.',
      'signalbox/idempotency_key': uniqueName('ticket'),
    };
    const args = { title: 'Screen is broken', priority: 'high' };
    const first = await call(client, 'create_ticket', args, meta);
    expect(first.isError, textOf(first)).not.toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(
      /Confirm create_ticket with exactly these arguments \(argument hash sha256:[0-9a-f]{64}\)/,
    );
    const ticket = (first.structuredContent as { ticket_id: string }).ticket_id;
    expect(ticket).toMatch(/\S/);
    expect(await demo.countActions('ticket_created')).toBe(before + 1);
    const events = await store.readTask(taskOf(first));
    expect(path(events).filter((p) => p === 'executor:step_executed')).toHaveLength(1);
    expect(events.some((e) => e.envelope.decision_reason.startsWith('need_confirmation'))).toBe(true);

    const again = await call(client, 'create_ticket', args, meta);
    expect(taskOf(again)).toBe(taskOf(first));
    expect((again.structuredContent as { ticket_id: string }).ticket_id).toBe(ticket);
    expect(asked).toHaveLength(1);
    expect(await demo.countActions('ticket_created')).toBe(before + 1);
    expect(await store.readTask(taskOf(first))).toHaveLength(events.length);
  });

  it('without elicitation the confirmation is named, and the answer tool gives it', async () => {
    const client = await httpClient('reach_agent');
    const before = await demo.countActions('ticket_created');
    const asked = await call(
      client,
      'create_ticket',
      { title: 'Printer jammed' },
      { 'signalbox/conversation': 'Open a ticket for me: the printer is jammed.' },
    );
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toMatch(/Nothing was executed\. To confirm, call the answer tool/);
    expect(await demo.countActions('ticket_created')).toBe(before);
    const confirmation = asked._meta?.['signalbox/confirmation'] as { tool: string; arguments_hash: string };
    const answered = await call(client, 'answer', { task_id: taskOf(asked), confirmation });
    expect(answered.structuredContent).toMatchObject({ status: 'success', state: 'finished' });
    expect(await demo.countActions('ticket_created')).toBe(before + 1);
  });

  it('a malformed argument is coerced, or refused with the field named', async () => {
    const client = await httpClient('reach_agent');
    await client.listTools();
    const coerced = await call(client, 'get_weather', { city: '  Shanghai ', unit: 'F' });
    expect(coerced.isError, textOf(coerced)).not.toBe(true);
    expect(coerced.structuredContent).toMatchObject({ unit: 'fahrenheit' });
    const refused = await call(client, 'get_weather', { city: 'Beijing', unit: 'kelvin' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/the arguments do not validate \(parameter injector\)/);
    expect(textOf(refused)).toMatch(/\bunit\b/);
    expect(path(await store.readTask(taskOf(refused)))).not.toContain('executor:step_executed');
  });

  it('an unknown tool name is resolved when it is close to a visible tool (TD-3), else refused', async () => {
    const client = await httpClient('reach_agent');
    const resolved = await call(client, 'get-weather', { city: 'Beijing' });
    expect(resolved.isError, textOf(resolved)).not.toBe(true);
    const events = await store.readTask(taskOf(resolved));
    expect(events.find((e) => e.envelope.stage === 'tool_decider')?.envelope.decision_reason).toContain(
      'get-weather resolved to get_weather',
    );
    const refused = await call(client, 'book_flight', { to: 'Paris' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/book_flight is not a tool agent reach_agent may call \(TD-3/);
    // Not visible is not visible: another agent cannot call a tool it does not see, however it names it.
    const weather = await httpClient('weather_agent');
    const hidden = await call(weather, 'create_ticket', { title: 'Call me' });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toMatch(/create_ticket is not a tool agent weather_agent may call/);
  });

  it('a wrong API key is refused', async () => {
    await expect(httpClient('reach_agent', { key: 'sk-not-a-key' })).rejects.toThrow(/401|not valid/);
  });

  it('run_task runs free text through all five stages', async () => {
    const client = await httpClient('reach_agent');
    const result = await call(client, 'run_task', { request: 'What is the weather in Beijing?' });
    expect(result.structuredContent).toMatchObject({ state: 'finished', status: 'success' });
    expect((result.structuredContent as { output: unknown }).output).toMatchObject({ city: 'Beijing' });
  });
});

describe('the MCP server over stdio (`signalbox mcp`), on the five workers', () => {
  const stdioClient = async (key: string) => {
    const client = new Client({ name: 'e2e-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        '--conditions=@signalbox/source',
        '--import',
        'tsx',
        'packages/cli/src/main.ts',
        'mcp',
        '--agent',
        'reach_agent',
        '--api-url',
        baseUrl,
      ],
      cwd: root,
      env: { ...(process.env as Record<string, string>), SIGNALBOX_API_KEY: key },
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  };

  it('lists the visible tools and calls one, a trace like any task', async () => {
    const client = await stdioClient(KEY);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('get_weather');
    expect(tools.map((t) => t.name)).toContain('create_ticket');
    const result = (await client.callTool(
      { name: 'get_weather', arguments: { city: 'Beijing' } },
      undefined,
      {
        timeout: 90_000,
      },
    )) as CallToolResult;
    expect(result.structuredContent).toMatchObject({ city: 'Beijing' });
    expect(path(await store.readTask(taskOf(result)))).toEqual(ONE_STEP);
  });

  it('a wrong API key is refused with the API’s reason', async () => {
    await expect(stdioClient('sk-not-a-key')).rejects.toThrow(
      /refused or could not be reached: HTTP 401: .*the API key is not valid/,
    );
  });
});

describe('the examples, against the same API', () => {
  it('the OpenAI Agents SDK agent lists Signalbox tools through MCP and calls one (scripted model)', async () => {
    let offered: string[] = [];
    const model = new ScriptedModel([
      (request) => {
        offered = request.tools.map((t) => t.name);
        return [toolCall('get_weather', { city: 'Beijing' })];
      },
      (request) => {
        const output = JSON.parse(toolOutputs(request).get('call_get_weather') ?? '{}') as {
          city?: string;
          temperature?: number;
          conditions?: string;
        };
        return [
          say(`${String(output.city)}: ${String(output.conditions)}, ${String(output.temperature)} °C`),
        ];
      },
    ]);
    const run = await runSignalboxAgent("What's the weather in Beijing?", {
      apiUrl: baseUrl,
      apiKey: KEY,
      agent: 'reach_agent',
      model,
    });
    model.assertDone();
    expect(run.offeredTools).toEqual(expect.arrayContaining(['get_weather', 'create_ticket', 'run_task']));
    expect(offered).toEqual(expect.arrayContaining(['get_weather', 'create_ticket']));
    expect(run.finalOutput).toMatch(/^Beijing: .+, -?\d+(\.\d+)? °C$/);
    expect(run.taskIds).toHaveLength(1);
    const events = await store.readTask(run.taskIds[0] ?? '');
    expect(path(events)).toEqual(ONE_STEP);
    // The agent passed the user's words with the call (the conversation the decider checks intent against).
    expect(
      (events[0]?.payload as { task: { proposed_call: { conversation: string } } }).task.proposed_call,
    ).toEqual({
      tool: 'get_weather',
      arguments: { city: 'Beijing' },
      conversation: "What's the weather in Beijing?",
    });
  });

  it('the agent’s unasked write is refused by Signalbox and the model hears why', async () => {
    const before = await demo.countActions('ticket_created');
    let heard = '';
    const model = new ScriptedModel([
      () => [toolCall('create_ticket', { title: 'Weather question' })],
      (request) => {
        heard = toolOutputs(request).get('call_create_ticket') ?? '';
        return [say('I cannot open a ticket for a weather question.')];
      },
    ]);
    const run = await runSignalboxAgent("What's the weather in Beijing?", {
      apiUrl: baseUrl,
      apiKey: KEY,
      agent: 'reach_agent',
      model,
    });
    model.assertDone();
    expect(heard).toMatch(/refused \(tool decider\)/);
    expect(run.finalOutput).toBe('I cannot open a ticket for a weather question.');
    expect(await demo.countActions('ticket_created')).toBe(before);
  });

  it('the fetch script submits, waits and reads the trace', async () => {
    const outcome = await submitAndWait({
      apiUrl: baseUrl,
      apiKey: KEY,
      agent: 'reach_agent',
      request: "What's the weather in Beijing?",
    });
    expect(outcome).toMatchObject({ state: 'finished', status: 'success', output: { city: 'Beijing' } });
    expect(outcome.trace_events).toBe(ONE_STEP.length);
  });
});

describe('a registry change', () => {
  it('sends tools/list_changed, and the list follows the new version', async () => {
    const client = await httpClient('weather_agent');
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('create_ticket');
    const changed = new Promise<void>((resolve) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        resolve();
      });
    });
    registryNow = registryNext;
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('create_ticket');
  });
});
