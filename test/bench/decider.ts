// `pnpm bench:decider [--decisions N] [--json]` — what the tool decider costs per decision with the semantic model on.
//
// Two registries: 10 tools and 200 tools, taken from the public BFCL `multiple` set (SIGNALBOX_BFCL_DIR, default
// ../shared/eval/bfcl; real tool definitions written by many hands), with that set's questions as requests. Per
// registry: the first decision (every tool's vectors computed once per definition hash) and then N decisions on
// warm caches — the process's CPU time per decision (main thread and onnxruntime's, from process.cpuUsage) and wall
// time, p50/p99. And the memory the model adds to a process: RSS before loading the models and after loading them
// and running the decisions. Prints a table and, last, one JSON line. Figures, not assertions.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createOnnxEmbedder } from '@signalbox/embedder';
import { resolveBfclDir } from '@signalbox/eval';
import { createRegistry, importBfcl, type ToolDefinition } from '@signalbox/registry';
import { createSemanticScorer, planTools } from '@signalbox/tool-decider';

const { values: args } = parseArgs({
  options: { decisions: { type: 'string', default: '400' }, json: { type: 'boolean', default: false } },
});
const DECISIONS = Number(args.decisions);
if (!Number.isInteger(DECISIONS) || DECISIONS < 20)
  throw new Error(`--decisions must be an integer ≥ 20, got ${args.decisions}`);

const dir = resolveBfclDir();
const file = join(dir, 'BFCL_v4_multiple.json');
const imported = importBfcl(readFileSync(file, 'utf8'), { file });
const questions = readFileSync(file, 'utf8')
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
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

const rssBefore = rssMiB();
const embedder = await createOnnxEmbedder();
const rssLoaded = rssMiB();
const semantic = createSemanticScorer(embedder);

interface Row {
  tools: number;
  first_cpu_ms: number;
  cpu_p50_ms: number;
  cpu_p99_ms: number;
  wall_p50_ms: number;
  wall_p99_ms: number;
}
const rows: Row[] = [];
for (const size of [10, 200]) {
  const registry = registryOf(allTools.slice(0, size));
  const decide = async (request: string) => {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    await planTools(
      registry,
      { request, agent: 'bench_agent', tenant: 'default', scenario: 'bench' },
      { semantic },
    );
    const used = process.cpuUsage(cpu);
    return { cpu: (used.user + used.system) / 1000, wall: performance.now() - t0 };
  };
  const first = await decide(questions[0] ?? 'hello');
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let i = 0; i < DECISIONS; i++) {
    const r = await decide(questions[(i + 1) % questions.length] ?? '');
    cpu.push(r.cpu);
    wall.push(r.wall);
  }
  rows.push({
    tools: size,
    first_cpu_ms: first.cpu,
    cpu_p50_ms: quantile(cpu, 0.5),
    cpu_p99_ms: quantile(cpu, 0.99),
    wall_p50_ms: quantile(wall, 0.5),
    wall_p99_ms: quantile(wall, 0.99),
  });
}
const rssAfter = rssMiB();
const result = {
  decisions_per_registry: DECISIONS,
  models: [...embedder.models.values()].map((m) => m.id),
  rss_mib: { before_models: rssBefore, models_loaded: rssLoaded, after_decisions: rssAfter },
  model_rss_mib: rssAfter - rssBefore,
  registries: rows,
};
await embedder.close();
if (!args.json) {
  const f = (n: number) => n.toFixed(2).padStart(8);
  console.log('tools  first CPU ms  CPU p50  CPU p99  wall p50  wall p99');
  for (const r of rows)
    console.log(
      `${String(r.tools).padStart(5)}  ${f(r.first_cpu_ms)}    ${f(r.cpu_p50_ms)} ${f(r.cpu_p99_ms)} ${f(r.wall_p50_ms)} ${f(r.wall_p99_ms)}`,
    );
  console.log(
    `RSS: ${rssBefore.toFixed(0)} MiB before the models, ${rssLoaded.toFixed(0)} MiB loaded, ` +
      `${rssAfter.toFixed(0)} MiB after the decisions → the model adds ${(rssAfter - rssBefore).toFixed(0)} MiB`,
  );
}
console.log(JSON.stringify(result));
