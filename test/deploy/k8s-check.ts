import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { ScaledObject, type IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job, type IJob } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import {
  PodDisruptionBudget,
  type IPodDisruptionBudget,
} from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service, type IService } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import {
  JOB_ENVS,
  consumerGroupOf,
  envProblems,
  inputTopicOf,
  parsedEnv,
  type ServiceSpec,
} from './service-catalog.js';
import { registryEnvProblems } from './registry-check.js';

/** One rendered Kubernetes object, before it is known to be valid. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** Thrown when neither kubectl nor kustomize is installed: the deploy checks cannot run without one. */
export class KustomizeMissingError extends Error {
  constructor() {
    super(
      'rendering infra/k8s needs `kubectl` (it bundles kustomize, v1.27+) or the standalone `kustomize` on PATH; ' +
        'install one (https://kubernetes.io/docs/tasks/tools/ or https://kubectl.docs.kubernetes.io/installation/kustomize/)',
    );
    this.name = new.target.name;
  }
}

/** Renders a Kustomize directory with `kubectl kustomize` (or `kustomize build`) into its objects. */
export function renderKustomize(dir: string): K8sObject[] {
  for (const [command, args] of [
    ['kubectl', ['kustomize', dir]],
    ['kustomize', ['build', dir]],
  ] as const) {
    const run = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
    if (run.error && (run.error as NodeJS.ErrnoException).code === 'ENOENT') continue;
    if (run.error) throw run.error;
    if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${run.stderr}`);
    return parseAllDocuments(run.stdout)
      .map((doc) => doc.toJS() as K8sObject | null)
      .filter((o): o is K8sObject => o !== null);
  }
  throw new KustomizeMissingError();
}

// Every kind the manifests may hold, with its schema-carrying model (Kubernetes 1.32 / KEDA 2.x OpenAPI schemas).
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'v1/Namespace': Namespace,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

/** The KEDA kafka scaler fields the deployment depends on (https://keda.sh/docs/latest/scalers/apache-kafka/). */
const KAFKA_TRIGGER_FIELDS = ['bootstrapServers', 'consumerGroup', 'topic', 'lagThreshold'] as const;

/** Validates every object against its Kubernetes or KEDA schema; one sentence per invalid or unknown object. */
export function validateSchemas(objects: readonly K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const id = `${object.kind}/${object.metadata.name}`;
    const Model = MODELS[`${object.apiVersion}/${object.kind}`];
    if (!Model) {
      problems.push(`${id}: no schema known for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new Model(object as never).validate();
    } catch (error) {
      problems.push(`${id}: ${(error as Error).message}`);
    }
    if (object.kind === 'ScaledObject') {
      for (const trigger of (object as unknown as IScaledObject).spec.triggers) {
        if (trigger.type !== 'kafka') continue;
        for (const field of KAFKA_TRIGGER_FIELDS) {
          if (!trigger.metadata[field]) problems.push(`${id}: kafka trigger has no ${field}`);
        }
        const lag = trigger.metadata.lagThreshold;
        if (lag !== undefined && !/^[1-9]\d*$/.test(lag))
          problems.push(`${id}: kafka trigger lagThreshold "${lag}" is not a positive integer`);
      }
    }
  }
  return problems;
}

/** Where the values of Secrets the manifests reference but do not render (created outside, e.g. in prod) come from. */
export type SecretPlaceholders = Readonly<Record<string, string>>;

interface Workload {
  kind: 'Deployment' | 'Job';
  name: string;
  labels: Record<string, string>;
  pod: IPodSpec;
}

function workloads(objects: readonly K8sObject[]): Workload[] {
  return objects.flatMap((o): Workload[] => {
    if (o.kind !== 'Deployment' && o.kind !== 'Job') return [];
    const spec = (o as unknown as IDeployment | IJob).spec;
    const template = spec?.template;
    if (!template?.spec) return [];
    return [
      {
        kind: o.kind,
        name: o.metadata.name,
        labels: template.metadata?.labels ?? {},
        pod: template.spec,
      },
    ];
  });
}

function byKind<T>(objects: readonly K8sObject[], kind: string): (T & { metadata: { name: string } })[] {
  return objects.filter((o) => o.kind === kind) as unknown as (T & { metadata: { name: string } })[];
}

function decodeSecret(secret: ISecret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(v, 'base64').toString('utf8');
  return { ...out, ...(secret.stringData ?? {}) };
}

/**
 * The environment a container gets: envFrom (ConfigMaps, Secrets) then `env` (literals, ConfigMap and Secret key
 * refs), later entries winning as in the kubelet. A Secret that is not rendered takes its value from `placeholders`.
 */
export function containerEnv(
  container: IContainer,
  objects: readonly K8sObject[],
  placeholders: SecretPlaceholders,
  where: string,
  problems: string[],
): Record<string, string> {
  const configMaps = new Map(
    byKind<IConfigMap>(objects, 'ConfigMap').map((c) => [c.metadata.name, c.data ?? {}]),
  );
  const secrets = new Map(byKind<ISecret>(objects, 'Secret').map((s) => [s.metadata.name, decodeSecret(s)]));
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const data = configMaps.get(from.configMapRef.name ?? '');
      if (data) Object.assign(env, data);
      else if (!from.configMapRef.optional)
        problems.push(
          `${where}: envFrom ConfigMap "${String(from.configMapRef.name)}" is not in the manifests`,
        );
    }
    if (from.secretRef) {
      const data = secrets.get(from.secretRef.name ?? '');
      if (data) Object.assign(env, data);
      // An optional Secret (the model endpoints) adds nothing the service needs: it must run without it.
      else if (!from.secretRef.optional)
        problems.push(
          `${where}: envFrom Secret "${String(from.secretRef.name)}" is not rendered, so its keys are unknown; use secretKeyRef`,
        );
    }
  }
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined) {
      env[variable.name] = variable.value;
      continue;
    }
    const cmRef = variable.valueFrom?.configMapKeyRef;
    const secretRef = variable.valueFrom?.secretKeyRef;
    if (cmRef) {
      const value = configMaps.get(cmRef.name ?? '')?.[cmRef.key];
      if (value !== undefined) env[variable.name] = value;
      else if (!cmRef.optional)
        problems.push(
          `${where}: env ${variable.name} refers to missing ConfigMap key ${String(cmRef.name)}/${cmRef.key}`,
        );
    } else if (secretRef) {
      const rendered = secrets.get(secretRef.name ?? '');
      const value = rendered ? rendered[secretRef.key] : placeholders[secretRef.key];
      if (value !== undefined) env[variable.name] = value;
      else if (!secretRef.optional)
        problems.push(
          rendered
            ? `${where}: env ${variable.name} refers to missing Secret key ${String(secretRef.name)}/${secretRef.key}`
            : `${where}: env ${variable.name} refers to Secret ${String(secretRef.name)}, which is not rendered and has no placeholder for ${secretRef.key}`,
        );
    }
  }
  return env;
}

function probePort(probe: IProbe | undefined, container: IContainer): number | undefined {
  const port = probe?.httpGet?.port;
  if (port === undefined) return undefined;
  if (typeof port === 'number') return port;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

function preStopSeconds(container: IContainer): number {
  const command = container.lifecycle?.preStop?.exec?.command ?? [];
  return command[0] === 'sleep' && command[1] ? Number(command[1]) : 0;
}

function selects(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

/** Options of {@link checkManifests}. */
export interface ManifestCheckOptions {
  /** The services and their env schemas ({@link loadServiceCatalog}). */
  services: readonly ServiceSpec[];
  /** Values for keys of Secrets created outside the manifests. */
  secretPlaceholders: SecretPlaceholders;
  /** The repository root: registry directories the services load must be baked into the image from it. */
  repoRoot: string;
}

/**
 * Cross-checks the rendered manifests against the services: every service has a workload whose env parses with
 * the service's `Env`; probes hit the service's endpoints on the container port that HTTP_PORT names; the grace
 * period outlasts the drain; each stage's ScaledObject watches the group and topic the worker uses, with no more
 * replicas than partitions; PDBs, resources, Services and the deploy Jobs are in place. Empty when coherent.
 */
export async function checkManifests(
  objects: readonly K8sObject[],
  options: ManifestCheckOptions,
): Promise<string[]> {
  const problems: string[] = [];
  const all = workloads(objects);
  const scaled = byKind<IScaledObject>(objects, 'ScaledObject');
  const pdbs = byKind<IPodDisruptionBudget>(objects, 'PodDisruptionBudget');
  const services = byKind<IService>(objects, 'Service');

  for (const workload of all) {
    const where = `${workload.kind}/${workload.name}`;
    for (const container of [...workload.pod.containers, ...(workload.pod.initContainers ?? [])]) {
      const limits = container.resources?.limits ?? {};
      const requests = container.resources?.requests ?? {};
      for (const r of ['cpu', 'memory'])
        if (requests[r] === undefined || limits[r] === undefined)
          problems.push(`${where}: container ${container.name} has no ${r} request and limit`);
    }
  }

  for (const service of options.services) {
    const deployment = all.find(
      (w) => w.kind === 'Deployment' && w.labels['app.kubernetes.io/name'] === service.name,
    );
    const where = `Deployment/${service.name}`;
    if (!deployment) {
      problems.push(`${where} is missing`);
      continue;
    }
    const container = deployment.pod.containers[0];
    if (!container) {
      problems.push(`${where}: no container`);
      continue;
    }
    const raw = containerEnv(container, objects, options.secretPlaceholders, where, problems);
    problems.push(...envProblems(where, service.env, raw));
    const env = parsedEnv(service.env, raw);
    if (!env) continue;
    problems.push(
      ...(await registryEnvProblems(where, env, raw, {
        repoRoot: options.repoRoot,
        toolUrls: service.name === 'executor',
      })),
    );

    const httpPort = Number(env.HTTP_PORT);
    const declared = new Set((container.ports ?? []).map((p) => p.containerPort));
    if (!declared.has(httpPort))
      problems.push(`${where}: HTTP_PORT ${String(httpPort)} is not a declared container port`);
    if (service.health) {
      const probes = [
        ['livenessProbe', container.livenessProbe, service.health.live],
        ['readinessProbe', container.readinessProbe, service.health.ready],
        ['startupProbe', container.startupProbe, service.health.live],
      ] as const;
      for (const [field, probe, path] of probes) {
        if (!probe) {
          if (field !== 'startupProbe') problems.push(`${where}: no ${field}`);
          continue;
        }
        const port = probePort(probe, container);
        if (port !== httpPort)
          problems.push(
            `${where}: ${field} port ${String(port ?? probe.httpGet?.port)} is not HTTP_PORT ${String(httpPort)}`,
          );
        if (probe.httpGet?.path !== path)
          problems.push(`${where}: ${field} path "${String(probe.httpGet?.path)}" is not ${path}`);
      }
    }
    if (service.drainMs) {
      const grace = deployment.pod.terminationGracePeriodSeconds ?? 30;
      const needed = service.drainMs(env) / 1000 + preStopSeconds(container);
      if (!(grace > needed))
        problems.push(
          `${where}: terminationGracePeriodSeconds ${String(grace)} does not exceed the drain (${String(needed)} s)`,
        );
    }
    if (!pdbs.some((p) => selects(p.spec?.selector?.matchLabels, deployment.labels)))
      problems.push(`${where}: no PodDisruptionBudget selects its pods`);
    for (const svc of services.filter((s) => selects(s.spec?.selector, deployment.labels))) {
      for (const port of svc.spec?.ports ?? []) {
        const target = port.targetPort ?? port.port;
        const resolved =
          typeof target === 'number'
            ? target
            : container.ports?.find((p) => p.name === target)?.containerPort;
        if (resolved === undefined || !declared.has(resolved))
          problems.push(
            `Service/${svc.metadata.name}: targetPort ${String(target)} is not a port of ${where}`,
          );
      }
    }

    if (service.stage) {
      const owners = scaled.filter((s) => s.spec.scaleTargetRef.name === deployment.name);
      if (owners.length !== 1) {
        problems.push(`${where}: expected one ScaledObject, found ${String(owners.length)}`);
        continue;
      }
      const so = owners[0]!;
      const soWhere = `ScaledObject/${so.metadata.name}`;
      const kafka = so.spec.triggers.filter((t) => t.type === 'kafka');
      if (kafka.length === 0) problems.push(`${soWhere}: no kafka lag trigger`);
      const group = consumerGroupOf(service.stage, env);
      const topic = inputTopicOf(service.stage, env);
      for (const trigger of kafka) {
        const m = trigger.metadata;
        if (m.consumerGroup !== group)
          problems.push(
            `${soWhere}: lag trigger consumerGroup "${String(m.consumerGroup)}" is not the worker's group "${group}"`,
          );
        if (m.topic !== topic.name)
          problems.push(
            `${soWhere}: lag trigger topic "${String(m.topic)}" is not the stage's input topic "${topic.name}"`,
          );
        if (m.bootstrapServers !== raw.KAFKA_BROKERS)
          problems.push(
            `${soWhere}: bootstrapServers "${String(m.bootstrapServers)}" differ from the worker's KAFKA_BROKERS "${String(raw.KAFKA_BROKERS)}"`,
          );
      }
      const max = so.spec.maxReplicaCount ?? 100;
      const min = so.spec.minReplicaCount ?? 0;
      if (max > topic.partitions)
        problems.push(
          `${soWhere}: maxReplicaCount ${String(max)} exceeds the ${String(topic.partitions)} partitions of ${topic.name}`,
        );
      if (min > max)
        problems.push(`${soWhere}: minReplicaCount ${String(min)} > maxReplicaCount ${String(max)}`);
    }
  }

  for (const step of ['topics', 'migrate'] as const) {
    const job = all.find(
      (w) => w.kind === 'Job' && w.pod.containers.some((c) => (c.args ?? c.command ?? []).includes(step)),
    );
    if (!job) {
      problems.push(`Job running \`signalbox ${step}\` is missing`);
      continue;
    }
    const where = `Job/${job.name}`;
    const container = job.pod.containers.find((c) => (c.args ?? c.command ?? []).includes(step))!;
    const raw = containerEnv(container, objects, options.secretPlaceholders, where, problems);
    problems.push(...envProblems(where, JOB_ENVS[step], raw));
  }
  return problems;
}
