// Scratch (deleted before handing back): id → prepared outcome for every case of a set, one JSON line each.
import { readFileSync } from 'node:fs';
import { importBfcl } from '../../../packages/registry/src/index.js';
import { loadBfclSet } from '../../../packages/eval/src/index.js';
import { bfclCaseRegistry, bfclTask, prepareCalls } from '../../../packages/cli/src/commands/eval-bfcl.js';
import { deciderSemantic } from '../../../packages/cli/src/semantic.js';
import { planTools } from '../../../services/tool-decider/src/index.js';

const [dir, set] = process.argv.slice(2);
const cases = loadBfclSet(set as never, { dir: dir! });
const file = `${dir}/BFCL_v4_${set}.json`;
const imported = importBfcl(readFileSync(file, 'utf8'), { file });
const defs = new Map(imported.cases.map((c) => [c.id, c.definitions]));
const semantic = await deciderSemantic(process.env);
for (const c of cases) {
  const registry = bfclCaseRegistry(defs.get(c.id) ?? []);
  const task = bfclTask(c);
  const out = await planTools(registry, { request: task.request, context: '', agent: 'bfcl_agent', tenant: 'default', scenario: 'bfcl', needsFreshData: false } as never, { semantic });
  const p = prepareCalls(registry, out.plan, task);
  console.log(JSON.stringify({ id: c.id, q: task.request.slice(0, 200), steps: out.plan.steps.map((s) => s.tool), calls: p.calls, clar: p.clarification?.fields ?? null }));
}
