import {
  CONTRACT_VERSION,
  INPUT_TOPIC_OF,
  deterministicEventId,
  type Envelope,
  type InputSource,
  type InputTopicOf,
  type PipelineStage,
  type StageMessage,
  type StageMessageKind,
  type TopicSpec,
} from '@signalbox/contracts';
import type { ModelLookup } from './model-exchanges.js';

/** The versions a decision was taken under (FL-4); recorded on every event. */
export interface DecisionVersions {
  registry_version: string | null;
  profiles_version: string | null;
  policy_version: string | null;
}

/** Every message a stage consumes: the envelope plus its kind's payload. */
export type StageInput = Envelope & { payload: unknown };

/** What a stage's pure `decide` returns for one input: the one message it emits, and why. */
export interface Decision {
  /** The topic the output goes to. */
  topic: TopicSpec;
  /** The output's message kind (a literal of the topic's union). */
  event_type: string;
  payload: unknown;
  /** Why this decision, in words an operator can read (FL-4). */
  decision_reason: string;
  revision_count: number;
  degraded_flag: boolean;
  /** @default 'pipeline' */
  input_source?: InputSource;
  /** Overrides the agent for the rest of the task (rare: a re-routed request). @default the input's agent */
  agent_id?: string;
  /** Overrides of the stage's current versions (e.g. a pinned registry version carried by the task). */
  versions?: Partial<DecisionVersions>;
}

/** What a decide function may read besides its input. Nothing here varies between redeliveries of one input. */
export interface DecisionContext {
  stage: PipelineStage;
  versions: DecisionVersions;
  /**
   * The model of a model profile, or undefined when none is configured for it (the decision takes its deterministic
   * path). The only way a decision asks a model: the runtime hands out the stage's models recording every exchange
   * with the decision (EL-7), re-decide and replay hand out models answering from those recordings (EL-9).
   * @default no models: every profile is deterministic
   */
  models?: ModelLookup;
  /**
   * Aborted when the stage begins to drain (SIGTERM): a decision that waits on something outside (a tool's outage)
   * may stop waiting and throw `DecisionDeferredError`, so the input is left for the stage's next owner instead of
   * holding the drain up. Not part of what is decided: a decision must not depend on it otherwise.
   * @default never aborted
   */
  signal?: AbortSignal;
}

/**
 * A stage's pure decision function (EL-9): same input, versions and model answers (`ctx.models`) → same decision.
 * Typed by the stage: it receives a message of the stage's input topic (`StageMessage<S>`), already checked against
 * that topic's schema by the bus. Throw an error with `retriable: true` for a passing failure (it is retried,
 * bounded); anything else dead-letters the input with a failed event.
 */
export type Decide<S extends PipelineStage = PipelineStage> = (
  input: StageMessage<S>,
  ctx: DecisionContext,
) => Promise<Decision> | Decision;

/**
 * One handler per message kind of stage `S`'s input topic (the model is trigger.dev's typed worker catalog): a
 * kind without its handler is a compile error, and each handler receives its kind's message, nothing to narrow.
 */
export type KindHandlers<S extends PipelineStage> = {
  readonly [K in StageMessageKind<S>]: (
    input: Extract<StageMessage<S>, { event_type: K }>,
    ctx: DecisionContext,
  ) => Promise<Decision> | Decision;
};

/** A decision function that hands each message to the handler of its kind. */
export function decideByKind<S extends PipelineStage>(handlers: KindHandlers<S>): Decide<S> {
  return (input, ctx) => {
    // The one place the kind and its handler are put together; TypeScript cannot relate the two through the index.
    const handler = handlers[input.event_type as StageMessageKind<S>] as (
      input: StageMessage<S>,
      ctx: DecisionContext,
    ) => Promise<Decision> | Decision;
    return handler(input, ctx);
  };
}

/** One stage: its name, its one input topic (FL-3) and its decision function, typed by the stage. */
export interface StageDefinition<S extends PipelineStage = PipelineStage> {
  stage: S;
  input: InputTopicOf<S>;
  /**
   * The stage's decision (see {@link Decide}). A method, so that the definition of one stage is a `StageDefinition`
   * of any stage for the runtime, which hands it the messages of its input topic only.
   */
  decide(input: StageMessage<S>, ctx: DecisionContext): Promise<Decision> | Decision;
  /** The versions in force now (registry, profiles, policy). */
  versions: () => DecisionVersions;
  /**
   * PI-5 / RS-6: the dotted paths of a decision's payload that hold sensitive values (`call.arguments.phone`,
   * `history.0.call.arguments.phone`). The runtime appends the decision with those values in the event log's secret
   * side table (the stored payload reads `"[REDACTED]"`) and still publishes them, so the next stage gets the real
   * values. Must be pure, like `decide`; a path the payload does not hold fails the input (dead-letter) rather than
   * storing a value in the clear.
   * @default no sensitive paths
   */
  sensitivePaths?: (payload: unknown) => string[];
  /**
   * IF-4: the models this stage may ask, by model profile (e.g. `providersForProfiles` of the registry's profiles).
   * The runtime gives them to `decide` through {@link DecisionContext.models}, each call recorded and appended with
   * the decision in the event log's `model_exchanges` (EL-7, EL-9).
   * @default none: every decision is deterministic
   */
  models?: ModelLookup;
}

/**
 * EL-2: the key of a stage's decision on one input — the event id of the event it appends. A redelivered input
 * maps to the same key, so the stored decision is found and reused instead of deciding again.
 */
export function decisionEventId(stage: PipelineStage, input: Pick<Envelope, 'task_id' | 'event_id'>): string {
  const known = idsByInput.get(input);
  if (known?.stage === stage && known.task_id === input.task_id && known.event_id === input.event_id) {
    return known.id;
  }
  const id = deterministicEventId({
    task_id: input.task_id,
    stage,
    causation_id: input.event_id,
    event_type: 'decision',
  });
  idsByInput.set(input, { stage, task_id: input.task_id, event_id: input.event_id, id });
  return id;
}

// The runtime asks for each input's id three times (the batch's log lookup, the reuse check, the envelope), and a
// sha256 per ask showed in profiles; the id is kept with the input object, checked against the fields it hashes.
const idsByInput = new WeakMap<
  object,
  { stage: PipelineStage; task_id: string; event_id: string; id: string }
>();

/** The envelope of the message a decision emits. */
export function decisionEnvelope(
  stage: PipelineStage,
  input: StageInput,
  decision: Decision,
  versions: DecisionVersions,
  occurredAt: Date,
  traceparent: string | null,
): Envelope {
  return {
    event_id: decisionEventId(stage, input),
    task_id: input.task_id,
    tenant_id: input.tenant_id,
    agent_id: decision.agent_id ?? input.agent_id,
    stage,
    event_type: decision.event_type,
    causation_id: input.event_id,
    revision_count: decision.revision_count,
    degraded_flag: decision.degraded_flag,
    decision_reason: decision.decision_reason,
    input_source: decision.input_source ?? 'pipeline',
    registry_version: decision.versions?.registry_version ?? versions.registry_version,
    profiles_version: decision.versions?.profiles_version ?? versions.profiles_version,
    policy_version: decision.versions?.policy_version ?? versions.policy_version,
    occurred_at: occurredAt.toISOString(),
    schema_version: CONTRACT_VERSION,
    traceparent,
  };
}

/** What a stage takes from the registry it decides under (the registry package's `stageBinding(registry)`). */
export interface RegistryBinding {
  versions: DecisionVersions;
  sensitivePaths(payload: unknown): string[];
}

/**
 * A pipeline stage on its one input topic (FL-3), deciding under a registry's versions with its sensitive paths,
 * and asking `models` when it has any. `decide` is a decision function or one handler per message kind.
 */
export function defineStage<S extends PipelineStage>(
  stage: S,
  decide: Decide<S> | KindHandlers<S>,
  binding: RegistryBinding,
  models?: ModelLookup,
): StageDefinition<S> {
  const versions = { ...binding.versions };
  return {
    stage,
    input: INPUT_TOPIC_OF[stage],
    decide: typeof decide === 'function' ? decide : decideByKind(decide),
    versions: () => versions,
    // PI-5 / RS-6: sensitive arguments of the calls this stage passes on are kept out of the event log's payloads.
    sensitivePaths: (payload) => binding.sensitivePaths(payload),
    ...(models ? { models } : {}),
  };
}
