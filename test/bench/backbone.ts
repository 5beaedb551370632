// `pnpm bench:backbone [--tasks N] [--json]` — the backbone benchmark of the event-backbone issue.
//
// 1. Pipeline: five pass-through stage runtimes (the real stage-kit, Kafka bus with schema registry codec, pg event
//    log) in this process; N tasks submitted at once; throughput = tasks finished / wall time.
// 2. Latency: the same pipeline fed at half the measured maximum rate; per-hop latency = occurred_at of a stage's
//    decision − occurred_at of its input, from the event log, over the tasks sent after a warm-up (--warmup-s). The
//    ceiling is fed at that rate too, and its per-hop latency (handling began at one hop → handling began at the
//    next) is printed beside it. Also printed: this process's event-loop delay and GC pauses meanwhile.
// 3. Ceiling, measured in the same run: raw kafkajs eachBatch → one multi-row INSERT … SELECT FROM UNNEST →
//    sendBatch, five hops, same batching (per hop, inserts and sends made while one is out leave together, an idle
//    one's first lingers --linger-ms, as the bus and the store do) and offset-commit interval, the same messages
//    (hop k sends the bytes the pipeline's hop k publishes, and inserts what it received), no
//    codec/validation/decisions.
// Steps 1 and 3 at full rate run --rounds times side by side (default 3, the first of each pair alternating); the
// round with the median pipeline/ceiling ratio gives the headline figures, and every round's are in `rounds`.
// Prints a table and, last, one JSON line. `--cpu-profile <file>` also writes a CPU profile of step 1 (round 1).
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  Kafka,
  Partitioners,
  logLevel,
  type Consumer,
  type LogEntry,
  type Message,
  type Producer,
} from 'kafkajs';
import { TOPICS, allTopicNames } from '@signalbox/contracts';
import {
  coalescing,
  createKafkaBus,
  createSchemaRegistry,
  isRetriedResponseError,
  MAX_SEND_BYTES,
  prefixTopic,
  registerTopicSchemas,
  sliceBySize,
  type Bus,
} from '@signalbox/bus';
import { createPgEventStore, type EventStore } from '@signalbox/event-log';
import { createStageRuntime, type StageDefinition, type StageRuntime } from '@signalbox/stage-kit';
import {
  createIsolatedSchema,
  resolveInfrastructure,
  uniqueName,
  type TestEndpoints,
} from '@signalbox/test-support';
import { PASS_THROUGH_STAGES, passThroughDecisions, submittedTask } from '../support/pass-through.js';
import { spawnWorker, type WorkerProcess } from '../support/workers.js';
import { cpuMsPerTaskSince, cpuSnapshot } from './machine-cpu.js';
import { createRawEventsTable, insertRawEvents, type RawEvent } from './raw-events.js';

const { values: args } = parseArgs({
  options: {
    // Long enough that filling and draining the five hops (and the JIT warming up) do not dominate the figure: at
    // 3,000 tasks a run lasts about three seconds, and its first second carries no finished task.
    tasks: { type: 'string', default: '10000' },
    json: { type: 'boolean', default: false },
    'partitions-concurrently': { type: 'string', default: '6' },
    'commit-interval-ms': { type: 'string', default: '500' },
    // How long a fetch long-polls when nothing new is there (the broker answers as soon as something is).
    'max-wait-ms': { type: 'string', default: '100' },
    // How long an idle producer's first publish, and an idle store's first append, wait for company (the bus's
    // `lingerMs`, the store's `appendLingerMs`; the ceiling's sends and inserts are coalesced the same way).
    'linger-ms': { type: 'string', default: '5' },
    // `--processes` runs each stage as its own worker process, as in production; by default the five runtimes
    // share this process (less scheduling noise on a 2-core machine that also runs Kafka and PostgreSQL).
    processes: { type: 'boolean', default: false },
    // At the half rate, the first seconds of load are sent but their hops not counted: the new consumers, pools and
    // schema caches of a run that has just started are not what a running stage's latency is.
    // @default 2, or 6 with --processes: fresh worker processes load their TypeScript and warm their JIT under load
    // first (measured with 2 s: hop p99 602 ms, its first seconds; with 6 s: 98 ms).
    'warmup-s': { type: 'string' },
    // Writes a CPU profile of the pipeline at full rate (load it in Chrome DevTools or speedscope): where its time goes.
    'cpu-profile': { type: 'string' },
    // The pipeline and the ceiling are measured at full rate this many times, one beside the other (in turns, so
    // neither always runs first): on a shared machine whose speed drifts by a quarter within minutes, the ratio of
    // two runs made side by side, and the median of those, is steadier than one run of each.
    rounds: { type: 'string', default: '3' },
  },
});
const TASKS = Number(args.tasks);
if (!Number.isInteger(TASKS) || TASKS < 10)
  throw new Error(`--tasks must be an integer ≥ 10, got ${args.tasks}`);
const PARTITIONS_CONCURRENTLY = Number(args['partitions-concurrently']);
if (!Number.isInteger(PARTITIONS_CONCURRENTLY) || PARTITIONS_CONCURRENTLY < 1) {
  throw new Error(
    `--partitions-concurrently must be a positive integer, got ${args['partitions-concurrently']}`,
  );
}
const COMMIT_INTERVAL_MS = Number(args['commit-interval-ms']);
if (!Number.isInteger(COMMIT_INTERVAL_MS) || COMMIT_INTERVAL_MS < 0) {
  throw new Error(`--commit-interval-ms must be a non-negative integer, got ${args['commit-interval-ms']}`);
}
const MAX_WAIT_MS = Number(args['max-wait-ms']);
if (!Number.isInteger(MAX_WAIT_MS) || MAX_WAIT_MS < 1) {
  throw new Error(`--max-wait-ms must be a positive integer, got ${args['max-wait-ms']}`);
}
const LINGER_MS = Number(args['linger-ms']);
if (!Number.isInteger(LINGER_MS) || LINGER_MS < 0 || LINGER_MS > 1000) {
  throw new Error(`--linger-ms must be an integer from 0 to 1000, got ${args['linger-ms']}`);
}
const ROUNDS = Number(args.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1 || ROUNDS > 20) {
  throw new Error(`--rounds must be an integer from 1 to 20, got ${args.rounds}`);
}
const WARMUP_ARG = args['warmup-s'] ?? (args.processes ? '6' : '2');
const WARMUP_S = Number(WARMUP_ARG);
if (WARMUP_ARG.trim() === '' || !Number.isFinite(WARMUP_S) || WARMUP_S < 0) {
  throw new Error(`--warmup-s must be a non-negative number, got ${WARMUP_ARG}`);
}
// Latency is measured over this many seconds of load at the half rate, after the warm-up.
const LATENCY_WINDOW_S = 5;
const log = (msg: string) => {
  process.stderr.write(`[bench] ${msg}\n`);
};

const describeError = (error: Error): string =>
  `${error.name}: ${error.message}${error.cause instanceof Error ? ` <- ${describeError(error.cause)}` : ''}`;

/** Errors only: a stage whose subscription fails would otherwise leave the run waiting silently for its tasks. */
const errorLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (obj: object, msg: string) => {
    log(
      `error: ${msg} ${JSON.stringify(obj, (_k, v: unknown) => (v instanceof Error ? describeError(v) : v))}`,
    );
  },
};

/** The terminal topic has no consuming stage, hence no dead-letter topic; the benchmark's sink brings its own. */
const SINK_DLQ = 'bench.sink.dead_lettered.v1';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

interface PipelineRun {
  tasksPerS: number;
  appendsPerS: number;
  seconds: number;
  hopMs: number[];
  /** The same latencies by the stage that decided (sorted), to see which hop the tail comes from. */
  hopMsByStage: Map<string, number[]>;
  /**
   * Each hop whose cause is in the log (hops 2–5), cut in two at the moment the cause's append statement began
   * (its `recorded_at`, the statement's now()): decided → append began (the rest of its batch, the append linger, a
   * statement already out), and append began → the next stage decided (the append itself, the publish, Kafka, the
   * fetch and the next stage's queue). Sorted.
   */
  hopSplitMs: { toAppend: number[]; afterAppend: number[] };
  /**
   * CPU time (user + system) of this process per task, plus the stage workers' with --processes (Linux only): steadier
   * than rates on a machine others share.
   */
  cpuMsPerTask: number;
  /** CPU ms per task of each service on this machine and of the whole machine (see machine-cpu.ts); Linux only. */
  machineCpuMsPerTask: Record<string, number> | undefined;
  /** While the measured tasks ran: how late the event loop ran a 1 ms timer, p99 and max (ms). */
  eventLoopDelayP99Ms: number;
  eventLoopDelayMaxMs: number;
  /** While the measured tasks ran: garbage-collection pauses, ms per second of wall time and the longest (ms). */
  gcMsPerS: number;
  gcMaxMs: number;
}

/** Event-loop delay and GC pauses of this process from now until `stop()`. */
function watchEventLoop(): {
  stop(): { delayP99Ms: number; delayMaxMs: number; gcMsPerS: number; gcMaxMs: number };
} {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  let gcMs = 0;
  let gcMaxMs = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gcMs += entry.duration;
      gcMaxMs = Math.max(gcMaxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const since = performance.now();
  return {
    stop() {
      delay.disable();
      observer.disconnect();
      const seconds = (performance.now() - since) / 1000;
      const round = (ms: number) => Math.round(ms * 10) / 10;
      return {
        delayP99Ms: round(delay.percentile(99) / 1e6),
        delayMaxMs: round(delay.max / 1e6),
        gcMsPerS: round(gcMs / seconds),
        gcMaxMs: round(gcMaxMs),
      };
    },
  };
}

/** Samples this process's CPU (V8's profiler, 200 µs interval) until `stop(file)` writes the `.cpuprofile`. */
async function startCpuProfile(): Promise<{ stop(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

/** The index `i` of a benchmark task id `<prefix>t<i>` (or key `t<i>`). */
function taskIndex(id: string): number {
  return Number(id.slice(id.lastIndexOf('t') + 1));
}

/** CPU milliseconds this process used since `since` (a `process.cpuUsage()` reading). */
function cpuMsSince(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function runPipeline(
  endpoints: TestEndpoints,
  tasks: number,
  ratePerS: number | null,
  /** Tasks sent first whose hops are not counted (see --warmup-s). */
  warmupTasks = 0,
  /** Where to write a CPU profile of the run, from the first task sent to the last finished. */
  cpuProfileFile?: string,
): Promise<PipelineRun> {
  const prefix = `${uniqueName('bench')}.`;
  const schema = await createIsolatedSchema(endpoints.databaseUrl, 'bench');
  // One bus per stage, as in production where every stage is its own process with its own producer.
  const newBus = (clientId: string): Bus =>
    createKafkaBus({
      brokers: endpoints.kafkaBrokers.split(','),
      clientId,
      commitIntervalMs: COMMIT_INTERVAL_MS,
      maxWaitTimeMs: MAX_WAIT_MS,
      lingerMs: LINGER_MS,
      schemaRegistryUrl: endpoints.schemaRegistryUrl,
      topicPrefix: prefix,
      autoRegisterSchemas: true,
      logger: errorLogger,
    });
  const bus = newBus('bench-driver');
  const buses: Bus[] = [bus];
  const stores: EventStore[] = [];
  const runtimes: StageRuntime[] = [];
  const workers: WorkerProcess[] = [];
  try {
    await bus.ensureTopics([...allTopicNames(), { name: SINK_DLQ, partitions: 1 }]);
    // Register every schema once before the clock starts, as a deploy does (FL-2): not raced by six buses, and not
    // measured (the registry client compiles each schema it registers, ~0.1 s of CPU apiece).
    await registerTopicSchemas(
      createSchemaRegistry({ url: endpoints.schemaRegistryUrl }),
      Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
    );
    if (args.processes) {
      const store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
      await store.migrate();
      await store.close();
      for (const definition of Object.values(PASS_THROUGH_STAGES) as StageDefinition[]) {
        workers.push(
          spawnWorker({
            KAFKA_BROKERS: endpoints.kafkaBrokers,
            SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
            DATABASE_URL: endpoints.databaseUrl,
            STAGE: definition.stage,
            SIGNALBOX_TOPIC_PREFIX: prefix,
            SIGNALBOX_GROUP_ID: `${prefix}${definition.stage}`,
            EVENT_LOG_SCHEMA: schema.name,
            PARTITIONS_CONCURRENTLY: String(PARTITIONS_CONCURRENTLY),
            KAFKA_COMMIT_INTERVAL_MS: String(COMMIT_INTERVAL_MS),
            KAFKA_MAX_WAIT_MS: String(MAX_WAIT_MS),
            KAFKA_LINGER_MS: String(LINGER_MS),
            EVENT_LOG_APPEND_LINGER_MS: String(LINGER_MS),
          }),
        );
      }
      await Promise.all(workers.map((w) => w.ready));
    }
    for (const definition of args.processes
      ? []
      : (Object.values(PASS_THROUGH_STAGES) as StageDefinition[])) {
      const store = createPgEventStore({
        connectionString: endpoints.databaseUrl,
        schema: schema.name,
        appendLingerMs: LINGER_MS,
      });
      await store.migrate();
      stores.push(store);
      const stageBus = newBus(`bench-${definition.stage}`);
      buses.push(stageBus);
      const runtime = createStageRuntime({
        definition,
        bus: stageBus,
        store,
        groupId: `${prefix}${definition.stage}`,
        partitionsConcurrently: PARTITIONS_CONCURRENTLY,
        logger: errorLogger,
      });
      await runtime.start();
      runtimes.push(runtime);
    }
    let finished = 0;
    let lastFinishedAt = 0;
    const done = new Promise<void>((resolve) => {
      void bus
        .consume({
          groupId: uniqueName('bench-sink'),
          topic: TOPICS.taskFinished,
          deadLetterTopic: SINK_DLQ,
          handler: (batch) => {
            finished += batch.length;
            lastFinishedAt = performance.now();
            if (finished >= tasks) resolve();
            return Promise.resolve({ deadLetters: [] });
          },
        })
        .then((sub) => sinks.push(sub));
    });
    const sinks: { stop(): Promise<void> }[] = [];
    // Let the sink join its group before the clock starts.
    await new Promise((r) => setTimeout(r, 1500));

    const profiler = cpuProfileFile ? await startCpuProfile() : undefined;
    // Read first: walking /proc is not the run's work.
    const machineStarted = cpuSnapshot();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    // Full rate: large chunks. Rate-limited: ~10 ms slices, so latency is not queueing behind our own bursts.
    const chunk = ratePerS ? Math.max(1, Math.round(ratePerS / 100)) : 250;
    // The submitted messages are not in the event log (nothing decided them); their times start hop 1.
    const submittedAt = new Map<string, number>();
    let watch: ReturnType<typeof watchEventLoop> | undefined;
    for (let i = 0; i < tasks; i += chunk) {
      if (i >= warmupTasks) watch ??= watchEventLoop();
      const now = new Date();
      const ids = Array.from({ length: Math.min(chunk, tasks - i) }, (_, j) => `${prefix}t${String(i + j)}`);
      const messages = ids.map((id) => submittedTask(id, now));
      for (const m of messages) submittedAt.set(m.event_id, now.getTime());
      await bus.publish(
        messages.map((value) => ({ topic: TOPICS.taskSubmitted, key: value.task_id, value })),
      );
      if (ratePerS) {
        const due = started + ((i + ids.length) / ratePerS) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }
    await done;
    const loop = (watch ?? watchEventLoop()).stop();
    const seconds = (lastFinishedAt - started) / 1000;
    const ownCpuMs = cpuMsSince(cpuStarted);
    const machineCpuMsPerTask = cpuMsPerTaskSince(machineStarted, tasks);
    // With --processes the stages run in their own processes: their CPU is the pipeline's too.
    const cpuMsPerTask = ownCpuMs / tasks + (machineCpuMsPerTask?.['stage workers'] ?? 0);
    if (profiler && cpuProfileFile) await profiler.stop(cpuProfileFile);

    const rows = await schema.pool.query<{
      stage: string;
      task_id: string;
      causation_id: string;
      at: Date;
      cause_at: Date | null;
      cause_recorded_at: Date | null;
    }>(
      `SELECT e.stage, e.task_id, e.causation_id, e.occurred_at AS at, c.occurred_at AS cause_at,
              c.recorded_at AS cause_recorded_at
         FROM events e LEFT JOIN events c ON c.event_id = e.causation_id
        WHERE e.event_type <> 'failed'`,
    );
    const hopMs: number[] = [];
    const hopMsByStage = new Map<string, number[]>();
    const hopSplitMs = { toAppend: [] as number[], afterAppend: [] as number[] };
    for (const row of rows.rows) {
      const from = row.cause_at?.getTime() ?? submittedAt.get(row.causation_id);
      if (from === undefined) throw new Error(`event caused by ${row.causation_id} has no recorded cause`);
      if (taskIndex(row.task_id) < warmupTasks) continue;
      const ms = row.at.getTime() - from;
      hopMs.push(ms);
      const list = hopMsByStage.get(row.stage) ?? [];
      list.push(ms);
      hopMsByStage.set(row.stage, list);
      if (row.cause_at && row.cause_recorded_at) {
        hopSplitMs.toAppend.push(row.cause_recorded_at.getTime() - row.cause_at.getTime());
        hopSplitMs.afterAppend.push(row.at.getTime() - row.cause_recorded_at.getTime());
      }
    }
    hopSplitMs.toAppend.sort((a, b) => a - b);
    hopSplitMs.afterAppend.sort((a, b) => a - b);
    hopMs.sort((a, b) => a - b);
    for (const list of hopMsByStage.values()) list.sort((a, b) => a - b);
    for (const sink of sinks) await sink.stop();
    return {
      tasksPerS: tasks / seconds,
      appendsPerS: rows.rowCount! / seconds,
      seconds,
      hopMs,
      hopMsByStage,
      hopSplitMs,
      cpuMsPerTask,
      machineCpuMsPerTask,
      eventLoopDelayP99Ms: loop.delayP99Ms,
      eventLoopDelayMaxMs: loop.delayMaxMs,
      gcMsPerS: loop.gcMsPerS,
      gcMaxMs: loop.gcMaxMs,
    };
  } finally {
    for (const r of runtimes) await r.stop();
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    for (const b of buses) await b.close();
    for (const s of stores) await s.close();
    await schema.drop();
  }
}

/**
 * The messages of one task through the pass-through pipeline, as JSON text: the submitted task, then what each of the
 * five stages publishes (the stages' own decide functions and envelopes). The ceiling's hops send these.
 */
const PIPELINE_MESSAGES: readonly string[] = [
  JSON.stringify(submittedTask('ceiling', new Date())),
  ...(await passThroughDecisions('ceiling', new Date())).map(({ envelope, payload }) =>
    JSON.stringify({ ...envelope, payload }),
  ),
];

/**
 * The ceiling's kafkajs log: errors as `[bench]` lines on stderr, except responses kafkajs retries by itself (new
 * topics answer "not the leader" until their leaders are elected), which buried the run's own lines. A hop that
 * fails for good crashes its consumer, and that fails the run (see runCeiling).
 */
function ceilingKafkaLog({ log: entry }: LogEntry): void {
  if (isRetriedResponseError(entry)) return;
  const { message, error } = entry as { message: string; error?: unknown };
  log(`ceiling kafkajs: ${message}${error === undefined ? '' : ` (${JSON.stringify(error)})`}`);
}

/** The bare ceiling: the same five hops with raw kafkajs and raw batched inserts, no codec, validation or decisions. */
async function runCeiling(
  endpoints: TestEndpoints,
  tasks: number,
  ratePerS: number | null = null,
  warmupTasks = 0,
  options: {
    /**
     * True: the pipeline's batching (see the head of this file). False: each fetched batch inserts and sends on its
     * own at once, several partitions' at the same time — how the ceiling was measured before, printed for comparison.
     */
    coalesce?: boolean;
    /**
     * `pipeline`: hop k sends the message the pipeline's hop k publishes (PIPELINE_MESSAGES: 1.1–1.9 KB, as the task
     * gains a model, a plan, a call and a result). `submitted`: every hop sends the 0.7 KB submitted task on — the
     * messages the ceiling first sent, printed for comparison (about half the pipeline's bytes).
     */
    messages?: 'pipeline' | 'submitted';
  } = {},
): Promise<{
  tasksPerS: number;
  insertsPerS: number;
  cpuMsPerTask: number;
  machineCpuMsPerTask: Record<string, number> | undefined;
  hopMs: number[];
}> {
  const coalesce = options.coalesce ?? true;
  // The value each hop sends, as bytes once (as a raw client forwards what it got): hop k consumes values[k] and sends
  // values[k + 1]; the driver sends values[0].
  const values = (
    (options.messages ?? 'pipeline') === 'pipeline'
      ? PIPELINE_MESSAGES
      : PIPELINE_MESSAGES.map(() => PIPELINE_MESSAGES[0]!)
  ).map((text) => Buffer.from(text, 'utf8'));
  const prefix = uniqueName('ceiling');
  const kafka = new Kafka({
    clientId: 'bench-ceiling',
    brokers: endpoints.kafkaBrokers.split(','),
    logLevel: logLevel.ERROR,
    logCreator: () => ceilingKafkaLog,
  });
  const admin = kafka.admin();
  await admin.connect();
  const topics = Array.from({ length: 6 }, (_, i) => `${prefix}.hop${String(i)}`);
  await admin.createTopics({
    topics: topics.map((topic) => ({ topic, numPartitions: 6 })),
    waitForLeaders: true,
  });
  const schema = await createIsolatedSchema(endpoints.databaseUrl, 'ceiling');
  await createRawEventsTable(schema.pool, schema.name);
  const producer: Producer = kafka.producer({
    idempotent: true,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await producer.connect();
  const consumers: Consumer[] = [];
  let inserted = 0;
  let finished = 0;
  let lastAt = 0;
  // Per hop: when the previous hop (or the driver) began handling the message → when this hop begins, the same span
  // the pipeline's occurred_at difference measures. The time travels in a header.
  const hopMs: number[] = [];
  let resolveDone: () => void = () => undefined;
  let rejectDone: (error: Error) => void = () => undefined;
  const done = new Promise<void>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  try {
    for (let hop = 0; hop < 5; hop++) {
      // The pipeline's batching: per hop (a stage's store and producer), the inserts and sends made while one is out
      // leave together as the next, and an idle one's first waits --linger-ms for company.
      const insertRows = (rows: RawEvent[]) => insertRawEvents(schema.pool, schema.name, rows);
      // In requests of at most MAX_SEND_BYTES, as the bus sends: a coalesced send of a hop whose messages grow
      // would otherwise exceed what the broker takes in one record batch.
      const sendMessages = async (messages: Message[]): Promise<void> => {
        for (const slice of sliceBySize([{ topic: topics[hop + 1]!, messages }], MAX_SEND_BYTES))
          await producer.sendBatch({ acks: -1, topicMessages: slice });
      };
      const insert = coalesce ? coalescing(insertRows, { lingerMs: LINGER_MS }) : insertRows;
      const send = coalesce ? coalescing(sendMessages, { lingerMs: LINGER_MS }) : sendMessages;
      const consumer = kafka.consumer({ groupId: `${prefix}.g${String(hop)}`, maxWaitTimeInMs: MAX_WAIT_MS });
      // A hop that crashed would leave the run waiting for its tasks for ever.
      consumer.on(consumer.events.CRASH, ({ payload }) => {
        rejectDone(new Error(`ceiling hop ${String(hop)} crashed: ${payload.error.message}`));
      });
      await consumer.connect();
      await consumer.subscribe({ topic: topics[hop]!, fromBeginning: true });
      await consumer.run({
        partitionsConsumedConcurrently: PARTITIONS_CONCURRENTLY,
        // The pipeline's commit policy (the bus's `commitIntervalMs`): offsets committed at most every interval from
        // the batch loop. kafkajs's default commits after every batch, and the next fetch waits for that commit.
        autoCommit: false,
        autoCommitInterval: COMMIT_INTERVAL_MS,
        eachBatch: async (payload) => {
          const msgs = payload.batch.messages;
          const now = Date.now();
          for (const m of msgs) {
            if (taskIndex(m.key?.toString() ?? '') >= warmupTasks)
              hopMs.push(now - Number(m.headers?.t?.toString()));
          }
          const t = String(now);
          await insert(
            msgs.map((m) => ({
              id: `${String(hop)}:${m.key?.toString() ?? ''}`,
              task: m.key?.toString() ?? '',
              payload: m.value?.toString() ?? 'null',
            })),
          );
          inserted += msgs.length;
          const next = values[hop + 1]!;
          await send(msgs.map((m) => ({ key: m.key, value: next, headers: { t } })));
          await payload.commitOffsetsIfNecessary();
        },
      });
      consumers.push(consumer);
    }
    const sink = kafka.consumer({ groupId: `${prefix}.sink` });
    await sink.connect();
    await sink.subscribe({ topic: topics[5]!, fromBeginning: true });
    await sink.run({
      eachBatch: ({ batch }) => {
        finished += batch.messages.length;
        lastAt = performance.now();
        if (finished >= tasks) resolveDone();
        return Promise.resolve();
      },
    });
    consumers.push(sink);
    await new Promise((r) => setTimeout(r, 1500));
    // Read first: walking /proc is not the run's work.
    const machineStarted = cpuSnapshot();
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    const value = values[0]!;
    const chunk = ratePerS ? Math.max(1, Math.round(ratePerS / 100)) : 250;
    for (let i = 0; i < tasks; i += chunk) {
      const n = Math.min(chunk, tasks - i);
      const t = String(Date.now());
      await producer.send({
        topic: topics[0]!,
        acks: -1,
        messages: Array.from({ length: n }, (_, j) => ({ key: `t${String(i + j)}`, value, headers: { t } })),
      });
      if (ratePerS) {
        const due = started + ((i + n) / ratePerS) * 1000;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      }
    }
    await done;
    const seconds = (lastAt - started) / 1000;
    return {
      tasksPerS: tasks / seconds,
      insertsPerS: inserted / seconds,
      cpuMsPerTask: cpuMsSince(cpuStarted) / tasks,
      machineCpuMsPerTask: cpuMsPerTaskSince(machineStarted, tasks),
      hopMs: hopMs.sort((a, b) => a - b),
    };
  } finally {
    for (const c of consumers) await c.disconnect();
    await producer.disconnect();
    await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect();
    await schema.drop();
  }
}

const infra = await resolveInfrastructure(process.env);
try {
  log(`infrastructure from ${infra.endpoints.source}; ${String(TASKS)} tasks`);
  // Full rate, ROUNDS times: a ceiling run and a pipeline run side by side, the first of a round alternating.
  const rounds: { pipeline: PipelineRun; ceiling: Awaited<ReturnType<typeof runCeiling>> }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const ceilingFirst = round % 2 === 1;
    const measureCeiling = async () => {
      log(`round ${String(round)}/${String(ROUNDS)}: ceiling (raw kafkajs + raw batched inserts, five hops)`);
      const run = await runCeiling(infra.endpoints, TASKS);
      log(`ceiling ${run.tasksPerS.toFixed(0)} tasks/s`);
      return run;
    };
    const measurePipeline = async () => {
      log(`round ${String(round)}/${String(ROUNDS)}: pipeline at full rate`);
      const profile = round === 1 ? args['cpu-profile'] : undefined;
      const run = await runPipeline(infra.endpoints, TASKS, null, 0, profile);
      if (profile) log(`CPU profile of the pipeline at full rate written to ${profile}`);
      log(`pipeline ${run.tasksPerS.toFixed(0)} tasks/s`);
      return run;
    };
    const ceilingRun = ceilingFirst ? await measureCeiling() : undefined;
    const pipelineRun = await measurePipeline();
    rounds.push({ pipeline: pipelineRun, ceiling: ceilingRun ?? (await measureCeiling()) });
  }
  const roundRatio = (r: (typeof rounds)[number]) => r.pipeline.tasksPerS / r.ceiling.tasksPerS;
  // The round of the median ratio gives the headline figures (rates, latency at full rate, CPU), so they belong
  // together; with an even number of rounds, the lower middle one.
  const byRatio = [...rounds].sort((a, b) => roundRatio(a) - roundRatio(b));
  const medianRound = byRatio[Math.floor((byRatio.length - 1) / 2)]!;
  const max = medianRound.pipeline;
  const ceiling = medianRound.ceiling;
  log('ceiling without coalescing: each fetched batch inserts and sends on its own');
  const perBatchCeiling = await runCeiling(infra.endpoints, TASKS, null, 0, { coalesce: false });
  log(`ceiling without coalescing ${perBatchCeiling.tasksPerS.toFixed(0)} tasks/s`);
  log('ceiling sending the submitted task on every hop (about half the bytes, as the ceiling first did)');
  const submittedCeiling = await runCeiling(infra.endpoints, TASKS, null, 0, { messages: 'submitted' });
  log(`ceiling sending the submitted task on every hop ${submittedCeiling.tasksPerS.toFixed(0)} tasks/s`);
  const halfRate = max.tasksPerS / 2;
  log(
    `pipeline at half the maximum rate (${halfRate.toFixed(0)} tasks/s) for latency: ${String(WARMUP_S)} s of warm-up, then ${String(LATENCY_WINDOW_S)} s measured`,
  );
  const warmupTasks = Math.round(halfRate * WARMUP_S);
  const halfTasks = warmupTasks + Math.max(10, Math.round(Math.min(TASKS, halfRate * LATENCY_WINDOW_S)));
  const half = await runPipeline(infra.endpoints, halfTasks, halfRate, warmupTasks);
  log(`ceiling at the same rate (${halfRate.toFixed(0)} tasks/s) for latency`);
  const ceilingHalf = await runCeiling(infra.endpoints, halfTasks, halfRate, warmupTasks);

  const result = {
    tasks: TASKS,
    tasks_per_s: Math.round(max.tasksPerS),
    appends_per_s: Math.round(max.appendsPerS),
    hop_p50_ms: percentile(half.hopMs, 50),
    hop_p99_ms: percentile(half.hopMs, 99),
    hop_p50_ms_at_max: percentile(max.hopMs, 50),
    hop_p99_ms_at_max: percentile(max.hopMs, 99),
    half_rate_tasks_per_s: Math.round(halfRate),
    latency_warmup_s: WARMUP_S,
    // Where latency goes in this process at the half rate: how late its event loop ran, and GC pauses.
    event_loop_delay_p99_ms: half.eventLoopDelayP99Ms,
    event_loop_delay_max_ms: half.eventLoopDelayMaxMs,
    gc_pause_ms_per_s: half.gcMsPerS,
    gc_pause_max_ms: half.gcMaxMs,
    hop_p50_p99_ms_by_stage: Object.fromEntries(
      [...half.hopMsByStage].map(([stage, ms]) => [stage, [percentile(ms, 50), percentile(ms, 99)]]),
    ),
    // Hops 2–5 at the half rate cut where the cause's append began: [p50, p99] of each part (see PipelineRun).
    hop_split_p50_p99_ms: {
      decided_to_append: [percentile(half.hopSplitMs.toAppend, 50), percentile(half.hopSplitMs.toAppend, 99)],
      append_to_next_decided: [
        percentile(half.hopSplitMs.afterAppend, 50),
        percentile(half.hopSplitMs.afterAppend, 99),
      ],
    },
    ceiling_hop_p50_ms: percentile(ceilingHalf.hopMs, 50),
    ceiling_hop_p99_ms: percentile(ceilingHalf.hopMs, 99),
    ceiling_tasks_per_s: Math.round(ceiling.tasksPerS),
    ceiling_inserts_per_s: Math.round(ceiling.insertsPerS),
    cpu_ms_per_task: Math.round(max.cpuMsPerTask * 100) / 100,
    ceiling_cpu_ms_per_task: Math.round(ceiling.cpuMsPerTask * 100) / 100,
    // The median over the rounds of pipeline / ceiling measured side by side (the round that gives the figures above).
    ratio: Math.round((max.tasksPerS / ceiling.tasksPerS) * 100) / 100,
    rounds: rounds.map((r) => ({
      tasks_per_s: Math.round(r.pipeline.tasksPerS),
      ceiling_tasks_per_s: Math.round(r.ceiling.tasksPerS),
      ratio: Math.round(roundRatio(r) * 100) / 100,
    })),
    // The same against the ceiling whose fetched batches insert and send on their own, at once (less steady: up to
    // six inserts per hop at a time).
    ceiling_per_batch_tasks_per_s: Math.round(perBatchCeiling.tasksPerS),
    ratio_to_per_batch_ceiling: Math.round((max.tasksPerS / perBatchCeiling.tasksPerS) * 100) / 100,
    // The same against a ceiling that sends the 0.7 KB submitted task on every hop, as the ceiling first did (the
    // pipeline's messages are 1.1–1.9 KB): about half the bytes through Kafka and into PostgreSQL.
    ceiling_submitted_only_tasks_per_s: Math.round(submittedCeiling.tasksPerS),
    ratio_to_submitted_only_ceiling: Math.round((max.tasksPerS / submittedCeiling.tasksPerS) * 100) / 100,
    ceiling_message_bytes: PIPELINE_MESSAGES.map((text) => Buffer.byteLength(text)),
    // CPU of this process per task, ceiling / pipeline: the ratio of what each costs, steadier than rates.
    cpu_ratio: Math.round((ceiling.cpuMsPerTask / max.cpuMsPerTask) * 100) / 100,
    // Where the CPU goes, at full rate: ms per task of each service on this machine (this process, PostgreSQL,
    // Kafka, the registry…) and of the whole machine. On two shared cores the rate is what these add up to.
    cpu_ms_per_task_by_service: { pipeline: max.machineCpuMsPerTask, ceiling: ceiling.machineCpuMsPerTask },
    infrastructure: infra.endpoints.source,
  };
  const table = [
    ['metric', 'value'],
    ['pipeline tasks/s (5 hops)', String(result.tasks_per_s)],
    ['event-log appends/s', String(result.appends_per_s)],
    [
      `hop p50 / p99 ms @ ${String(result.half_rate_tasks_per_s)} tasks/s`,
      `${String(result.hop_p50_ms)} / ${String(result.hop_p99_ms)}`,
    ],
    [
      '  of which: decided → its append began, p50 / p99',
      `${String(result.hop_split_p50_p99_ms.decided_to_append[0])} / ${String(result.hop_split_p50_p99_ms.decided_to_append[1])}`,
    ],
    [
      '  of which: append began → next stage decided, p50 / p99',
      `${String(result.hop_split_p50_p99_ms.append_to_next_decided[0])} / ${String(result.hop_split_p50_p99_ms.append_to_next_decided[1])}`,
    ],
    [
      'hop p50 / p99 ms @ max rate',
      `${String(result.hop_p50_ms_at_max)} / ${String(result.hop_p99_ms_at_max)}`,
    ],
    ['ceiling tasks/s (raw kafkajs + inserts, same messages)', String(result.ceiling_tasks_per_s)],
    [
      `ceiling hop p50 / p99 ms @ ${String(result.half_rate_tasks_per_s)} tasks/s`,
      `${String(result.ceiling_hop_p50_ms)} / ${String(result.ceiling_hop_p99_ms)}`,
    ],
    [
      `ratio pipeline / ceiling (median of ${String(ROUNDS)} rounds)`,
      `${String(result.ratio)} (${result.rounds.map((r) => `${String(r.tasks_per_s)}/${String(r.ceiling_tasks_per_s)} = ${String(r.ratio)}`).join(', ')})`,
    ],
    [
      'ceiling without coalescing tasks/s, ratio',
      `${String(result.ceiling_per_batch_tasks_per_s)}, ${String(result.ratio_to_per_batch_ceiling)}`,
    ],
    [
      'ceiling sending the submitted task on, ratio',
      `${String(result.ceiling_submitted_only_tasks_per_s)}, ${String(result.ratio_to_submitted_only_ceiling)}`,
    ],
    [
      `event-loop delay p99 / max ms @ ${String(result.half_rate_tasks_per_s)} tasks/s`,
      `${String(result.event_loop_delay_p99_ms)} / ${String(result.event_loop_delay_max_ms)}`,
    ],
    [
      `GC pause ms per s / longest @ ${String(result.half_rate_tasks_per_s)} tasks/s`,
      `${String(result.gc_pause_ms_per_s)} / ${String(result.gc_pause_max_ms)}`,
    ],
    [
      'CPU ms per task, pipeline / ceiling',
      `${String(result.cpu_ms_per_task)} / ${String(result.ceiling_cpu_ms_per_task)}`,
    ],
  ];
  const byService = (cpu: Record<string, number> | undefined) =>
    cpu
      ? Object.entries(cpu)
          .map(([service, ms]) => `${service} ${String(ms)}`)
          .join(' · ')
      : 'n/a (no /proc)';
  table.push(
    ['CPU ms per task by service, pipeline', byService(max.machineCpuMsPerTask)],
    ['CPU ms per task by service, ceiling', byService(ceiling.machineCpuMsPerTask)],
  );
  const width = Math.max(...table.map((r) => r[0]!.length));
  (args.json ? console.error : console.log)(table.map(([k, v]) => `${k!.padEnd(width)}  ${v!}`).join('\n'));
  console.log(JSON.stringify(result));
} finally {
  await infra.release();
}
