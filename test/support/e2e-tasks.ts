// What the end-to-end suites do with a task: submit it as the API does (appended, then published) and wait for its
// `task_finished` in the event log, failing with what the task and the processes left behind.
import { TOPICS, type TaskSpec, type TopicMessage } from '@signalbox/contracts';
import { testMessage, testTask } from '@signalbox/contracts/testing';
import type { Bus } from '@signalbox/bus';
import type { EventStore, StoredEvent } from '@signalbox/event-log';
import { waitFor } from './workers.js';

/** The task a suite submits: who asks what, as of when. */
export interface SubmittedTask {
  taskId: string;
  tenantId: string;
  agentId: string;
  request: string;
  /** The task's reference time (the demo's "now"). */
  referenceTime: string;
  /** The submitted event's reason. */
  reason: string;
  context?: TaskSpec['context'];
}

/** The `task_submitted` message of `task`, as the API would publish it (occurred now). */
export function submittedMessage(task: SubmittedTask): TopicMessage<'taskSubmitted'> {
  return testMessage(
    'taskSubmitted',
    'task_submitted',
    {
      task: testTask({
        request: task.request,
        reference_time: task.referenceTime,
        ...(task.context ? { context: task.context } : {}),
      }),
    },
    {
      event_id: `ev_submitted_${task.taskId}`,
      task_id: task.taskId,
      tenant_id: task.tenantId,
      agent_id: task.agentId,
      decision_reason: task.reason,
      occurred_at: new Date().toISOString(),
      schema_version: 1,
    },
  );
}

/** Like the API: the submitted event is appended (the trace starts with it), then published. */
export async function submitMessage(
  store: EventStore,
  bus: Bus,
  message: TopicMessage<'taskSubmitted'>,
): Promise<void> {
  await store.append([{ envelope: message, topic: TOPICS.taskSubmitted.name, payload: message.payload }]);
  await bus.publish([{ topic: TOPICS.taskSubmitted, key: message.task_id, value: message }]);
}

/**
 * The task's events once its `task_finished` is in the log. Past `timeoutMs` it fails with the error, the task's
 * path so far and `diagnostics` (the processes' recent output).
 */
export async function finishedEvents(
  store: EventStore,
  taskId: string,
  timeoutMs: number,
  diagnostics: () => string,
): Promise<StoredEvent[]> {
  let events: StoredEvent[] = [];
  await waitFor(
    async () => {
      events = await store.readTask(taskId);
      return events.some((e) => e.envelope.event_type === 'task_finished');
    },
    `${taskId} to finish`,
    timeoutMs,
  ).catch((error: unknown) => {
    const path = events.map((e) => `${e.envelope.stage}:${e.envelope.event_type}`).join(' | ');
    throw new Error(`${String(error)}\nevents: ${path}\n${diagnostics()}`);
  });
  return events;
}
