// An OpenAI Agents SDK agent whose tool layer is Signalbox: the agent sees exactly the tools Signalbox lets it see
// (RG-4), and every tool call it makes goes through Signalbox's pipeline — resolved and validated against the
// user's words (TD-3, TD-5), arguments validated and coerced (PI), executed with idempotency, limits and
// confirmation (EX), judged (RE), and recorded as a trace. The agent itself needs nothing but an MCP server URL.
//
// Run it against a running API (e.g. `signalbox dev`):
//   SIGNALBOX_API_URL=http://127.0.0.1:8080 SIGNALBOX_API_KEY=… SIGNALBOX_AGENT=reach_agent \
//   OPENAI_API_KEY=… pnpm --filter @signalbox/examples agent "What's the weather in Beijing?"
// With OPENAI_BASE_URL set, the model is any OpenAI-compatible chat-completions server (a local one needs no network
// beyond localhost). The SDK's trace export to OpenAI is turned off: Signalbox keeps the trace.
import { pathToFileURL } from 'node:url';
import {
  Agent,
  MCPServerStreamableHttp,
  run,
  setOpenAIAPI,
  setTracingDisabled,
  type Model,
} from '@openai/agents';

/** Options of {@link runSignalboxAgent}. */
export interface SignalboxAgentOptions {
  /** The Signalbox API, e.g. `http://127.0.0.1:8080` (its MCP endpoint is `/mcp`). */
  apiUrl: string;
  /** A tenant API key of the API. */
  apiKey: string;
  /** The Signalbox agent this agent acts as: its visible tools are the ones offered. */
  agent: string;
  /** The model: a Model instance (tests pass a scripted one) or a model name. @default 'gpt-4.1-mini' */
  model?: Model | string;
}

/** What one run did. */
export interface SignalboxAgentRun {
  /** The agent's answer. */
  finalOutput: string;
  /** The Signalbox tools the MCP server offered. */
  offeredTools: string[];
  /** The task id of each tool call (its trace: `GET /v1/traces/<id>`), in call order. */
  taskIds: string[];
}

const INSTRUCTIONS =
  'You help the user with the tools you are given. Call a tool when the request needs one; answer from its result. ' +
  'When a tool call is refused, tell the user why in one sentence.';

/** Runs one user request through an Agents SDK agent that uses Signalbox's MCP server as its tools. */
export async function runSignalboxAgent(
  input: string,
  options: SignalboxAgentOptions,
): Promise<SignalboxAgentRun> {
  setTracingDisabled(true);
  const taskIds: string[] = [];
  const server = new MCPServerStreamableHttp({
    name: 'signalbox',
    url: new URL('/mcp', options.apiUrl).href,
    requestInit: {
      headers: { authorization: `Bearer ${options.apiKey}`, 'x-signalbox-agent': options.agent },
    },
    // A governed call runs five stages; the SDK's 5 s default session timeout is too short on a busy machine.
    clientSessionTimeoutSeconds: 60,
    // The user's words travel with every call, so Signalbox checks a write's intent against them (TD-5).
    toolMetaResolver: () => ({ 'signalbox/conversation': input }),
    // Each result names the task it ran as, for its trace.
    customDataExtractor: ({ resultMeta }) => {
      const id = resultMeta?.['signalbox/task_id'];
      if (typeof id === 'string') taskIds.push(id);
      return undefined;
    },
  });
  await server.connect();
  try {
    const offeredTools = (await server.listTools()).map((t) => t.name);
    const agent = new Agent({
      name: 'signalbox-example',
      instructions: INSTRUCTIONS,
      mcpServers: [server],
      model: options.model ?? 'gpt-4.1-mini',
    });
    const result = await run(agent, input);
    return { finalOutput: result.finalOutput ?? '', offeredTools, taskIds };
  } finally {
    await server.close();
  }
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name}`);
  return value;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const input = process.argv.slice(2).join(' ').trim();
  if (!input) throw new Error('give the request as the arguments, e.g. "What\'s the weather in Beijing?"');
  // A local OpenAI-compatible server speaks chat completions, not the Responses API.
  if (process.env.OPENAI_BASE_URL) setOpenAIAPI('chat_completions');
  const outcome = await runSignalboxAgent(input, {
    apiUrl: required('SIGNALBOX_API_URL'),
    apiKey: required('SIGNALBOX_API_KEY'),
    agent: required('SIGNALBOX_AGENT'),
    ...(process.env.OPENAI_MODEL ? { model: process.env.OPENAI_MODEL } : {}),
  });
  process.stdout.write(`${outcome.finalOutput}\n`);
  for (const id of outcome.taskIds)
    process.stdout.write(`trace: ${new URL(`/v1/traces/${id}`, required('SIGNALBOX_API_URL')).href}\n`);
}
