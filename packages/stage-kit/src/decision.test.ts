import { describe, expect, it } from 'vitest';
import { TOPICS, type TopicMessage } from '@signalbox/contracts';
import { testEnvelope, testProgress, testTask } from '@signalbox/contracts/testing';
import {
  decideByKind,
  defineStage,
  type Decision,
  type DecisionContext,
  type RegistryBinding,
} from './decision.js';
import { finishTask } from './finish-task.js';

const binding: RegistryBinding = {
  versions: { registry_version: 'reg-1', profiles_version: 'prof-1', policy_version: 'pol-1' },
  sensitivePaths: () => [],
};
const ctx: DecisionContext = { stage: 'model_selector', versions: binding.versions };

const submitted: TopicMessage<'taskSubmitted'> = {
  ...testEnvelope(),
  event_type: 'task_submitted',
  payload: { task: testTask() },
};

const ended =
  (why: string) => (input: { occurred_at: string; revision_count: number; degraded_flag: boolean }) =>
    finishTask(input, { task: testTask(), status: 'failed', reason: why, progress: testProgress() });

describe('typed stage definitions', () => {
  it('hands each message kind to its own handler, typed by that kind', async () => {
    const seen: string[] = [];
    const decide = decideByKind<'model_selector'>({
      task_submitted: (input): Decision => {
        // Typed as its kind: the payload's task is there without a cast.
        seen.push(`submitted: ${input.payload.task.request}`);
        return ended('submitted')(input);
      },
      degrade_requested: (input): Decision => {
        seen.push(`degrade: ${input.payload.feedback.reason}`);
        return ended('degraded')(input);
      },
    });
    const decision = await decide(submitted, ctx);
    expect(decision.decision_reason).toBe('submitted');
    expect(seen).toEqual([`submitted: ${testTask().request}`]);
  });

  it('defines a stage on its own input topic from one handler per kind', async () => {
    const definition = defineStage(
      'model_selector',
      { task_submitted: ended('from the map'), degrade_requested: ended('degrade') },
      binding,
    );
    expect(definition.input).toBe(TOPICS.taskSubmitted);
    expect((await definition.decide(submitted, ctx)).decision_reason).toBe('from the map');
  });

  it('refuses, at compile time, a stage that leaves a message kind of its topic without a handler', () => {
    // `tsc -b` checks this file: were a handler for a missing kind not an error, the directive below would be
    // unused, and an unused @ts-expect-error fails the type check.
    const definition = defineStage(
      'model_selector',
      // @ts-expect-error degrade_requested, a kind of signalbox.task.submitted.v1, has no handler
      { task_submitted: ended('only one kind') },
      binding,
    );
    expect(definition.stage).toBe('model_selector');
  });

  it('refuses, at compile time, a decide function typed for another stage’s input', () => {
    const forTheExecutor = (input: TopicMessage<'stepPrepared'>) => ended(input.payload.call.tool)(input);
    // @ts-expect-error the model selector consumes task_submitted / degrade_requested, not step_prepared
    const definition = defineStage('model_selector', forTheExecutor, binding);
    expect(definition.input).toBe(TOPICS.taskSubmitted);
  });
});
