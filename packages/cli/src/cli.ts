import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { LintOptionsError, RegistryError } from '@signalbox/registry';
import {
  parseRuleOptions,
  registryCheck,
  registryDiff,
  registryExport,
  registryImport,
  registryLint,
  registryPublish,
  registryVersion,
  type ImportFormat,
} from './commands/registry.js';
import { registerEvalBfcl } from './commands/eval-bfcl.js';
import { registerEvalPacks } from './commands/eval-packs.js';
import { registerEvalRepair } from './commands/eval-repair.js';
import { registerBench } from './commands/bench.js';
import { registerDev } from './commands/dev.js';
import { registerFaults } from './commands/faults.js';
import { registerMcp } from './commands/mcp.js';
import { registerOps } from './commands/ops.js';
import { registerReplay } from './commands/replay.js';
import { registerRetention } from './commands/retention.js';
import { registerSubmit } from './commands/submit.js';
import { registerTrace } from './commands/trace.js';
import { registerUp } from './commands/up.js';
import { CliError, UsageError } from './errors.js';
import { explainRequirementIds } from './help.js';
import { processIo, type CliIo, type CommandResult } from './io.js';

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a non-negative integer');
  return n;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Builds the `signalbox` program. Each action stores its {@link CommandResult} through `done`; nothing is
 * printed here, so that `--json` can print exactly one object.
 */
export function createProgram(io: CliIo, done: (result: CommandResult) => void): Command {
  const program = new Command('signalbox')
    .description("Turns an LLM agent's request into governed, auditable tool calls.")
    .option('--json', 'print exactly one JSON object')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => {
        io.stdout(s);
      },
      writeErr: () => undefined,
    })
    .showHelpAfterError(false);
  explainRequirementIds(program);

  const registry = program
    .command('registry')
    .description('the governed tool registry: definitions, visibility, versions (RG-1..RG-7)');
  const db = (cmd: Command) =>
    cmd
      .option('--database-url <url>', 'PostgreSQL connection string (default: $DATABASE_URL)')
      .option('--schema <name>', 'PostgreSQL schema of the registry tables');

  registry
    .command('lint')
    .description('check the authoring rules (RG-2) of registry directories (default: every pack)')
    .argument('[dirs...]', 'registry directories')
    .option('--rule <id=severity>', 'override a rule: error, warning or off (repeatable)', collect, [])
    .option('--max-required <n>', 'ceiling on required parameters', positiveInt)
    .option(
      '--near-duplicate <threshold>',
      'similarity from which descriptions are near duplicates',
      parseFloat,
    )
    .action(
      async (dirs: string[], opts: { rule: string[]; maxRequired?: number; nearDuplicate?: number }) => {
        done(
          await registryLint(io, dirs, {
            rules: parseRuleOptions(opts.rule),
            ...(opts.maxRequired !== undefined ? { maxRequiredParameters: opts.maxRequired } : {}),
            ...(opts.nearDuplicate !== undefined ? { nearDuplicateThreshold: opts.nearDuplicate } : {}),
          }),
        );
      },
    );

  registry
    .command('check')
    .description('compare what each agent sees with the checked-in visibility snapshot (RG-5)')
    .argument('[dirs...]', 'registry directories')
    .option('--update', 'write the snapshot instead of comparing (review the change!)')
    .option('--tenant <id>', 'tenant the snapshot is taken for', 'default')
    .action(async (dirs: string[], opts: { update?: boolean; tenant: string }) => {
      done(await registryCheck(io, dirs, { tenant: opts.tenant, ...(opts.update ? { update: true } : {}) }));
    });

  db(
    registry
      .command('diff')
      .description(
        'show what changed per tool between two registries (directories or <name>@<version|label|latest>)',
      )
      .argument('<a>')
      .argument('<b>'),
  ).action(async (a: string, b: string, opts: { databaseUrl?: string; schema?: string }) => {
    done(await registryDiff(io, a, b, opts));
  });

  db(
    registry
      .command('publish')
      .description('store a registry directory as a version in PostgreSQL (RG-3)')
      .argument('<dir>')
      .option('--name <name>', 'registry name (default: the directory name)')
      .option('--label <label>', 'a label to load this version by'),
  ).action(
    async (dir: string, opts: { databaseUrl?: string; schema?: string; name?: string; label?: string }) => {
      done(await registryPublish(io, dir, opts));
    },
  );

  registry
    .command('import')
    .description('import tool definitions (RG-6) and optionally write them as registry YAML')
    .argument('<file>')
    .addOption(
      new Option('--format <format>', 'input format')
        .choices(['openai', 'mcp', 'bfcl'])
        .makeOptionMandatory(),
    )
    .option('--out <file>', 'write the imported tools as a registry YAML file')
    .addOption(new Option('--assume <effect>', 'side effects of OpenAI tools').choices(['read', 'write']))
    .option('--server <id>', 'MCP server id to bind imported MCP tools to')
    .action(
      async (
        file: string,
        opts: { format: ImportFormat; out?: string; assume?: 'read' | 'write'; server?: string },
      ) => {
        done(await registryImport(io, file, opts));
      },
    );

  registry
    .command('export')
    .description("export tools as OpenAI tools or an MCP tool list (optionally one agent's visible set)")
    .argument('<dir>')
    .addOption(
      new Option('--format <format>', 'output format').choices(['openai', 'mcp']).makeOptionMandatory(),
    )
    .option('--agent <id>')
    .option('--scenario <id>')
    .option('--scene <id>')
    .option('--tenant <id>', 'tenant', 'default')
    .action(
      async (
        dir: string,
        opts: { format: 'openai' | 'mcp'; agent?: string; scenario?: string; scene?: string; tenant: string },
      ) => {
        done(await registryExport(io, dir, opts));
      },
    );

  registry
    .command('version')
    .description("print the registry, profiles and policy versions and every tool's definition hash")
    .argument('<dir>')
    .action(async (dir: string) => {
      done(await registryVersion(io, dir));
    });

  registerEvalBfcl(program, io, done);
  registerEvalRepair(program, io, done);
  registerEvalPacks(program, io, done);
  registerOps(program, io, done);
  registerDev(program, io, done);
  registerTrace(program, io, done);
  registerReplay(program, io, done);
  registerSubmit(program, io, done);
  registerBench(program, io, done);
  registerRetention(program, io, done);
  registerFaults(program, io, done);
  registerMcp(program, io, done);
  registerUp(program, io, done);
  return program;
}

function errorResult(error: unknown): CommandResult {
  if (error instanceof CommanderError) {
    return {
      exitCode: error.exitCode === 0 ? 0 : 2,
      json: {
        ok: error.exitCode === 0,
        error: { code: error.code, message: error.message.replace(/^error: /, '') },
      },
      text: error.exitCode === 0 ? [] : [error.message],
    };
  }
  if (error instanceof CliError) {
    return {
      exitCode: error.exitCode,
      json: { ok: false, error: { code: 'usage', message: error.message } },
      text: [`error: ${error.message}`],
    };
  }
  if (error instanceof LintOptionsError) {
    return {
      exitCode: 2,
      json: { ok: false, error: { code: 'usage', message: error.message } },
      text: [`error: ${error.message}`],
    };
  }
  if (error instanceof RegistryError) {
    return {
      exitCode: 1,
      json: { ok: false, error: { code: error.name, message: error.message, retriable: error.retriable } },
      text: [`error: ${error.message}`],
    };
  }
  throw error;
}

/**
 * Runs `signalbox` with `argv` (without the node and script paths) and returns the exit code. With `--json`,
 * stdout receives exactly one JSON object, also on errors.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const json = argv.includes('--json');
  let result: CommandResult | undefined;
  const program = createProgram(io, (r) => {
    result = r;
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    if (!result) throw new UsageError(`no command given; try \`signalbox registry --help\``);
  } catch (error) {
    result = errorResult(error);
    if (error instanceof CommanderError && error.exitCode === 0) return 0; // --help / --version already printed
  }
  if (json) io.stdout(`${JSON.stringify(result.json)}\n`);
  else if (result.exitCode === 0) for (const line of result.text) io.stdout(`${line}\n`);
  else for (const line of result.text) io.stderr(`${line}\n`);
  return result.exitCode;
}
