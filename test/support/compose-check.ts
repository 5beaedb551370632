import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { registryEnvProblems } from '../deploy/registry-check.js';
import { JOB_ENVS, envProblems, parsedEnv, type ServiceSpec } from '../deploy/service-catalog.js';

/** A `docker-compose.yml` reduced to what the coherence check reads. */
export interface ComposeFile {
  services?: Record<string, ComposeService>;
}

export interface ComposeService {
  image?: string;
  build?: { context?: string; args?: Record<string, string> };
  command?: string[] | string;
  ports?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: string[] | Record<string, { condition?: string }>;
  restart?: string;
  stop_grace_period?: string;
}

/** What the compose stack must offer: one entry per service the tests and infra/local rely on. */
export interface ComposeExpectations {
  kafkaVersion: string;
  apicurioVersion: string;
  /** Host ports, the same defaults infra/local uses so one set of env values fits both. */
  kafkaPort: number;
  registryPort: number;
}

/** Parses the file as Compose does, with YAML merge keys (`<<: *anchor`). */
export function loadCompose(path: string): ComposeFile {
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
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
    // A one-shot job (restart "no") runs to completion; dependents wait for that, not for health.
    const oneShot = svc.restart === 'no' && svc.healthcheck?.disable === true;
    if (!oneShot && (!test || (Array.isArray(test) && test.length < 2)))
      problems.push(`${name}: no health check`);
    for (const port of svc.ports ?? []) {
      if (!port.startsWith('127.0.0.1:')) problems.push(`${name}: port "${port}" is not bound to 127.0.0.1`);
    }
    for (const [dep, condition] of Object.entries(dependencies(svc))) {
      const target = services[dep];
      if (!target) problems.push(`${name}: depends_on names unknown service "${dep}"`);
      else if (condition === 'service_completed_successfully') {
        if (target.restart !== 'no')
          problems.push(
            `${name}: waits for "${dep}" to complete, but it is not a one-shot job (restart "no")`,
          );
      } else if (!target.healthcheck || target.healthcheck.disable)
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

/** depends_on as `service → condition` (the short list form means `service_started`). */
function dependencies(svc: ComposeService): Record<string, string> {
  if (Array.isArray(svc.depends_on))
    return Object.fromEntries(svc.depends_on.map((d) => [d, 'service_started']));
  return Object.fromEntries(
    Object.entries(svc.depends_on ?? {}).map(([d, v]) => [d, v.condition ?? 'service_started']),
  );
}

/** Compose variable interpolation: `${NAME:-default}` and `${NAME-default}` take the default, `${NAME}` is empty. */
export function interpolate(value: string, vars: Readonly<Record<string, string>> = {}): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}/g,
    (_m, name: string, fallback?: string) => {
      const set = vars[name];
      return set !== undefined && set !== '' ? set : (fallback ?? '');
    },
  );
}

/** `40s`, `1m30s`, `500ms` → seconds; undefined when absent (Compose's default is 10 s). */
function durationSeconds(text: string | undefined): number {
  if (text === undefined) return 10;
  let total = 0;
  for (const [, n, unit] of text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)) {
    const v = Number(n);
    total += unit === 'h' ? v * 3600 : unit === 'm' ? v * 60 : unit === 's' ? v : v / 1000;
  }
  return total;
}

/** What {@link checkComposeApp} checks the Signalbox services against. */
export interface ComposeAppExpectations {
  /** The services with their `Env` schemas (test/deploy/service-catalog.ts). */
  services: readonly ServiceSpec[];
  /** The one-shot job that creates topics, registers schemas and migrates. */
  initService: string;
  /** The repository root: registry directories must exist in it (the image copies registry/). */
  repoRoot: string;
}

/**
 * Cross-checks the Signalbox services of the compose file: each is built from its package, its environment (after
 * interpolation) parses with the service's `Env`, its health check requests its readiness endpoint on HTTP_PORT,
 * its stop grace period outlasts its drain, every backbone host it names is a compose service it waits for, and
 * the workers start after the init job. Empty when coherent.
 */
export async function checkComposeApp(
  compose: ComposeFile,
  expect: ComposeAppExpectations,
): Promise<string[]> {
  const problems: string[] = [];
  const services = compose.services ?? {};
  const init = services[expect.initService];
  if (!init) problems.push(`service "${expect.initService}" is missing`);
  else {
    if (init.build?.args?.PACKAGE_DIR !== 'packages/cli')
      problems.push(`${expect.initService}: not built from packages/cli`);
    if (init.restart !== 'no') problems.push(`${expect.initService}: not a one-shot job (restart "no")`);
    const command = Array.isArray(init.command) ? init.command.join(' ') : (init.command ?? '');
    const env = environmentOf(init);
    for (const step of ['topics', 'migrate'] as const) {
      if (!command.includes(step === 'topics' ? 'topics create' : 'migrate'))
        problems.push(`${expect.initService}: the command does not run \`signalbox ${step}\``);
      problems.push(...envProblems(expect.initService, JOB_ENVS[step], env));
    }
    problems.push(...backboneProblems(expect.initService, init, env, services));
  }

  for (const spec of expect.services) {
    const svc = services[spec.name];
    if (!svc) {
      problems.push(`service "${spec.name}" is missing`);
      continue;
    }
    if (svc.build?.args?.PACKAGE_DIR !== `services/${spec.name}`)
      problems.push(`${spec.name}: not built from services/${spec.name} (build.args.PACKAGE_DIR)`);
    const raw = environmentOf(svc);
    problems.push(...envProblems(spec.name, spec.env, raw));
    const env = parsedEnv(spec.env, raw);
    if (!env) continue;
    problems.push(
      ...(await registryEnvProblems(spec.name, env, raw, {
        repoRoot: expect.repoRoot,
        toolUrls: spec.name === 'executor',
      })),
    );
    problems.push(...backboneProblems(spec.name, svc, raw, services));
    if (spec.health) {
      const check = JSON.stringify(svc.healthcheck?.test ?? '');
      const url = `:${String(env.HTTP_PORT)}${spec.health.ready}`;
      if (!check.includes(url)) problems.push(`${spec.name}: the health check does not request ${url}`);
    }
    if (spec.drainMs) {
      const grace = durationSeconds(svc.stop_grace_period);
      const drain = spec.drainMs(env) / 1000;
      if (!(grace > drain))
        problems.push(
          `${spec.name}: stop_grace_period ${String(grace)} s does not exceed the drain (${String(drain)} s)`,
        );
    }
    if (spec.stage || spec.name === 'api') {
      if (dependencies(svc)[expect.initService] !== 'service_completed_successfully')
        problems.push(`${spec.name}: does not wait for "${expect.initService}" to complete`);
    }
  }
  return problems;
}

function environmentOf(svc: ComposeService): Record<string, string> {
  return Object.fromEntries(
    // YAML may hand over an unquoted number or boolean; Compose passes it on as text.
    (Object.entries(svc.environment ?? {}) as [string, unknown][]).map(([k, v]) => [
      k,
      interpolate(String(v)),
    ]),
  );
}

/** Every host a service's endpoints name must be a compose service it waits for (healthy or completed). */
function backboneProblems(
  name: string,
  svc: ComposeService,
  env: Record<string, string>,
  services: Record<string, ComposeService>,
): string[] {
  const problems: string[] = [];
  const targets: [string, string, number | undefined][] = [];
  for (const broker of (env.KAFKA_BROKERS ?? '').split(',').filter(Boolean)) {
    const [host, port] = broker.trim().split(':');
    targets.push(['KAFKA_BROKERS', host ?? '', Number(port)]);
  }
  for (const variable of ['SCHEMA_REGISTRY_URL', 'DATABASE_URL', 'SIGNALBOX_DEMO_TOOLS_URL']) {
    const value = env[variable];
    if (!value) continue;
    try {
      const url = new URL(value);
      targets.push([variable, url.hostname, url.port ? Number(url.port) : undefined]);
    } catch {
      problems.push(`${name}: ${variable} is not a URL`);
    }
  }
  const deps = dependencies(svc);
  for (const [variable, host, port] of targets) {
    const target = services[host];
    if (!target) {
      problems.push(`${name}: ${variable} names host "${host}", which is not a compose service`);
      continue;
    }
    if (deps[host] !== 'service_healthy')
      problems.push(
        `${name}: ${variable} names "${host}" but the service does not wait for it to be healthy`,
      );
    if (variable === 'KAFKA_BROKERS') {
      const advertised = target.environment?.KAFKA_ADVERTISED_LISTENERS ?? '';
      if (!advertised.split(',').some((l) => l.endsWith(`://${host}:${String(port)}`)))
        problems.push(
          `${name}: KAFKA_BROKERS ${host}:${String(port)} is not an advertised listener of "${host}"`,
        );
    }
  }
  return problems;
}

function hostPorts(ports: string[] | undefined): Set<number> {
  return new Set((ports ?? []).map((p) => Number(p.split(':').at(-2))));
}
