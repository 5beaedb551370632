// A pass-through stage worker as a real child process, for crash and rebalance tests. It runs one stage runtime
// on real Kafka + registry + PostgreSQL and can SIGKILL itself at a chosen point:
//   CRASH_AT=after_append   the batch's decisions are in the event log, nothing published yet
//   CRASH_AT=after_publish  decisions published, offsets not committed
//   CRASH_AT=mid_batch      some inputs of a batch decided, nothing appended
// CRASH_ON_BATCH (default 2) picks which batch crashes. The worker prints `ready` once consuming.
import { z } from 'zod';
import { createKafkaBus } from '@signalbox/bus';
import { createPgEventStore } from '@signalbox/event-log';
import { StageEnv, createStageRuntime, parseEnv, type StageDefinition } from '@signalbox/stage-kit';
import { PASS_THROUGH_STAGES } from './pass-through.js';

const Env = StageEnv.extend({
  STAGE: z.enum(['model_selector', 'tool_decider', 'parameter_injector', 'executor', 'result_evaluator']),
  SIGNALBOX_TOPIC_PREFIX: z.string().default(''),
  EVENT_LOG_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/),
  CRASH_AT: z.enum(['none', 'after_append', 'after_publish', 'mid_batch']).default('none'),
  CRASH_ON_BATCH: z.coerce.number().int().min(1).default(2),
});
const env = parseEnv(Env, process.env, 'stage-worker');

let batches = 0;
let decidedInBatch = 0;
const crash = (point: string) => {
  console.log(`crash ${point}`);
  process.kill(process.pid, 'SIGKILL');
};

const base: StageDefinition = PASS_THROUGH_STAGES[env.STAGE];
const definition: StageDefinition = {
  ...base,
  decide: (input, ctx) => {
    decidedInBatch++;
    if (env.CRASH_AT === 'mid_batch' && batches + 1 === env.CRASH_ON_BATCH && decidedInBatch === 3)
      crash('mid_batch');
    return base.decide(input, ctx);
  },
};

const store = createPgEventStore({
  connectionString: env.DATABASE_URL,
  schema: env.EVENT_LOG_SCHEMA,
  appendLingerMs: env.EVENT_LOG_APPEND_LINGER_MS,
});
const bus = createKafkaBus({
  brokers: env.KAFKA_BROKERS.split(','),
  clientId: `stage-worker-${env.STAGE}-${String(process.pid)}`,
  schemaRegistryUrl: env.SCHEMA_REGISTRY_URL,
  topicPrefix: env.SIGNALBOX_TOPIC_PREFIX,
  autoRegisterSchemas: true,
  sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
  commitIntervalMs: env.KAFKA_COMMIT_INTERVAL_MS,
  maxWaitTimeMs: env.KAFKA_MAX_WAIT_MS,
  lingerMs: env.KAFKA_LINGER_MS,
  heartbeatIntervalMs: 1000,
});

const crashingStore: typeof store = {
  ...store,
  async append(events, options) {
    const result = await store.append(events, options);
    if (env.CRASH_AT === 'after_append' && batches + 1 === env.CRASH_ON_BATCH) crash('after_append');
    return result;
  },
};
const crashingBus: typeof bus = {
  ...bus,
  async publish(messages) {
    await bus.publish(messages);
    batches++;
    decidedInBatch = 0;
    if (env.CRASH_AT === 'after_publish' && batches === env.CRASH_ON_BATCH) crash('after_publish');
  },
};

const runtime = createStageRuntime({
  definition,
  bus: crashingBus,
  store: crashingStore,
  groupId: env.SIGNALBOX_GROUP_ID ?? `signalbox.${env.STAGE}`,
  concurrency: env.STAGE_CONCURRENCY,
  partitionsConcurrently: env.PARTITIONS_CONCURRENTLY,
});
await runtime.start();
console.log('ready');

const shutdown = async () => {
  await runtime.stop();
  await bus.close();
  await store.close();
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
