import { join } from 'node:path';
import type { Bus, Subscription } from '@signalbox/bus';
import { TOPICS, type TopicMessage } from '@signalbox/contracts';
import { stepPrepared, type StepPreparedParts } from '@signalbox/executor/testing';
import { writeRegistryDir } from './registry-dir.js';
import { collectMessages, prepareTopics } from './topics.js';

/** One step put before an executor process (see publishExecutorStep). */
export interface ExecutorStep {
  /** `<prefix>task`. */
  taskId: string;
  /** The registry folder the executor is to load (`SIGNALBOX_REGISTRY_DIR`). */
  dir: string;
  /** Every step_executed published since, in order of arrival. */
  executed: TopicMessage<'stepExecuted'>[];
  /** The consumer that fills `executed`; the test stops it. */
  observer: Subscription;
}

/**
 * Puts one prepared call before an executor of the test's `prefix`: creates the topics, starts collecting
 * step.executed, writes `registry` (YAML or JSON) as the registry folder `<registryRoot>/<prefix>` and publishes a
 * step_prepared of `call` whose plan pins that registry's definition hash (RG-3).
 */
export async function publishExecutorStep(
  bus: Bus,
  prefix: string,
  registryRoot: string,
  registry: string,
  call: Omit<StepPreparedParts, 'registry' | 'taskId'>,
): Promise<ExecutorStep> {
  await prepareTopics(bus, prefix);
  const executed: TopicMessage<'stepExecuted'>[] = [];
  const observer = await collectMessages(bus, TOPICS.stepExecuted, (value) =>
    executed.push(value as TopicMessage<'stepExecuted'>),
  );
  const dir = join(registryRoot, prefix);
  const loaded = await writeRegistryDir(dir, registry);
  const taskId = `${prefix}task`;
  await bus.publish([
    { topic: TOPICS.stepPrepared, key: taskId, value: stepPrepared({ ...call, registry: loaded, taskId }) },
  ]);
  return { taskId, dir, executed, observer };
}
