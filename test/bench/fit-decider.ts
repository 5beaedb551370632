// `pnpm fit:decider [--public DIR] [--live DIR] [--json]` — how RETRIEVAL_CONFIG.semanticWeights were chosen, as a
// program anyone can run again.
//
// Every (request, visible tool) pair of the development data — the public BFCL sets and the development half of the
// live sets, never the held-out half — becomes one row: the features the decider's fit weighs (retrieval.ts, with the
// semantic model) and a label (is the tool a gold call of the request?). One logistic regression over the rows, each
// set weighing the same (a set's rows share 1 / its number of records, spread over its records' tools), a small L2
// penalty. Printed: the fitted weights and bias, the configured ones, and tool choice per set under the fitted
// weights at several bias shifts and in two-fold cross-validation by record id (a hash of the id, so the folds are
// the same on every run). The operating point (the configured bias) is a choice made from this table and the
// pipeline's own scores (`signalbox eval bfcl`); see services/tool-decider/README.md.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOnnxEmbedder } from '@signalbox/embedder';
import { BFCL_SETS, loadBfclSet, resolveBfclDir } from '@signalbox/eval';
import { importBfcl, type ToolDefinition } from '@signalbox/registry';
import {
  RETRIEVAL_CONFIG,
  createLexicalIndex,
  createSemanticScorer,
  semanticFeatures,
  targetPhrase,
  type ScoredTool,
} from '@signalbox/tool-decider';

const { values: args } = parseArgs({
  options: {
    public: { type: 'string' },
    live: { type: 'string', default: resolveBfclDir({ SIGNALBOX_BFCL_DIR: '../shared/eval/bfcl-live-dev' }) },
    json: { type: 'boolean', default: false },
  },
});
const folders = [args.public ?? resolveBfclDir(), args.live];
const FEATURES = Object.keys(RETRIEVAL_CONFIG.semanticWeights).filter((k) => k !== 'bias');
const log = (msg: string) => process.stderr.write(`[fit] ${msg}\n`);

interface Row {
  set: string;
  id: string;
  gold: string[];
  /** Per visible tool: its features, and whether the TD-6 rule of the asked thing refuses it (`features.unnamed`). */
  tools: { name: string; x: number[]; refused: boolean }[];
}

function featuresOf(s: ScoredTool, alone: boolean): number[] {
  const values: Record<string, number> = semanticFeatures(s.features, alone, true);
  return FEATURES.map((k) => values[k] ?? 0);
}

const semantic = createSemanticScorer(await createOnnxEmbedder());
const rows: Row[] = [];
for (const dir of folders) {
  for (const set of BFCL_SETS) {
    const file = join(dir, `BFCL_v4_${set}.json`);
    if (!existsSync(file)) continue;
    const cases = loadBfclSet(set, { dir });
    const imported = importBfcl(readFileSync(file, 'utf8'), { file });
    const definitions = new Map(imported.cases.map((c) => [c.id, c.definitions]));
    for (const c of cases) {
      const tools: readonly ToolDefinition[] = definitions.get(c.id) ?? [];
      if (tools.length === 0) continue;
      const request = c.question
        .flat()
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n');
      const target = targetPhrase(request);
      const sims = await semantic.similarities(
        request,
        [request, target].filter((t) => t.trim() !== ''),
        tools,
      );
      const scored = createLexicalIndex(tools).score(request, {
        request: (t) => sims.of(request, t),
        target: (t) => (target.trim() === '' ? undefined : sims.of(target, t)),
      });
      rows.push({
        set,
        id: c.id,
        gold: [...new Set(c.expected.map((e) => e.name))],
        tools: scored.map((s) => ({
          name: s.tool.name,
          x: featuresOf(s, tools.length === 1),
          refused: s.features.unnamed === 1,
        })),
      });
    }
    log(`${set}: ${String(cases.length)} records`);
  }
}

const perSet = new Map<string, number>();
for (const r of rows) perSet.set(r.set, (perSet.get(r.set) ?? 0) + 1);

function fit(train: readonly Row[]): number[] {
  const X: number[][] = [];
  const y: number[] = [];
  const w: number[] = [];
  for (const r of train)
    for (const t of r.tools) {
      X.push([...t.x, 1]);
      y.push(r.gold.includes(t.name) ? 1 : 0);
      w.push(1 / (perSet.get(r.set) ?? 1) / r.tools.length);
    }
  const total = w.reduce((a, b) => a + b, 0);
  const theta = new Array<number>(FEATURES.length + 1).fill(0);
  for (let iteration = 0; iteration < 4000; iteration++) {
    const grad = new Array<number>(theta.length).fill(0);
    X.forEach((x, i) => {
      const z = x.reduce((sum, v, j) => sum + v * (theta[j] ?? 0), 0);
      const err = (1 / (1 + Math.exp(-z)) - (y[i] ?? 0)) * (w[i] ?? 0);
      x.forEach((v, j) => (grad[j] = (grad[j] ?? 0) + err * v));
    });
    theta.forEach((t, j) => {
      const l2 = j < FEATURES.length ? 1e-3 * t : 0;
      theta[j] = t - 2 * ((grad[j] ?? 0) / total + l2);
    });
  }
  return theta;
}

function toolChoice(theta: readonly number[], cases: readonly Row[], shift: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const set of perSet.keys()) {
    const mine = cases.filter((r) => r.set === set);
    if (mine.length === 0) continue;
    let right = 0;
    for (const r of mine) {
      // A tool the rule of the asked thing refuses is never called, whatever its weighed fit (retrieval.ts).
      const z = r.tools.map((t) =>
        t.refused ? -Infinity : t.x.reduce((s, v, j) => s + v * (theta[j] ?? 0), theta.at(-1) ?? 0) + shift,
      );
      const best = z.indexOf(Math.max(...z));
      const call = (z[best] ?? -1) >= 0;
      if (r.gold.length === 0) right += call ? 0 : 1;
      else if (set === 'live_relevance') right += call ? 1 : 0;
      else right += call && r.gold.includes(r.tools[best]?.name ?? '') ? 1 : 0;
    }
    out[set] = Math.round((right / mine.length) * 1000) / 1000;
  }
  return out;
}

const fold = (r: Row) => (createHash('sha1').update(r.id).digest()[0] ?? 0) % 2;
const theta = fit(rows);
const fitted = Object.fromEntries(
  [...FEATURES, 'bias'].map((k, i) => [k, Math.round((theta[i] ?? 0) * 100) / 100]),
);
const shifts = [0, 0.5, 1, 1.4];
const result = {
  rows: rows.length,
  fitted,
  configured: RETRIEVAL_CONFIG.semanticWeights,
  by_shift: Object.fromEntries(shifts.map((s) => [String(s), toolChoice(theta, rows, s)])),
  cross_validation: [0, 1].map((f) =>
    toolChoice(
      fit(rows.filter((r) => fold(r) !== f)),
      rows.filter((r) => fold(r) === f),
      0,
    ),
  ),
};
if (!args.json) {
  console.log('fitted', JSON.stringify(fitted));
  console.log('configured', JSON.stringify(RETRIEVAL_CONFIG.semanticWeights));
  for (const [s, scores] of Object.entries(result.by_shift))
    console.log(`bias +${s}`, JSON.stringify(scores));
  result.cross_validation.forEach((scores, f) => {
    console.log(`fold ${String(f)}`, JSON.stringify(scores));
  });
}
console.log(JSON.stringify(result));
