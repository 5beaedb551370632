// The full fault suite from the command line (`signalbox faults` runs this file):
//   node --conditions=@signalbox/source --import tsx faults/run.ts [--scenario NAME[,NAME…]] [--tasks N] [--rate R]
//        [--down-ms MS] [--soak-seconds S] [--kill-rounds N] [--rebalance-cycles N] [--shared-broker] [--json]
// Infrastructure as the test suites find it (KAFKA_BROKERS/SCHEMA_REGISTRY_URL/DATABASE_URL, else testcontainers,
// else infra/local, started when down and stopped again); the pipeline runs on a private Kafka unless
// --shared-broker. Progress goes to stderr; the table (or, with --json, one JSON object) to stdout. Exit 1 when a
// scenario lost, duplicated, dead-lettered or failed anything.
import { parseArgs } from 'node:util';
import { resolveInfrastructure } from '@signalbox/test-support';
import { removeLogs, startRig } from './harness.js';
import { renderReport } from './report.js';
import { SCENARIO_NAMES, runScenarios, type ScenarioName, type ScenarioResult } from './scenarios.js';
import { problems } from './verdict.js';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', multiple: true },
    tasks: { type: 'string', default: '300' },
    rate: { type: 'string', default: '5' },
    'baseline-tasks': { type: 'string' },
    'down-ms': { type: 'string', default: '10000' },
    'soak-seconds': { type: 'string', default: '120' },
    'kill-rounds': { type: 'string', default: '2' },
    'rebalance-cycles': { type: 'string', default: '5' },
    'settle-seconds': { type: 'string', default: '180' },
    'shared-broker': { type: 'boolean', default: false },
    'keep-logs': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});

function int(name: string, value: string | undefined, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${String(min)}, got ${String(value)}`);
    process.exit(2);
  }
  return n;
}

const requested = (values.scenario ?? ['all']).flatMap((s) => s.split(',')).map((s) => s.trim());
const names: ScenarioName[] = requested.includes('all')
  ? SCENARIO_NAMES.filter((n) => n !== 'baseline')
  : requested.map((s) => {
      if (!(SCENARIO_NAMES as readonly string[]).includes(s)) {
        console.error(`unknown scenario "${s}" (known: ${SCENARIO_NAMES.join(', ')}, all)`);
        process.exit(2);
      }
      return s as ScenarioName;
    });
const tasks = int('tasks', values.tasks, 1);
const params = {
  tasks,
  ratePerSecond: int('rate', values.rate, 0.1),
  downMs: int('down-ms', values['down-ms'], 0),
  soakMs: int('soak-seconds', values['soak-seconds'], 1) * 1000,
  killRounds: int('kill-rounds', values['kill-rounds'], 1),
  rebalanceCycles: int('rebalance-cycles', values['rebalance-cycles'], 1),
  settleMs: int('settle-seconds', values['settle-seconds'], 1) * 1000,
  log: (line: string) => {
    console.error(`[faults ${new Date().toISOString().slice(11, 19)}] ${line}`);
  },
};
const baselineParams = {
  ...params,
  tasks: int('baseline-tasks', values['baseline-tasks'] ?? String(Math.min(tasks, 100)), 1),
};

/** An error's stack (or message), for the report. */
function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : JSON.stringify(error);
}

const started = Date.now();
const infra = await resolveInfrastructure(process.env);
let results: ScenarioResult[] = [];
let logDir = '';
let failure: unknown;
try {
  const rig = await startRig({
    endpoints: infra.endpoints,
    privateBroker: !values['shared-broker'],
    log: params.log,
  });
  logDir = rig.logDir;
  try {
    results = await runScenarios(rig, names, params, baselineParams);
  } finally {
    await rig.close();
  }
} catch (error) {
  failure = error;
} finally {
  await infra.release();
}

const found = results.flatMap((r) => problems(r).map((p) => `${r.name}: ${p}`));
const ok = failure === undefined && found.length === 0;
if (ok && !values['keep-logs'] && logDir) await removeLogs(logDir);
const summary = {
  ok,
  duration_s: Math.round((Date.now() - started) / 1000),
  params: { ...params, log: undefined, baselineTasks: baselineParams.tasks },
  problems: found,
  ...(failure !== undefined ? { error: describe(failure) } : {}),
  logs: ok && !values['keep-logs'] ? null : logDir,
  /** The printed form (the CLI shows it). */
  report: renderReport(results),
  scenarios: results,
};
if (values.json) {
  process.stdout.write(`${JSON.stringify(summary)}\n`);
} else {
  process.stdout.write(`${summary.report}\n`);
  if (found.length > 0) process.stdout.write(`\nproblems:\n${found.map((p) => `  ${p}`).join('\n')}\n`);
  if (failure !== undefined) process.stdout.write(`\nthe run failed: ${describe(failure)}\n`);
  if (summary.logs) process.stdout.write(`process logs: ${summary.logs}\n`);
}
process.exit(ok ? 0 : 1);
