import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/** A `docker-compose.yml` reduced to what the coherence check reads. */
export interface ComposeFile {
  services?: Record<string, ComposeService>;
}

export interface ComposeService {
  image?: string;
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] | string };
  depends_on?: string[] | Record<string, { condition?: string }>;
}

/** What the compose stack must offer: one entry per service the tests and infra/local rely on. */
export interface ComposeExpectations {
  kafkaVersion: string;
  apicurioVersion: string;
  /** Host ports, the same defaults infra/local uses so one set of env values fits both. */
  kafkaPort: number;
  registryPort: number;
}

export function loadCompose(path: string): ComposeFile {
  return parse(readFileSync(path, 'utf8')) as ComposeFile;
}

/** Reads `KEY=value` lines of infra/local/versions.env. */
export function loadVersions(path: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => {
        const i = line.indexOf('=');
        return [line.slice(0, i), line.slice(i + 1).trim()];
      }),
  );
}

/** Every incoherence found, as a sentence naming the service and the field; empty when the file is coherent. */
export function checkCompose(compose: ComposeFile, expect: ComposeExpectations): string[] {
  const problems: string[] = [];
  const services = compose.services ?? {};
  const required = ['kafka', 'schema-registry', 'postgres'];
  for (const name of required) if (!services[name]) problems.push(`service "${name}" is missing`);

  for (const [name, svc] of Object.entries(services)) {
    if (!svc.image) problems.push(`${name}: no image`);
    else if (!/:[^:/]+$/.test(svc.image) || svc.image.endsWith(':latest'))
      problems.push(`${name}: image "${svc.image}" is not pinned to a version`);
    const test = svc.healthcheck?.test;
    if (!test || (Array.isArray(test) && test.length < 2)) problems.push(`${name}: no health check`);
    for (const port of svc.ports ?? []) {
      if (!port.startsWith('127.0.0.1:')) problems.push(`${name}: port "${port}" is not bound to 127.0.0.1`);
    }
    const deps = Array.isArray(svc.depends_on) ? svc.depends_on : Object.keys(svc.depends_on ?? {});
    for (const dep of deps) {
      if (!services[dep]) problems.push(`${name}: depends_on names unknown service "${dep}"`);
      else if (!services[dep].healthcheck)
        problems.push(`${name}: depends on "${dep}", which has no health check`);
    }
  }

  const kafka = services.kafka;
  if (kafka) {
    if (kafka.image !== `apache/kafka:${expect.kafkaVersion}`)
      problems.push(
        `kafka: image "${String(kafka.image)}" differs from infra/local's Kafka ${expect.kafkaVersion}`,
      );
    const published = hostPorts(kafka.ports);
    if (!published.has(expect.kafkaPort))
      problems.push(`kafka: host port ${String(expect.kafkaPort)} is not published`);
    const advertised = kafka.environment?.KAFKA_ADVERTISED_LISTENERS ?? '';
    const external = /EXTERNAL:\/\/([^,]+):(\d+)/.exec(advertised);
    if (!external)
      problems.push('kafka: KAFKA_ADVERTISED_LISTENERS has no EXTERNAL listener for clients on the host');
    else if (!published.has(Number(external[2])))
      problems.push(`kafka: advertised EXTERNAL port ${String(external[2])} is not a published host port`);
    const listeners = kafka.environment?.KAFKA_LISTENERS ?? '';
    if (external && !listeners.includes(`EXTERNAL://:${String(external[2])}`))
      problems.push(
        `kafka: KAFKA_LISTENERS does not listen on the advertised EXTERNAL port ${String(external[2])}`,
      );
  }
  const registry = services['schema-registry'];
  if (registry) {
    if (registry.image !== `apicurio/apicurio-registry:${expect.apicurioVersion}`)
      problems.push(
        `schema-registry: image "${String(registry.image)}" differs from infra/local's Apicurio ${expect.apicurioVersion}`,
      );
    if (!hostPorts(registry.ports).has(expect.registryPort))
      problems.push(`schema-registry: host port ${String(expect.registryPort)} is not published`);
    const check = JSON.stringify(registry.healthcheck?.test ?? '');
    if (!check.includes('/apis/ccompat/v7'))
      problems.push('schema-registry: the health check does not request the Confluent-compatible API');
  }
  return problems;
}

function hostPorts(ports: string[] | undefined): Set<number> {
  return new Set((ports ?? []).map((p) => Number(p.split(':').at(-2))));
}
