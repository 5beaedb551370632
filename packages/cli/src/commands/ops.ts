// `signalbox topics` and `signalbox migrate`: the deploy-time steps (also run by the compose/k8s jobs).
//   topics   creates every catalog topic and dead-letter topic, and registers each topic's JSON Schema with
//            compatibility BACKWARD (FL-2) — an incompatible contract change fails here, not on a live publish.
//   migrate  runs the event log's and the registry store's migrations.
import type { Command } from 'commander';
import { TOPICS, allTopicNames } from '@signalbox/contracts';
import { createKafkaBus, createSchemaRegistry, prefixTopic, registerTopicSchemas } from '@signalbox/bus';
import { createPgEventStore } from '@signalbox/event-log';
import { createRegistryStore } from '@signalbox/registry';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

function required(io: CliIo, name: string, flag: string | undefined): string {
  const value = flag ?? io.env[name];
  if (!value) throw new UsageError(`${name} is not set (or pass --${name.toLowerCase().replace(/_/g, '-')})`);
  return value;
}

/** Creates the topics (idempotent) and registers their schemas. */
export async function topicsCreate(
  io: CliIo,
  opts: { kafkaBrokers?: string; schemaRegistryUrl?: string; prefix?: string },
): Promise<CommandResult> {
  const brokers = required(io, 'KAFKA_BROKERS', opts.kafkaBrokers);
  const registryUrl = required(io, 'SCHEMA_REGISTRY_URL', opts.schemaRegistryUrl);
  const prefix = opts.prefix ?? io.env.SIGNALBOX_TOPIC_PREFIX ?? '';
  const bus = createKafkaBus({
    brokers,
    clientId: 'signalbox-cli',
    schemaRegistryUrl: registryUrl,
    topicPrefix: prefix,
  });
  try {
    const topics = allTopicNames();
    await bus.ensureTopics(topics);
    const registered = await registerTopicSchemas(
      createSchemaRegistry({ url: registryUrl }),
      Object.values(TOPICS).map((t) => prefixTopic(t, prefix)),
    );
    return {
      exitCode: 0,
      json: {
        topics: topics.map((t) => ({ name: `${prefix}${t.name}`, partitions: t.partitions })),
        schemas: registered,
      },
      text: [
        ...topics.map((t) => `topic   ${prefix}${t.name} (${String(t.partitions)} partitions)`),
        ...registered.map((r) => `schema  ${r.subject} → id ${String(r.id)} (BACKWARD)`),
      ],
    };
  } finally {
    await bus.close();
  }
}

/** Runs the event-log and registry-store migrations. */
export async function migrate(
  io: CliIo,
  opts: { databaseUrl?: string; schema?: string },
): Promise<CommandResult> {
  const url = required(io, 'DATABASE_URL', opts.databaseUrl);
  const events = createPgEventStore({
    connectionString: url,
    ...(opts.schema ? { schema: opts.schema } : {}),
  });
  const registry = createRegistryStore({
    connectionString: url,
    ...(opts.schema ? { schema: opts.schema } : {}),
  });
  try {
    await events.migrate();
    await registry.migrate();
    return {
      exitCode: 0,
      json: { migrated: ['event-log', 'registry'] },
      text: ['migrated: event-log, registry'],
    };
  } finally {
    await events.close();
    await registry.close();
  }
}

/** Registers `topics create` and `migrate` on the program. */
export function registerOps(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const topics = program.command('topics').description('Kafka topics and their schemas (FL-1, FL-2)');
  topics
    .command('create')
    .description('create every topic and dead-letter topic; register each schema with compatibility BACKWARD')
    .option('--kafka-brokers <list>', 'host:port[,host:port] (default: $KAFKA_BROKERS)')
    .option(
      '--schema-registry-url <url>',
      'Confluent-compatible registry URL (default: $SCHEMA_REGISTRY_URL)',
    )
    .option('--prefix <prefix>', 'topic namespace prefix (default: $SIGNALBOX_TOPIC_PREFIX)')
    .action(async (opts: { kafkaBrokers?: string; schemaRegistryUrl?: string; prefix?: string }) => {
      done(await topicsCreate(io, opts));
    });
  topics
    .command('list')
    .description('the topic catalog: name, partitions, consuming stage, dead-letter topic')
    .action(() => {
      const rows = Object.values(TOPICS).map((t) => ({
        name: t.name,
        partitions: t.partitions,
        consumer: t.consumer,
        dead_letter_topic: t.deadLetterTopic,
      }));
      done({
        exitCode: 0,
        json: { topics: rows },
        text: rows.map(
          (r) =>
            `${r.name.padEnd(36)} ${String(r.partitions)}  ${r.consumer ?? '(terminal)'}  ${r.dead_letter_topic ?? ''}`,
        ),
      });
    });
  program
    .command('migrate')
    .description('run the event-log and registry-store migrations')
    .option('--database-url <url>', 'PostgreSQL connection string (default: $DATABASE_URL)')
    .option('--schema <name>', 'PostgreSQL schema')
    .action(async (opts: { databaseUrl?: string; schema?: string }) => {
      done(await migrate(io, opts));
    });
}
