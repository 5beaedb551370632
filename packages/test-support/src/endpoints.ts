/** Where the real infrastructure of a test run lives. */
export interface TestEndpoints {
  /** Comma-separated `host:port` list. */
  kafkaBrokers: string;
  /** Base URL of a Confluent-compatible schema registry API. */
  schemaRegistryUrl: string;
  /** PostgreSQL connection string. */
  databaseUrl: string;
  /** How the endpoints were found: `environment`, `testcontainers` or `infra/local`. */
  source: EndpointSource;
}

export type EndpointSource = 'environment' | 'testcontainers' | 'infra/local';

/** Environment variables through which the resolved endpoints reach test workers. */
export const ENDPOINT_ENV = {
  kafkaBrokers: 'KAFKA_BROKERS',
  schemaRegistryUrl: 'SCHEMA_REGISTRY_URL',
  databaseUrl: 'DATABASE_URL',
  source: 'SIGNALBOX_TEST_ENDPOINTS_SOURCE',
} as const;

/**
 * The endpoints the vitest global setup resolved, read inside a test worker.
 * Throws when the test's project has no global setup, so a test never silently runs without infrastructure.
 */
export function testEndpoints(env: NodeJS.ProcessEnv = process.env): TestEndpoints {
  const source = env[ENDPOINT_ENV.source];
  const kafkaBrokers = env[ENDPOINT_ENV.kafkaBrokers];
  const schemaRegistryUrl = env[ENDPOINT_ENV.schemaRegistryUrl];
  const databaseUrl = env[ENDPOINT_ENV.databaseUrl];
  if (!source || !kafkaBrokers || !schemaRegistryUrl || !databaseUrl) {
    throw new Error(
      'Test endpoints are not resolved: add this project to `needsInfra` in vitest.config.ts so its global setup ' +
        'starts or finds Kafka, the schema registry and PostgreSQL.',
    );
  }
  return { kafkaBrokers, schemaRegistryUrl, databaseUrl, source: source as EndpointSource };
}
