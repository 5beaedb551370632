// The embedded run (IF-2 `signalbox dev`, README command 1): all five stages in one process over the in-memory bus
// and PGlite, with the demo tool backends, running the scenario packs — no Kafka, Java or PostgreSQL server. The
// stages are the production definitions (the services' decide.ts) on the production runtime (stage-kit); only the
// bus adapter and the database engine differ.
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import {
  TOPICS,
  allTopicNames,
  deterministicEventId,
  type EvaluationStatus,
  type TopicMessage,
} from '@signalbox/contracts';
import { createMemoryBus } from '@signalbox/bus/testing';
import type { Bus } from '@signalbox/bus';
import { ACTION_KINDS, createDemoStore, createDemoToolsServer, type DemoStore } from '@signalbox/demo-tools';
import {
  createPgliteEventStore,
  traceTimeline,
  type EventStore,
  type StoredEvent,
  type TraceTimeline,
} from '@signalbox/event-log';
import {
  createComputeSandbox,
  createExecutor,
  createExecutorStore,
  createHttpTransport,
  createSsrfGuard,
  executorDefinition,
  type Executor,
  type ExecutorStore,
} from '@signalbox/executor';
import { modelSelectorDefinition } from '@signalbox/model-selector';
import { parameterInjectorDefinition } from '@signalbox/parameter-injector';
import { loadRegistryDir, type Registry, type RegistryContent } from '@signalbox/registry';
import { resultEvaluatorDefinition } from '@signalbox/result-evaluator';
import {
  createStageRuntime,
  type ModelLookup,
  type StageDefinition,
  type StageRuntime,
} from '@signalbox/stage-kit';
import { toolDeciderDefinition, type SemanticScorer } from '@signalbox/tool-decider';
import { deciderSemantic } from '../semantic.js';
import { pglitePool } from './pglite-pool.js';
import {
  DEMO_REFERENCE_TIME,
  DEMO_REQUESTS,
  demoTask,
  type DemoRequest,
  type PackName,
} from './scenarios.js';

/** The finished-task sink has no stage, hence no dead-letter topic of its own. */
const SINK_DEAD_LETTERS = 'signalbox.dev_sink.dead_lettered.v1';

export interface EmbeddedOptions {
  /** The repository root (where registry/packs/ lives). */
  repoRoot: string;
  /** The requests to run. @default every request of the four packs */
  requests?: readonly DemoRequest[];
  /** How long to wait for every task to finish. @default 60000 */
  timeoutMs?: number;
  /** Called as each task finishes (progress). */
  onFinished?: (request: DemoRequest, timeline: TraceTimeline) => void;
  /** Run on this PGlite database and leave it open (tests read the event log afterwards). @default a fresh one */
  db?: PGlite;
  /** Task ids are `<prefix><pack>-<n>`. @default 'dev-' */
  taskIdPrefix?: string;
  /**
   * IF-4: the models of the stages that may ask one, by model profile (as the services wire
   * `providersForProfiles`); their exchanges are recorded with the decisions (EL-7). @default none: deterministic
   */
  models?: EmbeddedModels;
  /**
   * The decider's semantic model (TD-2). @default loaded from the environment as the tool-decider worker does
   * (SIGNALBOX_EMBEDDINGS, SIGNALBOX_MODEL_DIR): on, unless the operator turned it off
   */
  semantic?: SemanticScorer | null;
  /** The demo backends' clock (ISO-8601). @default {@link DEMO_REFERENCE_TIME} */
  now?: string;
  /** Who the submitted events name as submitter (`decision_reason`). @default 'signalbox dev' */
  submitter?: string;
  /** Read each trace's events with their model exchanges (EL-7). @default false */
  exchanges?: boolean;
  /**
   * Read the traces with their secret values in place (event_secrets) — for a harness that checks the arguments a
   * tool was really called with (`eval packs`); traces shown to a user stay redacted.
   */
  secrets?: boolean;
  /**
   * End a task's wait when a stage dead-letters one of its messages (its `failed` event is appended): the trace comes
   * back with `final: null` and the `failure`, instead of the run waiting out `timeoutMs` and throwing.
   * @default false
   */
  endOnFailure?: boolean;
}

/** The models of the stages that may ask one. */
export interface EmbeddedModels {
  tool_decider?: ModelLookup;
  parameter_injector?: ModelLookup;
  result_evaluator?: ModelLookup;
}

/** One request's outcome. */
export interface EmbeddedTrace {
  request: DemoRequest;
  task_id: string;
  /** Every event of the task, as the event log stored them. */
  events: StoredEvent[];
  timeline: TraceTimeline;
  /** The final status, questions and issues (from `task_finished`), when the task finished. */
  final: {
    status: EvaluationStatus;
    questions: string[];
    issues: string[];
    /** The last successful step's tool and output (what the calling agent would answer from). */
    evidence: { tool: string; output: unknown } | null;
  } | null;
  /**
   * The side effects the demo backends performed for this task, in the order they happened: each act the backends
   * recorded, joined by its idempotency key to the executor call (task and tool) that sent it.
   */
  writes: EmbeddedWrite[];
  /** With `endOnFailure`: the stage that dead-lettered the task's message, and why; else null. */
  failure: { stage: string; reason: string } | null;
}

/** One side effect a demo backend performed. */
export interface EmbeddedWrite {
  /** The tool whose call performed it. */
  tool: string;
  /** The backend's name for the act (one of the demo store's ACTION_KINDS). */
  kind: string;
  idempotency_key: string;
}

export interface EmbeddedResult {
  traces: EmbeddedTrace[];
  /** The registry content each pack ran with (for a replay corpus, EL-9). */
  registries: Partial<Record<PackName, RegistryContent>>;
  /** Side effects the demo backends performed, by kind. */
  actions: Record<string, number>;
  /**
   * Acts the backends recorded whose idempotency key no executor call has (none is expected: every write goes
   * through the executor, which claims its key before it sends).
   */
  unattributed_writes: { kind: string; idempotency_key: string | null }[];
}

function submittedMessage(
  taskId: string,
  request: DemoRequest,
  submitter: string,
): TopicMessage<'taskSubmitted'> {
  return {
    event_id: deterministicEventId({
      task_id: taskId,
      stage: 'api',
      causation_id: null,
      event_type: 'task_submitted',
    }),
    task_id: taskId,
    tenant_id: 'default',
    agent_id: request.agent_id,
    stage: 'api',
    event_type: 'task_submitted',
    causation_id: null,
    revision_count: 0,
    degraded_flag: false,
    decision_reason: `submitted by ${submitter}: ${request.title}`,
    input_source: 'user',
    registry_version: null,
    profiles_version: null,
    policy_version: null,
    occurred_at: new Date().toISOString(),
    schema_version: 1,
    traceparent: null,
    payload: { task: demoTask(request) },
  };
}

/** One registry's five stages, running over an in-memory bus of their own. */
export interface EmbeddedPipeline {
  /** What the pipeline serves (a pack's name, or a registry folder). */
  readonly name: string;
  /** The pipeline's own bus: a task submitted on it runs through these stages. */
  readonly bus: Bus;
  /** The registry the stages decide under now. */
  registry(): Registry;
  /**
   * Drains the stages and starts them again under `registry`, in the same consumer groups: a message published
   * meanwhile waits on the bus, and nothing already decided is decided again.
   */
  reload(registry: Registry): Promise<void>;
  /** Drains the stages and closes the bus. */
  stop(): Promise<void>;
}

/** Options of {@link startPipeline}. */
export interface PipelineOptions {
  name: string;
  registry: Registry;
  store: EventStore;
  /** The executor the executor stage calls tools through (its transports decide what may be reached). */
  executor: Executor;
  models?: EmbeddedModels;
  semantic: SemanticScorer | null;
  /** Called with the task id of every `task_finished` published on the pipeline's bus. */
  onFinished?: (taskId: string) => void;
  /** Consumer groups are `<groupPrefix>.<stage>`. @default `dev.<name>` */
  groupPrefix?: string;
}

/** Starts the five stages of one registry over a new in-memory bus. */
export async function startPipeline(options: PipelineOptions): Promise<EmbeddedPipeline> {
  const bus = createMemoryBus();
  await bus.ensureTopics([...allTopicNames(), { name: SINK_DEAD_LETTERS, partitions: 1 }]);
  const models = options.models ?? {};
  const groupPrefix = options.groupPrefix ?? `dev.${options.name}`;
  let registry = options.registry;
  let runtimes: StageRuntime[] = [];
  const startStages = async () => {
    const definitions: StageDefinition[] = [
      modelSelectorDefinition({ registry }),
      toolDeciderDefinition({ registry, semantic: options.semantic, providerFor: models.tool_decider }),
      parameterInjectorDefinition({ registry, model: models.parameter_injector }),
      executorDefinition({ registry, executor: options.executor }),
      resultEvaluatorDefinition({ registry, judge: models.result_evaluator }),
    ];
    const started: StageRuntime[] = [];
    for (const definition of definitions) {
      const runtime = createStageRuntime({
        definition,
        bus,
        store: options.store,
        groupId: `${groupPrefix}.${definition.stage}`,
      });
      await runtime.start();
      started.push(runtime);
    }
    runtimes = started;
  };
  const stopStages = async () => {
    for (const runtime of runtimes) await runtime.stop();
    runtimes = [];
  };
  await startStages();
  const sink = await bus.consume({
    groupId: `${groupPrefix}.sink`,
    topic: TOPICS.taskFinished,
    deadLetterTopic: SINK_DEAD_LETTERS,
    handler: (batch) => {
      for (const message of batch) options.onFinished?.(message.key);
      return Promise.resolve({ deadLetters: [] });
    },
  });
  let reloading: Promise<void> = Promise.resolve();
  return {
    name: options.name,
    bus,
    registry: () => registry,
    reload(next) {
      // One reload at a time: two quick edits must not start two sets of stages in the same groups.
      reloading = reloading.then(async () => {
        await stopStages();
        registry = next;
        await startStages();
      });
      return reloading;
    },
    async stop() {
      await reloading.catch(() => undefined);
      await sink.stop();
      await stopStages();
      await bus.close();
    },
  };
}

/** The demo tool backends' executor: HTTP to exactly their host and port (RS-6), and the compute sandbox. */
export function demoExecutor(executorStore: ExecutorStore, demoToolsUrl: string): Executor {
  return createExecutor({
    store: executorStore,
    transports: {
      // The demo backends listen on loopback, which the SSRF guard refuses unless allow-listed (RS-6): exactly
      // their host and port, nothing else on the machine.
      http: createHttpTransport({
        guard: createSsrfGuard({ allow: [new URL(demoToolsUrl).host] }),
        env: { SIGNALBOX_DEMO_TOOLS_URL: demoToolsUrl },
      }),
      builtin: { compute: createComputeSandbox({}) },
    },
  });
}

/** The event store, telling `onFailed` of each `failed` event (a stage dead-lettered a message) it appends. */
function watchFailures(
  store: EventStore,
  onFailed: (taskId: string, failure: { stage: string; reason: string }) => void,
): EventStore {
  return {
    ...store,
    async append(events, options) {
      const results = await store.append(events, options);
      for (const { envelope } of events)
        if (envelope.event_type === 'failed')
          onFailed(envelope.task_id, { stage: envelope.stage, reason: envelope.decision_reason });
      return results;
    },
  };
}

/** The acts the demo backends recorded, each with the executor call (task, tool) its idempotency key belongs to. */
async function recordedWrites(
  db: PGlite,
  demoSchema: string,
  executorSchema: string,
): Promise<{ kind: string; idempotency_key: string | null; task_id: string | null; tool: string | null }[]> {
  const { rows } = await db.query<{
    kind: string;
    idempotency_key: string | null;
    task_id: string | null;
    tool: string | null;
  }>(
    `SELECT a.kind, a.idempotency_key, c.task_id, c.tool
       FROM ${demoSchema}.actions a
       LEFT JOIN ${executorSchema}.executor_calls c ON c.idempotency_key = a.idempotency_key
      ORDER BY a.id`,
  );
  return rows;
}

/** The embedded run's backends on one PGlite database: the event log, the executor's tables, the demo tools. */
export interface EmbeddedBackends {
  db: PGlite;
  store: EventStore;
  demoStore: DemoStore;
  executorStore: ExecutorStore;
  /** The schema of the executor's tables. */
  executorSchema: string;
  /** Where the demo tool backends listen (`http://127.0.0.1:<port>`). */
  demoToolsUrl: string;
  /** Stops the demo backends and closes the stores (and the database when the backends opened it). */
  close(): Promise<void>;
}

/**
 * Migrates the event log, the executor's and the demo tools' tables on `db` (default: a new in-memory database),
 * seeds the demo data and starts the demo tool backends on a free loopback port. `store` is the event store of `db`
 * to migrate and hand back (default: a new one); the backends close it.
 */
export async function startBackends(
  options: { db?: PGlite; now?: string; store?: EventStore } = {},
): Promise<EmbeddedBackends> {
  // The demo backends answer as of the demo's "now", so "late" and "yesterday" mean the same on every run.
  const now = new Date(options.now ?? DEMO_REFERENCE_TIME);
  if (Number.isNaN(now.getTime()))
    throw new RangeError(`now must be an ISO-8601 time, got "${String(options.now)}"`);
  const ownsDb = options.db === undefined;
  const db = options.db ?? new PGlite();
  const store = options.store ?? createPgliteEventStore({ pglite: db });
  const demoStore = createDemoStore(db, { schema: 'demo_tools' });
  const executorSchema = 'executor';
  const executorStore = createExecutorStore({ pool: pglitePool(db), schema: executorSchema });
  const demoServer = createDemoToolsServer({ store: demoStore, now: () => new Date(now) });
  const close = async () => {
    await demoServer.close();
    await executorStore.close();
    await store.close();
    if (ownsDb) await db.close();
  };
  try {
    await store.migrate();
    await demoStore.migrate();
    await demoStore.seed();
    await executorStore.migrate();
    await demoServer.listen({ host: '127.0.0.1', port: 0 });
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
  const { port } = demoServer.server.address() as AddressInfo;
  return {
    db,
    store,
    demoStore,
    executorStore,
    executorSchema,
    demoToolsUrl: `http://127.0.0.1:${String(port)}`,
    close,
  };
}

/** Tasks waited for until their `task_finished` (or, with `endOnFailure`, a `failed` event). */
export interface TaskWaiter {
  /** Resolves when `finished(taskId)` is called, rejects after `timeoutMs`. Call before the task is submitted. */
  wait(taskId: string, timeoutMs: number, label: string): Promise<void>;
  finished(taskId: string): void;
}

/** A {@link TaskWaiter}. */
export function createTaskWaiter(): TaskWaiter {
  const waiting = new Map<string, () => void>();
  return {
    wait(taskId, timeoutMs, label) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(taskId);
          reject(new Error(`${taskId} (${label}) did not finish within ${String(timeoutMs)} ms`));
        }, timeoutMs);
        waiting.set(taskId, () => {
          clearTimeout(timer);
          waiting.delete(taskId);
          resolve();
        });
      });
    },
    finished(taskId) {
      waiting.get(taskId)?.();
    },
  };
}

/** Options of {@link runDemoRequests}. */
export interface DemoRunOptions {
  /** The event log the submissions are appended to and the traces read from. */
  store: EventStore;
  /** The pipeline a request runs through. */
  pipelineOf: (request: DemoRequest) => EmbeddedPipeline;
  /** Told of each finished task by the pipelines (their `onFinished`). */
  waiter: TaskWaiter;
  requests: readonly DemoRequest[];
  /** Task ids are `<prefix><pack>-<n>`, n counting from 1 over `requests`. @default 'dev-' */
  taskIdPrefix?: string;
  /** @default 60000 */
  timeoutMs?: number;
  /** @default 'signalbox dev' */
  submitter?: string;
  exchanges?: boolean;
  secrets?: boolean;
  /** Why a task ended without `task_finished` (a stage dead-lettered it), by task id. */
  failures?: ReadonlyMap<string, { stage: string; reason: string }>;
  onFinished?: (request: DemoRequest, timeline: TraceTimeline) => void;
}

/** The task id the demo gives the `index`-th (from 0) request. */
export function demoTaskId(request: DemoRequest, index: number, prefix = 'dev-'): string {
  return `${prefix}${request.pack}-${String(index + 1)}`;
}

/** Submits each request as the API does (appended, then published) and returns its trace once it finished. */
export async function runDemoRequests(options: DemoRunOptions): Promise<EmbeddedTrace[]> {
  const { store } = options;
  const timeoutMs = options.timeoutMs ?? 60_000;
  return Promise.all(
    options.requests.map(async (request, i) => {
      const taskId = demoTaskId(request, i, options.taskIdPrefix);
      const finished = options.waiter.wait(taskId, timeoutMs, request.title);
      const pipeline = options.pipelineOf(request);
      const message = submittedMessage(taskId, request, options.submitter ?? 'signalbox dev');
      // Like the API: the trace starts with the submitted event, appended before it is published.
      await store.append([{ envelope: message, topic: TOPICS.taskSubmitted.name, payload: message.payload }]);
      await pipeline.bus.publish([{ topic: TOPICS.taskSubmitted, key: taskId, value: message }]);
      await finished;
      const redacted = await store.readTask(taskId, { withExchanges: options.exchanges === true });
      // A task's trace is read redacted; a harness that checks the arguments as the tool got them reads the same
      // events again with their secret values.
      const events = options.secrets
        ? await (async () => {
            const full = await store.findByEventIds(
              redacted.map((e) => e.envelope.event_id),
              { withSecrets: true, withExchanges: options.exchanges === true },
            );
            return redacted.map((e) => full.get(e.envelope.event_id) ?? e);
          })()
        : redacted;
      const timeline = traceTimeline(events);
      const last = [...events].reverse().find((e) => e.envelope.event_type === 'task_finished');
      const payload = last?.payload as
        | {
            status: EvaluationStatus;
            questions: string[];
            issues: string[];
            steps: { call: { tool: string }; result: { ok: boolean; output: unknown }; status: string }[];
          }
        | undefined;
      // The evidence the task ended on: the last step that succeeded, as it came back.
      const lastGood = [...(payload?.steps ?? [])]
        .reverse()
        .find((s) => s.result.ok && s.status === 'success');
      const trace: EmbeddedTrace = {
        request,
        task_id: taskId,
        events,
        timeline,
        final: payload
          ? {
              status: payload.status,
              questions: payload.questions,
              issues: payload.issues,
              evidence: lastGood ? { tool: lastGood.call.tool, output: lastGood.result.output } : null,
            }
          : null,
        writes: [],
        failure: payload ? null : (options.failures?.get(taskId) ?? null),
      };
      options.onFinished?.(request, timeline);
      return trace;
    }),
  );
}

/** Runs the requests through the five stages in this process and returns each trace's timeline. */
export async function runEmbedded(options: EmbeddedOptions): Promise<EmbeddedResult> {
  const requests = options.requests ?? DEMO_REQUESTS;
  // Loaded before anything starts: missing model files stop the run here with the command that fetches them.
  const semantic = options.semantic === undefined ? await deciderSemantic() : options.semantic;
  const backends = await startBackends({
    ...(options.db ? { db: options.db } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const { db, store, demoStore, executorStore, executorSchema } = backends;
  const pipelines = new Map<PackName, EmbeddedPipeline>();
  const waiter = createTaskWaiter();
  const failures = new Map<string, { stage: string; reason: string }>();
  const stageStore = options.endOnFailure
    ? watchFailures(store, (taskId, failure) => {
        if (!failures.has(taskId)) failures.set(taskId, failure);
        waiter.finished(taskId);
      })
    : store;
  try {
    const executor = demoExecutor(executorStore, backends.demoToolsUrl);
    for (const pack of new Set(requests.map((r) => r.pack))) {
      pipelines.set(
        pack,
        await startPipeline({
          name: pack,
          registry: await loadRegistryDir(join(options.repoRoot, 'registry', 'packs', pack)),
          store: stageStore,
          executor,
          models: options.models ?? {},
          semantic,
          onFinished: (taskId) => {
            waiter.finished(taskId);
          },
        }),
      );
    }
    const traces = await runDemoRequests({
      store,
      pipelineOf: (request) => {
        const pipeline = pipelines.get(request.pack);
        if (!pipeline) throw new Error(`no pipeline for pack ${request.pack}`);
        return pipeline;
      },
      waiter,
      requests,
      ...(options.taskIdPrefix !== undefined ? { taskIdPrefix: options.taskIdPrefix } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.submitter !== undefined ? { submitter: options.submitter } : {}),
      ...(options.exchanges !== undefined ? { exchanges: options.exchanges } : {}),
      ...(options.secrets !== undefined ? { secrets: options.secrets } : {}),
      failures,
      ...(options.onFinished ? { onFinished: options.onFinished } : {}),
    });
    const actions: Record<string, number> = {};
    for (const kind of ACTION_KINDS) actions[kind] = await demoStore.countActions(kind);
    const byTask = new Map(traces.map((t) => [t.task_id, t]));
    const unattributed: EmbeddedResult['unattributed_writes'] = [];
    for (const row of await recordedWrites(db, demoStore.schema, executorSchema)) {
      if (row.task_id === null || row.tool === null || row.idempotency_key === null) {
        unattributed.push({ kind: row.kind, idempotency_key: row.idempotency_key });
        continue;
      }
      // An act of a task of an earlier run on the same database is not this run's.
      byTask
        .get(row.task_id)
        ?.writes.push({ tool: row.tool, kind: row.kind, idempotency_key: row.idempotency_key });
    }
    const registries: Partial<Record<PackName, RegistryContent>> = {};
    for (const [pack, pipeline] of pipelines) registries[pack] = pipeline.registry().content;
    return { traces, registries, actions, unattributed_writes: unattributed };
  } finally {
    for (const pipeline of pipelines.values()) await pipeline.stop();
    await backends.close();
  }
}
