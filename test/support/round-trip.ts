import { SchemaRegistry, SchemaType } from '@kafkajs/confluent-schema-registry';
import { Kafka, Partitioners, logLevel } from 'kafkajs';
import pg from 'pg';
import { uniqueName, type TestEndpoints } from '@signalbox/test-support';

/** What one round trip through the real infrastructure observed. */
export interface RoundTripResult {
  topic: string;
  subject: string;
  schemaId: number;
  /** The raw Kafka value: Confluent wire format (magic byte 0, 4-byte schema id, JSON). */
  wireMagicByte: number;
  wireSchemaId: number;
  sent: Greeting;
  received: Greeting;
  consumerGroup: string;
  partition: number;
  offset: string;
  /** The row written to and read back from PostgreSQL. */
  storedRow: { task_id: string; payload: Greeting };
  /** True when the registry refused a payload that breaks the schema. */
  invalidRefused: boolean;
  durationMs: number;
}

export interface Greeting {
  task_id: string;
  text: string;
  attempt: number;
}

const greetingSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Greeting',
  type: 'object',
  properties: {
    task_id: { type: 'string' },
    text: { type: 'string' },
    attempt: { type: 'integer', minimum: 0 },
  },
  required: ['task_id', 'text', 'attempt'],
  additionalProperties: false,
};

/**
 * Registers a JSON Schema in the registry, produces a message encoded with it to a fresh topic, consumes and
 * decodes it in a consumer group, then writes and reads a row in an isolated PostgreSQL schema.
 * Everything it creates is removed again.
 */
export async function roundTrip(endpoints: TestEndpoints): Promise<RoundTripResult> {
  const started = Date.now();
  const topic = uniqueName('signalbox.smoke.greeting.v1');
  const subject = `${topic}-value`;
  const consumerGroup = uniqueName('smoke-group');
  const registry = new SchemaRegistry({ host: endpoints.schemaRegistryUrl });
  const kafka = new Kafka({
    clientId: 'signalbox-smoke',
    brokers: endpoints.kafkaBrokers.split(','),
    logLevel: logLevel.WARN,
  });
  const admin = kafka.admin();
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  const consumer = kafka.consumer({ groupId: consumerGroup });
  const db = new pg.Client({ connectionString: endpoints.databaseUrl });
  const dbSchema = uniqueName('smoke').replace(/[^a-z0-9]/g, '_');

  await Promise.all([admin.connect(), producer.connect(), consumer.connect(), db.connect()]);
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 3 }], waitForLeaders: true });
    const { id: schemaId } = await registry.register(
      { type: SchemaType.JSON, schema: JSON.stringify(greetingSchema) },
      { subject },
    );

    let invalidRefused = false;
    try {
      await registry.encode(schemaId, { task_id: 'x', text: 'no attempt' });
    } catch {
      invalidRefused = true;
    }

    const sent: Greeting = { task_id: uniqueName('task'), text: 'hello from signalbox', attempt: 1 };
    const value = await registry.encode(schemaId, sent);
    await producer.send({ topic, acks: -1, messages: [{ key: sent.task_id, value }] });

    await consumer.subscribe({ topic, fromBeginning: true });
    const received = await new Promise<{ value: Buffer; partition: number; offset: string }>(
      (resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no message arrived on ${topic} within 30 s`));
        }, 30_000);
        void consumer.run({
          eachMessage: ({ message, partition }) => {
            if (message.value) {
              clearTimeout(timer);
              resolve({ value: message.value, partition, offset: message.offset });
            }
            return Promise.resolve();
          },
        });
      },
    );
    const decoded = (await registry.decode(received.value)) as Greeting;

    await db.query(`CREATE SCHEMA ${dbSchema}`);
    await db.query(`CREATE TABLE ${dbSchema}.greetings (task_id text PRIMARY KEY, payload jsonb NOT NULL)`);
    await db.query(`INSERT INTO ${dbSchema}.greetings (task_id, payload) VALUES ($1, $2)`, [
      decoded.task_id,
      JSON.stringify(decoded),
    ]);
    const rows = await db.query<{ task_id: string; payload: Greeting }>(
      `SELECT task_id, payload FROM ${dbSchema}.greetings WHERE task_id = $1`,
      [decoded.task_id],
    );
    const storedRow = rows.rows[0];
    if (!storedRow) throw new Error('the row written to PostgreSQL could not be read back');

    return {
      topic,
      subject,
      schemaId,
      wireMagicByte: received.value.readUInt8(0),
      wireSchemaId: received.value.readInt32BE(1),
      sent,
      received: decoded,
      consumerGroup,
      partition: received.partition,
      offset: received.offset,
      storedRow,
      invalidRefused,
      durationMs: Date.now() - started,
    };
  } finally {
    await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
    await db.query(`DROP SCHEMA IF EXISTS ${dbSchema} CASCADE`).catch(() => undefined);
    await db.end().catch(() => undefined);
  }
}
