import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { checkManifests, renderKustomize, validateSchemas, type K8sObject } from './k8s-check.js';
import { loadServiceCatalog, type ServiceSpec } from './service-catalog.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const k8s = `${root}infra/k8s`;

// Values for the keys of signalbox-secrets where an overlay leaves the Secret to a secret manager (prod).
const secretPlaceholders = {
  DATABASE_URL: 'postgres://signalbox:placeholder@postgres.example:5432/signalbox',
  SIGNALBOX_API_KEYS: JSON.stringify({ ['0'.repeat(64)]: 'default' }),
};

let services: ServiceSpec[];
const rendered = new Map<string, K8sObject[]>();

beforeAll(() => {
  services = loadServiceCatalog();
  for (const target of ['base', 'overlays/dev', 'overlays/prod'])
    rendered.set(target, renderKustomize(`${k8s}/${target}`));
});

/** A fresh deep copy of one rendering, for the broken variants. */
function render(target: string): K8sObject[] {
  return structuredClone(rendered.get(target)!);
}

/** The kinds the broken variants mutate, typed. */
interface Kinds {
  Deployment: IDeployment;
  ScaledObject: IScaledObject;
  ConfigMap: { data: Record<string, string> };
}

function find<K extends keyof Kinds>(objects: K8sObject[], kind: K, name: string): Kinds[K] {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} is not rendered`);
  return found as unknown as Kinds[K];
}

const check = (objects: K8sObject[]) =>
  checkManifests(objects, { services, secretPlaceholders, repoRoot: root });

describe('infra/k8s', () => {
  it.each(['base', 'overlays/dev', 'overlays/prod'])(
    '%s renders objects that are valid against the Kubernetes and KEDA schemas and coherent with the services',
    async (target) => {
      const objects = render(target);
      const kinds = objects.map((o) => o.kind);
      expect(kinds.filter((k) => k === 'ScaledObject')).toHaveLength(5);
      expect(kinds.filter((k) => k === 'Deployment')).toHaveLength(7);
      expect(kinds.filter((k) => k === 'Job')).toHaveLength(2);
      expect(kinds).toContain('NetworkPolicy');
      expect(validateSchemas(objects)).toEqual([]);
      expect(await check(objects)).toEqual([]);
    },
  );

  it('dev renders its own Secret and scales each stage to at most 2; prod leaves the Secret to a secret manager', () => {
    const dev = render('overlays/dev');
    const prod = render('overlays/prod');
    expect(dev.some((o) => o.kind === 'Secret' && o.metadata.name === 'signalbox-secrets')).toBe(true);
    expect(prod.some((o) => o.kind === 'Secret')).toBe(false);
    const maxima = dev
      .filter((o) => o.kind === 'ScaledObject')
      .map((o) => (o as unknown as IScaledObject).spec.maxReplicaCount);
    expect(new Set(maxima)).toEqual(new Set([2]));
  });

  it('rejects a schema violation and a kafka trigger without a consumer group', () => {
    const objects = render('base');
    const executor = find(objects, 'Deployment', 'executor');
    (executor.spec!.template.spec!.containers[0]!.ports![0] as { containerPort: unknown }).containerPort =
      '8080';
    const so = find(objects, 'ScaledObject', 'result-evaluator');
    delete so.spec.triggers[0]!.metadata.consumerGroup;
    expect(validateSchemas(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Deployment\/executor: .*containerPort must be integer/),
        'ScaledObject/result-evaluator: kafka trigger has no consumerGroup',
      ]),
    );
  });

  it('reports a wrong port, a missing env variable and a lag trigger on the wrong group', async () => {
    const objects = render('overlays/prod');
    const executor = find(objects, 'Deployment', 'executor').spec!.template.spec!;
    executor.containers[0]!.readinessProbe!.httpGet!.port = 9090;
    const decider = find(objects, 'Deployment', 'tool-decider').spec!.template.spec!;
    // The shared ConfigMap stays; only tool-decider loses it, and with it SIGNALBOX_REGISTRY_DIR among others.
    delete decider.containers[0]!.envFrom;
    const evaluator = find(objects, 'ScaledObject', 'result-evaluator');
    evaluator.spec.triggers[0]!.metadata.consumerGroup = 'signalbox.executor';
    expect(await check(objects)).toEqual(
      expect.arrayContaining([
        'Deployment/executor: readinessProbe port 9090 is not HTTP_PORT 8080',
        expect.stringMatching(/^Deployment\/tool-decider: env SIGNALBOX_REGISTRY_DIR: /),
        expect.stringMatching(/^Deployment\/tool-decider: env KAFKA_BROKERS: /),
        'ScaledObject/result-evaluator: lag trigger consumerGroup "signalbox.executor" is not the worker\'s group "signalbox.result_evaluator"',
      ]),
    );
  });

  it('reports a missing secret key, HTTP_PORT off the container port and a changed consumer group', async () => {
    const objects = render('overlays/dev');
    const api = find(objects, 'Deployment', 'api').spec!.template.spec!.containers[0]!;
    api.env = api.env!.filter((e) => e.name !== 'SIGNALBOX_API_KEYS');
    const selector = find(objects, 'Deployment', 'model-selector').spec!.template.spec!.containers[0]!;
    selector.env!.find((e) => e.name === 'HTTP_PORT')!.value = '9000';
    // The worker now joins another group: its ScaledObject watches a group nobody consumes with.
    const injector = find(objects, 'Deployment', 'parameter-injector').spec!.template.spec!.containers[0]!;
    injector.env!.push({ name: 'SIGNALBOX_GROUP_ID', value: 'injector-v2' });
    expect(await check(objects)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Deployment\/api: env SIGNALBOX_API_KEYS: /),
        'Deployment/model-selector: HTTP_PORT 9000 is not a declared container port',
        'Deployment/model-selector: livenessProbe port 8080 is not HTTP_PORT 9000',
        'ScaledObject/parameter-injector: lag trigger consumerGroup "signalbox.parameter_injector" is not the worker\'s group "injector-v2"',
      ]),
    );
  });

  it('reports more replicas than partitions, a short grace period, a wrong topic, brokers and a missing tool URL', async () => {
    const objects = render('base');
    const decider = find(objects, 'ScaledObject', 'tool-decider');
    decider.spec.maxReplicaCount = 12;
    decider.spec.triggers[0]!.metadata.topic = 'signalbox.task.planned.v1';
    decider.spec.triggers[0]!.metadata.bootstrapServers = 'kafka:9092';
    find(objects, 'Deployment', 'executor').spec!.template.spec!.terminationGracePeriodSeconds = 25;
    const config = find(objects, 'ConfigMap', 'signalbox-config');
    delete config.data.SIGNALBOX_DEMO_TOOLS_URL;
    expect(await check(objects)).toEqual(
      expect.arrayContaining([
        'ScaledObject/tool-decider: maxReplicaCount 12 exceeds the 6 partitions of signalbox.task.model_selected.v1',
        'ScaledObject/tool-decider: lag trigger topic "signalbox.task.planned.v1" is not the stage\'s input topic "signalbox.task.model_selected.v1"',
        'ScaledObject/tool-decider: bootstrapServers "kafka:9092" differ from the worker\'s KAFKA_BROKERS "kafka-bootstrap.kafka.svc.cluster.local:9092"',
        'Deployment/executor: terminationGracePeriodSeconds 25 does not exceed the drain (25 s)',
        expect.stringMatching(/^Deployment\/executor: env SIGNALBOX_DEMO_TOOLS_URL \(base_url_env of tool /),
      ]),
    );
  });

  it('accepts the optional model Secret missing, but not a required one', async () => {
    const objects = render('overlays/prod');
    const injector = find(objects, 'Deployment', 'parameter-injector').spec!.template.spec!;
    const llm = injector.containers[0]!.envFrom!.find((f) => f.secretRef?.name === 'signalbox-llm');
    expect(llm?.secretRef?.optional).toBe(true);
    expect(await check(structuredClone(objects))).toEqual([]);
    llm!.secretRef!.optional = false;
    expect(await check(objects)).toEqual([
      'Deployment/parameter-injector: envFrom Secret "signalbox-llm" is not rendered, so its keys are unknown; use secretKeyRef',
    ]);
  });

  it('reports a missing ScaledObject, PDB and migration Job', async () => {
    const objects = render('base').filter(
      (o) =>
        !(o.kind === 'ScaledObject' && o.metadata.name === 'executor') &&
        !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'api') &&
        !(o.kind === 'Job' && o.metadata.name === 'signalbox-migrate'),
    );
    expect(await check(objects)).toEqual(
      expect.arrayContaining([
        'Deployment/executor: expected one ScaledObject, found 0',
        'Deployment/api: no PodDisruptionBudget selects its pods',
        'Job running `signalbox migrate` is missing',
      ]),
    );
  });
});
