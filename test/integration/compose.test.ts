import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  checkCompose,
  loadCompose,
  loadVersions,
  type ComposeExpectations,
} from '../support/compose-check.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const versions = loadVersions(`${root}infra/local/versions.env`);
const expectations: ComposeExpectations = {
  kafkaVersion: versions.KAFKA_VERSION ?? '',
  apicurioVersion: versions.APICURIO_VERSION ?? '',
  kafkaPort: 19092,
  registryPort: 18081,
};

describe('docker-compose.yml', () => {
  it('offers Kafka, the schema registry and PostgreSQL coherently with infra/local', () => {
    expect(expectations.kafkaVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(checkCompose(loadCompose(`${root}docker-compose.yml`), expectations)).toEqual([]);
  });

  it('reports a wrong advertised port, an unpinned image, a missing health check and an unknown dependency', () => {
    const compose = loadCompose(`${root}docker-compose.yml`);
    const services = compose.services!;
    services.kafka!.environment!.KAFKA_ADVERTISED_LISTENERS =
      'INTERNAL://kafka:9092,EXTERNAL://127.0.0.1:29092';
    services.postgres!.image = 'postgres:latest';
    delete services['schema-registry']!.healthcheck;
    services.postgres!.depends_on = ['zookeeper'];
    expect(checkCompose(compose, expectations)).toEqual(
      expect.arrayContaining([
        'kafka: advertised EXTERNAL port 29092 is not a published host port',
        'kafka: KAFKA_LISTENERS does not listen on the advertised EXTERNAL port 29092',
        'postgres: image "postgres:latest" is not pinned to a version',
        'schema-registry: no health check',
        'schema-registry: the health check does not request the Confluent-compatible API',
        'postgres: depends_on names unknown service "zookeeper"',
      ]),
    );
  });
});
