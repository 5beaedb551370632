import type { ErrorClass } from '@signalbox/contracts';

/** Where a failed step should go next (EX-5), for the evaluator and operators. */
export type NextAction =
  'reinject_parameters' | 'replan' | 'replan_or_stop' | 'back_off' | 'stop' | 'ask_confirmation';

/** What each EX-5 error class means to the rest of the pipeline. */
export interface ErrorClassInfo {
  /** Whether the executor retries it (bounded, jittered, per the tool's retry policy). */
  retriable: boolean;
  next_action: NextAction;
  /** One line for humans. */
  meaning: string;
}

/** EX-5: the closed table of error classes, with retriability and the suggested next action. */
export const ERROR_CLASSES: Readonly<Record<ErrorClass, ErrorClassInfo>> = {
  parameter: {
    retriable: false,
    next_action: 'reinject_parameters',
    meaning: 'the arguments were refused; the parameter injector must fix them',
  },
  transient: {
    retriable: true,
    next_action: 'replan',
    meaning: 'a passing failure (5xx, timeout, connection); retried here, then the decider re-plans',
  },
  permission: {
    retriable: false,
    next_action: 'replan_or_stop',
    meaning: 'not allowed; the decider picks an alternative or stops',
  },
  empty: {
    retriable: false,
    next_action: 'replan',
    meaning: 'the tool answered with nothing; the decider re-plans',
  },
  rate_limited: {
    retriable: true,
    next_action: 'back_off',
    meaning: 'the tool or its limit refused for now; back off (Retry-After) and try later',
  },
  capability_mismatch: {
    retriable: false,
    next_action: 'replan',
    meaning: 'the tool cannot do what was asked; the decider re-plans',
  },
  unknown_tool: {
    retriable: false,
    next_action: 'replan',
    meaning: 'no such tool (or no transport binding for it); the decider re-plans',
  },
  internal: {
    retriable: false,
    next_action: 'stop',
    meaning: 'a fault of the executor or the tool that retrying does not fix',
  },
};

/**
 * The error message as it goes into an event: one line, capped, never a stack trace (EX-5). `retriable` is whether
 * this error was one to try again — its class's flag unless the error says otherwise (a tool's declared error code,
 * a write whose outcome is unknown).
 */
export function eventErrorMessage(
  errorClass: ErrorClass,
  message: string,
  retriable: boolean = ERROR_CLASSES[errorClass].retriable,
): string {
  const firstLine = message.split('\n')[0] ?? '';
  const info = ERROR_CLASSES[errorClass];
  const text = `[${errorClass}; retriable=${String(retriable)}; next=${info.next_action}] ${firstLine}`;
  return text.length <= 1000 ? text : `${text.slice(0, 999)}…`;
}
