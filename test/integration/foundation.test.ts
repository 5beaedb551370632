import { describe, expect, it } from 'vitest';
import { testEndpoints } from '@signalbox/test-support';
import { roundTrip } from '../support/round-trip.js';

describe('foundation: real Kafka + schema registry + PostgreSQL', () => {
  it('registers a JSON Schema, produces and consumes an encoded message in a group, and stores a row', async () => {
    const endpoints = testEndpoints();
    console.log(
      `[foundation] running against ${endpoints.source}: Kafka ${endpoints.kafkaBrokers}, registry ${endpoints.schemaRegistryUrl}`,
    );
    const result = await roundTrip(endpoints);

    expect(result.schemaId).toBeGreaterThan(0);
    // Confluent wire format: magic byte 0, then the registry's schema id.
    expect(result.wireMagicByte).toBe(0);
    expect(result.wireSchemaId).toBe(result.schemaId);
    expect(result.received).toEqual(result.sent);
    expect(result.partition).toBeGreaterThanOrEqual(0);
    expect(result.offset).toBe('0');
    expect(result.storedRow).toEqual({ task_id: result.sent.task_id, payload: result.sent });
    expect(result.invalidRefused).toBe(true);
  });
});
