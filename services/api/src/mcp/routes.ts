// `/mcp`: Signalbox as a governed MCP server over streamable HTTP (the MCP TypeScript SDK's transport), with the
// API keys and tenants of `/v1`. A connection names its agent (`X-Signalbox-Agent` header or `?agent=`) and may name
// a scenario (`X-Signalbox-Scenario` / `?scenario=`); it lives in this process (the session id the SDK hands out),
// so a load balancer must keep a session on one replica. `signalbox mcp` relays stdio to this endpoint.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { REPUBLISHED_HEADER, type Bus } from '@signalbox/bus';
import { TOPICS, type ProposedCall, type TaskSpec } from '@signalbox/contracts';
import type { EventStore } from '@signalbox/event-log';
import { canonicalJson, type Registry } from '@signalbox/registry';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticate, type ApiKeys } from '../auth.js';
import { IDEMPOTENCY_KEY, messageOf, submittedMessage, taskIdFor, traceparentFor } from '../tasks.js';
import {
  MCP_META,
  McpBackendError,
  createMcpSessionServer,
  type McpBackend,
  type TaskView,
} from './session.js';

/** Options of the `/mcp` endpoint. */
export interface McpRouteOptions {
  /**
   * The registry as it is now: read on every `tools/list` and polled every `registryPollMs`; when its version
   * changes, every open session is sent `notifications/tools/list_changed`. @default the API's `registry`, fixed
   */
  registry?: () => Registry | undefined;
  /**
   * Several registries side by side, each serving its own agents (the dev server: one per demo pack and per
   * `--registry` folder), in order: a connection's agent is served from the first that declares it
   * ({@link agentRegistry}), and only the sessions whose registry changed version are sent `tools/list_changed`.
   * With `registry` too, that one comes first. @default none
   */
  registries?: () => readonly Registry[];
  /** How often the registry version is compared. @default 1000 */
  registryPollMs?: number;
  /** How long a `tools/call` waits for its task before it answers "still running". @default 60000 */
  callTimeoutMs?: number;
  /** Most open sessions; an `initialize` beyond them gets 503. @default 1000 */
  maxSessions?: number;
  /**
   * A session without a request for this long is closed (a host that went away without `DELETE /mcp` must not hold
   * its server for ever); its next request gets 404 and the host initializes again. @default 3600000 (an hour)
   */
  sessionIdleMs?: number;
}

/** What app.ts hands to {@link registerMcp}. */
export interface McpWiring extends McpRouteOptions {
  apiKeys: ApiKeys;
  bus: Bus;
  store: EventStore;
  now: () => Date;
  /** The registries served, in order (a single registry is a list of one). */
  registries: () => readonly Registry[];
  warn: (fields: Record<string, unknown>, message: string) => void;
}

interface Session {
  tenant: string;
  agent: string;
  /** The version of the agent's registry its last tools/list_changed (or its start) was about. */
  version: string | undefined;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  /** `Date.now()` of its latest request. */
  lastSeen: number;
}

const AGENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

function jsonRpcError(reply: FastifyReply, status: number, message: string) {
  return reply.code(status).send({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}

/**
 * The registry an agent lives in: the first of `registries` that declares it — the rule the dev server routes a
 * task's messages by (packages/cli/src/dev/router-bus.ts). Undefined when none does.
 */
export function agentRegistry(registries: readonly Registry[], agent: string): Registry | undefined {
  return registries.find((r) => r.agent(agent) !== undefined);
}

function single(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Registers `POST|GET|DELETE /mcp` on the app. */
export function registerMcp(app: FastifyInstance, wiring: McpWiring): void {
  const pollMs = wiring.registryPollMs ?? 1000;
  const maxSessions = wiring.maxSessions ?? 1000;
  const sessionIdleMs = wiring.sessionIdleMs ?? 3_600_000;
  const sessions = new Map<string, Session>();

  // tools/list follows the agent's registry: one comparison per session and interval, a notification to each session
  // whose registry has a new version.
  const timer = setInterval(() => {
    const idleSince = Date.now() - sessionIdleMs;
    for (const [id, session] of sessions)
      if (session.lastSeen < idleSince) {
        sessions.delete(id);
        void session.transport.close();
      }
    const registries = wiring.registries();
    for (const [id, session] of sessions) {
      const now = agentRegistry(registries, session.agent)?.versions.registry_version;
      if (now === session.version) continue;
      session.version = now;
      session.server.server.sendToolListChanged().catch((error: unknown) => {
        wiring.warn({ session: id, err: String(error) }, 'tools/list_changed not delivered');
      });
    }
  }, pollMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await Promise.all([...sessions.values()].map((s) => s.transport.close()));
    sessions.clear();
  });

  /** The API as `tenant`, with the key of the request being served (every /v1 check applies to it). */
  const backendFor =
    (tenant: string, agent: string, scenario: string | null) =>
    (token: string | undefined): McpBackend => {
      const headers = { authorization: `Bearer ${token ?? ''}`, 'content-type': 'application/json' };
      const call = async (method: 'GET' | 'POST', url: string, body?: unknown, extra = {}) => {
        const res = await app.inject({
          method,
          url,
          headers: { ...headers, ...extra },
          ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        });
        const json = res.json<Record<string, unknown>>();
        if (res.statusCode >= 400) {
          const error = (json.error ?? {}) as { code?: unknown; message?: unknown; fields?: unknown };
          const fields = Array.isArray(error.fields)
            ? ` [${(error.fields as { path: string; message: string }[]).map((f) => `${f.path}: ${f.message}`).join('; ')}]`
            : '';
          throw new McpBackendError(
            res.statusCode,
            typeof error.code === 'string' ? error.code : 'error',
            `${typeof error.message === 'string' ? error.message : 'request failed'}${fields}`,
          );
        }
        return json;
      };
      return {
        submitCall: (proposed) => submitCall(tenant, agent, scenario, proposed),
        async submitTask(body, key) {
          const json = await call('POST', '/v1/tasks', body, key ? { 'idempotency-key': key } : {});
          return { task_id: String(json.task_id) };
        },
        async answer(taskId, body) {
          const json = await call('POST', `/v1/tasks/${encodeURIComponent(taskId)}/answers`, body);
          return { continuation_event_id: String(json.continuation_event_id) };
        },
        async task(taskId) {
          return (await call('GET', `/v1/tasks/${encodeURIComponent(taskId)}`)) as unknown as TaskView;
        },
        trace: (taskId) => call('GET', `/v1/traces/${encodeURIComponent(taskId)}`),
      };
    };

  /**
   * A proposed call as a task, recorded before it is published (like `POST /v1/tasks`). With an idempotency key the
   * task id is derived from (tenant, key) in a namespace of its own, so the same call sent again is the same task —
   * its stored result is answered, nothing runs twice — and a different call under a used key is refused.
   */
  async function submitCall(
    tenant: string,
    agent: string,
    scenario: string | null,
    proposed: {
      tool: string;
      arguments: Record<string, unknown>;
      conversation: string | null;
      idempotencyKey: string | null;
    },
  ): Promise<{ task_id: string }> {
    const call: ProposedCall = {
      tool: proposed.tool,
      arguments: proposed.arguments as ProposedCall['arguments'],
      conversation: proposed.conversation,
    };
    if (proposed.idempotencyKey !== null && !IDEMPOTENCY_KEY.test(proposed.idempotencyKey))
      throw new McpBackendError(
        400,
        'invalid_request',
        `_meta["${MCP_META.idempotencyKey}"] must be 1–255 printable ASCII characters`,
      );
    const at = wiring.now();
    const taskId = taskIdFor(
      tenant,
      proposed.idempotencyKey === null ? undefined : `mcp\u001f${proposed.idempotencyKey}`,
    );
    const task: TaskSpec = {
      // The request the trace shows: the user's words when the host passed them, else the call itself.
      request: (proposed.conversation ?? `${proposed.tool} ${canonicalJson(proposed.arguments)}`).slice(
        0,
        100_000,
      ),
      context: [],
      locale: 'en',
      time_zone: 'UTC',
      reference_time: at.toISOString(),
      cost_ceiling_usd: null,
      required_modalities: ['text'],
      attachments: [],
      scenario,
      needs_fresh_data: false,
      redrive_of: null,
      proposed_call: call,
    };
    let built: ReturnType<typeof submittedMessage>;
    try {
      built = submittedMessage({
        task_id: taskId,
        tenant_id: tenant,
        agent_id: agent,
        task,
        causation_id: null,
        decision_reason: `tool call ${proposed.tool} proposed through MCP`,
        occurred_at: at,
        traceparent: traceparentFor(undefined),
      });
    } catch (error) {
      throw new McpBackendError(400, 'invalid_request', `the call cannot be a task: ${String(error)}`);
    }
    const [result] = await wiring.store.append([built.event]);
    if (!result) throw new TypeError('append returned no result');
    const publish = async (message: typeof built.message, again: boolean) => {
      try {
        await wiring.bus.publish([
          {
            topic: TOPICS.taskSubmitted,
            key: message.task_id,
            value: message,
            headers: {
              ...(message.traceparent ? { traceparent: message.traceparent } : {}),
              ...(again ? { [REPUBLISHED_HEADER]: 'true' } : {}),
            },
          },
        ]);
      } catch (error) {
        throw new McpBackendError(
          503,
          'unavailable',
          `the message broker is unavailable (${String(error)}); the call is recorded but not published: send the ` +
            'same call again with the same idempotency key',
        );
      }
    };
    if (result.inserted) {
      await publish(built.message, false);
      return { task_id: taskId };
    }
    const stored = result.event;
    const storedCall = (stored.payload as { task: TaskSpec }).task.proposed_call;
    if (stored.envelope.agent_id !== agent || canonicalJson(storedCall ?? null) !== canonicalJson(call)) {
      throw new McpBackendError(
        409,
        'idempotency_conflict',
        'this idempotency key was already used for a different call; use a new key',
      );
    }
    // Only when nothing reacted yet: then the first attempt may have failed to publish.
    const events = await wiring.store.readTask(taskId);
    if (events.length === 1) await publish(messageOf(stored), true);
    return { task_id: taskId };
  }

  /** The caller's tenant, or a 401 sent (the `/v1` error shape). */
  const authenticated = (request: FastifyRequest): string =>
    authenticate(wiring.apiKeys, request.headers.authorization);

  const sessionOf = (request: FastifyRequest, tenant: string): Session | undefined => {
    const id = single(request.headers['mcp-session-id']);
    const session = id === undefined ? undefined : sessions.get(id);
    // Another tenant's session id is answered like an unknown one: ids do not leak.
    if (!session || session.tenant !== tenant) return undefined;
    session.lastSeen = Date.now();
    return session;
  };

  const withAuth = (request: FastifyRequest, tenant: string) => {
    const match = /^Bearer[ \t]+([^\s]+)/i.exec(request.headers.authorization ?? '');
    const auth: AuthInfo = { token: match?.[1] ?? '', clientId: tenant, scopes: [] };
    const raw: IncomingMessage & { auth?: AuthInfo } = request.raw;
    raw.auth = auth;
    return raw;
  };

  app.post('/mcp', async (request, reply) => {
    const tenant = authenticated(request);
    const existing = sessionOf(request, tenant);
    if (existing) {
      reply.hijack();
      await existing.transport.handleRequest(withAuth(request, tenant), reply.raw, request.body);
      return reply;
    }
    if (single(request.headers['mcp-session-id']) !== undefined)
      return jsonRpcError(reply, 404, 'no such MCP session: initialize a new one');
    if (!isInitializeRequest(request.body))
      return jsonRpcError(reply, 400, 'the first request of an MCP session must be initialize');
    const query = request.query as Record<string, unknown>;
    const agent = single(request.headers['x-signalbox-agent']) ?? single(query.agent);
    const scenario = single(request.headers['x-signalbox-scenario']) ?? single(query.scenario) ?? null;
    if (agent === undefined || !AGENT.test(agent))
      return jsonRpcError(
        reply,
        400,
        'name the agent of this connection: an X-Signalbox-Agent header or an ?agent= query parameter',
      );
    const registries = wiring.registries();
    const registry = agentRegistry(registries, agent);
    if (!registry)
      return jsonRpcError(
        reply,
        400,
        `agent ${agent} is not in the registry (agents: ${[...new Set(registries.flatMap((r) => r.content.agents.map((a) => a.id)))].join(', ')})`,
      );
    if (scenario !== null && !registry.scenarios().includes(scenario))
      return jsonRpcError(
        reply,
        400,
        `scenario ${scenario} is not in the registry (scenarios: ${registry.scenarios().join(', ')})`,
      );
    if (sessions.size >= maxSessions)
      return jsonRpcError(reply, 503, 'too many open MCP sessions; close one and try again');
    // The agent's registry as it is now; should a reload drop the agent, the last registry that declared it.
    let agentsRegistry = registry;
    const server = createMcpSessionServer({
      subject: { agent, tenant, scenario },
      registry: () => (agentsRegistry = agentRegistry(wiring.registries(), agent) ?? agentsRegistry),
      backend: backendFor(tenant, agent, scenario),
      ...(wiring.callTimeoutMs !== undefined ? { callTimeoutMs: wiring.callTimeoutMs } : {}),
    });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, {
          tenant,
          agent,
          version: registry.versions.registry_version,
          transport,
          server,
          lastSeen: Date.now(),
        });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    reply.hijack();
    await transport.handleRequest(withAuth(request, tenant), reply.raw, request.body);
    return reply;
  });

  // The stream of server notifications (tools/list_changed) and the end of a session.
  const onSession = async (request: FastifyRequest, reply: FastifyReply) => {
    const tenant = authenticated(request);
    const session = sessionOf(request, tenant);
    if (!session) return jsonRpcError(reply, 404, 'no such MCP session: initialize a new one');
    reply.hijack();
    await session.transport.handleRequest(withAuth(request, tenant), reply.raw);
    return reply;
  };
  app.get('/mcp', onSession);
  app.delete('/mcp', onSession);
}
