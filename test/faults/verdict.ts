// What counts as a failed scenario: the same rules for the reduced suite's assertions and the full run's exit code.
import type { ScenarioResult } from './scenarios.js';

export interface VerdictOptions {
  /**
   * Leave out the tasks that failed because a tool call met a transient failure and was routed like a broken tool
   * (`failedOnTransientTool`, the known bug in the report): they are then neither failures nor status changes.
   */
  allowTransientToolFailures?: boolean;
}

/** The guarantees every scenario must keep; each broken one is a line. */
export function problems(r: ScenarioResult, options: VerdictOptions = {}): string[] {
  const c = r.check;
  if (!c) return [];
  const known = options.allowTransientToolFailures ? c.failedOnTransientTool : 0;
  const out: string[] = [];
  const add = (n: number, what: string) => {
    if (n > 0) out.push(`${String(n)} ${what}`);
  };
  add(c.notAccepted, 'tasks never accepted by the API');
  add(c.lost, 'tasks lost (no task_finished)');
  add(c.finishedTwice, 'tasks finished more than once');
  add(c.duplicateDecisions, 'duplicated decisions (task, stage, causation)');
  add(c.duplicateSideEffects, 'duplicated side effects (acts beyond the request’s own)');
  add(c.duplicateActsByKey, 'acts repeated under one idempotency key');
  add(c.missingSideEffects, 'successful tasks without their act');
  add(c.deadLetteredEvents, 'dead-lettered inputs (failed events)');
  add(c.deadLetteredMessages, 'messages on dead-letter topics');
  add(c.failedUnlikeBaseline - known, 'tasks failed that do not fail without the fault');
  add(c.statusChanged - known, 'tasks whose status differs from the baseline');
  if (r.fault.liftedAt !== undefined && c.recoveryMs === null) out.push('did not recover (tasks unfinished)');
  return out;
}

/** Worth reading but not a broken guarantee: processes that died on their own or were restarted by liveness. */
export function warnings(r: ScenarioResult): string[] {
  return r.processes.flatMap((p) => [
    ...(p.crashes > 0 ? [`${p.name} exited on its own ${String(p.crashes)}×`] : []),
    ...(p.livenessRestarts > 0
      ? [`${p.name} restarted by the liveness probe ${String(p.livenessRestarts)}×`]
      : []),
  ]);
}
