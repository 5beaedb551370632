import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createSchemaRegistry } from '@signalbox/bus';
import { createIsolatedSchema, testEndpoints, uniqueName } from '@signalbox/test-support';
import { bufferIo } from '../io.js';
import { migrate, topicsCreate } from './ops.js';

const endpoints = testEndpoints();
const schemas: { drop(): Promise<void> }[] = [];
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

// Creates real topics and registers every schema on the real registry: 3.3 s on the 2-core machine, close to vitest's
// 5 s default for a test body, as the other suites that talk to Kafka and the registry allow for.
describe('signalbox topics create', { timeout: 30_000 }, () => {
  it('creates every topic and registers each schema as BACKWARD, idempotently', async () => {
    const prefix = `${uniqueName('cli-topics')}.`;
    const io = bufferIo(process.cwd(), {
      KAFKA_BROKERS: endpoints.kafkaBrokers,
      SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
      SIGNALBOX_TOPIC_PREFIX: prefix,
    });
    const first = await topicsCreate(io, {});
    const again = await topicsCreate(io, {});
    expect(first.exitCode).toBe(0);
    const topics = first.json.topics as { name: string }[];
    expect(topics).toHaveLength(11);
    expect(topics.every((t) => t.name.startsWith(prefix))).toBe(true);
    expect(again.json.schemas).toEqual(first.json.schemas);
    const registry = createSchemaRegistry({ url: endpoints.schemaRegistryUrl });
    const subject = `${prefix}signalbox.task.submitted.v1-value`;
    expect(await registry.getLatestSchemaId(subject)).toBeGreaterThan(0);
  });

  it('names the missing variable instead of guessing', async () => {
    await expect(topicsCreate(bufferIo(process.cwd(), {}), {})).rejects.toThrow(/KAFKA_BROKERS is not set/);
  });
});

describe('signalbox migrate', () => {
  it('creates the event log and registry tables in the given schema', async () => {
    const schema = await createIsolatedSchema(endpoints.databaseUrl, 'cli-migrate');
    schemas.push(schema);
    const result = await migrate(bufferIo(process.cwd(), { DATABASE_URL: endpoints.databaseUrl }), {
      schema: schema.name,
    });
    expect(result.json).toEqual({ migrated: ['event-log', 'registry'] });
    const client = new pg.Client({ connectionString: endpoints.databaseUrl });
    await client.connect();
    try {
      const tables = await client.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
        [schema.name],
      );
      expect(tables.rows.map((r) => r.table_name)).toEqual(
        expect.arrayContaining(['events', 'payload_blobs']),
      );
    } finally {
      await client.end();
    }
  });
});
