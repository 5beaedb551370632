import { z } from 'zod';
import {
  DegradeRequested,
  ModelSelected,
  NextStepRequested,
  ReinjectRequested,
  ReplanRequested,
  StepExecuted,
  StepPrepared,
  TaskFinished,
  TaskPlanned,
  TaskSubmitted,
} from './messages.js';
import { PIPELINE_STAGES, type PipelineStage } from './stage.js';

/** One topic of the catalog: FL-1 name, key, value schema, partitions, the stage that consumes it. */
export interface TopicSpec<S extends z.ZodType = z.ZodType> {
  /** `signalbox.<entity>.<event>.v<major>` (FL-1). */
  readonly name: string;
  /** The message key: always the task id, so one task's events stay ordered in one partition. */
  readonly key: 'task_id';
  /** The zod schema of the value: a discriminated union on `event_type`. */
  readonly schema: S;
  /** Partitions; ≥ the largest replica count of the consuming stage (OP-3). */
  readonly partitions: number;
  /** The stage whose one input topic this is (FL-3); null for the terminal topic. */
  readonly consumer: PipelineStage | null;
  /** Where the consumer dead-letters poison messages (RS-2); null when nothing consumes the topic. */
  readonly deadLetterTopic: string | null;
  /** The schema registry subject of the value (FL-2): `<topic>-value`. */
  readonly subject: string;
}

/** Default partition count: room for 6 replicas of a stage. */
export const DEFAULT_PARTITIONS = 6;

/** FL-1 topic name. */
export function topicName(entity: string, event: string, major: number): string {
  if (
    !/^[a-z][a-z_]*$/.test(entity) ||
    !/^[a-z][a-z_]*$/.test(event) ||
    !Number.isInteger(major) ||
    major < 1
  ) {
    throw new RangeError(`invalid topic name parts: ${entity}.${event}.v${String(major)}`);
  }
  return `signalbox.${entity}.${event}.v${String(major)}`;
}

/** RS-2: the dead-letter topic of one stage. Its values are the original bytes; error details travel in headers. */
export function deadLetterTopicOf(stage: PipelineStage): string {
  return topicName(stage, 'dead_lettered', 1);
}

function topic<S extends z.ZodType>(
  entity: string,
  event: string,
  schema: S,
  consumer: PipelineStage | null,
): TopicSpec<S> {
  const name = topicName(entity, event, 1);
  return {
    name,
    key: 'task_id',
    schema,
    partitions: DEFAULT_PARTITIONS,
    consumer,
    deadLetterTopic: consumer ? deadLetterTopicOf(consumer) : null,
    subject: `${name}-value`,
  };
}

/** The topic catalog: every topic of SPEC §1 with the message kinds it carries. */
export const TOPICS = {
  taskSubmitted: topic(
    'task',
    'submitted',
    z.discriminatedUnion('event_type', [TaskSubmitted, DegradeRequested]),
    'model_selector',
  ),
  modelSelected: topic(
    'task',
    'model_selected',
    z.discriminatedUnion('event_type', [ModelSelected, ReplanRequested]),
    'tool_decider',
  ),
  taskPlanned: topic(
    'task',
    'planned',
    z.discriminatedUnion('event_type', [TaskPlanned, NextStepRequested, ReinjectRequested]),
    'parameter_injector',
  ),
  stepPrepared: topic('step', 'prepared', z.discriminatedUnion('event_type', [StepPrepared]), 'executor'),
  stepExecuted: topic(
    'step',
    'executed',
    z.discriminatedUnion('event_type', [StepExecuted]),
    'result_evaluator',
  ),
  taskFinished: topic('task', 'finished', z.discriminatedUnion('event_type', [TaskFinished]), null),
} as const;

export type TopicKey = keyof typeof TOPICS;
/** The value type of a catalog topic. */
export type TopicMessage<K extends TopicKey> = z.infer<(typeof TOPICS)[K]['schema']>;
/** Every message kind of the pipeline. */
export type AnyMessage = TopicMessage<TopicKey>;

/**
 * The input topic of each stage (FL-3). Each entry keeps its topic's own type, so what a stage consumes is known at
 * compile time: see {@link StageMessage}.
 */
export const INPUT_TOPIC_OF = {
  model_selector: TOPICS.taskSubmitted,
  tool_decider: TOPICS.modelSelected,
  parameter_injector: TOPICS.taskPlanned,
  executor: TOPICS.stepPrepared,
  result_evaluator: TOPICS.stepExecuted,
} as const satisfies Readonly<Record<PipelineStage, TopicSpec>>;

/** The input topic of stage `S`. */
export type InputTopicOf<S extends PipelineStage> = (typeof INPUT_TOPIC_OF)[S];
/** A message stage `S` consumes: the value type of its input topic (for a union of stages, any of theirs). */
export type StageMessage<S extends PipelineStage = PipelineStage> = z.infer<InputTopicOf<S>['schema']>;
/** The message kinds (`event_type`s) stage `S` consumes. */
export type StageMessageKind<S extends PipelineStage> = StageMessage<S>['event_type'];

/** Every topic the system creates: the catalog plus one dead-letter topic per stage. */
export function allTopicNames(): { name: string; partitions: number }[] {
  return [
    ...Object.values(TOPICS).map((t) => ({ name: t.name, partitions: t.partitions })),
    ...PIPELINE_STAGES.map((s) => ({ name: deadLetterTopicOf(s), partitions: DEFAULT_PARTITIONS })),
  ];
}

/** Looks a topic up by its name; undefined for names outside the catalog. */
export function topicByName(name: string): TopicSpec | undefined {
  return Object.values(TOPICS).find((t) => t.name === name);
}
