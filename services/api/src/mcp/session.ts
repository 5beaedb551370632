// One MCP connection's server: the agent's visible tools, each `tools/call` of one a proposed call that runs through
// the five stages, and the three tools of the pipeline itself (run_task, answer, get_trace). What a call needs of
// the API (submit, answer, read) comes through `McpBackend`, so the HTTP and the stdio paths share one behaviour.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Registry } from '@signalbox/registry';
import { mcpTools, visibleTools, type McpSubject } from './visible-tools.js';

/** The server's name in `initialize`. */
export const MCP_SERVER_NAME = 'signalbox';

/** The `_meta` keys of a `tools/call` request and result this server reads and writes. */
export const MCP_META = {
  /** Request: a key that makes the call idempotent — the same call with the same key runs once, for ever. */
  idempotencyKey: 'signalbox/idempotency_key',
  /** Request: the conversation text the call serves (the user's words); TD-5 checks a write's intent against it. */
  conversation: 'signalbox/conversation',
  /** Result: the task the call ran as: its trace is `GET /v1/traces/<task_id>` or the `get_trace` tool. */
  taskId: 'signalbox/task_id',
} as const;

/** The tools of the pipeline itself, offered beside the agent's; a registry tool of the same name is not offered. */
export const PIPELINE_TOOL_NAMES = ['run_task', 'answer', 'get_trace'] as const;

/** `GET /v1/tasks/:id` as the backend returns it (the fields a reply reads). */
export interface TaskView {
  task_id: string;
  state: 'running' | 'finished' | 'failed';
  awaiting_answer: boolean;
  last_event: { event_id: string; stage: string; event_type: string; decision_reason: string };
  result: {
    status: string;
    steps: {
      call: { tool: string; arguments: Record<string, unknown> };
      result: { ok: boolean; output: unknown; error_class: string | null; error_message: string | null };
      status: string;
    }[];
    questions: string[];
    issues: string[];
  } | null;
}

/** What a connection needs of the API. Every method acts as the connection's tenant. */
export interface McpBackend {
  /** Records and publishes a proposed call as a task (contract v5 `proposed_call`). */
  submitCall(call: {
    tool: string;
    arguments: Record<string, unknown>;
    conversation: string | null;
    idempotencyKey: string | null;
  }): Promise<{ task_id: string }>;
  /** `POST /v1/tasks`. */
  submitTask(body: Record<string, unknown>, idempotencyKey: string | null): Promise<{ task_id: string }>;
  /** `POST /v1/tasks/:id/answers`; the continuation's event id. */
  answer(taskId: string, body: Record<string, unknown>): Promise<{ continuation_event_id: string }>;
  /** `GET /v1/tasks/:id`. */
  task(taskId: string): Promise<TaskView>;
  /** `GET /v1/traces/:id`. */
  trace(taskId: string): Promise<Record<string, unknown>>;
}

/** Thrown by a backend for an answer of the API that is not a success: its code and message reach the agent. */
export class McpBackendError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Options of {@link createMcpSessionServer}. */
export interface McpSessionOptions {
  subject: McpSubject;
  /** The registry as it is now (re-read on every list and call). */
  registry: () => Registry;
  /** The API as the connection's tenant; built per request (it carries that request's key). */
  backend: (authToken: string | undefined) => McpBackend;
  /** How long a call waits for its task to finish before it answers "still running". @default 60000 */
  callTimeoutMs?: number;
  /** Pause between two reads of a running task. @default 100 */
  pollMs?: number;
}

const RUN_TASK: Tool = {
  name: 'run_task',
  description:
    'Run a request in free text through all five stages of Signalbox (model selection, tool decision, parameter ' +
    'injection, execution, evaluation) and return its outcome: the result, or the questions to answer with the ' +
    '`answer` tool.',
  inputSchema: {
    type: 'object',
    properties: {
      request: { type: 'string', minLength: 1, description: "The user's request." },
      context: {
        type: 'array',
        description: 'Conversation turns before the request.',
        items: {
          type: 'object',
          properties: {
            role: { type: 'string', enum: ['user', 'assistant', 'system', 'tool'] },
            content: { type: 'string' },
          },
          required: ['role', 'content'],
        },
      },
      scenario: {
        type: 'string',
        description: 'A scenario hint (e.g. after-sales); omit to let Signalbox route.',
      },
      idempotency_key: { type: 'string', description: 'Makes the submission idempotent (one task per key).' },
    },
    required: ['request'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
};

const ANSWER: Tool = {
  name: 'answer',
  description:
    'Answer a task waiting for clarification (need_clarification), or confirm the exact call it asks to confirm; ' +
    'the task continues and its outcome is returned.',
  inputSchema: {
    type: 'object',
    properties: {
      task_id: { type: 'string', minLength: 1 },
      answer: { type: 'string', minLength: 1, description: "The user's answer to the task's questions." },
      confirmation: {
        type: 'object',
        description:
          'EX-2: confirms one exact call — the tool and the sha256 of its canonical JSON arguments.',
        properties: {
          tool: { type: 'string', minLength: 1 },
          arguments_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        },
        required: ['tool', 'arguments_hash'],
        additionalProperties: false,
      },
    },
    required: ['task_id'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
};

const GET_TRACE: Tool = {
  name: 'get_trace',
  description: "A task's trace: every decision of every stage, in order, with its reason (the event log).",
  inputSchema: {
    type: 'object',
    properties: { task_id: { type: 'string', minLength: 1 } },
    required: ['task_id'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true },
};

/** The confirmation a `need_confirmation` question asks for (the executor's gate, EX-2). */
const CONFIRM_LINE = /confirm ([A-Za-z_][A-Za-z0-9_.-]{0,127}) sha256:([0-9a-f]{64})/;

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function refusal(
  taskId: string | null,
  message: string,
  details: Record<string, unknown> = {},
): CallToolResult {
  return {
    content: [{ type: 'text', text: message }],
    isError: true,
    ...(taskId ? { _meta: { [MCP_META.taskId]: taskId, ...details } } : {}),
  };
}

function metaString(meta: Record<string, unknown> | undefined, key: string): string | null {
  const value = meta?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function stringArg(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Creates the MCP server of one connection. Tool errors the agent can act on (a refused call, a value that does not
 * validate, a confirmation declined) are tool results with `isError` and the reason; a confirmation is asked by
 * elicitation when the client supports it, else the result names the `answer` call that gives it.
 */
export function createMcpSessionServer(options: McpSessionOptions): McpServer {
  const { subject } = options;
  const callTimeoutMs = options.callTimeoutMs ?? 60_000;
  const pollMs = options.pollMs ?? 100;
  // The SDK's high-level server, its tools handled by hand: the tools are the registry's (JSON Schemas, changing
  // with the registry), not zod shapes registered once.
  const mcp = new McpServer(
    { name: MCP_SERVER_NAME, version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true } },
      instructions:
        `Signalbox governs these tools for agent ${subject.agent}: every call is validated (tool, intent, arguments), ` +
        "executed with idempotency, limits and confirmations, judged, and recorded as a trace. Pass the user's words " +
        `in _meta["${MCP_META.conversation}"] and a key in _meta["${MCP_META.idempotencyKey}"] to make a call safe to repeat.`,
    },
  );

  const server = mcp.server;

  const agentTools = () => {
    const tools = visibleTools(options.registry(), subject).filter(
      (t) => !(PIPELINE_TOOL_NAMES as readonly string[]).includes(t.name),
    );
    return mcpTools(tools);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...agentTools(), RUN_TASK, ANSWER, GET_TRACE],
  }));

  /** The task once it finished after `after` (an event id the wait must get past, e.g. a continuation). */
  async function finished(backend: McpBackend, taskId: string, signal: AbortSignal, after?: string) {
    const deadline = Date.now() + callTimeoutMs;
    for (;;) {
      const view = await backend.task(taskId);
      if (view.state !== 'running' && view.last_event.event_id !== after) return view;
      if (Date.now() > deadline || signal.aborted) return undefined;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  const stillRunning = (taskId: string): CallToolResult =>
    refusal(
      taskId,
      `task ${taskId} is still running after ${String(callTimeoutMs)} ms; read it with get_trace, or call again with ` +
        'the same idempotency key to wait for its result',
    );

  /** The reply to a proposed call's finished task; asks a needed confirmation and goes on once it is given. */
  async function proposedReply(
    backend: McpBackend,
    view: TaskView,
    tool: string,
    extra: Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, 'signal' | 'sendRequest'>,
    rounds = 0,
  ): Promise<CallToolResult> {
    const taskId = view.task_id;
    const result = view.result;
    if (view.state === 'failed' || !result)
      return refusal(taskId, `task ${taskId} failed: ${view.last_event.decision_reason}`);
    const meta = { [MCP_META.taskId]: taskId };
    if (result.status === 'success' || result.status === 'partial_success') {
      const step = result.steps.findLast((s) => s.result.ok);
      const output = step?.result.output ?? null;
      return {
        content: [{ type: 'text', text: text(output) }],
        ...(typeof output === 'object' && output !== null && !Array.isArray(output)
          ? { structuredContent: output as Record<string, unknown> }
          : {}),
        _meta: meta,
      };
    }
    const stage = view.last_event.stage;
    const confirm = CONFIRM_LINE.exec(result.questions.join('\n'));
    if (result.status === 'need_clarification' && stage === 'executor' && confirm) {
      const [, confirmTool = tool, hash = ''] = confirm;
      const question = result.questions.join('\n');
      if (server.getClientCapabilities()?.elicitation && rounds < 2) {
        const answer = await extra.sendRequest(
          {
            method: 'elicitation/create',
            params: {
              message: question,
              requestedSchema: {
                type: 'object',
                properties: {
                  confirm: {
                    type: 'boolean',
                    title: `Run ${confirmTool}`,
                    description: `Confirms ${confirmTool} with exactly these arguments (sha256:${hash}).`,
                  },
                },
                required: ['confirm'],
              },
            },
          },
          ElicitResultSchema,
        );
        if (answer.action !== 'accept' || answer.content?.confirm !== true)
          return refusal(taskId, `not confirmed (${answer.action}): ${confirmTool} was not executed`);
        const { continuation_event_id } = await backend.answer(taskId, {
          confirmation: { tool: confirmTool, arguments_hash: hash },
        });
        const next = await finished(backend, taskId, extra.signal, continuation_event_id);
        if (!next) return stillRunning(taskId);
        return proposedReply(backend, next, tool, extra, rounds + 1);
      }
      return refusal(
        taskId,
        `${question}\nNothing was executed. To confirm, call the answer tool with ` +
          `{"task_id":"${taskId}","confirmation":{"tool":"${confirmTool}","arguments_hash":"${hash}"}}.`,
        { 'signalbox/confirmation': { tool: confirmTool, arguments_hash: hash } },
      );
    }
    // Who refused, in the agent's terms: the decider refuses the call itself, the injector its arguments.
    const who =
      stage === 'tool_decider'
        ? 'the call was refused (tool decider)'
        : stage === 'parameter_injector'
          ? 'the arguments do not validate (parameter injector)'
          : stage === 'executor'
            ? 'the call was not executed (executor)'
            : `the call ended ${result.status} (${stage})`;
    const reasons = [...result.questions, ...result.issues].filter((r, i, all) => all.indexOf(r) === i);
    return refusal(taskId, `${who}: ${reasons.join('; ') || view.last_event.decision_reason}`);
  }

  /** The outcome of a task submitted by run_task or continued by answer, as structured content. */
  function taskReply(view: TaskView): CallToolResult {
    const result = view.result;
    const output = result?.steps.findLast((s) => s.result.ok)?.result.output ?? null;
    const body = {
      task_id: view.task_id,
      state: view.state,
      status: result?.status ?? null,
      awaiting_answer: view.awaiting_answer,
      questions: result?.questions ?? [],
      issues: result?.issues ?? [],
      output,
      steps: (result?.steps ?? []).map((s) => ({ tool: s.call.tool, ok: s.result.ok, status: s.status })),
    };
    return {
      content: [{ type: 'text', text: JSON.stringify(body) }],
      structuredContent: body,
      ...(result?.status === 'failed' || view.state === 'failed' ? { isError: true } : {}),
      _meta: { [MCP_META.taskId]: view.task_id },
    };
  }

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const backend = options.backend(extra.authInfo?.token);
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const meta: Record<string, unknown> | undefined = request.params._meta;
    try {
      switch (name) {
        case 'run_task': {
          const req = stringArg(args, 'request');
          if (req === undefined)
            return refusal(null, "run_task: request is required (the user's request as text)");
          const body: Record<string, unknown> = { request: req, agent_id: subject.agent };
          if (args.context !== undefined) body.context = args.context;
          const scenario = stringArg(args, 'scenario') ?? subject.scenario;
          if (scenario) body.scenario = scenario;
          const { task_id } = await backend.submitTask(body, stringArg(args, 'idempotency_key') ?? null);
          const view = await finished(backend, task_id, extra.signal);
          return view ? taskReply(view) : stillRunning(task_id);
        }
        case 'answer': {
          const taskId = stringArg(args, 'task_id');
          if (taskId === undefined) return refusal(null, 'answer: task_id is required');
          const body: Record<string, unknown> = {};
          if (args.answer !== undefined) body.answer = args.answer;
          if (args.confirmation !== undefined) body.confirmation = args.confirmation;
          const { continuation_event_id } = await backend.answer(taskId, body);
          const view = await finished(backend, taskId, extra.signal, continuation_event_id);
          return view ? taskReply(view) : stillRunning(taskId);
        }
        case 'get_trace': {
          const taskId = stringArg(args, 'task_id');
          if (taskId === undefined) return refusal(null, 'get_trace: task_id is required');
          const trace = await backend.trace(taskId);
          return {
            content: [{ type: 'text', text: JSON.stringify(trace) }],
            structuredContent: trace,
            _meta: { [MCP_META.taskId]: taskId },
          };
        }
        default: {
          // Any other name is a proposed call, even one not listed: the decider resolves it or refuses it (TD-3).
          const { task_id } = await backend.submitCall({
            tool: name,
            arguments: args,
            conversation: metaString(meta, MCP_META.conversation),
            idempotencyKey: metaString(meta, MCP_META.idempotencyKey),
          });
          const view = await finished(backend, task_id, extra.signal);
          if (!view) return stillRunning(task_id);
          return await proposedReply(backend, view, name, extra);
        }
      }
    } catch (error) {
      if (error instanceof McpBackendError)
        return refusal(null, `${name}: ${error.message} (${error.code}, HTTP ${String(error.status)})`);
      throw error;
    }
  });

  return mcp;
}
