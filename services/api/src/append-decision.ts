// For tests that run the API without the pipeline: what a stage would append next to a task's trace.
import { deterministicEventId, type Envelope } from '@signalbox/contracts';
import type { EventStore } from '@signalbox/event-log';

/**
 * Appends a decision of `stage` after the task's latest event, as that stage would (no pipeline runs in these
 * tests), and returns its event id. Throws when the task has no events.
 */
export async function appendDecision(
  store: EventStore,
  taskId: string,
  stage: Envelope['stage'],
  eventType: string,
  payload: unknown,
): Promise<string> {
  const events = await store.readTask(taskId);
  const last = events[events.length - 1];
  if (!last) throw new Error(`no events of ${taskId}`);
  const envelope: Envelope = {
    ...last.envelope,
    event_id: deterministicEventId({
      task_id: taskId,
      stage,
      causation_id: last.envelope.event_id,
      event_type: eventType,
    }),
    stage,
    event_type: eventType,
    causation_id: last.envelope.event_id,
    decision_reason: `${stage} decided ${eventType}`,
    input_source: 'pipeline',
  };
  await store.append([{ envelope, topic: null, payload }]);
  return envelope.event_id;
}
