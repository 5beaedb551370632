// `signalbox trace <task>` (EL-6), `signalbox redecide` (EL-7) and `signalbox redrive` (EL-8) over the event log:
// PostgreSQL, or the running `signalbox dev` server's, or a dev server's `--data` folder (dev/event-log-source.ts).
import type { Command } from 'commander';
import {
  INPUT_TOPIC_OF,
  PIPELINE_STAGES,
  deterministicEventId,
  topicByName,
  type PipelineStage,
} from '@signalbox/contracts';
import { createKafkaBus, type Bus } from '@signalbox/bus';
import { traceTimeline, type EventStore } from '@signalbox/event-log';
import { providersForProfiles } from '@signalbox/providers';
import { createRegistryStore, loadRegistryDir, type Registry } from '@signalbox/registry';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';
import { formatTimeline } from './dev.js';
import {
  REDECIDABLE_STAGES,
  failureText,
  formatRedecide,
  redecideTasks,
  type RedecidableStage,
} from './redecide.js';
import { startProgress, type Progress } from '../progress.js';
import { devServerBus, openEventLog, resolveEventLog, type EventLogFlags } from '../dev/event-log-source.js';

function openStore(io: CliIo, opts: EventLogFlags & { schema?: string }): EventStore {
  return openEventLog(resolveEventLog(io.env, io.cwd, opts), opts.schema);
}

/** EL-6: one task's timeline; with `exchanges`, the model calls each decision rests on (EL-7), secrets redacted. */
export async function trace(
  io: CliIo,
  taskId: string,
  opts: { databaseUrl?: string; data?: string; schema?: string; exchanges?: boolean },
): Promise<CommandResult> {
  const store = openStore(io, opts);
  try {
    const events = await store.readTask(taskId, { withExchanges: opts.exchanges === true });
    if (events.length === 0) throw new UsageError(`no events for task ${taskId}`);
    const timeline = traceTimeline(events);
    const text = formatTimeline(timeline);
    if (!opts.exchanges) return { exitCode: 0, json: { timeline }, text };
    const exchanges = Object.fromEntries(
      events.filter((e) => e.exchanges?.length).map((e) => [e.envelope.event_id, e.exchanges]),
    );
    // One line per model call under the decision that made it (the timeline has one line per event, in order).
    const lines = [text[0] ?? ''];
    events.forEach((e, i) => {
      lines.push(text[i + 1] ?? '');
      for (const x of e.exchanges ?? []) {
        lines.push(
          x.error === undefined
            ? `      model ${x.model} (${x.profile_id}): ${String(x.input_tokens)} → ${String(x.output_tokens)} tokens, ` +
                `${String(x.latency_ms)} ms, request ${x.request_hash.slice(0, 12)}`
            : // EL-9: a call that failed is part of what the decision rests on (it may have fallen back on it).
              `      model call failed (${x.profile_id}): ${failureText(x.error)}, ` +
                `${String(x.latency_ms)} ms, request ${x.request_hash.slice(0, 12)}`,
        );
      }
    });
    return { exitCode: 0, json: { timeline, exchanges }, text: lines };
  } finally {
    await store.close();
  }
}

/** The registry to re-decide under: a directory (the current one), or a published version from the registry store. */
async function registryFor(
  io: CliIo,
  opts: {
    registryDir?: string;
    registryName?: string;
    registryVersion?: string;
    databaseUrl?: string;
    data?: string;
    schema?: string;
  },
): Promise<Registry> {
  if (opts.registryVersion) {
    if (!opts.registryName)
      throw new UsageError('--registry-version needs --registry-name (the published registry)');
    const source = resolveEventLog(io.env, io.cwd, opts);
    if (source.kind !== 'postgres')
      throw new UsageError('published registries (RG-3) live in PostgreSQL: give --database-url, not --data');
    const store = createRegistryStore({
      connectionString: source.connectionString,
      ...(opts.schema ? { schema: opts.schema } : {}),
    });
    try {
      return (await store.load(opts.registryName, opts.registryVersion)).registry;
    } finally {
      await store.close();
    }
  }
  const dir = opts.registryDir ?? io.env.SIGNALBOX_REGISTRY_DIR;
  if (!dir)
    throw new UsageError(
      'give --registry-dir (or SIGNALBOX_REGISTRY_DIR) or --registry-name with --registry-version',
    );
  return loadRegistryDir(dir);
}

export interface RedecideCommandOptions {
  stage: string;
  databaseUrl?: string;
  /** A dev server's PGlite folder (`signalbox dev --data DIR`). */
  data?: string;
  schema?: string;
  registryDir?: string;
  registryName?: string;
  registryVersion?: string;
  tenant?: string;
  agent?: string;
  from?: string;
  to?: string;
  limit?: number;
  /**
   * Ask the configured model endpoints what the recorded exchanges do not answer (costs money, and the answers are
   * not the recorded ones). Off: re-decide never calls a live model. @default false
   */
  liveModels?: boolean;
}

function date(value: string | undefined, flag: string): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new UsageError(`${flag} is not a date: ${value}`);
  return d;
}

/** EL-7: re-takes recorded decisions under the chosen registry; no side effects. */
export async function redecide(io: CliIo, opts: RedecideCommandOptions): Promise<CommandResult> {
  if (opts.stage !== 'all' && !(REDECIDABLE_STAGES as readonly string[]).includes(opts.stage)) {
    throw new UsageError(
      `--stage must be one of ${[...REDECIDABLE_STAGES, 'all'].join(', ')} (the executor's decisions are recorded tool results)`,
    );
  }
  const registry = await registryFor(io, opts);
  // IF-4: the model endpoints configured here, asked only with --live-models (EL-7: otherwise re-decide answers from
  // the recorded exchanges alone and never reaches a live model).
  const providers = opts.liveModels ? providersForProfiles(registry.content.profiles, io.env) : undefined;
  if (providers?.size === 0) {
    throw new UsageError(
      '--live-models needs a model endpoint: set the base-URL and API-key variables of a profile (default SIGNALBOX_LLM_BASE_URL and SIGNALBOX_LLM_API_KEY)',
    );
  }
  const store = openStore(io, opts);
  try {
    const from = date(opts.from, '--from');
    const to = date(opts.to, '--to');
    let progress: Progress | undefined;
    const summary = await redecideTasks(
      store,
      registry,
      opts.stage as RedecidableStage | 'all',
      {
        ...(opts.tenant ? { tenant_id: opts.tenant } : {}),
        ...(opts.agent ? { agent_id: opts.agent } : {}),
        ...(from ? { from } : {}),
        ...(to ? { to } : {}),
        limit: opts.limit ?? 1000,
      },
      (_done, total) => {
        progress ??= startProgress(io, 'redecide tasks', total);
        progress.tick();
      },
      providers ? { live: (id: string) => providers.get(id) } : {},
    );
    progress?.done();
    return { exitCode: 0, json: { ...summary }, text: formatRedecide(summary) };
  } finally {
    await store.close();
  }
}

/**
 * EL-8: publishes a recorded task again, from the start (`model_selector`) or from a named stage, as a new task
 * linked to the original (`redrive_of`, `input_source: redrive`). The input is the one that stage last received.
 */
export async function redrive(
  io: CliIo,
  taskId: string,
  opts: {
    from?: string;
    databaseUrl?: string;
    data?: string;
    schema?: string;
    kafkaBrokers?: string;
    schemaRegistryUrl?: string;
    prefix?: string;
  },
): Promise<CommandResult> {
  const stage = (opts.from ?? 'model_selector') as PipelineStage;
  if (!(PIPELINE_STAGES as readonly string[]).includes(stage)) {
    throw new UsageError(`--from must be one of ${PIPELINE_STAGES.join(', ')}`);
  }
  const brokers = opts.kafkaBrokers ?? io.env.KAFKA_BROKERS;
  const registryUrl = opts.schemaRegistryUrl ?? io.env.SCHEMA_REGISTRY_URL;
  const source = resolveEventLog(io.env, io.cwd, opts);
  // Kafka when it is configured; else the dev server whose event log this is publishes onto its in-memory bus.
  let bus: Bus;
  if (brokers && registryUrl) {
    bus = createKafkaBus({
      brokers,
      clientId: 'signalbox-redrive',
      schemaRegistryUrl: registryUrl,
      topicPrefix: opts.prefix ?? io.env.SIGNALBOX_TOPIC_PREFIX ?? '',
    });
  } else if (source.kind === 'postgres' && source.devServer) {
    bus = devServerBus(source.devServer);
  } else if (source.kind === 'pglite') {
    throw new UsageError(
      `no dev server serves ${source.dataDir}: start \`signalbox dev --data ${source.dataDir}\` (its stages run ` +
        'the re-driven task), then redrive again',
    );
  } else {
    throw new UsageError(
      'KAFKA_BROKERS and SCHEMA_REGISTRY_URL must be set (or pass the flags) to publish to the stages',
    );
  }
  const store = openEventLog(source, opts.schema);
  try {
    const events = await store.readTask(taskId);
    const inputTopic = INPUT_TOPIC_OF[stage];
    const recorded = [...events].reverse().find((e) => e.topic === inputTopic.name);
    if (!recorded)
      throw new UsageError(`task ${taskId} has no recorded input of ${stage} (${inputTopic.name})`);
    // readTask shows operators redacted payloads (PI-5); the re-driven message needs the real values back.
    const input =
      (await store.findByEventIds([recorded.envelope.event_id], { withSecrets: true })).get(
        recorded.envelope.event_id,
      ) ?? recorded;
    let n = 1;
    while ((await store.readTask(`${taskId}~redrive-${String(n)}`)).length > 0) n++;
    const newTaskId = `${taskId}~redrive-${String(n)}`;
    const payload = structuredClone(input.payload) as { task?: { redrive_of?: string | null } };
    if (payload.task) payload.task.redrive_of = taskId;
    const envelope = {
      ...input.envelope,
      task_id: newTaskId,
      event_id: deterministicEventId({
        task_id: newTaskId,
        stage: 'operator',
        causation_id: input.envelope.event_id,
        event_type: input.envelope.event_type,
      }),
      stage: 'operator' as const,
      causation_id: input.envelope.event_id,
      input_source: 'redrive' as const,
      decision_reason: `re-driven from ${stage} of ${taskId} (input ${input.envelope.event_id})`,
      occurred_at: new Date().toISOString(),
    };
    const topic = topicByName(inputTopic.name);
    if (!topic) throw new Error(`unknown topic ${inputTopic.name}`);
    await store.append([{ envelope, topic: topic.name, payload }]);
    await bus.publish([{ topic, key: newTaskId, value: { ...envelope, payload } }]);
    return {
      exitCode: 0,
      json: {
        task_id: newTaskId,
        redrive_of: taskId,
        from: stage,
        event_id: envelope.event_id,
        topic: topic.name,
      },
      text: [`re-drove ${taskId} from ${stage} as ${newTaskId} (${envelope.event_id} on ${topic.name})`],
    };
  } finally {
    await bus.close();
    await store.close();
  }
}

/** Registers `trace`, `redecide` and `redrive`. */
export function registerTrace(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const db = (cmd: Command) =>
    cmd
      .option(
        '--database-url <url>',
        "PostgreSQL connection string (default: $DATABASE_URL, else the running `signalbox dev` server's event log)",
      )
      .option(
        '--data <dir>',
        'the event log of `signalbox dev --data <dir>`: through that server while it runs, else the folder itself',
      )
      .option('--schema <name>', 'PostgreSQL schema of the event log');
  db(
    program
      .command('trace')
      .description("one task's timeline (EL-6)")
      .argument('<task>', 'task id')
      .option('--exchanges', 'with the model calls each decision made (EL-7), sensitive values redacted'),
  ).action(
    async (
      task: string,
      opts: { databaseUrl?: string; data?: string; schema?: string; exchanges?: boolean },
    ) => {
      done(await trace(io, task, opts));
    },
  );
  db(
    program
      .command('redecide')
      .description('re-take recorded decisions under the current or a named registry; no side effects (EL-7)')
      .requiredOption('--stage <stage>', `${REDECIDABLE_STAGES.join(' | ')} | all`)
      .option('--registry-dir <dir>', 'registry directory to decide under (default: $SIGNALBOX_REGISTRY_DIR)')
      .option('--registry-name <name>', 'a published registry (with --registry-version)')
      .option('--registry-version <ref>', 'latest, a version, a prefix or a label')
      .option('--tenant <id>')
      .option('--agent <id>')
      .option('--from <date>', 'from this time (inclusive)')
      .option('--to <date>', 'to this time (exclusive)')
      .option('--limit <n>', 'most tasks', (v) => Number.parseInt(v, 10))
      .option(
        '--live-models',
        'ask the configured model endpoints what the recorded model exchanges do not answer (default: never)',
      ),
  ).action(async (opts: RedecideCommandOptions) => {
    done(await redecide(io, opts));
  });
  db(
    program
      .command('redrive')
      .description(
        'publish a recorded task again as a new linked task, from the start or a named stage (EL-8)',
      )
      .argument('<task>', 'task id')
      .option('--from <stage>', `${PIPELINE_STAGES.join(' | ')} (default: model_selector)`)
      .option('--kafka-brokers <list>')
      .option('--schema-registry-url <url>')
      .option('--prefix <prefix>', 'topic namespace prefix (default: $SIGNALBOX_TOPIC_PREFIX)'),
  ).action(
    async (task: string, opts: { from?: string; databaseUrl?: string; data?: string; schema?: string }) => {
      done(await redrive(io, task, opts));
    },
  );
}
