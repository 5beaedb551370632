// `signalbox dev` (README command 1): the embedded run — all five stages in one process over the in-memory bus and
// PGlite with the demo tools — and each trace's timeline (EL-6).
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { TraceTimeline } from '@signalbox/event-log';
import { runEmbedded, type EmbeddedTrace } from '../dev/embedded.js';
import { DEMO_REQUESTS, type PackName } from '../dev/scenarios.js';
import { UsageError } from '../errors.js';
import { writeCorpus } from './replay.js';
import type { CliIo, CommandResult } from '../io.js';

const PACKS: readonly PackName[] = ['after-sales', 'office', 'research', 'reach'];
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A readable timeline: one line per decision with its stage, event, reason, revision and degraded flag. */
export function formatTimeline(timeline: TraceTimeline, title?: string): string[] {
  const loops = Object.entries(timeline.loops)
    .filter(([, n]) => n > 0)
    .map(([loop, n]) => `${loop}×${String(n)}`)
    .join(' ');
  const lines = [
    `── ${title ? `${title} · ` : ''}${timeline.task_id} · agent ${timeline.agent_id} · ${timeline.status ?? timeline.state} · ` +
      `${String(timeline.duration_ms)} ms · ${String(timeline.events.length)} events${loops ? ` · loops ${loops}` : ''}`,
  ];
  for (const e of timeline.events) {
    const flags = `rev ${String(e.revision_count)}${e.degraded_flag ? ' DEGRADED' : ''}${e.loop ? ` ↺ ${e.loop}` : ''}`;
    const reason =
      e.decision_reason.length > 150 ? `${e.decision_reason.slice(0, 147)}...` : e.decision_reason;
    lines.push(
      `  +${String(e.since_start_ms).padStart(5)} ms  ${e.stage.padEnd(18)} ${e.event_type.padEnd(20)} ${flags.padEnd(8)}  ${reason}`,
    );
  }
  return lines;
}

function traceLines(trace: EmbeddedTrace): string[] {
  const lines = formatTimeline(trace.timeline, trace.request.title);
  lines.splice(1, 0, `  request: "${trace.request.request}"`);
  if (trace.final?.questions.length) lines.push(`  asks: ${trace.final.questions.join(' | ')}`);
  const evidence = trace.final?.evidence;
  if (evidence) {
    const shown = JSON.stringify(evidence.output);
    lines.push(`  evidence (${evidence.tool}): ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown}`);
  }
  return lines;
}

/** Runs the embedded demo for the given packs (default all four). */
export async function dev(io: CliIo, opts: { pack?: string[]; record?: string }): Promise<CommandResult> {
  const packs = opts.pack?.length ? opts.pack : PACKS;
  for (const p of packs) {
    if (!(PACKS as readonly string[]).includes(p))
      throw new UsageError(`unknown pack "${p}" (known: ${PACKS.join(', ')})`);
  }
  const requests = DEMO_REQUESTS.filter((r) => packs.includes(r.pack));
  let done = 0;
  const result = await runEmbedded({
    repoRoot,
    requests,
    onFinished: (request) => {
      done++;
      io.stderr(`[dev] ${String(done)}/${String(requests.length)} finished: ${request.title}\n`);
    },
  });
  const text = [
    'Signalbox embedded run: five stages, in-memory bus, PGlite, demo tools (no Kafka/Java/PostgreSQL)',
    '',
  ];
  for (const trace of result.traces) text.push(...traceLines(trace), '');
  if (opts.record) {
    const files = await writeCorpus(result, opts.record);
    text.push(`recorded a replay corpus: ${files.join(', ')}`, '');
  }
  text.push(
    `side effects: ${Object.entries(result.actions)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}`,
  );
  return {
    exitCode: result.traces.every((t) => t.timeline.state === 'finished') ? 0 : 1,
    json: {
      traces: result.traces.map((t) => ({
        title: t.request.title,
        pack: t.request.pack,
        task_id: t.task_id,
        status: t.timeline.status,
        state: t.timeline.state,
        final: t.final,
        timeline: t.timeline,
      })),
      actions: result.actions,
    },
    text,
  };
}

/** Registers `dev`. */
export function registerDev(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('dev')
    .description(
      'embedded run: the scenario packs through all five stages in one process (no Kafka/PostgreSQL)',
    )
    .option(
      '--pack <name>',
      `a scenario pack (${PACKS.join(', ')}); repeatable; default all`,
      (v: string, prev: string[]) => [...prev, v],
      [],
    )
    .option('--record <dir>', "write each pack's traces as a replay corpus (EL-9) into this directory")
    .action(async (opts: { pack: string[]; record?: string }) => {
      done(await dev(io, opts));
    });
}
