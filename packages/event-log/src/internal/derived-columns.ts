// The columns migration 0002 derives from a payload at append time (EL-5 `status` and `tool` filters). Computed
// from the whole payload before the claim check, so a large payload stored by reference is still indexed.

/** The event types whose payload names the tools a task used. */
export const TOOL_EVENT_TYPES = ['step_prepared', 'step_executed', 'task_finished'] as const;

/** What one event contributes to the trace filters. */
export interface DerivedColumns {
  /** `payload.status` of a `task_finished` event; null otherwise. */
  finished_status: string | null;
  /** Distinct tool names, sorted: the call (and result) of a step event, every step of `task_finished`. */
  tools: string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toolOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.tool === 'string' && value.tool.length > 0 ? value.tool : undefined;
}

/**
 * Derives the trace-filter columns of one event. Tolerant by design: payloads are validated by the bus before they
 * get here, and an event whose payload does not have the expected shape simply contributes nothing.
 */
export function deriveColumns(eventType: string, payload: unknown): DerivedColumns {
  const tools = new Set<string>();
  let finishedStatus: string | null = null;
  if (isRecord(payload)) {
    if (eventType === 'step_prepared' || eventType === 'step_executed') {
      for (const tool of [toolOf(payload.call), toolOf(payload.result)]) if (tool) tools.add(tool);
    }
    if (eventType === 'task_finished') {
      if (typeof payload.status === 'string') finishedStatus = payload.status;
      if (Array.isArray(payload.steps)) {
        for (const step of payload.steps) {
          const tool = isRecord(step) ? (toolOf(step.call) ?? toolOf(step.result)) : undefined;
          if (tool) tools.add(tool);
        }
      }
    }
  }
  return { finished_status: finishedStatus, tools: [...tools].sort() };
}
