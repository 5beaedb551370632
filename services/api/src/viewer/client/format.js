// @ts-check
// Labels shared by the list and the timeline.

/** @type {Readonly<Record<string, string>>} */
export const STAGE_LABELS = {
  api: 'API · submission',
  model_selector: 'Model selector',
  tool_decider: 'Tool decider',
  parameter_injector: 'Parameter injector',
  executor: 'Executor',
  result_evaluator: 'Result evaluator',
  operator: 'Operator',
};

/** @type {Readonly<Record<string, string>>} */
export const LOOP_LABELS = {
  replan: 're-plan',
  reinject: 're-inject',
  degrade: 'degrade',
  next_step: 'next step',
  continuation: 'answer continues',
};

/**
 * @param {string} stage
 * @returns {string}
 */
export function stageLabel(stage) {
  return STAGE_LABELS[stage] ?? stage;
}

/**
 * @param {string} loop
 * @returns {string}
 */
export function loopLabel(loop) {
  return LOOP_LABELS[loop] ?? loop;
}

/**
 * Milliseconds as `850 ms` or `12.4 s`.
 * @param {number} ms
 * @returns {string}
 */
export function formatMs(ms) {
  if (ms < 10_000) return `${String(Math.round(ms))} ms`;
  if (ms < 600_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${(ms / 60_000).toFixed(1)} min`;
}

/**
 * An ISO instant in the browser's time zone, to the second.
 * @param {string} iso
 * @returns {string}
 */
export function formatInstant(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

/**
 * `sha256:58d0812b…` → `58d0812b`; null → `—`.
 * @param {string | null} version
 * @returns {string}
 */
export function shortVersion(version) {
  if (version === null) return '—';
  const hex = version.replace(/^sha256:/, '');
  return hex.length > 10 ? hex.slice(0, 8) : hex;
}
