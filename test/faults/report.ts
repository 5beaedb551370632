// The printed table of a fault run: one row per scenario, plus per-process restarts and the notes of each fault.
import type { ScenarioResult } from './scenarios.js';
import { warnings } from './verdict.js';

/** Short names of the processes in the RSS column, in pipeline order. */
const SHORT: [string, string][] = [
  ['api', 'api'],
  ['model-selector', 'ms'],
  ['tool-decider', 'td'],
  ['parameter-injector', 'pi'],
  ['executor', 'ex'],
  ['result-evaluator', 're'],
  ['demo-tools', 'tools'],
  ['kafka', 'kafka'],
];

const HEADERS = [
  'scenario',
  'submitted → finished',
  'lost',
  'dup decisions / side effects',
  'dead-lettered',
  'failed',
  'status ≠ baseline',
  'recovery',
  'max RSS MiB (api ms td pi ex re tools kafka)',
];

function recovery(r: ScenarioResult): string {
  const ms = r.check?.recoveryMs;
  if (r.fault.liftedAt === undefined) return '—';
  if (ms === null || ms === undefined) return 'not recovered';
  return `${(ms / 1000).toFixed(1)} s`;
}

function rssCell(r: ScenarioResult): string {
  return SHORT.map(([name]) => {
    // An extra replica (`executor+1`) counts with its stage.
    const own = r.processes.filter((p) => p.name === name || p.name.startsWith(`${name}+`));
    return own.length === 0 ? '-' : String(Math.round(Math.max(...own.map((p) => p.maxRssMiB))));
  }).join(' ');
}

export function scenarioRow(r: ScenarioResult): string[] {
  if (r.skipped || !r.check)
    return [r.name, `skipped: ${r.skipped ?? 'no result'}`, '', '', '', '', '', '', ''];
  const c = r.check;
  const notAccepted = c.notAccepted > 0 ? ` (+${String(c.notAccepted)} not accepted)` : '';
  return [
    r.name,
    `${String(c.submitted)} → ${String(c.finished)}${notAccepted}`,
    String(c.lost),
    `${String(c.duplicateDecisions + c.finishedTwice)} / ${String(Math.max(c.duplicateSideEffects, c.duplicateActsByKey))}`,
    `${String(c.deadLetteredEvents)} ev / ${String(c.deadLetteredMessages)} msg`,
    String(c.failed),
    String(c.statusChanged),
    recovery(r),
    rssCell(r),
  ];
}

export function renderTable(rows: string[][], headers: string[] = HEADERS): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The whole report: the table, then per scenario its fault, restarts, latency and problems. */
export function renderReport(results: readonly ScenarioResult[]): string {
  const out = [renderTable(results.map(scenarioRow)), ''];
  for (const r of results) {
    if (!r.check) continue;
    const c = r.check;
    const lat = c.latency
      ? `latency p50 ${String(c.latency.p50)} ms, p95 ${String(c.latency.p95)} ms, max ${String(c.latency.max)} ms`
      : 'no latency';
    const statuses = Object.entries(c.statuses)
      .map(([s, n]) => `${s} ${String(n)}`)
      .join(', ');
    out.push(`${r.name} (${(r.durationMs / 1000).toFixed(0)} s): ${r.title}`);
    for (const n of r.fault.notes) out.push(`  fault: ${n}`);
    out.push(`  ${lat}; statuses: ${statuses}; re-sent calls ${String(c.resentCalls)}`);
    if (c.failedOnTransientTool > 0) {
      out.push(
        `  ${String(c.failedOnTransientTool)} of the failed tasks: a transient tool failure routed as a broken tool (re-plan without it)`,
      );
    }
    const restarts = r.processes
      .filter((p) => p.crashes + p.kills + p.livenessRestarts > 0 || p.errorLines > 0)
      .map(
        (p) =>
          `${p.name} kills ${String(p.kills)} crashes ${String(p.crashes)} liveness ${String(p.livenessRestarts)} error-lines ${String(p.errorLines)}`,
      );
    if (restarts.length > 0) out.push(`  processes: ${restarts.join('; ')}`);
    const warned = warnings(r);
    if (warned.length > 0) out.push(`  warnings: ${warned.join('; ')}`);
    if (r.name === 'soak') {
      out.push(
        `  RSS first → last fifth (MiB): ${r.processes
          .map((p) => `${p.name} ${String(p.firstRssMiB)} → ${String(p.lastRssMiB)}`)
          .join(', ')}`,
      );
    }
    for (const [kind, list] of Object.entries(c.examples)) out.push(`  ${kind}: ${list.join('; ')}`);
    for (const [task, lines] of Object.entries(c.traces)) {
      out.push(`  trace of ${task}:`);
      for (const l of lines) out.push(`    ${l}`);
    }
  }
  return out.join('\n');
}
