import type { TopicSpec } from '@signalbox/contracts';
import type { BatchHandler, ConsumeOptions, PoisonMessage } from './bus.js';

/** {@link ConsumeOptions} with every default applied. */
export interface ResolvedConsumeOptions {
  groupId: string;
  topic: TopicSpec;
  deadLetterTopic: string;
  handler: BatchHandler;
  onDeadLetter: ((poison: PoisonMessage) => Promise<void>) | undefined;
  onError: ((error: Error) => void) | undefined;
  partitionsConcurrently: number;
  fromBeginning: boolean;
}

/** Applies the defaults of {@link ConsumeOptions}; throws before any side effect on bad combinations. */
export function resolveConsumeOptions(options: ConsumeOptions): ResolvedConsumeOptions {
  if (!options.groupId) throw new RangeError('consume: groupId is empty');
  const deadLetterTopic = options.deadLetterTopic ?? options.topic.deadLetterTopic;
  if (!deadLetterTopic) {
    throw new RangeError(
      `consume: topic ${options.topic.name} has no dead-letter topic; pass deadLetterTopic`,
    );
  }
  if (deadLetterTopic === options.topic.name) {
    throw new RangeError(`consume: the dead-letter topic must differ from ${options.topic.name}`);
  }
  const partitionsConcurrently = options.partitionsConcurrently ?? 1;
  if (!Number.isInteger(partitionsConcurrently) || partitionsConcurrently < 1) {
    throw new RangeError(
      `consume: partitionsConcurrently must be a positive integer, got ${String(partitionsConcurrently)}`,
    );
  }
  return {
    groupId: options.groupId,
    topic: options.topic,
    deadLetterTopic,
    handler: options.handler,
    onDeadLetter: options.onDeadLetter,
    onError: options.onError,
    partitionsConcurrently,
    fromBeginning: options.fromBeginning ?? true,
  };
}
