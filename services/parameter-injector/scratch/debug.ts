// Scratch (deleted before handing back): prints the plan step and build log for BFCL case ids.
import { readFileSync } from 'node:fs';
import { importBfcl } from '../../../packages/registry/src/index.js';
import { loadBfclSet } from '../../../packages/eval/src/index.js';
import { bfclCaseRegistry, bfclTask, prepareCalls } from '../../../packages/cli/src/commands/eval-bfcl.js';
import { deciderSemantic } from '../../../packages/cli/src/semantic.js';
import { planTools } from '../../../services/tool-decider/src/index.js';
import { buildArguments } from '../src/build.js';

const [dir, set, ...ids] = process.argv.slice(2);
const cases = loadBfclSet(set as never, { dir: dir! });
const file = `${dir}/BFCL_v4_${set}.json`;
const imported = importBfcl(readFileSync(file, 'utf8'), { file });
const defs = new Map(imported.cases.map((c) => [c.id, c.definitions]));
const semantic = await deciderSemantic(process.env);
for (const id of ids) {
  const c = cases.find((x) => x.id === id)!;
  const registry = bfclCaseRegistry(defs.get(id) ?? []);
  const task = bfclTask(c);
  const out = await planTools(registry, { request: task.request, context: '', agent: 'bfcl_agent', tenant: 'default', scenario: 'bfcl', needsFreshData: false } as never, { semantic });
  console.log('=====', id, task.request);
  for (const step of out.plan.steps) {
    console.log('step', step.tool, JSON.stringify(step.input_from));
    const tool = registry.tool(step.tool)!;
    const b = buildArguments({ tool, step, task, history: [], proposals: null, sensitive: new Set() });
    console.log(b.log.join('\n'));
  }
  console.log(JSON.stringify(prepareCalls(registry, out.plan, task)));
}
