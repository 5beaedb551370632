import type { TestProject } from 'vitest/node';
import { ENDPOINT_ENV } from './endpoints.js';
import { resolveInfrastructure, type ResolvedInfrastructure } from './resolve-endpoints.js';

// Several vitest projects list this file and their setups may run concurrently in the one main process.
// The first call resolves the infrastructure; the others await the same promise. The endpoints reach test
// workers through the environment (workers are forked after global setup and inherit it).
const shared = globalThis as typeof globalThis & { __signalboxInfra?: Promise<ResolvedInfrastructure> };

export async function setup(_project: TestProject): Promise<void> {
  if (shared.__signalboxInfra) {
    await shared.__signalboxInfra;
    return;
  }
  shared.__signalboxInfra = resolveInfrastructure(process.env);
  const resolved = await shared.__signalboxInfra;
  const { endpoints } = resolved;
  process.env[ENDPOINT_ENV.kafkaBrokers] = endpoints.kafkaBrokers;
  process.env[ENDPOINT_ENV.schemaRegistryUrl] = endpoints.schemaRegistryUrl;
  process.env[ENDPOINT_ENV.databaseUrl] = endpoints.databaseUrl;
  process.env[ENDPOINT_ENV.source] = endpoints.source;
  const db = new URL(endpoints.databaseUrl);
  if (db.password) db.password = '***';
  console.log(
    `[signalbox:test] real infrastructure from ${endpoints.source} (ready in ${String(resolved.readySeconds)} s): ` +
      `Kafka ${endpoints.kafkaBrokers} · schema registry ${endpoints.schemaRegistryUrl} · PostgreSQL ${db.toString()}`,
  );
}

export async function teardown(): Promise<void> {
  const pending = shared.__signalboxInfra;
  shared.__signalboxInfra = undefined;
  if (pending) await (await pending).release();
}
