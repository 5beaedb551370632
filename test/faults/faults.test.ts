// Issue 21, the reduced fault suite (part of `npm test`, integration project): the deployed shape — five workers, the
// API and the demo tools as separate processes (harness.ts) — under a steady load through the API, one fault per
// scenario, ~100 tasks each, checked exactly (checker.ts): nothing lost, no decision or side effect twice, nothing
// dead-lettered, no task failed merely because a dependency was briefly down. The full form is `signalbox faults`
// (test/faults/run.ts); see test/faults/README.md.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEndpoints } from '@signalbox/test-support';
import { baselineStatuses } from './checker.js';
import { removeLogs, startRig, type Rig } from './harness.js';
import { kafkaLibsDir } from './private-kafka.js';
import { renderReport } from './report.js';
import { runScenario, type ScenarioName, type ScenarioParams, type ScenarioResult } from './scenarios.js';
import { problems, warnings } from './verdict.js';

const endpoints = testEndpoints();
/** The broker can only be killed when it is ours: a private Kafka from the jars infra/local caches. */
const privateBroker = kafkaLibsDir() !== undefined;

const PARAMS: ScenarioParams = {
  tasks: 100,
  ratePerSecond: 10,
  downMs: 6000,
  killRounds: 1,
  rebalanceCycles: 2,
  settleMs: 60_000,
  log: (line) => {
    console.log(`[faults] ${line}`);
  },
};
/** A scenario: load ~10 s, the fault, recovery, the checks. */
const SCENARIO_TIMEOUT_MS = 150_000;

let rig: Rig | undefined;
let baseline: Record<string, string> = {};
const results: ScenarioResult[] = [];
const began = Date.now();

beforeAll(async () => {
  rig = await startRig({ endpoints, privateBroker, log: PARAMS.log });
  const base = await runScenario(rig, 'baseline', { ...PARAMS, tasks: 10 });
  results.push(base);
  expect(problems(base)).toEqual([]);
  baseline = baselineStatuses(base.check!);
}, 240_000);

afterAll(async () => {
  console.log(
    `[faults] reduced suite in ${String(Math.round((Date.now() - began) / 1000))} s\n${renderReport(results)}`,
  );
  const failed = results.some((r) => problems(r).length > 0);
  await rig?.close();
  if (!failed && rig) await removeLogs(rig.logDir);
  else if (rig) console.log(`[faults] process logs kept in ${rig.logDir}`);
}, 120_000);

async function scenario(name: ScenarioName): Promise<ScenarioResult> {
  if (!rig) throw new Error('the rig did not start');
  const r = await runScenario(rig, name, PARAMS, baseline);
  results.push(r);
  for (const w of warnings(r)) console.log(`[faults] ${name}: warning: ${w}`);
  expect(r.check?.submitted).toBe(PARAMS.tasks);
  return r;
}

describe('fault suite (reduced): five workers, API and demo tools as processes, ~100 tasks per fault', () => {
  it.skipIf(!privateBroker)(
    'broker SIGKILL + restart on its log: nothing lost, duplicated or dead-lettered; statuses as the baseline',
    async () => {
      const r = await scenario('broker');
      expect(problems(r)).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'PostgreSQL unreachable for a while: nothing lost, duplicated or dead-lettered; no task failed',
    async () => {
      const r = await scenario('postgres');
      expect(problems(r)).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'every process SIGKILLed once and restarted: nothing lost, duplicated or dead-lettered; no task failed',
    async () => {
      const r = await scenario('kill-storm');
      expect(problems(r)).toEqual([]);
      expect(r.processes.filter((p) => p.kills > 0).map((p) => p.name)).toHaveLength(7);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'rebalance storm (replicas added and drained): nothing lost, duplicated or dead-lettered; no task failed',
    async () => {
      const r = await scenario('rebalance');
      expect(problems(r)).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  it(
    'demo tools unreachable for a while: nothing lost, duplicated or dead-lettered',
    async () => {
      const r = await scenario('tools');
      expect(problems(r)).toEqual([]);
    },
    SCENARIO_TIMEOUT_MS,
  );

  // Issue 21: a call that fails without reaching the tool (connection refused, the breaker open) waits out the
  // outage in the executor (its outage budget) instead of being reported transient and re-planned without the tool.
  it('demo tools unreachable for a while: no task failed merely because of it', () => {
    const r = results.find((x) => x.name === 'tools');
    expect(r?.check).toBeDefined();
    expect(r?.check?.failedOnTransientTool).toBe(0);
    expect(r?.check?.failedUnlikeBaseline).toBe(0);
  });
});
