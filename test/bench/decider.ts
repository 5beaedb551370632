// `pnpm bench:decider [--decisions N] [--sets multiple,…] [--warmup N] [--json] [--slowest N]` — what the tool decider costs per decision with
// the semantic model on.
//
// Two registries: 10 tools and 200 tools, taken from the public BFCL `multiple` set (SIGNALBOX_BFCL_DIR, default
// ../shared/eval/bfcl; real tool definitions written by many hands), with the distinct user questions of the public
// sets named by --sets (default `multiple`) as requests. Per registry, a scorer of its own (no vector carries over from
// the other registry), then:
// - first: one decision that also computes every tool's vectors (once per definition hash);
// - new: each request once, as production meets it — its texts (the request, its asks, pieces, acts and target
//   phrases) are embedded during the decision, unless an earlier request already had the same text;
// - repeat: the same requests again, every vector cached — what a re-plan or a redelivered message costs.
// Before each registry is measured, the process is warmed up: --warmup decisions (default 200) on requests of the other
// public sets (none of the measured ones), over a registry of copies of the same tools and with a scorer of its own, so
// no vector, definition hash or per-tool cache carries over to the measured decisions. A stage process is warm: V8 has
// compiled the planner's code and each regular expression (once per string width — the first request with a ’ or a
// Chinese character compiles them again for two-byte text), and onnxruntime has run inferences. Those one-time costs
// of a process are not a decision's; without the warm-up they land on the first measured decisions (--warmup 0). The
// public sets' requests are all one-byte text but for a few: each warm-up request with an apostrophe is also decided as
// many keyboards type it, with ’, so the two-byte forms are compiled too (else the first measured request with a ’
// pays for them).
// For each decision: the process's CPU time (main thread and onnxruntime's, from process.cpuUsage), split into the
// model's part (the embedder's own count: tokenising, inference, pooling) and the rest (the planner's rules, lexical
// scoring, cosines); wall time; inferences run and the tokens they read. The tokens are what the model's CPU follows
// (about 0.05 ms a token on this machine) without the noise of other processes: compare them when the CPU figures
// of two runs differ by less than that noise. Where Linux tells it (/proc/thread-self/schedstat), also the CPU of the
// thread that decides alone ("main"): process.cpuUsage counts V8's own threads too (concurrent marking, compiling),
// whose work lands on whichever decision was running, and the kernel adds another thread's time to the process's
// count only at its next tick. p50/p99 over the decisions. And the memory the model adds to a
// process: RSS before loading the models and after loading them and running every decision. Prints a table and,
// last, one JSON line. Figures, not assertions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOnnxEmbedder } from '@signalbox/embedder';
import { resolveBfclDir } from '@signalbox/eval';
import { createRegistry, importBfcl, type ToolDefinition } from '@signalbox/registry';
import { createSemanticScorer, planTools } from '@signalbox/tool-decider';

const { values: args } = parseArgs({
  options: {
    decisions: { type: 'string' },
    sets: { type: 'string', default: 'multiple' },
    json: { type: 'boolean', default: false },
    slowest: { type: 'string', default: '0' },
    warmup: { type: 'string', default: '200' },
  },
});
const SETS = [
  'multiple',
  'simple_python',
  'simple_javascript',
  'parallel',
  'parallel_multiple',
  'irrelevance',
];
const sets = args.sets.split(',').map((s) => s.trim());
for (const s of sets)
  if (!SETS.includes(s)) throw new Error(`--sets: "${s}" is not one of the public sets ${SETS.join(', ')}`);

const SLOWEST = Number(args.slowest);
if (!Number.isInteger(SLOWEST) || SLOWEST < 0)
  throw new Error(`--slowest must be a whole number, got ${args.slowest}`);
const WARMUP = Number(args.warmup);
if (!Number.isInteger(WARMUP) || WARMUP < 0)
  throw new Error(`--warmup must be a whole number, got ${args.warmup}`);
const dir = resolveBfclDir();
const questionsOf = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as { question: { role: string; content: string }[][] }).question)
    .map((q) =>
      q
        .flat()
        .filter((m) => m.role === 'user')
        .map((m) => m.content)
        .join('\n'),
    );
const file = join(dir, 'BFCL_v4_multiple.json');
const imported = importBfcl(readFileSync(file, 'utf8'), { file });
// Each request once: a request met twice is a repeat, measured as such.
const requests = [
  ...new Set(sets.flatMap((s) => questionsOf(readFileSync(join(dir, `BFCL_v4_${s}.json`), 'utf8')))),
].filter((q) => q.trim() !== '');
// The warm-up's requests: the other public sets' distinct questions, taken in turn from each set, none measured.
const measuredSet = new Set(requests);
const otherSets = SETS.filter((s) => !sets.includes(s)).map((s) =>
  questionsOf(readFileSync(join(dir, `BFCL_v4_${s}.json`), 'utf8')).filter(
    (q) => q.trim() !== '' && !measuredSet.has(q),
  ),
);
const warmupRequests = [
  ...new Set(
    Array.from({ length: Math.max(0, ...otherSets.map((q) => q.length)) }, (_, i) =>
      otherSets.flatMap((q) => (i < q.length ? [q[i] as string] : [])),
    ).flat(),
  ),
].slice(0, WARMUP);
const twoByteWarmup = warmupRequests.filter((q) => q.includes("'")).map((q) => q.replaceAll("'", '’'));
const DECISIONS = args.decisions === undefined ? requests.length - 1 : Number(args.decisions);
if (!Number.isInteger(DECISIONS) || DECISIONS < 20 || DECISIONS > requests.length - 1)
  throw new Error(
    `--decisions must be an integer from 20 to ${String(requests.length - 1)} (the distinct requests of ` +
      `${sets.join(', ')} but the first), got ${String(args.decisions)}`,
  );
const unique = new Map<string, ToolDefinition>();
for (const c of imported.cases) for (const t of c.definitions) if (!unique.has(t.name)) unique.set(t.name, t);
const allTools = [...unique.values()];
if (allTools.length < 200)
  throw new Error(`${file} has ${String(allTools.length)} distinct tools, fewer than 200`);

function registryOf(tools: readonly ToolDefinition[]) {
  return createRegistry({
    tools: tools.map((t) => ({ ...t, scenarios: ['bench'], visible_agents: ['*'] })),
    agents: [{ id: 'bench_agent', description: 'benchmark agent', max_permission: 'sensitive' }],
    scenes: [],
    tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'sensitive' }],
    profiles: [],
    policies: [],
    settings: { visibility_cap: 200 },
  });
}

// With --expose-gc (the package script passes it) garbage is collected before each reading, so the figures are what
// the process keeps, not what it has not collected yet.
const rssMiB = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss / 2 ** 20;
};
const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

const rssBefore = rssMiB();
const embedder = await createOnnxEmbedder();
const rssLoaded = rssMiB();

// The CPU time (ms) of the calling thread, from the kernel's scheduler statistics; null where there are none.
const SCHEDSTAT = '/proc/thread-self/schedstat';
const threadCpuMs = (): number | null => {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return null;
  }
};

interface Decision {
  request: string;
  cpu: number;
  /** The deciding thread's own CPU (NaN where the kernel does not tell it). */
  main: number;
  model: number;
  rest: number;
  wall: number;
  runs: number;
  tokens: number;
}
interface Figures {
  decisions: number;
  cpu_p50_ms: number;
  cpu_p99_ms: number;
  /** The deciding thread's CPU alone (null where the kernel does not tell it). */
  main_cpu_p50_ms: number | null;
  main_cpu_p99_ms: number | null;
  model_cpu_p50_ms: number;
  model_cpu_p99_ms: number;
  rest_cpu_p50_ms: number;
  rest_cpu_p99_ms: number;
  wall_p50_ms: number;
  wall_p99_ms: number;
  /** Inferences per decision (the distinct texts embedded), mean. */
  runs_mean: number;
  /** Tokens the model read per decision ([CLS] and [SEP] included), p50 and p99. */
  tokens_p50: number;
  tokens_p99: number;
  /** Share of the CPU of all these decisions that the model took. */
  model_share: number;
}
const figures = (ds: readonly Decision[]): Figures => {
  const q = (k: Exclude<keyof Decision, 'request'>, p: number) =>
    quantile(
      ds.map((d) => d[k]),
      p,
    );
  const total = (k: Exclude<keyof Decision, 'request'>) => ds.reduce((sum, d) => sum + d[k], 0);
  return {
    decisions: ds.length,
    cpu_p50_ms: q('cpu', 0.5),
    cpu_p99_ms: q('cpu', 0.99),
    main_cpu_p50_ms: ds.some((d) => Number.isNaN(d.main)) ? null : q('main', 0.5),
    main_cpu_p99_ms: ds.some((d) => Number.isNaN(d.main)) ? null : q('main', 0.99),
    model_cpu_p50_ms: q('model', 0.5),
    model_cpu_p99_ms: q('model', 0.99),
    rest_cpu_p50_ms: q('rest', 0.5),
    rest_cpu_p99_ms: q('rest', 0.99),
    wall_p50_ms: q('wall', 0.5),
    wall_p99_ms: q('wall', 0.99),
    runs_mean: total('runs') / Math.max(1, ds.length),
    tokens_p50: q('tokens', 0.5),
    tokens_p99: q('tokens', 0.99),
    model_share: total('model') / Math.max(1e-9, total('cpu')),
  };
};

interface Row {
  tools: number;
  first_cpu_ms: number;
  new: Figures;
  repeat: Figures;
}
const rows: Row[] = [];
for (const size of [10, 200]) {
  const registry = registryOf(allTools.slice(0, size));
  const semantic = createSemanticScorer(embedder);
  {
    const warmRegistry = registryOf(structuredClone(allTools.slice(0, size)));
    const warmSemantic = createSemanticScorer(embedder);
    for (const request of [...warmupRequests, ...twoByteWarmup])
      await planTools(
        warmRegistry,
        { request, agent: 'bench_agent', tenant: 'default', scenario: 'bench' },
        { semantic: warmSemantic },
      );
  }
  const decide = async (request: string): Promise<Decision> => {
    const before = { ...embedder.usage };
    const thread = threadCpuMs();
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await planTools(
      registry,
      { request, agent: 'bench_agent', tenant: 'default', scenario: 'bench' },
      { semantic },
    );
    const used = process.cpuUsage(cpu);
    const threadAfter = threadCpuMs();
    const total = (used.user + used.system) / 1000;
    const model = embedder.usage.cpu_ms - before.cpu_ms;
    return {
      request,
      cpu: total,
      main: thread === null || threadAfter === null ? NaN : threadAfter - thread,
      model,
      rest: Math.max(0, total - model),
      wall: performance.now() - t0,
      runs: embedder.usage.runs - before.runs,
      tokens: embedder.usage.tokens - before.tokens,
    };
  };
  const first = await decide(requests[0] as string);
  const measured = requests.slice(1, 1 + DECISIONS);
  const fresh: Decision[] = [];
  for (const request of measured) fresh.push(await decide(request));
  const again: Decision[] = [];
  for (const request of measured) again.push(await decide(request));
  rows.push({ tools: size, first_cpu_ms: first.cpu, new: figures(fresh), repeat: figures(again) });
  for (const [label, ds] of [
    ['new', fresh],
    ['repeat', again],
  ] as const)
    for (const d of [...ds].sort((a, b) => b.cpu - a.cpu).slice(0, SLOWEST))
      console.error(
        `slow ${String(size)} ${label}: cpu ${d.cpu.toFixed(2)} main ${d.main.toFixed(2)} model ${d.model.toFixed(2)} rest ${d.rest.toFixed(2)} ` +
          `runs ${String(d.runs)} tokens ${String(d.tokens)} — ${JSON.stringify(d.request.slice(0, 160))}`,
      );
}
const rssAfter = rssMiB();
const result = {
  sets,
  warmup_decisions: warmupRequests.length + twoByteWarmup.length,
  decisions_per_registry: DECISIONS,
  models: [...embedder.models.values()].map((m) => m.id),
  rss_mib: { before_models: rssBefore, models_loaded: rssLoaded, after_decisions: rssAfter },
  model_rss_mib: rssAfter - rssBefore,
  registries: rows,
};
await embedder.close();
if (!args.json) {
  const f = (n: number) => n.toFixed(2).padStart(8);
  const g = (n: number | null) => (n === null ? '-'.padStart(8) : f(n));
  console.log(
    `${String(DECISIONS)} requests (${sets.join(', ')}) per registry, each decided new and then repeated, after ` +
      `${String(warmupRequests.length + twoByteWarmup.length)} warm-up decisions on other requests\n` +
      'tools  requests  first CPU   CPU p50  CPU p99 | main p50 main p99 | model p50 model p99 | rest p50 rest p99 | ' +
      'wall p50 wall p99 | runs tokens p50/p99  model share',
  );
  for (const r of rows)
    for (const [label, x] of [
      ['new', r.new],
      ['repeat', r.repeat],
    ] as const)
      console.log(
        `${String(r.tools).padStart(5)}  ${label.padEnd(8)}  ${label === 'new' ? f(r.first_cpu_ms) : ' '.repeat(8)}  ` +
          `${f(x.cpu_p50_ms)} ${f(x.cpu_p99_ms)} | ${g(x.main_cpu_p50_ms)} ${g(x.main_cpu_p99_ms)} | ` +
          `${f(x.model_cpu_p50_ms)}  ${f(x.model_cpu_p99_ms)} | ` +
          `${f(x.rest_cpu_p50_ms)} ${f(x.rest_cpu_p99_ms)} | ${f(x.wall_p50_ms)} ${f(x.wall_p99_ms)} | ` +
          `${x.runs_mean.toFixed(1).padStart(4)} ${String(x.tokens_p50).padStart(6)} ${String(x.tokens_p99).padStart(4)}  ` +
          `      ${(x.model_share * 100).toFixed(0).padStart(3)} %`,
      );
  console.log(
    `RSS: ${rssBefore.toFixed(0)} MiB before the models, ${rssLoaded.toFixed(0)} MiB loaded, ` +
      `${rssAfter.toFixed(0)} MiB after the decisions → the model adds ${(rssAfter - rssBefore).toFixed(0)} MiB`,
  );
}
console.log(JSON.stringify(result));
