import { createPgEventStore } from '@signalbox/event-log';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';

/**
 * A PostgreSQL schema of the test's own with the event log's tables in it, for services that open their own store
 * (the store that migrated it is closed again).
 */
export async function createMigratedSchema(prefix: string): Promise<IsolatedSchema> {
  const endpoints = testEndpoints();
  const schema = await createIsolatedSchema(endpoints.databaseUrl, prefix);
  const store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
  await store.close();
  return schema;
}
