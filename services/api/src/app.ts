import { TOPICS, type TaskSpec } from '@signalbox/contracts';
import { REPUBLISHED_HEADER, type Bus } from '@signalbox/bus';
import { EventLogError, traceTimeline, type EventStore, type StoredEvent } from '@signalbox/event-log';
import { canonicalJson, RegistryStoreError, type Registry, type RegistryStore } from '@signalbox/registry';
import { createHttpServerMetrics, createStageMetrics, type StageMetrics } from '@signalbox/telemetry';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { authenticate, parseApiKeys, type ApiKeys } from './auth.js';
import {
  ApiError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  UnavailableError,
  UnprocessableError,
} from './errors.js';
import { DOCS_CONTENT_SECURITY_POLICY, docsPage } from './openapi-docs.js';
import { openApiDocument, trackRoutes } from './openapi.js';
import { registerMcp, type McpRouteOptions } from './mcp/routes.js';
import { registryVersions } from './registry-versions.js';
import { streamTaskEvents } from './task-events.js';
import { registerViewer } from './viewer/routes.js';
import {
  AnswerBody,
  SubmitTaskBody,
  TraceQuery,
  encodeCursor,
  parseRequest,
  unstorableParams,
} from './requests.js';
import {
  IDEMPOTENCY_KEY,
  answerableClarification,
  confirmationAsked,
  continuationTask,
  messageOf,
  ownerOf,
  submittedMessage,
  taskIdFor,
  taskSpecOf,
  pendingConfirmation,
  taskView,
  traceView,
  traceparentFor,
  type PendingConfirmation,
} from './tasks.js';

/** The few logger methods the API uses (a pino logger fits). Identifiers only, never payloads (OB-1). */
export interface ApiLogger {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

/** Options of {@link createApiApp}; resolved once, bad values throw before any route exists. */
export interface ApiAppOptions {
  /** Where submissions are published (`TOPICS.taskSubmitted`); the topic must exist. */
  bus: Bus;
  /** The event log: submissions are appended here first, traces are read from here. */
  store: EventStore;
  /** Key hashes → tenant (see `parseApiKeys`); a plain `{ "<sha256 hex>": "<tenant>" }` object is parsed. */
  apiKeys: ApiKeys | Readonly<Record<string, string>>;
  /** Largest request body in bytes; larger ones get 413. @default 1048576 */
  bodyLimitBytes?: number;
  /** The registry loaded from SIGNALBOX_REGISTRY_DIR, reported by `GET /v1/registry/versions`. @default none */
  registry?: Registry;
  /**
   * Registries served side by side, each with its own agents (the dev server: one per demo pack and per `--registry`
   * folder), read anew on each use, in order: an agent belongs to the first that declares it. `/mcp` serves each
   * connection's agent from its registry; a trace's model calls are priced by the registry whose profiles the
   * decision was taken under. `registry`, when also given, comes first. @default none
   */
  registries?: () => readonly Registry[];
  /**
   * The path (relative to the API root) where the viewer's list page reads registry folders' problems, shaped like
   * `GET /dev/status` (the dev server sets `dev/status`, a route of its own). @default none: the viewer shows none
   */
  viewerRegistryStatus?: string;
  /** The registry history in PostgreSQL (RG-3). @default none */
  registryStore?: RegistryStore;
  /** Registry names whose latest publication is reported. @default [] */
  registryNames?: readonly string[];
  /** @default silent */
  logger?: ApiLogger;
  /** Request metrics for `/metrics` (OB-3), `stage` label `api`. @default a private registry */
  metrics?: StageMetrics;
  /** The clock (task reference time, event times). @default () => new Date() */
  now?: () => Date;
  /** How long `/readyz` waits for the event log and for the broker. @default 2000 */
  readinessTimeoutMs?: number;
  /**
   * How long a request waits for its publish before it answers `503` (kafkajs retries an unreachable broker for
   * 10 s and more before it gives up). @default 5000
   */
  publishTimeoutMs?: number;
  /**
   * `/mcp`, Signalbox as a governed MCP server (streamable HTTP, the same keys and tenants as /v1; see mcp/routes.ts),
   * or false for none. Served only with a `registry` (it lists the agents' visible tools). @default on, its defaults
   */
  mcp?: McpRouteOptions | false;
  /** How often `GET /v1/tasks/:id/events` reads the event log for a task's progress. @default 500 */
  taskEventsPollMs?: number;
  /** How often an idle event stream gets a comment line (keeps proxies from closing it). @default 15000 */
  taskEventsHeartbeatMs?: number;
}

const silentLogger: ApiLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const MAX_ID_LENGTH = 128;

/**
 * The HTTP API (IF-1) as a fastify instance, not yet listening: `main.ts` calls `listen`, tests call `inject`.
 * Every `/v1` route needs `Authorization: Bearer <key>` and sees only the key's tenant.
 */
export function createApiApp(options: ApiAppOptions): FastifyInstance {
  const apiKeys: ApiKeys =
    options.apiKeys instanceof Map
      ? options.apiKeys
      : parseApiKeys(options.apiKeys as Record<string, string>);
  const bodyLimit = options.bodyLimitBytes ?? 1024 * 1024;
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 1) {
    throw new RangeError(`bodyLimitBytes must be a positive integer, got ${String(bodyLimit)}`);
  }
  const readinessTimeoutMs = positiveMs('readinessTimeoutMs', options.readinessTimeoutMs ?? 2000);
  const publishTimeoutMs = positiveMs('publishTimeoutMs', options.publishTimeoutMs ?? 5000);
  const taskEventsPollMs = positiveMs('taskEventsPollMs', options.taskEventsPollMs ?? 500);
  const taskEventsHeartbeatMs = positiveMs('taskEventsHeartbeatMs', options.taskEventsHeartbeatMs ?? 15_000);
  const { bus, store } = options;
  const logger = options.logger ?? silentLogger;
  const metrics = options.metrics ?? createStageMetrics({ stage: 'api' });
  // OB-3 over OTLP: `http.server.request.duration` by route and status code (a no-op while no SDK is started).
  const httpMetrics = createHttpServerMetrics({ meterName: 'signalbox.api' });
  const now = options.now ?? (() => new Date());
  const registryNames = [...(options.registryNames ?? [])];

  const app = Fastify({
    bodyLimit,
    logger: false,
    return503OnClosing: true,
    // A URL that does not decode (`%ED%A0%80`, a lone surrogate in UTF-8) fails before routing: the same error shape.
    frameworkErrors: (error, request, reply) => {
      void sendError(error, request, reply, logger);
    },
  });
  // Every route registered from here on is listed for openapi.test.ts, which checks that the document has it.
  trackRoutes(app);
  // JSON only: fastify's built-in text/plain parser would hand a string to the validator and answer a confusing 400.
  app.removeContentTypeParser('text/plain');
  const tenants = new WeakMap<FastifyRequest, string>();
  const started = new WeakMap<FastifyRequest, number>();

  const tenantOf = (request: FastifyRequest): string => {
    const tenant = tenants.get(request);
    // The onRequest hook of every /v1 route sets it; a route without it is a wiring bug.
    if (tenant === undefined) throw new TypeError('route is missing the authentication hook');
    return tenant;
  };

  /** The task's events when the caller's tenant owns it; 404 otherwise (also for other tenants: ids do not leak). */
  const readOwnTask = async (
    request: FastifyRequest,
    taskId: string,
    options: { withExchanges?: boolean } = {},
  ): Promise<StoredEvent[]> => {
    const tenant = tenantOf(request);
    if (taskId.length === 0 || taskId.length > MAX_ID_LENGTH) throw new NotFoundError(`no task ${taskId}`);
    const events = await store.readTask(taskId, options);
    if (events.length === 0 || ownerOf(events) !== tenant) throw new NotFoundError(`no task ${taskId}`);
    return events;
  };

  /**
   * Publishes a submission recorded in the event log, within `publishTimeoutMs`. An unreachable broker (or schema
   * registry) answers `503`: the submission stays recorded, and the same request sent again (the same Idempotency-Key,
   * the same answer) publishes it. A publish that outlives the deadline goes on in the background (kafkajs cannot
   * cancel a send): should it get through later, the retry's copy is marked republished and the stages reuse their
   * decisions. `again`: the message may have been published before; consumers must not take it for new.
   */
  const publish = async (
    message: { task_id: string; traceparent: string | null },
    retry: string,
    again = false,
  ) => {
    const headers: Record<string, string> = {};
    if (message.traceparent) headers.traceparent = message.traceparent;
    if (again) headers[REPUBLISHED_HEADER] = 'true';
    const sending = bus.publish([
      { topic: TOPICS.taskSubmitted, key: message.task_id, value: message, headers },
    ]);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => {
        resolve('timed out');
      }, publishTimeoutMs);
    });
    let outcome: 'timed out' | undefined;
    try {
      outcome = await Promise.race([sending.then(() => undefined), deadline]);
    } catch (error) {
      const dependency = unavailableDependency(error);
      if (dependency === undefined) throw error;
      throw new UnavailableError(
        `the ${dependency} is unavailable (${errorName(error)}); the task is recorded but not published: ${retry}`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
    if (outcome === 'timed out') {
      sending.then(
        () => {
          logger.info({ task_id: message.task_id }, 'a publish that outlived its deadline went through');
        },
        (err: unknown) => {
          logger.warn(
            { task_id: message.task_id, err: describe(err) },
            'a publish that outlived its deadline failed',
          );
        },
      );
      throw new UnavailableError(
        `the message broker is unavailable (no acknowledgement within ${String(publishTimeoutMs)} ms); the task is ` +
          `recorded but may not be published: ${retry}`,
      );
    }
  };
  /** What a client whose submission got a 503 should do. */
  const retrySubmission = (key: string | undefined) =>
    key === undefined
      ? 'send the request again, with an Idempotency-Key so that a retry can never start the task twice'
      : 'send the same request again with the same Idempotency-Key';
  const RETRY_ANSWER = 'send the same answer again';

  // The broker's readiness: one probe at a time (a metadata round trip: ensureTopics of nothing), shared by the
  // /readyz calls made while it runs; a probe that outlives the readiness timeout counts as not ready.
  let brokerProbe: Promise<boolean> | undefined;
  const probeBroker = (): Promise<boolean> => {
    brokerProbe ??= bus
      .ensureTopics([])
      .then(
        () => true,
        () => false,
      )
      .finally(() => {
        brokerProbe = undefined;
      });
    return brokerProbe;
  };

  app.addHook('onRequest', (request, _reply, done) => {
    started.set(request, performance.now());
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const seconds = (performance.now() - (started.get(request) ?? performance.now())) / 1000;
    // The route pattern, not the URL: label values must come from a closed set.
    metrics.recordMessage(`${request.method} ${route}`, reply.statusCode >= 500 ? 'failed' : 'ok', seconds);
    httpMetrics.record({
      method: request.method,
      route: request.routeOptions.url,
      statusCode: reply.statusCode,
      seconds,
      scheme: request.protocol,
    });
    logger.info(
      {
        method: request.method,
        route,
        status_code: reply.statusCode,
        tenant_id: tenants.get(request),
        task_id: taskIdParam(request),
        duration_ms: Math.round(seconds * 1000),
      },
      'request',
    );
    done();
  });

  app.setErrorHandler((error: unknown, request, reply) => sendError(error, request, reply, logger));
  app.setNotFoundHandler((request, reply) => {
    void reply
      .code(404)
      .send({ error: { code: 'not_found', message: `no route ${request.method} ${request.url}` } });
  });

  // OB-4 / OB-3, without authentication (probes and scrapers).
  app.get('/livez', () => ({ live: true }));
  app.get('/readyz', async (_request, reply) => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(() => {
        resolve(false);
      }, readinessTimeoutMs);
    });
    const [eventLog, broker] = await Promise.all([
      Promise.race([
        store.ping().then(
          () => true,
          () => false,
        ),
        timeout,
      ]),
      Promise.race([probeBroker(), timeout]),
    ]);
    clearTimeout(timer);
    const ready = eventLog && broker;
    return reply.code(ready ? 200 : 503).send({ ready, event_log: eventLog, broker });
  });
  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', metrics.contentType).send(await metrics.metricsText()),
  );

  // IF-3: the web trace viewer; its page reads /v1 with the API key the user enters.
  registerViewer(
    app,
    options.viewerRegistryStatus === undefined ? {} : { registryStatusPath: options.viewerRegistryStatus },
  );

  const mcpRegistry = options.mcp ? options.mcp.registry : undefined;
  const mcpRegistries = options.mcp ? options.mcp.registries : undefined;
  const listOf = (
    one: (() => Registry | undefined) | undefined,
    many: (() => readonly Registry[]) | undefined,
  ) => {
    const first = one?.();
    return [...(first ? [first] : []), ...(many?.() ?? [])];
  };
  /** Every registry of the app, in order: the fixed one first, then the side-by-side ones. */
  const allRegistries = () => listOf(() => options.registry, options.registries);
  if (options.mcp !== false && (options.registry || mcpRegistry || mcpRegistries || options.registries)) {
    registerMcp(app, {
      ...options.mcp,
      apiKeys,
      bus,
      store,
      now,
      registries: mcpRegistry || mcpRegistries ? () => listOf(mcpRegistry, mcpRegistries) : allRegistries,
      warn: (fields, message) => {
        logger.warn(fields, message);
      },
    });
  }

  // The OpenAPI document and its page, without a key: they describe the API and hold no tenant data. Outside the /v1
  // plugin, so its authentication hook does not run for them.
  app.get('/v1/openapi.json', (_request, reply) =>
    reply.header('cache-control', 'no-cache').send(openApiDocument()),
  );
  app.get('/v1/docs', (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DOCS_CONTENT_SECURITY_POLICY)
      .header('x-frame-options', 'DENY')
      .send(docsPage(openApiDocument())),
  );

  void app.register(
    (v1, _opts, done) => {
      v1.addHook('onRequest', (request, _reply, next) => {
        // A thrown UnauthorizedError goes to next(): fastify answers it through the error handler.
        try {
          tenants.set(request, authenticate(apiKeys, request.headers.authorization));
          next();
        } catch (error) {
          next(error as Error);
        }
      });
      // Path parameters are looked up in PostgreSQL, which cannot hold U+0000 or a lone surrogate: a field error,
      // not a failed query (bodies and queries are checked by their schemas).
      v1.addHook('preValidation', (request, _reply, next) => {
        const fields = unstorableParams(request.params);
        next(fields.length > 0 ? new InvalidRequestError('invalid path', fields) : undefined);
      });

      v1.post('/tasks', async (request, reply) => {
        const tenant = tenantOf(request);
        const key = request.headers['idempotency-key'];
        if (key !== undefined && (typeof key !== 'string' || !IDEMPOTENCY_KEY.test(key))) {
          throw new InvalidRequestError('invalid Idempotency-Key header', [
            { path: 'headers.idempotency-key', message: '1–255 printable ASCII characters, sent once' },
          ]);
        }
        const body = parseRequest(SubmitTaskBody, request.body, 'task');
        const at = now();
        const taskId = taskIdFor(tenant, key);
        const { message, event } = submittedMessage({
          task_id: taskId,
          tenant_id: tenant,
          agent_id: body.agent_id,
          task: taskSpecOf(body, at),
          causation_id: null,
          decision_reason: 'task submitted through the API',
          occurred_at: at,
          traceparent: traceparentFor(headerOf(request, 'traceparent')),
        });
        // Appended first, so the trace starts with the submission and a retry finds it (EL-2 style idempotency).
        const [result] = await store.append([event]);
        if (!result) throw new TypeError('append returned no result');
        let replayed = false;
        if (result.inserted) {
          await publish(message, retrySubmission(key));
        } else {
          const stored = result.event;
          const storedTask = (stored.payload as { task: TaskSpec }).task;
          const asked =
            body.reference_time === undefined
              ? { ...message.payload.task, reference_time: storedTask.reference_time }
              : message.payload.task;
          if (
            stored.envelope.agent_id !== body.agent_id ||
            canonicalJson(asked) !== canonicalJson(storedTask)
          ) {
            throw new ConflictError(
              'idempotency_conflict',
              'this Idempotency-Key was already used for a different task; use a new key',
            );
          }
          replayed = true;
          // Only when nothing reacted yet: then the first attempt may have failed to publish. A duplicate would be
          // harmless (the model selector reuses its stored decision) but would re-run every stage's reuse path.
          const events = await store.readTask(taskId);
          if (events.length === 1) await publish(messageOf(stored), retrySubmission(key), true);
        }
        return reply
          .code(202)
          .header('location', `/v1/tasks/${taskId}`)
          .header('idempotent-replayed', String(replayed))
          .send({ task_id: taskId, state: 'running', links: links(taskId) });
      });

      /** `GET /v1/tasks/:id`, also each event of `GET /v1/tasks/:id/events`. */
      const taskStatus = async (request: FastifyRequest, taskId: string) => {
        const events = await readOwnTask(request, taskId);
        // EX-2: a confirmation is bound to the hash of the call's real arguments; the task's reads are redacted, so
        // the stopped call is read once more with its secrets, only to hash them (they are not sent).
        const asked = confirmationAsked(events);
        let confirmation: PendingConfirmation | null = null;
        if (asked) {
          const id = asked.prepared.envelope.event_id;
          const real = (await store.findByEventIds([id], { withSecrets: true })).get(id);
          confirmation = pendingConfirmation(asked.prepared, real ?? asked.prepared);
        }
        return { ...taskView(events, confirmation), links: links(taskId) };
      };

      v1.get<{ Params: { id: string } }>('/tasks/:id', (request) => taskStatus(request, request.params.id));

      // The task's progress as server-sent events (see task-events.ts); a missing task is a 404 before the stream.
      // Open streams end when the app closes: a shutdown must not wait for the tasks its clients follow.
      const openStreams = new Set<() => void>();
      v1.addHook('preClose', (next) => {
        for (const stop of [...openStreams]) stop();
        next();
      });
      v1.get<{ Params: { id: string } }>('/tasks/:id/events', async (request, reply) => {
        const taskId = request.params.id;
        const initial = await taskStatus(request, taskId);
        return streamTaskEvents(reply, {
          initial,
          read: () => taskStatus(request, taskId),
          pollIntervalMs: taskEventsPollMs,
          heartbeatMs: taskEventsHeartbeatMs,
          open: openStreams,
          errorBody: (error) => {
            if (error instanceof ApiError) return { error: { code: error.code, message: error.message } };
            const unavailable = error instanceof EventLogError && error.retriable;
            if (!unavailable) logger.error({ err: describe(error), task_id: taskId }, 'task events failed');
            return unavailable
              ? { error: { code: 'unavailable', message: 'the event log is unreachable; reconnect' } }
              : { error: { code: 'internal', message: 'internal error' } };
          },
        });
      });

      v1.post<{ Params: { id: string } }>('/tasks/:id/answers', async (request, reply) => {
        const taskId = request.params.id;
        const events = await readOwnTask(request, taskId);
        const body = parseRequest(AnswerBody, request.body, 'answer');
        const waiting = answerableClarification(events);
        if (!waiting) {
          throw new ConflictError(
            'not_awaiting_answer',
            'the task is not waiting for an answer (only a finished need_clarification can be answered)',
          );
        }
        const first = events.reduce((a, b) => (b.stream_version < a.stream_version ? b : a));
        let built: ReturnType<typeof submittedMessage>;
        try {
          built = submittedMessage({
            task_id: taskId,
            tenant_id: tenantOf(request),
            agent_id: first.envelope.agent_id,
            task: continuationTask(waiting.task, waiting.questions, body),
            causation_id: waiting.finished.envelope.event_id,
            decision_reason: `answer to need_clarification continues the task after ${waiting.finished.envelope.event_id}${body.confirmation ? ` (confirms ${body.confirmation.tool})` : ''}`,
            occurred_at: now(),
            traceparent: first.envelope.traceparent ?? traceparentFor(headerOf(request, 'traceparent')),
          });
        } catch (error) {
          throw new UnprocessableError(
            'the answer cannot be added to the task (its context is full or too large)',
            { cause: error },
          );
        }
        const [result] = await store.append([built.event]);
        if (!result) throw new TypeError('append returned no result');
        if (!result.inserted) {
          // This answer was recorded before (a retry after a 503, or a concurrent answer got there first: the event id
          // is deterministic in the question answered). The same answer is published again while it is the latest
          // event; another one is refused.
          const same =
            canonicalJson((result.event.payload as { task: unknown }).task) ===
            canonicalJson(built.message.payload.task);
          if (!same) throw new ConflictError('already_answered', 'this question was already answered');
          const all = await store.readTask(taskId);
          if (all[all.length - 1]?.envelope.event_id === result.event.envelope.event_id) {
            await publish(messageOf(result.event), RETRY_ANSWER, true);
          }
        } else {
          await publish(built.message, RETRY_ANSWER);
        }
        return reply
          .code(202)
          .header('location', `/v1/tasks/${taskId}`)
          .send({
            task_id: taskId,
            state: 'running',
            continuation_event_id: result.event.envelope.event_id,
            answers_event_id: waiting.finished.envelope.event_id,
            links: links(taskId),
          });
      });

      v1.get('/traces', async (request) => {
        const q = parseRequest(TraceQuery, request.query, 'query');
        const traces = await store.findTraces({
          tenant_id: tenantOf(request),
          ...(q.status !== undefined ? { status: q.status } : {}),
          ...(q.degraded !== undefined ? { degraded: q.degraded } : {}),
          ...(q.revision_count_above !== undefined ? { revision_count_above: q.revision_count_above } : {}),
          ...(q.tool !== undefined ? { tool: q.tool } : {}),
          ...(q.agent !== undefined ? { agent_id: q.agent } : {}),
          ...(q.from !== undefined ? { from: q.from } : {}),
          ...(q.to !== undefined ? { to: q.to } : {}),
          ...(q.cursor !== undefined ? { before_position: q.cursor } : {}),
          limit: q.limit,
        });
        const last = traces[traces.length - 1];
        return {
          traces: traces.map((t) => ({
            task_id: t.task_id,
            agent_id: t.agent_id,
            status: t.status,
            last_stage: t.last_stage,
            last_event_type: t.last_event_type,
            event_count: t.event_count,
            degraded: t.degraded,
            max_revision_count: t.max_revision_count,
            started_at: t.started_at.toISOString(),
            last_activity_at: t.last_activity_at.toISOString(),
            links: links(t.task_id),
          })),
          next_cursor: traces.length === q.limit && last ? encodeCursor(last.position) : null,
        };
      });

      v1.get<{ Params: { taskId: string } }>('/traces/:taskId', async (request) => {
        // With each decision's model calls summed (tokens, latency, cost): the exchanges themselves stay out.
        const events = await readOwnTask(request, request.params.taskId, { withExchanges: true });
        return traceView(events, allRegistries());
      });

      // One decision with its payload (secrets redacted, as every operator read): the timeline leaves payloads out
      // because a trace can hold many large ones; the viewer asks for one when it is opened.
      v1.get<{ Params: { taskId: string; eventId: string } }>(
        '/traces/:taskId/events/:eventId',
        async (request) => {
          const { taskId, eventId } = request.params;
          // With the model exchanges the decision rests on (EL-7), secret values redacted in them as in the payload.
          const events = await readOwnTask(request, taskId, { withExchanges: true });
          const event = events.find((e) => e.envelope.event_id === eventId);
          const entry = traceTimeline(events).events.find((e) => e.event_id === eventId);
          if (entry === undefined || event === undefined) {
            throw new NotFoundError(`no event ${eventId} in task ${taskId}`);
          }
          return {
            task_id: taskId,
            ...entry,
            topic: event.topic,
            payload: event.payload,
            model_exchanges: event.exchanges ?? [],
          };
        },
      );

      v1.get('/registry/versions', async () => {
        try {
          return await registryVersions(options.registry, options.registryStore, registryNames);
        } catch (error) {
          // 42P01: nothing was ever published into this database, so there is no history table yet.
          if (error instanceof RegistryStoreError && error.sqlState === '42P01') {
            return registryVersions(options.registry, undefined, []);
          }
          if (error instanceof RegistryStoreError && error.retriable) {
            throw new UnavailableError('the registry store is unreachable', { cause: error });
          }
          throw error;
        }
      });
      done();
    },
    { prefix: '/v1' },
  );

  return app;
}

function links(taskId: string) {
  return {
    task: `/v1/tasks/${taskId}`,
    answers: `/v1/tasks/${taskId}/answers`,
    events: `/v1/tasks/${taskId}/events`,
    trace: `/v1/traces/${taskId}`,
  };
}

function positiveMs(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer (milliseconds), got ${String(value)}`);
  }
  return value;
}

// kafkajs's errors of a broker it cannot reach or that does not answer. The bus wraps them (BrokerError) and kafkajs's
// retrier wraps them too, marking the wrapper `retriable: false` once its retries ran out: the cause chain decides.
const BROKER_OUTAGE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSLockTimeout',
  'KafkaJSTimeout',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
  'KafkaJSNumberOfRetriesExceeded',
]);

/**
 * Which dependency a failed publish could not reach, or undefined when it failed for another reason (an invalid
 * message, a closed bus: a 500). Decided by the error's cause chain: a schema registry outage
 * (`SchemaRegistryUnavailableError`), a broker outage (one of kafkajs's connection / timeout errors), or any error
 * marked `retriable: true` (the bus's word that the same publish may succeed later).
 */
function unavailableDependency(error: unknown): 'message broker' | 'schema registry' | undefined {
  let found: 'message broker' | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const { name, retriable, cause } = current as { name?: unknown; retriable?: unknown; cause?: unknown };
    if (name === 'SchemaRegistryUnavailableError') return 'schema registry';
    if (retriable === true || (typeof name === 'string' && BROKER_OUTAGE.has(name))) found = 'message broker';
    current = cause;
  }
  return found;
}

/** The innermost error's class name (`KafkaJSConnectionError`), for the 503's message. */
function errorName(error: unknown): string {
  let name = 'unknown error';
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    name = current.name;
    current = current.cause;
  }
  return name;
}

function taskIdParam(request: FastifyRequest): string | undefined {
  const params = request.params as { id?: unknown; taskId?: unknown } | undefined;
  const id = params?.id ?? params?.taskId;
  return typeof id === 'string' ? id : undefined;
}

function headerOf(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Every error as `{ error: { code, message, fields? } }`; internals are logged, never sent. */
function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, logger: ApiLogger) {
  const send = (status: number, code: string, message: string, extra: Record<string, unknown> = {}) =>
    reply.code(status).send({ error: { code, message, ...extra } });
  if (error instanceof ApiError) {
    if (error.statusCode === 401) void reply.header('www-authenticate', 'Bearer');
    if (error.retriable) void reply.header('retry-after', '1');
    if (error.statusCode >= 500) logger.warn({ err: describe(error), route: request.url }, error.message);
    return send(
      error.statusCode,
      error.code,
      error.message,
      error instanceof InvalidRequestError ? { fields: error.fields } : {},
    );
  }
  const fastifyError = error as { code?: unknown; statusCode?: unknown; message?: unknown };
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return send(413, 'payload_too_large', 'the request body is larger than this API accepts');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return send(415, 'unsupported_media_type', 'send the body as application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return send(400, 'invalid_request', 'the body is not valid JSON', {
        fields: [{ path: '', message: String(fastifyError.message) }],
      });
    default:
      break;
  }
  if (error instanceof EventLogError && error.retriable) {
    void reply.header('retry-after', '1');
    logger.warn({ err: describe(error) }, 'event log unavailable');
    return send(503, 'unavailable', 'the event log is unreachable; try again');
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return send(fastifyError.statusCode, 'invalid_request', String(fastifyError.message));
  }
  logger.error({ err: describe(error), route: request.url }, 'request failed');
  return send(500, 'internal', 'internal error');
}

// The error's class and message only: no stack traces or payloads in logs (OB-1).
function describe(error: unknown): Record<string, unknown> {
  return error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };
}
