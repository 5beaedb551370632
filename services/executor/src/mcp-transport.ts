import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { CONNECT_FAILURES, connectionErrorCode } from './connection-errors.js';
import { ExecutorConfigError, SsrfRefusedError, ToolCallError } from './errors.js';
import { declaredError, shortText } from './declared-errors.js';
import type { SsrfGuard } from './ssrf-guard.js';
import type { ToolInvocation, TransportAdapter } from './transport.js';

/** One MCP server the executor may call, by id (the `server` of a tool's `mcp` binding). */
export const McpServerConfig = z.discriminatedUnion('transport', [
  z.strictObject({
    transport: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    cwd: z.string().min(1).optional(),
    /** Extra environment of the server process (values, not secrets: use `env_from` for those). */
    env: z.record(z.string(), z.string()).default({}),
    /** Server environment variable → executor environment variable it is copied from (secrets stay in env). */
    env_from: z.record(z.string(), z.string()).default({}),
  }),
  z.strictObject({
    transport: z.literal('http'),
    url: z.url(),
    /** Environment variable holding a bearer token for the server. */
    auth_secret_env: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]*$/)
      .optional(),
  }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

/** Server id → configuration (`SIGNALBOX_EXECUTOR_MCP_SERVERS`). */
export const McpServers = z.record(z.string().min(1), McpServerConfig);
export type McpServers = z.infer<typeof McpServers>;

/** Options of {@link createMcpTransport}. */
export interface McpTransportOptions {
  servers: McpServers;
  /** Checks streamable HTTP server URLs like any HTTP target (RS-6). */
  guard: SsrfGuard;
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
  /** @default 'signalbox-executor' */
  clientName?: string;
}

/** An MCP adapter that can also list a server's tools (for RG-6 import). */
export interface McpTransport extends TransportAdapter {
  /** The server's `tools/list` result, as the registry's MCP importer reads it. */
  listTools(serverId: string): Promise<{ tools: unknown[] }>;
  close(): Promise<void>;
}

interface CallToolResultShape {
  content?: { type: string; text?: string }[];
  structuredContent?: unknown;
  isError?: boolean;
}

/** The output of a `tools/call` result: structured content, else one text item (JSON when it parses), else content. */
export function mcpOutput(result: CallToolResultShape): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const content = result.content ?? [];
  const only = content[0];
  if (content.length === 1 && only?.type === 'text' && typeof only.text === 'string') {
    try {
      return JSON.parse(only.text) as unknown;
    } catch {
      return only.text;
    }
  }
  return content.length === 0 ? null : content;
}

function resultText(result: CallToolResultShape): string {
  return (result.content ?? [])
    .map((c) => (c.type === 'text' && typeof c.text === 'string' ? c.text : ''))
    .join(' ')
    .trim();
}

/**
 * EX-1 MCP adapter through the official SDK: stdio and streamable HTTP clients, one connection per configured
 * server, opened on first use and reopened after it breaks. The idempotency key travels as `_meta.idempotency_key`
 * of the `tools/call` request (EX-3).
 */
export function createMcpTransport(options: McpTransportOptions): McpTransport {
  const env = options.env ?? process.env;
  const clients = new Map<string, Promise<Client>>();

  async function connect(serverId: string): Promise<Client> {
    const config = options.servers[serverId];
    if (!config) throw new ExecutorConfigError(`MCP server "${serverId}" is not configured`);
    const client = new Client({ name: options.clientName ?? 'signalbox-executor', version: '1.0.0' });
    if (config.transport === 'stdio') {
      const copied = Object.fromEntries(
        Object.entries(config.env_from).flatMap(([k, from]) => {
          const v = env[from];
          return v === undefined ? [] : [[k, v]];
        }),
      );
      const pathEnv = env.PATH;
      await client.connect(
        new StdioClientTransport({
          command: config.command,
          args: config.args,
          env: { ...(pathEnv ? { PATH: pathEnv } : {}), ...config.env, ...copied },
          stderr: 'ignore',
          ...(config.cwd ? { cwd: config.cwd } : {}),
        }),
      );
    } else {
      const url = new URL(config.url);
      await options.guard.check(url);
      const token = config.auth_secret_env ? env[config.auth_secret_env] : undefined;
      if (config.auth_secret_env && !token)
        throw new ExecutorConfigError(
          `${config.auth_secret_env} (token of MCP server ${serverId}) is not set`,
        );
      await client.connect(
        new StreamableHTTPClientTransport(
          url,
          token ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {},
        ),
      );
    }
    client.onclose = () => {
      clients.delete(serverId);
    };
    return client;
  }

  function clientFor(serverId: string): Promise<Client> {
    let pending = clients.get(serverId);
    if (!pending) {
      pending = connect(serverId);
      clients.set(serverId, pending);
      pending.catch(() => clients.delete(serverId));
    }
    return pending;
  }

  function classifyThrown(err: unknown, invocation: ToolInvocation, sent: boolean): ToolCallError {
    const tool = invocation.tool.name;
    if (err instanceof ToolCallError) return err;
    if (err instanceof SsrfRefusedError)
      return new ToolCallError('permission', `${tool}: ${err.message}`, tool, { code: 'ssrf_refused' });
    if (err instanceof ExecutorConfigError)
      return new ToolCallError('unknown_tool', `${tool}: ${err.message}`, tool, { code: 'misconfigured' });
    if (err instanceof McpError) {
      const message = shortText(err.message);
      switch (err.code) {
        case ErrorCode.RequestTimeout as number:
          return new ToolCallError(
            'transient',
            `${tool}: no MCP response within ${String(invocation.timeoutMs)} ms`,
            tool,
            {
              code: 'timeout',
              mayHaveActed: true,
            },
          );
        case ErrorCode.ConnectionClosed as number:
          // The server went away while the call was out (its process ended, its stream closed): a connection
          // failure like the HTTP transport's, not the tool's answer.
          return new ToolCallError('transient', `${tool}: MCP connection closed`, tool, {
            cause: err,
            mayHaveActed: sent,
            connectionFailed: true,
          });
        case ErrorCode.MethodNotFound as number:
          return new ToolCallError('capability_mismatch', `${tool}: ${message}`, tool);
        case ErrorCode.InvalidParams as number:
          return /not found|unknown tool/i.test(err.message)
            ? new ToolCallError('unknown_tool', `${tool}: ${message}`, tool)
            : new ToolCallError('parameter', `${tool}: ${message}`, tool);
        default:
          return new ToolCallError('internal', `${tool}: MCP error ${String(err.code)}: ${message}`, tool, {
            mayHaveActed: true,
          });
      }
    }
    // Refused, reset or broken under the SDK's client (for streamable HTTP, `fetch failed` with the socket error as
    // its cause): classified as the HTTP transport classifies its own connection errors.
    const code = connectionErrorCode(err);
    if (code)
      return new ToolCallError('transient', `${tool}: MCP server connection failed (${code})`, tool, {
        cause: err,
        mayHaveActed: sent && !CONNECT_FAILURES.has(code),
        connectionFailed: true,
      });
    return new ToolCallError('transient', `${tool}: MCP server unreachable`, tool, {
      cause: err,
      mayHaveActed: sent,
    });
  }

  return {
    async call(invocation) {
      const binding = invocation.tool.transport;
      const tool = invocation.tool.name;
      if (binding?.kind !== 'mcp')
        throw new ToolCallError('unknown_tool', `${tool} has no mcp binding`, tool);
      let sent = false;
      let result: CallToolResultShape;
      try {
        const client = await clientFor(binding.server);
        sent = true;
        result = (await client.callTool(
          {
            name: binding.tool ?? tool,
            arguments: invocation.arguments,
            _meta: { idempotency_key: invocation.idempotencyKey },
          },
          undefined,
          { timeout: invocation.timeoutMs },
        )) as CallToolResultShape;
      } catch (err) {
        throw classifyThrown(err, invocation, sent);
      }
      if (result.isError) {
        const text = resultText(result);
        const code = /^([a-z][a-z0-9_]*)(?::|$)/.exec(text)?.[1];
        const declared = declaredError(invocation.tool, code);
        const errorClass =
          declared?.errorClass ??
          (/not found/i.test(text) && text.includes(binding.tool ?? tool)
            ? 'unknown_tool'
            : /validation|invalid (arguments|params)/i.test(text)
              ? 'parameter'
              : 'internal');
        throw new ToolCallError(
          errorClass,
          `${tool}: ${shortText(text) || 'the tool reported an error'}`,
          tool,
          {
            ...(declared ? { retriable: declared.retriable } : {}),
            ...(code ? { code } : {}),
            mayHaveActed: true,
          },
        );
      }
      return mcpOutput(result);
    },
    async listTools(serverId) {
      const client = await clientFor(serverId);
      const listed = await client.listTools();
      return { tools: listed.tools };
    },
    async close() {
      const pending = [...clients.values()];
      clients.clear();
      await Promise.all(
        pending.map(async (p) => {
          try {
            await (await p).close();
          } catch {
            // Closing a connection that already broke has nothing left to release.
          }
        }),
      );
    },
  };
}
