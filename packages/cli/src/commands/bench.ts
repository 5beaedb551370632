// `signalbox bench backbone` (IF-2): runs the backbone benchmark (test/bench/backbone.ts) on the real services and
// relays its table and JSON. The benchmark lives with the test suites because it drives the same pass-through stages.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export async function bench(io: CliIo, which: string, args: string[]): Promise<CommandResult> {
  if (which !== 'backbone') throw new UsageError(`unknown benchmark "${which}" (known: backbone)`);
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', 'bench/backbone.ts', '--json', ...args],
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
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(last) as Record<string, unknown>;
  } catch {
    return {
      exitCode: code || 1,
      json: { error: 'the benchmark printed no result', output: out.slice(-2000) },
      text: [out],
    };
  }
  return {
    exitCode: code,
    json,
    text: Object.entries(json).map(([k, v]) => `${k.padEnd(24)} ${String(v)}`),
  };
}

export function registerBench(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('bench')
    .description('benchmarks that print figures (not timed tests): backbone')
    .argument('<which>', 'backbone')
    .option('--tasks <n>', 'tasks per run', '3000')
    .option('--processes', 'run each stage as its own worker process')
    .action(async (which: string, opts: { tasks: string; processes?: boolean }) => {
      done(await bench(io, which, ['--tasks', opts.tasks, ...(opts.processes ? ['--processes'] : [])]));
    });
}
