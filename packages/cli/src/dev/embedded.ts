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
import type { Bus, Subscription } from '@signalbox/bus';
import { ACTION_KINDS, createDemoStore, createDemoToolsServer } from '@signalbox/demo-tools';
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
  type ExecutorStore,
} from '@signalbox/executor';
import { modelSelectorDefinition } from '@signalbox/model-selector';
import { parameterInjectorDefinition } from '@signalbox/parameter-injector';
import { loadRegistryDir, type RegistryContent } from '@signalbox/registry';
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

interface PackPipeline {
  registry: RegistryContent;
  bus: Bus;
  runtimes: StageRuntime[];
  sink: Subscription;
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

async function startPack(
  repoRoot: string,
  pack: PackName,
  store: EventStore,
  executorStore: ExecutorStore,
  demoToolsUrl: string,
  models: EmbeddedModels,
  semantic: SemanticScorer | null,
  onFinished: (taskId: string) => void,
): Promise<PackPipeline> {
  const registry = await loadRegistryDir(join(repoRoot, 'registry', 'packs', pack));
  const bus = createMemoryBus();
  await bus.ensureTopics([...allTopicNames(), { name: SINK_DEAD_LETTERS, partitions: 1 }]);
  const executor = createExecutor({
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
  const definitions: StageDefinition[] = [
    modelSelectorDefinition({ registry }),
    toolDeciderDefinition({ registry, semantic, providerFor: models.tool_decider }),
    parameterInjectorDefinition({ registry, model: models.parameter_injector }),
    executorDefinition({ registry, executor }),
    resultEvaluatorDefinition({ registry, judge: models.result_evaluator }),
  ];
  const runtimes: StageRuntime[] = [];
  for (const definition of definitions) {
    const runtime = createStageRuntime({
      definition,
      bus,
      store,
      groupId: `dev.${pack}.${definition.stage}`,
    });
    await runtime.start();
    runtimes.push(runtime);
  }
  const sink = await bus.consume({
    groupId: `dev.${pack}.sink`,
    topic: TOPICS.taskFinished,
    deadLetterTopic: SINK_DEAD_LETTERS,
    handler: (batch) => {
      for (const message of batch) onFinished(message.key);
      return Promise.resolve({ deadLetters: [] });
    },
  });
  return { registry: registry.content, bus, runtimes, sink };
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

/** Runs the requests through the five stages in this process and returns each trace's timeline. */
export async function runEmbedded(options: EmbeddedOptions): Promise<EmbeddedResult> {
  const requests = options.requests ?? DEMO_REQUESTS;
  const timeoutMs = options.timeoutMs ?? 60_000;
  // Loaded before anything starts: missing model files stop the run here with the command that fetches them.
  const semantic = options.semantic === undefined ? await deciderSemantic() : options.semantic;
  const ownsDb = options.db === undefined;
  const db = options.db ?? new PGlite();
  const store = createPgliteEventStore({ pglite: db });
  const demoStore = createDemoStore(db, { schema: 'demo_tools' });
  const executorSchema = 'executor';
  const executorStore = createExecutorStore({ pool: pglitePool(db), schema: executorSchema });
  // The demo backends answer as of the demo's "now", so "late" and "yesterday" mean the same on every run.
  const now = new Date(options.now ?? DEMO_REFERENCE_TIME);
  if (Number.isNaN(now.getTime()))
    throw new RangeError(`now must be an ISO-8601 time, got "${String(options.now)}"`);
  const demoServer = createDemoToolsServer({ store: demoStore, now: () => new Date(now) });
  const pipelines = new Map<PackName, PackPipeline>();
  const waiting = new Map<string, () => void>();
  const failures = new Map<string, { stage: string; reason: string }>();
  const stageStore = options.endOnFailure
    ? watchFailures(store, (taskId, failure) => {
        if (!failures.has(taskId)) failures.set(taskId, failure);
        waiting.get(taskId)?.();
      })
    : store;
  try {
    await store.migrate();
    await demoStore.migrate();
    await demoStore.seed();
    await executorStore.migrate();
    await demoServer.listen({ host: '127.0.0.1', port: 0 });
    const { port } = demoServer.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${String(port)}`;

    for (const pack of new Set(requests.map((r) => r.pack))) {
      pipelines.set(
        pack,
        await startPack(
          options.repoRoot,
          pack,
          stageStore,
          executorStore,
          url,
          options.models ?? {},
          semantic,
          (taskId) => waiting.get(taskId)?.(),
        ),
      );
    }

    const traces = await Promise.all(
      requests.map(async (request, i) => {
        const taskId = `${options.taskIdPrefix ?? 'dev-'}${request.pack}-${String(i + 1)}`;
        const finished = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => {
            reject(new Error(`${taskId} (${request.title}) did not finish within ${String(timeoutMs)} ms`));
          }, timeoutMs);
          waiting.set(taskId, () => {
            clearTimeout(timer);
            resolve();
          });
        });
        const pipeline = pipelines.get(request.pack);
        if (!pipeline) throw new Error(`no pipeline for pack ${request.pack}`);
        const message = submittedMessage(taskId, request, options.submitter ?? 'signalbox dev');
        // Like the API: the trace starts with the submitted event, appended before it is published.
        await store.append([
          { envelope: message, topic: TOPICS.taskSubmitted.name, payload: message.payload },
        ]);
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
          failure: payload ? null : (failures.get(taskId) ?? null),
        };
        options.onFinished?.(request, timeline);
        return trace;
      }),
    );
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
    for (const [pack, pipeline] of pipelines) registries[pack] = pipeline.registry;
    return { traces, registries, actions, unattributed_writes: unattributed };
  } finally {
    for (const pipeline of pipelines.values()) {
      await pipeline.sink.stop();
      for (const runtime of pipeline.runtimes) await runtime.stop();
      await pipeline.bus.close();
    }
    await demoServer.close();
    await executorStore.close();
    await store.close();
    if (ownsDb) await db.close();
  }
}
