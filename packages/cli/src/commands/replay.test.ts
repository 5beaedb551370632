import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TraceCorpus, replayCorpus } from './replay.js';

// The frozen corpus (EL-9): traces recorded by `signalbox dev --record packages/cli/fixtures/traces`, with the
// registry content they ran under. Tests only read it; re-record on purpose when a stage's behaviour changes.
const dir = fileURLToPath(new URL('../../fixtures/traces/', import.meta.url));

async function corpora(): Promise<TraceCorpus[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    files.map(async (f) => TraceCorpus.parse(JSON.parse(await readFile(`${dir}${f}`, 'utf8')))),
  );
}

describe('frozen trace corpus (EL-9)', () => {
  it('covers the four scenario packs', async () => {
    expect((await corpora()).map((c) => c.pack).sort()).toEqual([
      'after-sales',
      'office',
      'reach',
      'research',
    ]);
  });

  it('replays every recorded decision of the four decision stages unchanged', async () => {
    for (const corpus of await corpora()) {
      const result = await replayCorpus(corpus);
      expect(result.decisions, corpus.pack).toBeGreaterThan(0);
      expect(result.skipped, corpus.pack).toBe(0);
      expect(
        result.changed.map((d) => `${d.task_id} ${d.stage} ${d.differences.join(',')}`),
        corpus.pack,
      ).toEqual([]);
    }
    // Every decision of eleven traces is re-run with the real embedding models (the first decision on each registry
    // embeds all its tools): about 4 s on an idle 2-core machine, more while other suites share it.
  }, 30_000);

  it('fails when a decision function changes behaviour (a deliberate change to the tool decider)', async () => {
    let changed = 0;
    for (const corpus of await corpora()) {
      const result = await replayCorpus(corpus, (defs) => ({
        ...defs,
        tool_decider: {
          ...defs.tool_decider,
          // The deliberate change: plans lose their candidate scores.
          decide: async (input, ctx) => {
            const decision = await defs.tool_decider.decide(input, ctx);
            const payload = decision.payload as { plan?: { candidate_scores: unknown[] } };
            if (payload.plan) payload.plan.candidate_scores = [];
            return decision;
          },
        },
      }));
      expect(result.changed.every((d) => d.stage === 'tool_decider')).toBe(true);
      changed += result.changed.length;
    }
    expect(changed).toBeGreaterThan(0);
  });

  it('notices a recorded decision the code would not take again', async () => {
    const [corpus] = await corpora();
    const tampered = structuredClone(corpus!);
    const event = tampered.tasks
      .flatMap((t) => t.events)
      .find((e) => e.envelope.stage === 'model_selector' && e.envelope.event_type === 'model_selected')!;
    (event.payload as { selection: { primary: string } }).selection.primary = 'some-other-model';
    const result = await replayCorpus(tampered);
    // The tampered decision differs; so may the next stage's, which reacted to it as its input.
    const own = result.changed.find((d) => d.event_id === event.envelope.event_id);
    expect(own?.differences).toContain('$.selection.primary');
    expect(result.changed.every((d) => ['model_selector', 'tool_decider'].includes(d.stage))).toBe(true);
  });
});
