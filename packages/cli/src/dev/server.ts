// `signalbox dev` as a local server (README "npm start"): the embedded run — five stages over the in-memory bus and
// PGlite with the demo tool backends — kept running behind the real HTTP API (`/v1`) and its trace viewer
// (`/viewer`), on loopback. Each registry (the four demo packs, and each `--registry` folder of the user's) runs its
// own pipeline; the API's submissions reach the one that declares the task's agent (router-bus.ts).
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { ACTION_KINDS } from '@signalbox/demo-tools';
import { createApiApp, authenticate, hashApiKey, type ApiKeys } from '@signalbox/api';
import { topicByName } from '@signalbox/contracts';
import { createPgliteEventStore, type TraceTimeline } from '@signalbox/event-log';
import type { OutgoingMessage } from '@signalbox/bus';
import {
  McpServers,
  createComputeSandbox,
  createExecutor,
  createHttpTransport,
  createMcpTransport,
  createSsrfGuard,
  type McpTransport,
} from '@signalbox/executor';
import { loadRegistryDir } from '@signalbox/registry';
import type { SemanticScorer } from '@signalbox/tool-decider';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { deciderSemantic } from '../semantic.js';
import { CliError } from '../errors.js';
import {
  createTaskWaiter,
  demoTaskId,
  runDemoRequests,
  startBackends,
  startPipeline,
  type EmbeddedBackends,
  type EmbeddedPipeline,
  type EmbeddedTrace,
} from './embedded.js';
import { readDataLock, removeDataLock, writeDataLock } from './event-log-source.js';
import { servePgliteWire, type PgliteWire } from './pglite-wire.js';
import { createRouterBus } from './router-bus.js';
import { watchRegistryDir, type RegistryDirStatus, type WatchedRegistry } from './registry-watch.js';
import { DEMO_REQUESTS, PACK_NAMES, type DemoRequest, type PackName } from './scenarios.js';

const defaultRepoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The SSRF allow-list (RS-6) of the dev server's executor when none is given: loopback on any port, where a user's
 * own tools under development listen. The production executor allows nothing private by default
 * (SIGNALBOX_EXECUTOR_ALLOW_HOSTS); the dev server prints the list it uses.
 */
export const DEV_ALLOW_HOSTS: readonly string[] = ['127.0.0.1:*', 'localhost:*', '[::1]:*'];

/** The tenant the development API key belongs to: the demo tasks' tenant, so the viewer lists them. */
export const DEV_TENANT = 'default';

/** Thrown when the dev server cannot start: a taken port, a missing registry folder, bad MCP configuration. */
export class DevServerError extends CliError {
  readonly exitCode = 1;
}

/** Options of {@link startDevServer}. */
export interface DevServerOptions {
  /** The port of the API and viewer; 0 picks a free one. @default 8080 */
  port?: number;
  /** The address to listen on. @default '127.0.0.1' */
  host?: string;
  /** The development API key (`Authorization: Bearer <key>`, tenant `default`). @default a new random key */
  apiKey?: string;
  /** A PGlite folder that keeps the event log (and the demo and executor tables) across restarts. @default in memory */
  dataDir?: string;
  /** The user's registry folders, each served by a pipeline of its own and reloaded on change. @default [] */
  registryDirs?: readonly string[];
  /** The demo packs served (registry/packs/<name>). @default all four */
  packs?: readonly PackName[];
  /**
   * Run the demo requests of the served packs first. Their task ids are fixed (`dev-<pack>-<n>`): when the data
   * folder already holds them (an earlier run), they are not run again and `demo.skipped` lists them. @default true
   */
  runDemo?: boolean;
  /** The executor's SSRF allow-list for the user's tools (see {@link DEV_ALLOW_HOSTS}). @default DEV_ALLOW_HOSTS */
  allowHosts?: readonly string[];
  /**
   * Where tool credentials (`auth_secret_env`), base URLs (`base_url_env`), SIGNALBOX_EXECUTOR_MCP_SERVERS and the
   * semantic model's settings are read. @default process.env
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** The decider's semantic model. @default loaded from `env` as the tool-decider worker does */
  semantic?: SemanticScorer | null;
  /** Edits of a `--registry` folder closer together than this are read once. @default 250 */
  reloadDebounceMs?: number;
  /**
   * Called once the API, the viewer and the event log's door listen — before the demo runs, which may take a while:
   * the server answers from then on.
   */
  onListening?: (where: { url: string; apiKey: string; databaseUrl: string | undefined }) => void;
  /** Called as each demo request finishes (progress). */
  onDemoFinished?: (request: DemoRequest, timeline: TraceTimeline) => void;
  /** How long a demo request may take. @default 60000 */
  demoTimeoutMs?: number;
  /** The repository root (registry/packs/). @default this checkout */
  repoRoot?: string;
  /**
   * The port of the event log's PostgreSQL wire protocol on `host` (pglite-wire.ts), for `signalbox trace` and the
   * other commands that read the event log; 0 picks a free one, null serves none. @default 0
   */
  databasePort?: number | null;
  /** Lines for the person running the server (registry reloads, lint findings). @default none */
  log?: (line: string) => void;
  /** How often `/mcp` compares each session's registry version (list-changed notifications). @default 1000 */
  mcpPollMs?: number;
}

/** What `GET /dev/status` answers. */
export interface DevServerStatus {
  url: string;
  viewer_url: string;
  data_dir: string | null;
  database_url: string | null;
  allow_hosts: string[];
  /** Each pipeline, in routing order: the user's registry folders first, then the demo packs. */
  pipelines: { name: string; kind: 'registry' | 'pack'; registry_version: string; agents: string[] }[];
  /** Each `--registry` folder: what serves, and the problems of its latest content. */
  registries: RegistryDirStatus[];
}

/** A running dev server. */
export interface DevServer {
  /** `http://<host>:<port>`: the API under `/v1`, the viewer under `/viewer`. */
  url: string;
  /** `<url>/viewer`. */
  viewerUrl: string;
  apiKey: string;
  /** `postgres://…` of the event log (see {@link DevServerOptions.databasePort}), or undefined when not served. */
  databaseUrl: string | undefined;
  /** The demo's outcome: the traces of the requests run now, and the task ids left as an earlier run recorded them. */
  demo: { traces: EmbeddedTrace[]; skipped: string[]; actions: Record<string, number> };
  status(): DevServerStatus;
  /** The watched `--registry` folders. */
  registries: readonly WatchedRegistry[];
  /** Stops accepting requests, drains the stages and closes everything; idempotent. */
  close(): Promise<void>;
}

const PublishBody = z.object({
  messages: z
    .array(
      z.object({
        topic: z.string().min(1),
        key: z.string().min(1),
        value: z.unknown(),
        headers: z.record(z.string(), z.string()).optional(),
      }),
    )
    .min(1)
    .max(100),
});

function resolveOptions(options: DevServerOptions) {
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new RangeError(`port must be an integer from 0 to 65535, got ${String(port)}`);
  const apiKey = options.apiKey ?? `sbx_dev_${randomBytes(18).toString('base64url')}`;
  if (!/^[\x21-\x7e]{16,}$/.test(apiKey))
    throw new RangeError('apiKey must be at least 16 printable ASCII characters without spaces');
  const registryDirs = (options.registryDirs ?? []).map((d) => resolve(d));
  for (const dir of registryDirs) {
    let isDir = false;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      // reported below
    }
    if (!isDir) throw new DevServerError(`--registry ${dir}: no such folder`);
  }
  const databasePort = options.databasePort;
  if (
    databasePort !== undefined &&
    databasePort !== null &&
    (!Number.isInteger(databasePort) || databasePort < 0 || databasePort > 65535)
  )
    throw new RangeError(
      `databasePort must be an integer from 0 to 65535 or null, got ${String(databasePort)}`,
    );
  const packs = options.packs ?? PACK_NAMES;
  for (const p of packs)
    if (!(PACK_NAMES as readonly string[]).includes(p))
      throw new RangeError(`unknown pack "${p}" (known: ${PACK_NAMES.join(', ')})`);
  return {
    port,
    host: options.host ?? '127.0.0.1',
    apiKey,
    dataDir: options.dataDir === undefined ? undefined : resolve(options.dataDir),
    registryDirs,
    packs,
    runDemo: options.runDemo ?? true,
    databasePort: options.databasePort === undefined ? 0 : options.databasePort,
    allowHosts: [...(options.allowHosts ?? DEV_ALLOW_HOSTS)],
    env: options.env ?? process.env,
    repoRoot: options.repoRoot ?? defaultRepoRoot,
    log: options.log ?? (() => undefined),
    mcpPollMs: options.mcpPollMs ?? 1000,
  };
}

/** Which of the demo's task ids the event log already holds (an earlier run on the same data folder). */
async function recordedDemoTasks(
  backends: EmbeddedBackends,
  requests: readonly DemoRequest[],
): Promise<string[]> {
  const found: string[] = [];
  for (const [i, request] of requests.entries()) {
    const taskId = demoTaskId(request, i);
    if ((await backends.store.readTask(taskId)).length > 0) found.push(taskId);
  }
  return found;
}

function listenError(error: unknown, host: string, port: number, flag = '--port'): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new DevServerError(
      `port ${String(port)} on ${host} is already in use (another signalbox dev, or another program): stop it, or ` +
        `pass ${flag} <n> for another port (${flag} 0 picks a free one)`,
      { cause: error },
    );
  if (code === 'EACCES')
    return new DevServerError(
      `port ${String(port)} on ${host} needs privileges; pass ${flag} 1024 or above`,
      {
        cause: error,
      },
    );
  return error as Error;
}

/**
 * Starts the dev server: the API, the viewer and the event log's door listen (`onListening`), then the backends and
 * the pipelines start (requests wait for them), then the demo runs (unless off or already recorded). Resolves when
 * all of that is done; `close()` stops it.
 */
export async function startDevServer(options: DevServerOptions = {}): Promise<DevServer> {
  const o = resolveOptions(options);
  const mcpServers = (() => {
    const text = o.env.SIGNALBOX_EXECUTOR_MCP_SERVERS?.trim();
    if (!text) return {};
    try {
      return McpServers.parse(JSON.parse(text));
    } catch (error) {
      throw new DevServerError(
        `SIGNALBOX_EXECUTOR_MCP_SERVERS is not valid MCP server configuration JSON: ${(error as Error).message}`,
        { cause: error },
      );
    }
  })();

  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch(() => undefined);
    cleanups.length = 0;
  };
  if (o.dataDir !== undefined) {
    const lock = readDataLock(o.dataDir);
    if (lock && lock.pid !== process.pid)
      throw new DevServerError(
        `another signalbox dev (pid ${String(lock.pid)}, ${lock.url}) serves the data folder ${o.dataDir}; a PGlite ` +
          `folder is one process's: stop it, or give another --data folder`,
      );
  }
  try {
    const db = o.dataDir === undefined ? new PGlite() : new PGlite(o.dataDir);
    cleanups.push(() => db.close());
    const store = createPgliteEventStore({ pglite: db });

    // The API, the viewer and the event log's door listen first, and print where they are: opening the database,
    // the semantic model and the stages take a while on a cold start, and requests meanwhile wait for them.
    let markStarted: () => void = () => undefined;
    let markFailed: (error: unknown) => void = () => undefined;
    const started = new Promise<void>((resolveStarted, reject) => {
      markStarted = resolveStarted;
      markFailed = reject;
    });
    started.catch(() => undefined); // a failed start is thrown by startDevServer; waiting requests get a 500

    const packPipelines = new Map<PackName, EmbeddedPipeline>();
    // The user's folders: a pipeline starts with the first content that loads and restarts its stages on each
    // later one; a folder that never loaded has no pipeline (its agents are nobody's yet).
    const userPipelines = new Map<string, EmbeddedPipeline>();
    const watched: WatchedRegistry[] = [];
    const pipelines = (): EmbeddedPipeline[] => [
      ...o.registryDirs.flatMap((d) => userPipelines.get(d) ?? []),
      ...packPipelines.values(),
    ];
    const router = createRouterBus(pipelines);

    const apiKeys: ApiKeys = new Map([[hashApiKey(o.apiKey), DEV_TENANT]]);
    // Every pipeline's registry, in routing order: `/mcp` serves a connection's agent from the one that declares it
    // (its visible tools, its list-changed notifications as that registry reloads), and the viewer prices a trace's
    // model calls with the registry of the profiles its decisions were taken under.
    const app = createApiApp({
      bus: router,
      store,
      apiKeys,
      registries: () => pipelines().map((p) => p.registry()),
      // The viewer's banner of the `--registry` folders' problems and lint findings (addDevRoutes below).
      viewerRegistryStatus: 'dev/status',
      mcp: { registryPollMs: o.mcpPollMs },
    });
    app.addHook('onRequest', async (request) => {
      if (/^\/(v1|dev|mcp)(\/|$|\?)/.test(request.url)) await started;
    });
    cleanups.push(() => app.close());
    let url = '';
    let databaseUrl: string | undefined;
    const status = (): DevServerStatus => ({
      url,
      viewer_url: `${url}/viewer`,
      data_dir: o.dataDir ?? null,
      database_url: databaseUrl ?? null,
      allow_hosts: o.allowHosts,
      pipelines: pipelines().map((p) => ({
        name: p.name,
        kind: (PACK_NAMES as readonly string[]).includes(p.name) ? 'pack' : 'registry',
        registry_version: p.registry().versions.registry_version,
        agents: p.registry().content.agents.map((a) => a.id),
      })),
      registries: watched.map((w) => w.status()),
    });
    addDevRoutes(app, apiKeys, router.publish.bind(router), status);
    try {
      await app.listen({ host: o.host, port: o.port });
    } catch (error) {
      throw listenError(error, o.host, o.port);
    }
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : o.port;
    url = `http://${o.host.includes(':') ? `[${o.host}]` : o.host}:${String(port)}`;
    if (o.databasePort !== null) {
      let wire: PgliteWire;
      try {
        wire = await servePgliteWire({ db, host: o.host, port: o.databasePort, ready: started });
      } catch (error) {
        throw listenError(error, o.host, o.databasePort, '--database-port');
      }
      cleanups.push(() => wire.close());
      databaseUrl = wire.url;
    }
    options.onListening?.({ url, apiKey: o.apiKey, databaseUrl });

    const waiter = createTaskWaiter();
    let backends: EmbeddedBackends;
    try {
      await db.waitReady;
      const dataDir = o.dataDir;
      if (dataDir !== undefined) {
        // Written once PGlite made the folder: other CLI processes given this folder (`--data DIR`) reach it
        // through this server (event-log-source.ts), and a second dev server refuses it.
        writeDataLock(dataDir, {
          pid: process.pid,
          url,
          api_key: o.apiKey,
          ...(databaseUrl ? { database_url: databaseUrl } : {}),
        });
        cleanups.push(() => {
          removeDataLock(dataDir);
          return Promise.resolve();
        });
      }
      const semantic = options.semantic === undefined ? await deciderSemantic(o.env) : options.semantic;
      backends = await startBackends({ db, store });
      const open = backends;
      cleanups.push(() => open.close());

      const guard = createSsrfGuard({ allow: [new URL(open.demoToolsUrl).host, ...o.allowHosts] });
      const toolEnv = { ...o.env, SIGNALBOX_DEMO_TOOLS_URL: open.demoToolsUrl } as NodeJS.ProcessEnv;
      const mcp: McpTransport = createMcpTransport({ servers: mcpServers, guard, env: toolEnv });
      cleanups.push(() => mcp.close());
      // The user's HTTP and MCP tools go through the production executor, behind the SSRF guard.
      const executor = createExecutor({
        store: open.executorStore,
        transports: {
          http: createHttpTransport({ guard, env: toolEnv }),
          mcp,
          builtin: { compute: createComputeSandbox({}) },
        },
      });
      const pipelineOptions = (name: string) => ({
        name,
        store: open.store,
        executor,
        semantic,
        onFinished: (taskId: string) => {
          waiter.finished(taskId);
        },
      });

      for (const pack of o.packs) {
        const registry = await loadRegistryDir(join(o.repoRoot, 'registry', 'packs', pack));
        const pipeline = await startPipeline({ ...pipelineOptions(pack), registry });
        cleanups.push(() => pipeline.stop());
        packPipelines.set(pack, pipeline);
      }
      cleanups.push(async () => {
        for (const w of watched) w.close();
        for (const p of userPipelines.values()) await p.stop();
      });
      for (const [i, dir] of o.registryDirs.entries()) {
        const name = `registry-${String(i + 1)}`;
        const reported = { lint: '' };
        const w = await watchRegistryDir({
          dir,
          ...(options.reloadDebounceMs !== undefined ? { debounceMs: options.reloadDebounceMs } : {}),
          onLoad: async (registry) => {
            const existing = userPipelines.get(dir);
            if (existing) {
              await existing.reload(registry);
              o.log(`[dev] reloaded ${dir}: registry ${registry.versions.registry_version.slice(0, 12)}`);
            } else {
              const pipeline = await startPipeline({
                ...pipelineOptions(name),
                registry,
                groupPrefix: `dev.${name}`,
              });
              userPipelines.set(dir, pipeline);
              o.log(
                `[dev] serving ${dir}: registry ${registry.versions.registry_version.slice(0, 12)}, agents ` +
                  `${registry.content.agents.map((a) => a.id).join(', ') || '(none)'}, tools ` +
                  (registry.content.tools.map((t) => t.name).join(', ') || '(none)'),
              );
            }
          },
          onChecked: (status) => {
            if (status.problems.length > 0) {
              o.log(
                `[dev] ${dir} did not load (${String(status.problems.length)} problem(s)); ` +
                  (status.state === 'stale'
                    ? 'the last good registry keeps serving'
                    : 'nothing of it is served') +
                  `:\n${status.problems.map((p) => `  ${p}`).join('\n')}`,
              );
            }
            const lint = status.lint.join('\n');
            if (lint !== reported.lint && status.lint.length > 0)
              o.log(`[dev] ${dir} lint (RG-2):\n${status.lint.map((l) => `  ${l}`).join('\n')}`);
            reported.lint = lint;
          },
        });
        watched.push(w);
      }
      markStarted();
    } catch (error) {
      markFailed(error);
      throw error;
    }

    // The demo, through the same pipelines the API serves.
    const demoRequests = o.runDemo ? DEMO_REQUESTS.filter((r) => o.packs.includes(r.pack)) : [];
    const skipped = await recordedDemoTasks(backends, demoRequests);
    let traces: EmbeddedTrace[] = [];
    if (demoRequests.length > 0 && skipped.length === 0) {
      traces = await runDemoRequests({
        store: backends.store,
        pipelineOf: (request) => {
          const pipeline = packPipelines.get(request.pack);
          if (!pipeline) throw new Error(`no pipeline for pack ${request.pack}`);
          return pipeline;
        },
        waiter,
        requests: demoRequests,
        ...(options.demoTimeoutMs !== undefined ? { timeoutMs: options.demoTimeoutMs } : {}),
        ...(options.onDemoFinished ? { onFinished: options.onDemoFinished } : {}),
      });
    }
    const actions: Record<string, number> = {};
    for (const kind of ACTION_KINDS) actions[kind] = await backends.demoStore.countActions(kind);

    let closing: Promise<void> | undefined;
    return {
      url,
      viewerUrl: `${url}/viewer`,
      apiKey: o.apiKey,
      databaseUrl,
      demo: { traces, skipped, actions },
      status,
      registries: watched,
      close() {
        closing ??= cleanup();
        return closing;
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/**
 * The dev server's own routes, with the development key: `GET /dev/status` (the pipelines and the problems of the
 * user's registry folders, for the person at the terminal and the viewer) and `POST /dev/publish` (what
 * `signalbox redrive` publishes when the dev server is where the data is: the in-memory bus has no other door).
 */
function addDevRoutes(
  app: FastifyInstance,
  apiKeys: ApiKeys,
  publish: (messages: readonly OutgoingMessage[]) => Promise<void>,
  status: () => DevServerStatus,
): void {
  const auth = (header: string | undefined) => authenticate(apiKeys, header);
  app.get('/dev/status', (request) => {
    auth(request.headers.authorization);
    return status();
  });
  app.post('/dev/publish', async (request, reply) => {
    auth(request.headers.authorization);
    const parsed = PublishBody.safeParse(request.body);
    if (!parsed.success)
      return reply.code(400).send({
        error: {
          code: 'invalid_request',
          message: `invalid publish body: ${parsed.error.message.slice(0, 300)}`,
        },
      });
    const messages: OutgoingMessage[] = [];
    for (const m of parsed.data.messages) {
      const topic = topicByName(m.topic);
      if (!topic)
        return reply
          .code(400)
          .send({ error: { code: 'invalid_request', message: `unknown topic ${m.topic}` } });
      messages.push({ topic, key: m.key, value: m.value, ...(m.headers ? { headers: m.headers } : {}) });
    }
    try {
      await publish(messages);
    } catch (error) {
      // The bus checks each value against its topic's schema: a bad message is the caller's.
      return reply
        .code(400)
        .send({ error: { code: 'invalid_request', message: (error as Error).message.slice(0, 500) } });
    }
    return reply.code(202).send({ published: messages.length });
  });
}
