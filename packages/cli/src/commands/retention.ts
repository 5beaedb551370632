// `signalbox retention archive|prune` (EL-4): whole months of the event log are written to an archive directory
// and then detached and dropped. No row is ever updated or deleted; the log keeps the ids of pruned events.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { createPgEventLogRetention, type EventLogRetention } from '@signalbox/event-log';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

interface DbOptions {
  databaseUrl?: string;
  schema?: string;
}

function openRetention(io: CliIo, opts: DbOptions): EventLogRetention {
  const url = opts.databaseUrl ?? io.env.DATABASE_URL;
  if (!url) throw new UsageError('DATABASE_URL is not set (or pass --database-url)');
  return createPgEventLogRetention({
    connectionString: url,
    ...(opts.schema ? { schema: opts.schema } : {}),
  });
}

/** `--before`: an ISO date or instant; a bare date means its midnight UTC. */
export function parseBefore(value: string): Date {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--before must be an ISO date, got "${value}"`);
  return date;
}

/** Archives every month that ended by `before` (never the current one) into `out`. */
export async function retentionArchive(
  io: CliIo,
  opts: DbOptions & { before: string; out: string; includeSecrets?: boolean },
): Promise<CommandResult> {
  const before = parseBefore(opts.before);
  const out = resolve(io.cwd, opts.out);
  const retention = openRetention(io, opts);
  try {
    const manifest = await retention.archive(before, out, { includeSecrets: opts.includeSecrets === true });
    return {
      exitCode: 0,
      json: { out, before: before.toISOString(), archived: manifest.partitions },
      text: [
        ...manifest.partitions.map(
          (p) =>
            `archived ${p.partition.padEnd(18)} ${String(p.rows).padStart(8)} rows  ${p.file}  sha256 ${p.sha256}`,
        ),
        manifest.partitions.length === 0
          ? `nothing to archive before ${before.toISOString()}`
          : `manifest ${out}/manifest.json`,
      ],
    };
  } finally {
    await retention.close();
  }
}

/** Prunes the archived months that ended by `before`; exit code 1 when an old month had to be left in place. */
export async function retentionPrune(
  io: CliIo,
  opts: DbOptions & { before: string; archived?: string; force?: boolean },
): Promise<CommandResult> {
  const before = parseBefore(opts.before);
  if (!opts.archived && !opts.force) {
    throw new UsageError('prune needs --archived <dir> (the archive that holds the months), or --force');
  }
  const archived = opts.archived ? resolve(io.cwd, opts.archived) : undefined;
  const retention = openRetention(io, opts);
  try {
    const result = await retention.prune(before, {
      ...(archived ? { archived } : {}),
      ...(opts.force ? { force: true } : {}),
    });
    return {
      exitCode: result.refused.length > 0 ? 1 : 0,
      json: { before: before.toISOString(), ...result },
      text: [
        ...result.pruned.map((p) => `pruned  ${p.partition.padEnd(18)} ${String(p.rows).padStart(8)} rows`),
        ...result.refused.map((r) => `kept    ${r.partition.padEnd(18)} ${r.reason}`),
        ...(result.pruned.length + result.refused.length === 0
          ? [`nothing to prune before ${before.toISOString()}`]
          : []),
      ],
    };
  } finally {
    await retention.close();
  }
}

/** Registers `retention archive` and `retention prune` on the program. */
export function registerRetention(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const retention = program
    .command('retention')
    .description('archive and prune whole months of the event log (EL-4); rows are never edited');
  const db = (cmd: Command) =>
    cmd
      .option('--database-url <url>', 'PostgreSQL connection string (default: $DATABASE_URL)')
      .option('--schema <name>', 'PostgreSQL schema of the event log');
  db(
    retention
      .command('archive')
      .description('write each month that ended by --before to <out>/<partition>.jsonl plus manifest.json')
      .requiredOption('--before <date>', 'ISO date: months ending at or before it (never the current month)')
      .requiredOption('--out <dir>', 'archive directory (created when missing)')
      .option(
        '--include-secrets',
        'put secret values (PI-5) into the archive; by default pruning destroys them',
      ),
  ).action(async (opts: DbOptions & { before: string; out: string; includeSecrets?: boolean }) => {
    done(await retentionArchive(io, opts));
  });
  db(
    retention
      .command('prune')
      .description('detach and drop the months that ended by --before and that the archive vouches for')
      .requiredOption('--before <date>', 'ISO date: months ending at or before it (never the current month)')
      .option(
        '--archived <dir>',
        'the archive directory: each month must be listed with its current row count',
      )
      .option('--force', 'prune old months without an archive (their events are lost)'),
  ).action(async (opts: DbOptions & { before: string; archived?: string; force?: boolean }) => {
    done(await retentionPrune(io, opts));
  });
}
