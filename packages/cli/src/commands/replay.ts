// `signalbox replay` (EL-9): replays a frozen corpus of recorded traces — each with the registry content it ran
// under — through the stages' decision functions and checks that every recorded decision comes out the same.
// `signalbox dev --record <dir>` writes such a corpus. The executor's decisions are tool results and are not re-run.
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { z } from 'zod';
import { Envelope } from '@signalbox/contracts';
import type { StoredEvent } from '@signalbox/event-log';
import { RegistryContent, createRegistry } from '@signalbox/registry';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';
import type { EmbeddedResult } from '../dev/embedded.js';
import { REDECIDABLE_STAGES, redecideEvents, stageDefinitions, type DecisionDiff } from './redecide.js';
import { deciderSemantic } from '../semantic.js';

/** The corpus file format. */
export const TraceCorpus = z.object({
  format: z.literal('signalbox.trace-corpus.v1'),
  pack: z.string(),
  registry: z.unknown(),
  tasks: z.array(
    z.object({
      task_id: z.string(),
      events: z.array(
        z.object({
          stream_version: z.number().int(),
          envelope: Envelope,
          topic: z.string().nullable(),
          payload: z.unknown(),
        }),
      ),
    }),
  ),
});
export type TraceCorpus = z.infer<typeof TraceCorpus>;

/** Corpus files (one per pack) from an embedded run. */
export function corpusOf(result: EmbeddedResult): TraceCorpus[] {
  return Object.entries(result.registries).map(([pack, registry]) => ({
    format: 'signalbox.trace-corpus.v1' as const,
    pack,
    registry,
    tasks: result.traces
      .filter((t) => t.request.pack === pack)
      .map((t) => ({
        task_id: t.task_id,
        events: t.events.map((e) => ({
          stream_version: e.stream_version,
          envelope: e.envelope,
          topic: e.topic,
          payload: JSON.parse(JSON.stringify(e.payload ?? null)) as unknown,
        })),
      })),
  }));
}

export async function writeCorpus(result: EmbeddedResult, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const corpus of corpusOf(result)) {
    const file = `${dir}/${corpus.pack}.json`;
    await writeFile(file, `${JSON.stringify(corpus, null, 1)}\n`);
    files.push(file);
  }
  return files;
}

/**
 * Replays one corpus; every recorded decision of the re-decidable stages must come out unchanged. `adapt` lets a
 * test swap a decision function to prove that a change in behaviour is noticed.
 */
export async function replayCorpus(
  corpus: TraceCorpus,
  adapt: (definitions: ReturnType<typeof stageDefinitions>) => ReturnType<typeof stageDefinitions> = (d) => d,
): Promise<{ decisions: number; changed: DecisionDiff[]; skipped: number }> {
  const registry = createRegistry(RegistryContent.parse(corpus.registry));
  const definitions = adapt(stageDefinitions(registry, await deciderSemantic()));
  let decisions = 0;
  let skipped = 0;
  const changed: DecisionDiff[] = [];
  for (const task of corpus.tasks) {
    const events: StoredEvent[] = task.events.map((e, i) => ({
      ...e,
      global_position: BigInt(i + 1),
      recorded_at: new Date(e.envelope.occurred_at),
    }));
    const result = await redecideEvents(task.task_id, events, definitions, REDECIDABLE_STAGES);
    decisions += result.diffs.length;
    skipped += result.skipped;
    changed.push(...result.diffs.filter((d) => d.changed));
  }
  return { decisions, changed, skipped };
}

export async function replay(io: CliIo, files: string[]): Promise<CommandResult> {
  if (files.length === 0)
    throw new UsageError('give one or more corpus files (written by `signalbox dev --record <dir>`)');
  const reports = [];
  for (const file of files) {
    let corpus: TraceCorpus;
    try {
      corpus = TraceCorpus.parse(JSON.parse(await readFile(file, 'utf8')));
    } catch (err) {
      throw new UsageError(`${file} is not a trace corpus: ${(err as Error).message.slice(0, 300)}`);
    }
    const result = await replayCorpus(corpus);
    reports.push({ file, pack: corpus.pack, tasks: corpus.tasks.length, ...result });
  }
  const changed = reports.reduce((n, r) => n + r.changed.length, 0);
  return {
    exitCode: changed === 0 ? 0 : 1,
    json: { reports, changed },
    text: reports.flatMap((r) => [
      `${r.file}: ${String(r.decisions)} decisions of ${String(r.tasks)} tasks replayed, ${String(r.changed.length)} differ`,
      ...r.changed.map(
        (d) =>
          `  ${d.task_id} ${d.stage}: ${d.recorded.summary} → ${d.redecided.summary} (${d.differences.join(', ')})`,
      ),
    ]),
  };
}

export function registerReplay(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('replay')
    .description(
      'replay a frozen corpus of recorded traces; every recorded decision must come out the same (EL-9)',
    )
    .argument('<files...>', 'corpus files')
    .action(async (files: string[]) => {
      done(await replay(io, files));
    });
}
