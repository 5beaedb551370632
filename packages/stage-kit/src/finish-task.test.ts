import { describe, expect, it } from 'vitest';
import { MAX_DECISION_REASON, TASK_FINISHED_LIMITS, TOPICS } from '@signalbox/contracts';
import { testEnvelope, testProgress, testStepRecord, testTask } from '@signalbox/contracts/testing';
import { decisionEnvelope } from './decision.js';
import { finishTask } from './finish-task.js';

const VERSIONS = { registry_version: 'reg-1', profiles_version: 'prof-1', policy_version: 'pol-1' };
const input = testEnvelope({ event_type: 'step_executed', stage: 'executor', revision_count: 2 });

/** The message the runtime would publish for a decision, checked as the output topic's consumer will check it. */
function published(decision: ReturnType<typeof finishTask>) {
  const envelope = decisionEnvelope(
    'result_evaluator',
    { ...input, payload: null },
    decision,
    VERSIONS,
    new Date(),
    null,
  );
  return TOPICS.taskFinished.schema.safeParse({ ...envelope, payload: decision.payload });
}

describe('finishTask', () => {
  it('ends a task with the counters it carries: cost, duration since its start, the input revision and flag', () => {
    const decision = finishTask(input, {
      task: testTask(),
      status: 'success',
      reason: 'every step succeeded',
      progress: testProgress({ cost_usd: 0.25, started_at: '2026-11-30T09:00:00.000Z' }),
      steps: [testStepRecord()],
      evidence: [{ step_index: 0, kind: 'source' }],
    });
    expect(decision.topic).toBe(TOPICS.taskFinished);
    expect(decision).toMatchObject({
      event_type: 'task_finished',
      decision_reason: 'every step succeeded',
      revision_count: 2,
      degraded_flag: false,
      payload: { status: 'success', total_cost_usd: 0.25, duration_ms: 1000, questions: [], issues: [] },
    });
    expect(published(decision).success).toBe(true);
  });

  it('cuts an over-long reason, over-long issues and questions and over-long lists to the contract, saying so', () => {
    const decision = finishTask(input, {
      task: testTask(),
      status: 'failed',
      reason: 'r'.repeat(MAX_DECISION_REASON * 3),
      progress: testProgress(),
      steps: Array.from({ length: TASK_FINISHED_LIMITS.steps + 7 }, (_, i) =>
        testStepRecord({ issues: [`step ${String(i)}`] }),
      ),
      evidence: Array.from({ length: TASK_FINISHED_LIMITS.evidence + 1 }, (_, i) => ({
        step_index: i,
        kind: 'k'.repeat(100),
      })),
      questions: Array.from({ length: 45 }, (_, i) => `question ${String(i)} ${'q'.repeat(3000)}`),
      issues: Array.from({ length: 130 }, (_, i) => `issue ${String(i)} ${'i'.repeat(5000)}`),
    });
    // Without the caps the envelope check would refuse it, and the input would be dead-lettered instead of ending
    // the task.
    const check = published(decision);
    expect(check.error?.issues ?? []).toEqual([]);
    expect(decision.decision_reason).toHaveLength(MAX_DECISION_REASON);
    expect(decision.decision_reason.endsWith('…')).toBe(true);
    const payload = check.data?.payload;
    expect(payload?.issues).toHaveLength(TASK_FINISHED_LIMITS.issues);
    expect(payload?.issues[0]?.startsWith('issue 0 ')).toBe(true);
    expect(payload?.issues[0]).toHaveLength(TASK_FINISHED_LIMITS.text);
    expect(payload?.issues.at(-1)).toBe(`… ${String(130 - TASK_FINISHED_LIMITS.issues + 1)} more issues`);
    expect(payload?.questions).toHaveLength(TASK_FINISHED_LIMITS.questions);
    expect(payload?.questions.at(-1)).toBe(
      `… ${String(45 - TASK_FINISHED_LIMITS.questions + 1)} more questions`,
    );
    // The latest steps are the ones kept: they are what the task ended on.
    expect(payload?.steps).toHaveLength(TASK_FINISHED_LIMITS.steps);
    expect(payload?.steps.at(-1)?.issues).toEqual([`step ${String(TASK_FINISHED_LIMITS.steps + 6)}`]);
    expect(payload?.evidence).toHaveLength(TASK_FINISHED_LIMITS.evidence);
    expect(payload?.evidence[0]?.kind).toHaveLength(TASK_FINISHED_LIMITS.evidenceKind);
  });

  it('lists an issue once however many steps report it', () => {
    const decision = finishTask(input, {
      task: testTask(),
      status: 'failed',
      reason: 'timeout',
      progress: testProgress(),
      issues: ['timeout', 'timeout', 'not found', 'timeout'],
    });
    expect((decision.payload as { issues: string[] }).issues).toEqual(['timeout', 'not found']);
  });

  it('takes the revision, flag and input source the deciding stage sets', () => {
    const decision = finishTask(input, {
      task: testTask(),
      status: 'need_clarification',
      reason: 'which city?',
      progress: testProgress(),
      questions: ['Which city do you mean?'],
      revision_count: 5,
      degraded_flag: true,
      input_source: 'feedback',
    });
    expect(decision).toMatchObject({ revision_count: 5, degraded_flag: true, input_source: 'feedback' });
    expect(published(decision).success).toBe(true);
  });
});
