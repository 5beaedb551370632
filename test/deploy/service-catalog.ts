import { Env as ApiEnv } from '@signalbox/api';
import { INPUT_TOPIC_OF, type PipelineStage } from '@signalbox/contracts';
import { Env as DemoToolsEnv } from '@signalbox/demo-tools';
import { Env as ExecutorEnv } from '@signalbox/executor';
import { Env as ModelSelectorEnv } from '@signalbox/model-selector';
import { Env as ParameterInjectorEnv } from '@signalbox/parameter-injector';
import { Env as ResultEvaluatorEnv } from '@signalbox/result-evaluator';
import { StageEnv } from '@signalbox/stage-kit';
import { Env as ToolDeciderEnv } from '@signalbox/tool-decider';

/** What the deploy checks need of a zod `Env`: parse a string map, report issues by variable. */
export interface EnvSchema {
  safeParse(
    input: unknown,
  ):
    | { success: true; data: unknown }
    | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** One deployable service (or deploy-time job) as the manifests must run it. */
export interface ServiceSpec {
  /** The workload name in compose and Kubernetes (`app.kubernetes.io/name`). */
  name: string;
  /** The environment schema the service validates at start (OP-5). */
  env: EnvSchema;
  /** The pipeline stage a worker runs; its consumer group and input topic follow from it. */
  stage?: PipelineStage;
  /** HTTP health endpoints on HTTP_PORT; absent for jobs. */
  health?: { live: string; ready: string };
  /** How long SIGTERM may take, from the parsed environment (the grace period must exceed it). */
  drainMs?: (env: Record<string, unknown>) => number;
}

// The stages and the API drain for DRAIN_TIMEOUT_MS (stage-kit's closeOnSignal).
const stageDrain = (env: Record<string, unknown>): number => Number(env.DRAIN_TIMEOUT_MS);

function stage(name: string, stageName: PipelineStage, env: EnvSchema): ServiceSpec {
  return {
    name,
    env,
    stage: stageName,
    health: { live: '/livez', ready: '/readyz' },
    drainMs: stageDrain,
  };
}

/**
 * The services of the system with their `Env` schemas imported from the service packages, so a variable a service
 * starts to require fails the deploy checks until the manifests provide it.
 */
export function loadServiceCatalog(): ServiceSpec[] {
  const api: { Env: EnvSchema } = { Env: ApiEnv };
  return [
    stage('model-selector', 'model_selector', ModelSelectorEnv),
    stage('tool-decider', 'tool_decider', ToolDeciderEnv),
    stage('parameter-injector', 'parameter_injector', ParameterInjectorEnv),
    stage('executor', 'executor', ExecutorEnv),
    stage('result-evaluator', 'result_evaluator', ResultEvaluatorEnv),
    {
      name: 'api',
      env: api.Env,
      health: { live: '/livez', ready: '/readyz' },
      drainMs: stageDrain,
    },
    {
      name: 'demo-tools',
      env: DemoToolsEnv,
      health: { live: '/healthz', ready: '/healthz' },
      drainMs: (env) => Number(env.SHUTDOWN_GRACE_MS),
    },
  ];
}

/** What the deploy-time CLI steps read from the environment (packages/cli/src/commands/ops.ts). */
export const JOB_ENVS: Readonly<Record<'topics' | 'migrate', EnvSchema>> = {
  topics: StageEnv.pick({ KAFKA_BROKERS: true, SCHEMA_REGISTRY_URL: true, SIGNALBOX_TOPIC_PREFIX: true }),
  migrate: StageEnv.pick({ DATABASE_URL: true }),
};

/** The consumer group a stage worker joins: SIGNALBOX_GROUP_ID, else `signalbox.<stage>` (stage-kit run-worker). */
export function consumerGroupOf(stageName: PipelineStage, env: Record<string, unknown>): string {
  const configured = env.SIGNALBOX_GROUP_ID;
  return typeof configured === 'string' ? configured : `signalbox.${stageName}`;
}

/** The physical input topic of a stage under the configured prefix, and its partition count. */
export function inputTopicOf(
  stageName: PipelineStage,
  env: Record<string, unknown>,
): { name: string; partitions: number } {
  const spec = INPUT_TOPIC_OF[stageName];
  const prefix = typeof env.SIGNALBOX_TOPIC_PREFIX === 'string' ? env.SIGNALBOX_TOPIC_PREFIX : '';
  return { name: `${prefix}${spec.name}`, partitions: spec.partitions };
}

/** Sentences for every issue of a failed `Env` parse, naming the service and the variable. */
export function envProblems(service: string, schema: EnvSchema, env: Record<string, string>): string[] {
  const result = schema.safeParse(env);
  if (result.success) return [];
  return result.error.issues.map(
    (issue) => `${service}: env ${issue.path.map(String).join('.') || '(environment)'}: ${issue.message}`,
  );
}

/** The parsed environment, or undefined when it does not parse (reported by {@link envProblems}). */
export function parsedEnv(
  schema: EnvSchema,
  env: Record<string, string>,
): Record<string, unknown> | undefined {
  const result = schema.safeParse(env);
  return result.success ? (result.data as Record<string, unknown>) : undefined;
}
