import { describe, expect, it } from 'vitest';
import { testEndpoints } from './endpoints.js';
import { uniqueName } from './isolation.js';

describe('uniqueName', () => {
  it('keeps the prefix readable and never repeats', () => {
    const names = new Set(Array.from({ length: 200 }, () => uniqueName('signalbox.Task Submitted')));
    expect(names.size).toBe(200);
    for (const name of names) expect(name).toMatch(/^signalbox\.task-submitted-[a-z0-9]+-[0-9a-f]{8}$/);
  });
});

describe('testEndpoints', () => {
  it('reads the endpoints the global setup published', () => {
    expect(
      testEndpoints({
        KAFKA_BROKERS: '127.0.0.1:1',
        SCHEMA_REGISTRY_URL: 'http://127.0.0.1:2/apis/ccompat/v7',
        DATABASE_URL: 'postgres://127.0.0.1:3/db',
        SIGNALBOX_TEST_ENDPOINTS_SOURCE: 'infra/local',
      }),
    ).toEqual({
      kafkaBrokers: '127.0.0.1:1',
      schemaRegistryUrl: 'http://127.0.0.1:2/apis/ccompat/v7',
      databaseUrl: 'postgres://127.0.0.1:3/db',
      source: 'infra/local',
    });
  });

  it('refuses to run a test without resolved infrastructure, naming the fix', () => {
    expect(() => testEndpoints({ DATABASE_URL: 'postgres://x' })).toThrow(/needsInfra/);
  });
});
