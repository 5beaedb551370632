// `signalbox redecide` (EL-7): counterfactual replay. Each recorded decision of a stage is taken again by the same
// pure decision function (the services' decide.ts) on its recorded input, under the current registry (a directory) or
// a published version, and compared with what was recorded. Nothing is published and no tool is called: the
// executor's decisions are its recorded tool results, so it is never re-run; decisions are deterministic without a
// model, and recorded model responses would be answered by a replay provider.
import { INPUT_TOPIC_OF, PIPELINE_STAGES, type PipelineStage } from '@signalbox/contracts';
import type { EventStore, StoredEvent, TraceFilter } from '@signalbox/event-log';
import type { Registry } from '@signalbox/registry';
import type { Decision, StageDefinition, StageInput } from '@signalbox/stage-kit';
import { modelSelectorDefinition } from '@signalbox/model-selector';
import { parameterInjectorDefinition } from '@signalbox/parameter-injector';
import { resultEvaluatorDefinition } from '@signalbox/result-evaluator';
import { toolDeciderDefinition } from '@signalbox/tool-decider';

/** Stages whose decisions can be re-taken without side effects (the executor's decision is a tool's answer). */
export const REDECIDABLE_STAGES = [
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'result_evaluator',
] as const;
export type RedecidableStage = (typeof REDECIDABLE_STAGES)[number];

/** The production definition of each stage under a given registry. */
export function stageDefinitions(registry: Registry): Record<RedecidableStage, StageDefinition> {
  return {
    model_selector: modelSelectorDefinition({ registry }),
    tool_decider: toolDeciderDefinition({ registry }),
    parameter_injector: parameterInjectorDefinition({ registry }),
    result_evaluator: resultEvaluatorDefinition({ registry }),
  };
}

/** One re-taken decision. */
export interface DecisionDiff {
  task_id: string;
  stage: PipelineStage;
  /** The recorded decision's event id (and the input it reacted to). */
  event_id: string;
  causation_id: string;
  changed: boolean;
  recorded: { event_type: string; decision_reason: string; summary: string };
  redecided: { event_type: string; decision_reason: string; summary: string };
  /** JSON paths that differ (first few), empty when unchanged. */
  differences: string[];
}

export interface RedecideSummary {
  stage: RedecidableStage | 'all';
  registry_version: string;
  tasks: number;
  decisions: number;
  changed_decisions: number;
  changed_tasks: number;
  /** Inputs not in the log (e.g. tasks published to Kafka directly, without the API's submitted event). */
  skipped: number;
  /** Why decisions changed: the re-taken decision_reason, most frequent first. */
  reasons: { reason: string; count: number }[];
  diffs: DecisionDiff[];
}

/** What a decision is summarised as in a diff: a plan's tools, a selection's model, a status, a call's tool. */
function summarise(eventType: string, payload: unknown): string {
  const p = (payload ?? {}) as Record<string, unknown>;
  const plan = p.plan as { steps?: { tool: string }[] } | undefined;
  const selection = p.selection as { primary?: string } | undefined;
  const call = p.call as { tool?: string; arguments?: unknown } | undefined;
  if (eventType === 'task_planned') return `plan [${(plan?.steps ?? []).map((s) => s.tool).join(' → ')}]`;
  if (eventType === 'model_selected') return `model ${selection?.primary ?? '?'}`;
  if (eventType === 'step_prepared')
    return `call ${call?.tool ?? '?'} ${JSON.stringify(call?.arguments ?? {})}`;
  if (eventType === 'task_finished') return `finished ${String(p.status)}`;
  return eventType;
}

/** What the event log stores in place of a sensitive value (PI-5); such a value is not compared. */
const REDACTED = '[REDACTED]';

function differences(a: unknown, b: unknown, path = '$', out: string[] = [], max = 5): string[] {
  if (out.length >= max) return out;
  if (a === b || b === REDACTED) return out;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    out.push(path);
    return out;
  }
  if (Array.isArray(a) !== Array.isArray(b)) {
    out.push(path);
    return out;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort()) {
    differences(ao[key], bo[key], Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`, out, max);
    if (out.length >= max) break;
  }
  return out;
}

/** Re-takes the recorded decisions of `stages` in one task's events (EL-7, EL-9). */
export async function redecideEvents(
  taskId: string,
  events: readonly StoredEvent[],
  definitions: Record<RedecidableStage, StageDefinition>,
  stages: readonly RedecidableStage[],
): Promise<{ diffs: DecisionDiff[]; skipped: number }> {
  const diffs: DecisionDiff[] = [];
  let skipped = 0;
  const byId = new Map<string, StoredEvent>(events.map((e) => [e.envelope.event_id, e]));
  for (const recorded of events) {
    const s = recorded.envelope.stage;
    if (!(stages as readonly string[]).includes(s) || recorded.envelope.event_type === 'failed') continue;
    const definition = definitions[s as RedecidableStage];
    const cause = recorded.envelope.causation_id ? byId.get(recorded.envelope.causation_id) : undefined;
    if (!cause || cause.topic !== INPUT_TOPIC_OF[definition.stage].name) {
      skipped++;
      continue;
    }
    const input = { ...cause.envelope, payload: cause.payload } as StageInput;
    const decision: Decision = await definition.decide(input, {
      stage: definition.stage,
      versions: definition.versions(),
    });
    // Compared as stored: the event log keeps JSON.
    const redecided = JSON.parse(JSON.stringify(decision.payload ?? null)) as unknown;
    const found = differences(redecided, recorded.payload);
    const changed = decision.event_type !== recorded.envelope.event_type || found.length > 0;
    diffs.push({
      task_id: taskId,
      stage: definition.stage,
      event_id: recorded.envelope.event_id,
      causation_id: cause.envelope.event_id,
      changed,
      recorded: {
        event_type: recorded.envelope.event_type,
        decision_reason: recorded.envelope.decision_reason,
        summary: summarise(recorded.envelope.event_type, recorded.payload),
      },
      redecided: {
        event_type: decision.event_type,
        decision_reason: decision.decision_reason,
        summary: summarise(decision.event_type, decision.payload),
      },
      differences: changed ? (found.length ? found : ['$event_type']) : [],
    });
  }
  return { diffs, skipped };
}

/** Re-takes the recorded decisions of `stage` (or every re-decidable stage) for the tasks the filter selects. */
export async function redecideTasks(
  store: EventStore,
  registry: Registry,
  stage: RedecidableStage | 'all',
  filter: TraceFilter,
  /** Called after each task with how many are done of how many. */
  onTask?: (done: number, total: number) => void,
): Promise<RedecideSummary> {
  const definitions = stageDefinitions(registry);
  const stages: RedecidableStage[] = stage === 'all' ? [...REDECIDABLE_STAGES] : [stage];
  const taskIds = await store.findTasks(filter);
  const diffs: DecisionDiff[] = [];
  let skipped = 0;
  let done = 0;
  for (const taskId of taskIds) {
    const result = await redecideEvents(taskId, await store.readTask(taskId), definitions, stages);
    diffs.push(...result.diffs);
    skipped += result.skipped;
    onTask?.(++done, taskIds.length);
  }
  const changedDiffs = diffs.filter((d) => d.changed);
  const reasonCounts = new Map<string, number>();
  for (const d of changedDiffs) {
    reasonCounts.set(d.redecided.decision_reason, (reasonCounts.get(d.redecided.decision_reason) ?? 0) + 1);
  }
  return {
    stage,
    registry_version: registry.versions.registry_version,
    tasks: taskIds.length,
    decisions: diffs.length,
    changed_decisions: changedDiffs.length,
    changed_tasks: new Set(changedDiffs.map((d) => d.task_id)).size,
    skipped,
    reasons: [...reasonCounts]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count),
    diffs,
  };
}

/** The human summary: "12 of 60 decisions change (12 tasks); here is why: …". */
export function formatRedecide(summary: RedecideSummary): string[] {
  const lines = [
    `${String(summary.changed_decisions)} of ${String(summary.decisions)} ${summary.stage} decisions change ` +
      `(${String(summary.changed_tasks)} of ${String(summary.tasks)} tasks) under registry ${summary.registry_version.slice(0, 19)}` +
      (summary.skipped ? `; ${String(summary.skipped)} skipped (input not in the log)` : ''),
  ];
  for (const d of summary.diffs.filter((x) => x.changed)) {
    lines.push(`  ${d.task_id} ${d.stage}: ${d.recorded.summary} → ${d.redecided.summary}`);
    lines.push(`      why: ${d.redecided.decision_reason.slice(0, 200)}`);
  }
  return lines;
}

export { PIPELINE_STAGES };
