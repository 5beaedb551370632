import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadServiceCatalog, type ServiceSpec } from '../deploy/service-catalog.js';
import {
  checkCompose,
  checkComposeApp,
  interpolate,
  loadCompose,
  loadVersions,
  type ComposeAppExpectations,
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

describe('docker-compose.yml: the Signalbox services', () => {
  let app: ComposeAppExpectations;
  let services: ServiceSpec[];
  beforeAll(() => {
    services = loadServiceCatalog();
    app = { services, initService: 'init', repoRoot: root };
  });

  it('runs the init job, the five workers, the API and the demo tools coherently with their env schemas', async () => {
    const compose = loadCompose(`${root}docker-compose.yml`);
    expect(Object.keys(compose.services!)).toEqual(
      expect.arrayContaining(['init', ...services.map((s) => s.name)]),
    );
    expect(await checkComposeApp(compose, app)).toEqual([]);
  });

  it('interpolates defaults as Compose does', () => {
    expect(interpolate('/app/registry/packs/${SIGNALBOX_PACK:-after-sales}')).toBe(
      '/app/registry/packs/after-sales',
    );
    expect(interpolate('${LOG_LEVEL:-info}', { LOG_LEVEL: 'debug' })).toBe('debug');
    expect(interpolate('${UNSET}')).toBe('');
  });

  it('reports a missing env variable, a wrong health check port, an unknown host and a short grace period', async () => {
    const compose = loadCompose(`${root}docker-compose.yml`);
    const s = compose.services!;
    delete s['tool-decider']!.environment!.SIGNALBOX_REGISTRY_DIR;
    s.executor!.healthcheck!.test = ['CMD', 'node', '-e', "fetch('http://127.0.0.1:9090/readyz')"];
    s.api!.environment!.SCHEMA_REGISTRY_URL = 'http://registry:8080/apis/ccompat/v7';
    s['result-evaluator']!.stop_grace_period = '20s';
    s['model-selector']!.environment!.KAFKA_BROKERS = 'kafka:19092';
    delete s.executor!.environment!.SIGNALBOX_DEMO_TOOLS_URL;
    expect(await checkComposeApp(compose, app)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool-decider: env SIGNALBOX_REGISTRY_DIR: /),
        'executor: the health check does not request :8080/readyz',
        expect.stringMatching(/^executor: env SIGNALBOX_DEMO_TOOLS_URL \(base_url_env of tool /),
        'api: SCHEMA_REGISTRY_URL names host "registry", which is not a compose service',
        'result-evaluator: stop_grace_period 20 s does not exceed the drain (25 s)',
        'model-selector: KAFKA_BROKERS kafka:19092 is not an advertised listener of "kafka"',
      ]),
    );
  });

  it('reports workers that do not wait for the init job or the backbone, and an init job that skips a step', async () => {
    const compose = loadCompose(`${root}docker-compose.yml`);
    const s = compose.services!;
    s.executor!.depends_on = { 'demo-tools': { condition: 'service_healthy' } };
    s.init!.command = ['node', 'dist/main.js', 'topics', 'create'];
    s['demo-tools']!.restart = 'always';
    s.api!.depends_on = { init: { condition: 'service_healthy' } };
    expect(await checkComposeApp(compose, app)).toEqual(
      expect.arrayContaining([
        'executor: does not wait for "init" to complete',
        'executor: KAFKA_BROKERS names "kafka" but the service does not wait for it to be healthy',
        'init: the command does not run `signalbox migrate`',
        'api: does not wait for "init" to complete',
      ]),
    );
    expect(checkCompose(compose, expectations)).toContain(
      'api: depends on "init", which has no health check',
    );
  });
});
