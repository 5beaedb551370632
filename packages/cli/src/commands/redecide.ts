// `signalbox redecide` (EL-7): counterfactual replay. Each recorded decision of a stage is taken again by the same
// pure decision function (the services' decide.ts) on its recorded input, under the current registry (a directory) or
// a published version, and compared with what was recorded. Nothing is published and no tool is called: the
// executor's decisions are its recorded tool results, so it is never re-run. A decision's model calls are answered
// from the exchanges recorded with it (EL-9); a request the recording does not answer — the new registry or policy
// asks the model something else — is reported as "model not recorded for this request", and goes to a live model
// only when the caller passes one (`--live-models`).
import { INPUT_TOPIC_OF, type PipelineStage, type StageMessage } from '@signalbox/contracts';
import {
  SECRET_REDACTED,
  redactPaths,
  redactSecretValues,
  secretsAt,
  type EventStore,
  type ModelExchangeError,
  type StoredEvent,
  type TraceFilter,
} from '@signalbox/event-log';
import { UnrecordedRequestError } from '@signalbox/providers';
import type { Registry } from '@signalbox/registry';
import {
  replayExchanges,
  type Decision,
  type ModelLookup,
  type StageDefinition,
  type UnrecordedModelCall,
} from '@signalbox/stage-kit';
import { modelSelectorDefinition } from '@signalbox/model-selector';
import { parameterInjectorDefinition } from '@signalbox/parameter-injector';
import { resultEvaluatorDefinition } from '@signalbox/result-evaluator';
import { toolDeciderDefinition, type SemanticScorer } from '@signalbox/tool-decider';
import { deciderSemantic } from '../semantic.js';

/** Stages whose decisions can be re-taken without side effects (the executor's decision is a tool's answer). */
export const REDECIDABLE_STAGES = [
  'model_selector',
  'tool_decider',
  'parameter_injector',
  'result_evaluator',
] as const;
export type RedecidableStage = (typeof REDECIDABLE_STAGES)[number];

/** The production definition of each stage under a given registry and the decider's semantic model. */
export function stageDefinitions(
  registry: Registry,
  semantic: SemanticScorer | null,
): Record<RedecidableStage, StageDefinition> {
  return {
    model_selector: modelSelectorDefinition({ registry }),
    tool_decider: toolDeciderDefinition({ registry, semantic }),
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
  /** What the re-taken decision asked of models (EL-7, EL-9). */
  models: {
    /** Exchanges recorded with the original decision. */
    recorded: number;
    /** Calls of the re-taken decision answered from them. */
    replayed: number;
    /** Calls no recorded exchange answers: "model not recorded for this request" (unless asked live). */
    not_recorded: UnrecordedModelCall[];
    /**
     * Recorded calls that failed (timeout, provider error…): a re-taken decision that asks the same gets the same
     * failure (EL-9), so it takes the path the recorded one took.
     */
    failed: RecordedFailedCall[];
  };
  /** Why the decision could not be taken again, when it could not; it then counts as changed. */
  error: string | null;
}

/** A recorded model call that failed, as a diff lists it. */
export interface RecordedFailedCall {
  profile_id: string;
  request_hash: string;
  /** `failureText` of the recorded error: "ProviderTimeoutError: … (timeout, retriable)". */
  error: string;
}

/** A recorded model-call failure on one line: class, first line of the message (capped), timeout / retriable. */
export function failureText(error: ModelExchangeError): string {
  const message = (error.message.split('\n')[0] ?? '').slice(0, 200);
  const flags = [error.timeout ? 'timeout' : '', error.retriable ? 'retriable' : ''].filter(Boolean);
  return `${error.name}: ${message}${flags.length > 0 ? ` (${flags.join(', ')})` : ''}`;
}

/** How a re-taken decision that asks a model something never recorded is reported. */
export const MODEL_NOT_RECORDED = 'model not recorded for this request';

/** Which models re-decide may use besides the recorded exchanges. */
export interface RedecideModels {
  /**
   * Profiles to treat as having a model, besides those the same stage asked in the task (its recorded exchanges say
   * a model was configured for it): a decision that would ask one of them something not recorded is reported rather
   * than taking the no-model path. Any other profile stays deterministic, as it was when recorded.
   * @default none
   */
  configured?: readonly string[];
  /** Live models to ask what the recording does not answer (`--live-models`). @default none: never a live call */
  live?: ModelLookup;
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
  /** Decisions that asked a model something no recorded exchange answers ({@link MODEL_NOT_RECORDED}). */
  model_not_recorded: number;
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
const REDACTED = SECRET_REDACTED;

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

/** Options of {@link redecideEvents}. */
export interface RedecideEventsOptions {
  /** Models besides the recorded exchanges. @default none */
  models?: RedecideModels;
  /**
   * The same events as operators may see them (secrets redacted), for the diff's summaries; `events` then carry
   * their secrets, so inputs and prompts are exactly the recorded ones. @default `events`
   */
  shown?: ReadonlyMap<string, StoredEvent>;
}

/**
 * Re-takes the recorded decisions of `stages` in one task's events (EL-7, EL-9). Each decision's model calls are
 * answered from `exchanges` recorded with it (events read `withExchanges`; none: it asked no model).
 */
export async function redecideEvents(
  taskId: string,
  events: readonly StoredEvent[],
  definitions: Record<RedecidableStage, StageDefinition>,
  stages: readonly RedecidableStage[],
  options: RedecideEventsOptions = {},
): Promise<{ diffs: DecisionDiff[]; skipped: number }> {
  const diffs: DecisionDiff[] = [];
  let skipped = 0;
  const byId = new Map<string, StoredEvent>(events.map((e) => [e.envelope.event_id, e]));
  // A profile whose model a stage asked in this task had a model configured for that stage when it was recorded.
  const askedByStage = new Map<string, Set<string>>();
  for (const e of events) {
    for (const x of e.exchanges ?? []) {
      const set = askedByStage.get(e.envelope.stage) ?? new Set<string>();
      set.add(x.profile_id);
      askedByStage.set(e.envelope.stage, set);
    }
  }
  for (const recorded of events) {
    const s = recorded.envelope.stage;
    if (!(stages as readonly string[]).includes(s) || recorded.envelope.event_type === 'failed') continue;
    const definition = definitions[s as RedecidableStage];
    const cause = recorded.envelope.causation_id ? byId.get(recorded.envelope.causation_id) : undefined;
    if (!cause || cause.topic !== INPUT_TOPIC_OF[definition.stage].name) {
      skipped++;
      continue;
    }
    // The cause was recorded as published on the stage's input topic (checked just above), so it is one of its kinds.
    const input = { ...cause.envelope, payload: cause.payload } as StageMessage;
    const exchanges = recorded.exchanges ?? [];
    const replay = replayExchanges(exchanges, {
      configured: [...(options.models?.configured ?? []), ...(askedByStage.get(s) ?? [])],
      ...(options.models?.live ? { live: options.models.live } : {}),
    });
    let decision: Decision | undefined;
    let error: string | null = null;
    try {
      decision = await definition.decide(input, {
        stage: definition.stage,
        versions: definition.versions(),
        models: replay.models,
      });
    } catch (err) {
      error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
    const notRecorded = replay.unrecorded();
    // Asked something the recording does not answer, and no live model took the question.
    const unanswered = notRecorded.filter((m) => !m.asked_live);
    if (error !== null && (unanswered.length > 0 || error.startsWith(UnrecordedRequestError.name))) {
      error = MODEL_NOT_RECORDED;
    }
    const failed = exchanges.flatMap((x) =>
      x.error === undefined
        ? []
        : [{ profile_id: x.profile_id, request_hash: x.request_hash, error: failureText(x.error) }],
    );
    const models = {
      recorded: exchanges.length,
      replayed: replay.replayed,
      not_recorded: notRecorded,
      failed,
    };
    const shown = options.shown?.get(recorded.envelope.event_id) ?? recorded;
    const recordedSide = {
      event_type: recorded.envelope.event_type,
      decision_reason: recorded.envelope.decision_reason,
      summary: summarise(recorded.envelope.event_type, shown.payload),
    };
    const base = {
      task_id: taskId,
      stage: definition.stage,
      event_id: recorded.envelope.event_id,
      causation_id: cause.envelope.event_id,
      recorded: recordedSide,
      models,
    };
    if (!decision) {
      diffs.push({
        ...base,
        changed: true,
        redecided: {
          event_type: 'not_redecided',
          decision_reason: error ?? 'no decision',
          summary: error === MODEL_NOT_RECORDED ? MODEL_NOT_RECORDED : 'not re-taken',
        },
        differences: ['$'],
        error,
      });
      continue;
    }
    // Compared as stored: the event log keeps JSON.
    const redecided = JSON.parse(JSON.stringify(decision.payload ?? null)) as unknown;
    const found = differences(redecided, recorded.payload);
    const changed = decision.event_type !== recorded.envelope.event_type || found.length > 0;
    // A decision that went on without the answer it asked for (a judge that treats a failed call as "unavailable")
    // is still not the recorded one's equal in kind: say so.
    diffs.push({
      ...base,
      changed,
      redecided: {
        event_type: decision.event_type,
        decision_reason: unanswered.length
          ? `${MODEL_NOT_RECORDED}; ${decision.decision_reason}`
          : decision.decision_reason,
        // PI-5: the diff is for operators; the re-taken decision's sensitive values are shown redacted, and so is
        // every copy of them (a tool output echoing one), as the event log stores it.
        summary: summarise(
          decision.event_type,
          redactedForShow(redecided, definition.sensitivePaths?.(decision.payload) ?? []),
        ),
      },
      differences: changed ? (found.length ? found : ['$event_type']) : [],
      error: null,
    });
  }
  return { diffs, skipped };
}

/** `payload` with the values at `paths` and every other copy of them redacted. */
function redactedForShow(payload: unknown, paths: readonly string[]): unknown {
  if (paths.length === 0) return payload;
  return redactSecretValues(redactPaths(payload, paths), secretsAt(payload, paths));
}

/**
 * Re-takes the recorded decisions of `stage` (or every re-decidable stage) for the tasks the filter selects, each
 * on its exact recorded input (secrets included) with the model exchanges recorded with it.
 */
export async function redecideTasks(
  store: EventStore,
  registry: Registry,
  stage: RedecidableStage | 'all',
  filter: TraceFilter,
  /** Called after each task with how many are done of how many. */
  onTask?: (done: number, total: number) => void,
  models?: RedecideModels,
): Promise<RedecideSummary> {
  const definitions = stageDefinitions(registry, await deciderSemantic());
  const stages: RedecidableStage[] = stage === 'all' ? [...REDECIDABLE_STAGES] : [stage];
  const taskIds = await store.findTasks(filter);
  const diffs: DecisionDiff[] = [];
  let skipped = 0;
  let done = 0;
  for (const taskId of taskIds) {
    // What operators see (redacted) for the summaries; the exact events, with their exchanges, to decide on.
    const shown = await store.readTask(taskId);
    const exact = await store.findByEventIds(
      shown.map((e) => e.envelope.event_id),
      { withSecrets: true, withExchanges: true },
    );
    const events = shown.map((e) => exact.get(e.envelope.event_id) ?? e);
    const result = await redecideEvents(taskId, events, definitions, stages, {
      shown: new Map(shown.map((e) => [e.envelope.event_id, e])),
      ...(models ? { models } : {}),
    });
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
    model_not_recorded: diffs.filter((d) => d.models.not_recorded.some((m) => !m.asked_live)).length,
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
      (summary.skipped ? `; ${String(summary.skipped)} skipped (input not in the log)` : '') +
      (summary.model_not_recorded
        ? `; ${String(summary.model_not_recorded)} asked a model something not recorded`
        : ''),
  ];
  for (const d of summary.diffs.filter((x) => x.changed || x.models.not_recorded.length > 0)) {
    lines.push(`  ${d.task_id} ${d.stage}: ${d.recorded.summary} → ${d.redecided.summary}`);
    lines.push(`      why: ${d.redecided.decision_reason.slice(0, 200)}`);
    for (const f of d.models.failed) {
      lines.push(
        `      recorded model call failed: ${f.profile_id} request ${f.request_hash.slice(0, 12)}: ${f.error}`,
      );
    }
    for (const m of d.models.not_recorded) {
      lines.push(
        `      ${m.asked_live ? 'asked the live model' : MODEL_NOT_RECORDED}: ${m.profile_id} request ${m.request_hash.slice(0, 12)}`,
      );
    }
  }
  return lines;
}
