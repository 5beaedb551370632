// `signalbox mcp`: Signalbox's MCP server on stdio, for desktop MCP hosts. It embeds nothing: it relays every
// JSON-RPC message between stdio and the API's streamable HTTP endpoint `/mcp` (services/api/src/mcp), so a desktop
// host gets exactly the governed tools, checks, confirmations and traces of the HTTP endpoint, under the same API key
// and tenant. The API is found by flag, then environment, then the running `signalbox dev` server's record.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Command } from 'commander';
import { readDevServer } from '../dev/dev-server-file.js';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

export interface McpCommandOptions {
  agent?: string;
  scenario?: string;
  apiUrl?: string;
  apiKey?: string;
}

/** Where the relay connects, and where each value came from (for the log line on stderr). */
export interface McpTarget {
  /** `<api>/mcp`. */
  endpoint: URL;
  apiKey: string;
  agent: string;
  scenario: string | undefined;
  /** `flag`, `environment` or `dev server` for the URL. */
  source: 'flag' | 'environment' | 'dev server';
}

/**
 * Resolves the API and the agent: `--api-url` / `--api-key` / `--agent`, else `$SIGNALBOX_API_URL` /
 * `$SIGNALBOX_API_KEY` / `$SIGNALBOX_AGENT`, else — only when no URL is given — the running dev server's record (its
 * URL and development key; a key is never sent to a URL it was not recorded with). Throws UsageError naming what is
 * missing.
 */
export function mcpTarget(env: CliIo['env'], opts: McpCommandOptions): McpTarget {
  const agent = opts.agent ?? env.SIGNALBOX_AGENT;
  if (!agent) throw new UsageError('name the agent: --agent <id> (or set SIGNALBOX_AGENT)');
  const given = opts.apiUrl ?? env.SIGNALBOX_API_URL;
  const source = opts.apiUrl ? 'flag' : env.SIGNALBOX_API_URL ? 'environment' : 'dev server';
  const dev = given === undefined ? readDevServer(env) : undefined;
  const url = given ?? dev?.url;
  if (!url)
    throw new UsageError(
      'no API to connect to: pass --api-url, set SIGNALBOX_API_URL, or start `signalbox dev` (its record is read)',
    );
  const apiKey = opts.apiKey ?? env.SIGNALBOX_API_KEY ?? dev?.api_key;
  if (!apiKey) throw new UsageError('SIGNALBOX_API_KEY is not set (or pass --api-key)');
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp', url);
  } catch {
    throw new UsageError(`not a URL: ${url}`);
  }
  return { endpoint, apiKey, agent, scenario: opts.scenario ?? env.SIGNALBOX_SCENARIO, source };
}

function isRequest(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { id: string | number; method: string } {
  return 'method' in message && 'id' in message;
}

/**
 * Relays MCP messages between `local` (the host's side: stdio) and `remote` (the API's `/mcp`) until `local` closes.
 * A request the API cannot be reached for (refused key, unknown agent, API down) is answered on `local` with a
 * JSON-RPC error carrying the API's reason, so the host shows why instead of waiting.
 */
export async function relayMcp(
  local: Transport,
  remote: StreamableHTTPClientTransport,
  log: (line: string) => void,
): Promise<void> {
  const initializeIds = new Set<string | number>();
  const closed = new Promise<void>((resolve) => {
    local.onclose = () => {
      resolve();
    };
  });
  local.onmessage = (message) => {
    if (isRequest(message) && message.method === 'initialize') initializeIds.add(message.id);
    remote.send(message).catch(async (error: unknown) => {
      // The SDK's StreamableHTTPError carries the HTTP status as `code` (401 for a key the API refuses).
      const status = (error as { code?: unknown }).code;
      const reason = `${typeof status === 'number' ? `HTTP ${String(status)}: ` : ''}${error instanceof Error ? error.message : String(error)}`;
      log(`signalbox mcp: ${reason}`);
      if (isRequest(message))
        await local.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `the Signalbox API refused or could not be reached: ${reason}` },
        });
    });
  };
  remote.onmessage = (message) => {
    // The HTTP transport must send the negotiated version on every later request (the SDK client would set it).
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && initializeIds.has(id) && 'result' in message) {
      initializeIds.delete(id);
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message);
  };
  remote.onerror = (error) => {
    log(`signalbox mcp: ${error.message}`);
  };
  local.onerror = (error) => {
    log(`signalbox mcp: ${error.message}`);
  };
  await remote.start();
  await local.start();
  await closed;
  await remote.terminateSession().catch(() => undefined);
  await remote.close();
}

/** The HTTP side of the relay: `/mcp` with the key and the connection's agent and scenario. */
export function remoteTransport(target: McpTarget): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(target.endpoint, {
    requestInit: {
      headers: {
        authorization: `Bearer ${target.apiKey}`,
        'x-signalbox-agent': target.agent,
        ...(target.scenario ? { 'x-signalbox-scenario': target.scenario } : {}),
      },
    },
  });
}

/** `signalbox mcp`: serves MCP on stdin/stdout until stdin closes; logs go to stderr (stdout is the protocol's). */
export async function mcp(io: CliIo, opts: McpCommandOptions): Promise<CommandResult> {
  const target = mcpTarget(io.env, opts);
  io.stderr(
    `signalbox mcp: agent ${target.agent} through ${target.endpoint.href} (from the ${target.source})\n`,
  );
  await relayMcp(new StdioServerTransport(), remoteTransport(target), (line) => {
    io.stderr(`${line}\n`);
  });
  return { exitCode: 0, json: { ok: true }, text: [] };
}

export function registerMcp(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('mcp')
    .description(
      "serve Signalbox's governed MCP tools on stdio for a desktop MCP host (relays to the API's /mcp)",
    )
    .option('--agent <id>', 'the agent this host acts as (default: $SIGNALBOX_AGENT)')
    .option(
      '--scenario <id>',
      "only this scenario's tools (default: $SIGNALBOX_SCENARIO, else every scenario)",
    )
    .option(
      '--api-url <url>',
      'the API (default: $SIGNALBOX_API_URL, else the running `signalbox dev` server)',
    )
    .option('--api-key <key>', 'the tenant API key (default: $SIGNALBOX_API_KEY, else the dev server key)')
    .action(async (opts: McpCommandOptions) => {
      done(await mcp(io, opts));
    });
}
