// `signalbox faults` (issue 21): the full fault suite — the deployed shape (five workers, the API and the demo tools
// as processes) under a steady load, one fault per scenario, every task checked exactly. It runs test/faults/run.ts
// (the harness lives with the test suites, whose reduced form runs it under `npm test`) and relays its table or JSON.
// Progress goes to stderr as it happens.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo, CommandResult } from '../io.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** The scenarios test/faults/scenarios.ts knows (the baseline always runs first). */
export const FAULT_SCENARIOS = ['broker', 'postgres', 'kill-storm', 'rebalance', 'tools', 'soak'] as const;

export interface FaultsOptions {
  scenario: string[];
  tasks: string;
  rate: string;
  downMs: string;
  soakSeconds: string;
  killRounds: string;
  rebalanceCycles: string;
  settleSeconds: string;
  baselineTasks?: string;
  sharedBroker?: boolean;
  keepLogs?: boolean;
}

/** Runs the suite in a child process; `json` says whether the caller prints JSON (the table is printed otherwise). */
export async function faults(io: CliIo, opts: FaultsOptions, json: boolean): Promise<CommandResult> {
  const args = [
    ...opts.scenario.flatMap((s) => ['--scenario', s]),
    ...['--tasks', opts.tasks, '--rate', opts.rate, '--down-ms', opts.downMs],
    ...['--soak-seconds', opts.soakSeconds, '--kill-rounds', opts.killRounds],
    ...['--rebalance-cycles', opts.rebalanceCycles, '--settle-seconds', opts.settleSeconds],
    ...(opts.baselineTasks ? ['--baseline-tasks', opts.baselineTasks] : []),
    ...(opts.sharedBroker ? ['--shared-broker'] : []),
    ...(opts.keepLogs ? ['--keep-logs'] : []),
    '--json',
  ];
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', 'faults/run.ts', ...args],
    { cwd: `${repoRoot}test`, env: io.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    io.stderr(chunk.toString());
  });
  const code = await new Promise<number>((resolve) =>
    child.once('exit', (c) => {
      resolve(c ?? 1);
    }),
  );
  const last = out.trim().split('\n').at(-1) ?? '';
  let summary: Record<string, unknown>;
  try {
    summary = JSON.parse(last) as Record<string, unknown>;
  } catch {
    return {
      exitCode: code || 1,
      json: { ok: false, error: 'the fault suite printed no result', output: out.slice(-2000) },
      text: [out],
    };
  }
  const report = typeof summary.report === 'string' ? summary.report : '';
  const found = Array.isArray(summary.problems) ? (summary.problems as string[]) : [];
  const lines = [
    ...report.split('\n'),
    ...(found.length > 0 ? ['', 'problems:', ...found.map((p) => `  ${p}`)] : []),
    ...(typeof summary.error === 'string' ? ['', `the run failed: ${summary.error}`] : []),
    ...(typeof summary.logs === 'string' ? [`process logs: ${summary.logs}`] : []),
  ];
  if (code === 0 || json) return { exitCode: code, json: summary, text: lines };
  // A run that found problems still printed a table worth reading: it goes to stdout, the verdict to stderr.
  io.stdout(`${lines.join('\n')}\n`);
  return {
    exitCode: code,
    json: summary,
    text: [
      `faults: ${String(found.length)} problem(s)${typeof summary.error === 'string' ? ', the run failed' : ''}`,
    ],
  };
}

function count(value: string): string {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new InvalidArgumentError('expected a number');
  return value;
}

function scenario(value: string, previous: string[]): string[] {
  for (const s of value.split(',')) {
    if (s !== 'all' && !(FAULT_SCENARIOS as readonly string[]).includes(s)) {
      throw new InvalidArgumentError(`unknown scenario "${s}" (known: ${FAULT_SCENARIOS.join(', ')}, all)`);
    }
  }
  return [...previous, value];
}

export function registerFaults(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('faults')
    .description(
      'the fault suite: five workers, API and demo tools as processes under load; one fault per scenario, exact checks',
    )
    .option(
      '--scenario <name>',
      `a scenario (repeatable or comma-separated): ${FAULT_SCENARIOS.join(', ')}, all (default)`,
      scenario,
      [],
    )
    .option('--tasks <n>', 'tasks per scenario', count, '300')
    .option('--rate <n>', 'tasks submitted per second', count, '5')
    .option('--baseline-tasks <n>', 'tasks of the fault-free baseline (default: min(tasks, 100))', count)
    .option('--down-ms <ms>', 'how long the broker, PostgreSQL or the demo tools stay away', count, '10000')
    .option('--soak-seconds <s>', 'duration of the soak', count, '120')
    .option('--kill-rounds <n>', 'kill-storm rounds (each kills every process once)', count, '2')
    .option('--rebalance-cycles <n>', 'rebalance-storm add/remove cycles', count, '5')
    .option(
      '--settle-seconds <s>',
      'how long to wait for the last tasks before counting them lost',
      count,
      '180',
    )
    .option('--shared-broker', 'run on the shared Kafka instead of a private one (no broker scenario)')
    .option('--keep-logs', 'keep the process logs even when every check passed')
    .action(async (opts: FaultsOptions) => {
      done(await faults(io, opts, program.opts<{ json?: boolean }>().json === true));
    });
}
