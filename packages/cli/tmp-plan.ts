import { loadRegistryDir, createRegistry } from '@signalbox/registry';
import { planTools } from '@signalbox/tool-decider';
const [pack, agent, request] = process.argv.slice(2);
const reg: any = await loadRegistryDir(`registry/packs/${pack}`);
const out = planTools(reg, {
  request: request!,
  agent: agent!,
  tenant: 'default',
  scenario: null,
  context: '',
} as any);
console.log(out.status, out.intent, out.decision_reason);
console.log(
  JSON.stringify(
    out.plan.steps.map((s) => ({ tool: s.tool, input_from: s.input_from })),
    null,
    0,
  ),
);
console.log(JSON.stringify(out.plan.rejected, null, 0).slice(0, 1500));
