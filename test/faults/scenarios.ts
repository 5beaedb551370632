// The fault scenarios. Each runs the same steady load through the API and injects one fault while it runs; the
// checker then counts exactly what happened to the scenario's tasks (checker.ts). Scenarios run one after another on
// one rig; a scenario starts only when every process is healthy again, and its checks cover only its own tasks, acts
// and dead letters.
import { baselineStatuses, checkScenario, waitForTasks, type ScenarioCheck } from './checker.js';
import { WORKERS, type Rig, type WorkerName } from './harness.js';
import { startLoad, type Load } from './load.js';
import type { ManagedProcess, ProcessStats } from '@signalbox/cli/supervisor';

export const SCENARIO_NAMES = [
  'baseline',
  'broker',
  'postgres',
  'kill-storm',
  'rebalance',
  'tools',
  'soak',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface ScenarioParams {
  /** Tasks per scenario (the soak's count comes from its duration). */
  tasks: number;
  ratePerSecond: number;
  /** How long a dependency stays away (broker, postgres, tools). @default 8000 */
  downMs?: number;
  /** Rounds of the kill storm: each kills every process once, in random order. @default 1 */
  killRounds?: number;
  /** Add/remove cycles of the rebalance storm (two stages each). @default 3 */
  rebalanceCycles?: number;
  /** The soak's duration. @default 120000 */
  soakMs?: number;
  /** How long to wait, after the last submission, for every task to finish. @default 120000 */
  settleMs?: number;
  log?: (line: string) => void;
}

export interface ProcessSummary {
  name: string;
  maxRssMiB: number;
  /** Median RSS of the first and the last fifth of the scenario (the soak's growth). */
  firstRssMiB: number;
  lastRssMiB: number;
  starts: number;
  crashes: number;
  kills: number;
  livenessRestarts: number;
  errorLines: number;
}

export interface ScenarioResult {
  name: ScenarioName;
  title: string;
  /** Why the scenario did not run (e.g. no private broker to kill). */
  skipped?: string;
  check?: ScenarioCheck;
  fault: { injectedAt?: number; liftedAt?: number; notes: string[] };
  processes: ProcessSummary[];
  /** RSS series (MiB) per process over the scenario: [seconds since its start, MiB]. */
  rssSeries: Record<string, [number, number][]>;
  durationMs: number;
}

interface Fault {
  injectedAt?: number;
  liftedAt?: number;
  notes: string[];
}

interface Scenario {
  title: string;
  /** Why it cannot run on this rig, if it cannot. */
  unavailable?: (rig: Rig) => string | undefined;
  /** Tasks to send (default: params.tasks). */
  tasks?: (p: ScenarioParams) => number;
  /** Injects the fault while `load` runs; resolves once the fault is lifted and the rig is back. */
  inject?: (rig: Rig, load: Load, p: ScenarioParams, loadMs: number) => Promise<Fault>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `fraction` of the load's sending time has passed. */
async function atFraction(startedAt: number, loadMs: number, fraction: number): Promise<void> {
  const wait = startedAt + loadMs * fraction - Date.now();
  if (wait > 0) await sleep(wait);
}

function shuffle<T>(items: T[]): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const SCENARIOS: Record<ScenarioName, Scenario> = {
  baseline: { title: 'no fault (the statuses every other scenario is compared with)' },

  broker: {
    title: 'broker SIGKILL, restart on its log',
    unavailable: (rig) => (rig.kafka ? undefined : 'needs the private broker (Kafka jars not cached)'),
    async inject(rig, _load, p, loadMs) {
      const start = Date.now();
      await atFraction(start, loadMs, 0.25);
      const kafka = rig.kafka!;
      const injectedAt = Date.now();
      await kafka.kill();
      await sleep(p.downMs ?? 8000);
      const restart = Date.now();
      await kafka.start();
      const liftedAt = Date.now();
      return {
        injectedAt,
        liftedAt,
        notes: [
          `broker SIGKILLed, down ${seconds(restart - injectedAt)}, serving again ${seconds(liftedAt - restart)} after its restart`,
        ],
      };
    },
  },

  postgres: {
    title: 'PostgreSQL unreachable (proxy cut: connections reset, new ones refused)',
    async inject(rig, _load, p, loadMs) {
      await atFraction(Date.now(), loadMs, 0.25);
      const injectedAt = Date.now();
      await rig.pgProxy.cut();
      await sleep(p.downMs ?? 8000);
      await rig.pgProxy.restore();
      const liftedAt = Date.now();
      return { injectedAt, liftedAt, notes: [`PostgreSQL cut for ${seconds(liftedAt - injectedAt)}`] };
    },
  },

  'kill-storm': {
    title: 'random SIGKILLs of every process (api, demo tools, the five workers), restarted',
    async inject(rig, _load, p, loadMs) {
      const start = Date.now();
      await atFraction(start, loadMs, 0.1);
      const rounds = p.killRounds ?? 1;
      const victims = ['api', 'demo-tools', ...WORKERS];
      const kills = rounds * victims.length;
      // Spread the kills over the middle of the load.
      const gap = Math.max(300, (loadMs * 0.6) / kills);
      const injectedAt = Date.now();
      const order: string[] = [];
      for (let r = 0; r < rounds; r++) {
        for (const name of shuffle(victims)) {
          rig.supervisor.get(name)?.kill();
          order.push(name);
          await sleep(gap * (0.5 + Math.random()));
        }
      }
      await rig.waitHealthy();
      const liftedAt = Date.now();
      return {
        injectedAt,
        liftedAt,
        notes: [`${String(kills)} SIGKILLs over ${seconds(liftedAt - injectedAt)}: ${order.join(', ')}`],
      };
    },
  },

  rebalance: {
    title: 'consumer-group rebalance storm (extra replicas added, then drained away)',
    async inject(rig, _load, p, loadMs) {
      const start = Date.now();
      await atFraction(start, loadMs, 0.1);
      const cycles = p.rebalanceCycles ?? 3;
      const injectedAt = Date.now();
      const stages = shuffle([...WORKERS]);
      const notes: string[] = [];
      for (let c = 0; c < cycles; c++) {
        const pair: WorkerName[] = [stages[(2 * c) % stages.length]!, stages[(2 * c + 1) % stages.length]!];
        const added: ManagedProcess[] = pair.map((w) => rig.addReplica(w));
        await Promise.all(added.map((a) => a.ready()));
        await sleep(2000);
        await Promise.all(added.map((a) => a.stop()));
        notes.push(`+/- ${added.map((a) => a.name).join(' ')}`);
      }
      const liftedAt = Date.now();
      return {
        injectedAt,
        liftedAt,
        notes: [`${String(cycles)} cycles over ${seconds(liftedAt - injectedAt)}: ${notes.join('; ')}`],
      };
    },
  },

  tools: {
    title: "demo tools' backend unreachable (proxy cut)",
    async inject(rig, _load, p, loadMs) {
      await atFraction(Date.now(), loadMs, 0.25);
      const injectedAt = Date.now();
      await rig.toolsProxy.cut();
      await sleep(p.downMs ?? 8000);
      await rig.toolsProxy.restore();
      const liftedAt = Date.now();
      return { injectedAt, liftedAt, notes: [`demo tools cut for ${seconds(liftedAt - injectedAt)}`] };
    },
  },

  soak: {
    title: 'steady load for a set duration, RSS sampled',
    tasks: (p) => Math.max(1, Math.round(((p.soakMs ?? 120_000) / 1000) * p.ratePerSecond)),
  },
};

function median(values: number[]): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

const mib = (kb: number) => Math.round((kb / 1024) * 10) / 10;

function summarize(stats: ProcessStats[], before: Map<string, ProcessStats>, from: number, to: number) {
  const processes: ProcessSummary[] = [];
  const rssSeries: Record<string, [number, number][]> = {};
  for (const s of stats) {
    const samples = s.rss.filter((x) => x.t >= from && x.t <= to);
    if (samples.length === 0) continue;
    const b = before.get(s.name);
    const fifth = Math.max(1, Math.floor(samples.length / 5));
    processes.push({
      name: s.name,
      maxRssMiB: mib(Math.max(...samples.map((x) => x.rssKb))),
      firstRssMiB: mib(median(samples.slice(0, fifth).map((x) => x.rssKb))),
      lastRssMiB: mib(median(samples.slice(-fifth).map((x) => x.rssKb))),
      starts: s.starts - (b?.starts ?? 0),
      crashes: s.crashes.length - (b?.crashes.length ?? 0),
      kills: s.kills - (b?.kills ?? 0),
      livenessRestarts: s.livenessRestarts - (b?.livenessRestarts ?? 0),
      errorLines: s.errorCount - (b?.errorCount ?? 0),
    });
    rssSeries[s.name] = samples.map((x) => [Math.round((x.t - from) / 100) / 10, mib(x.rssKb)]);
  }
  return { processes, rssSeries };
}

function snapshot(stats: ProcessStats[]): Map<string, ProcessStats> {
  return new Map(
    stats.map((s) => [s.name, { ...s, crashes: [...s.crashes], rss: [], errors: [] } satisfies ProcessStats]),
  );
}

/**
 * Runs one scenario on the rig: waits until it is healthy, starts the load, injects the fault, waits for every task,
 * checks. `baseline` is the baseline's status per template (absent while running the baseline itself).
 */
export async function runScenario(
  rig: Rig,
  name: ScenarioName,
  params: ScenarioParams,
  baseline?: Record<string, string>,
): Promise<ScenarioResult> {
  const scenario = SCENARIOS[name];
  const log = params.log ?? (() => undefined);
  const unavailable = scenario.unavailable?.(rig);
  if (unavailable) {
    log(`${name}: skipped (${unavailable})`);
    return {
      name,
      title: scenario.title,
      skipped: unavailable,
      fault: { notes: [] },
      processes: [],
      rssSeries: {},
      durationMs: 0,
    };
  }
  const began = Date.now();
  await rig.waitHealthy();
  const before = snapshot(rig.supervisor.stats());
  const from = rig.supervisor.now();
  const dlqBefore = await rig.deadLetterCount();
  const count = scenario.tasks?.(params) ?? params.tasks;
  const loadMs = (count / params.ratePerSecond) * 1000;
  log(`${name}: ${scenario.title}; ${String(count)} tasks at ${String(params.ratePerSecond)}/s`);
  let accepted = 0;
  const load = startLoad({
    apiUrl: rig.apiUrl,
    apiKey: rig.apiKey,
    keyPrefix: `${rig.prefix}${name}`,
    count,
    ratePerSecond: params.ratePerSecond,
    onAccepted: () => {
      accepted++;
      if (accepted % 50 === 0) log(`${name}: ${String(accepted)}/${String(count)} accepted`);
    },
  });
  const fault: Fault = scenario.inject ? await scenario.inject(rig, load, params, loadMs) : { notes: [] };
  for (const n of fault.notes) log(`${name}: ${n}`);
  const submissions = await load.done;
  const { pending } = await waitForTasks(rig.db, rig.schema.name, submissions, params.settleMs ?? 120_000);
  if (pending > 0) log(`${name}: ${String(pending)} tasks still unfinished after the settle time`);
  // Dead letters are counted once the rig is back (the broker scenario restarts it).
  await rig.waitHealthy().catch((error: unknown) => {
    fault.notes.push(String(error));
  });
  const dlqAfter = await rig.deadLetterCount();
  const check = await checkScenario({
    db: rig.db,
    schema: rig.schema.name,
    executorSchema: rig.executorSchema,
    demoSchema: rig.demoSchema,
    submissions,
    ...(baseline ? { baseline } : {}),
    deadLetteredMessages: dlqAfter - dlqBefore,
    ...(fault.liftedAt !== undefined ? { faultLiftedAt: fault.liftedAt } : {}),
  });
  const to = rig.supervisor.now();
  const { processes, rssSeries } = summarize(rig.supervisor.stats(), before, from, to);
  return {
    name,
    title: scenario.title,
    check,
    fault: {
      ...(fault.injectedAt !== undefined ? { injectedAt: fault.injectedAt } : {}),
      ...(fault.liftedAt !== undefined ? { liftedAt: fault.liftedAt } : {}),
      notes: fault.notes,
    },
    processes,
    rssSeries,
    durationMs: Date.now() - began,
  };
}

/** Runs the baseline, then each named scenario, on one rig. */
export async function runScenarios(
  rig: Rig,
  names: readonly ScenarioName[],
  params: ScenarioParams,
  baselineParams: ScenarioParams = params,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  const base = await runScenario(rig, 'baseline', baselineParams);
  results.push(base);
  const statuses = base.check ? baselineStatuses(base.check) : {};
  for (const name of names) {
    if (name === 'baseline') continue;
    results.push(await runScenario(rig, name, params, statuses));
  }
  return results;
}
