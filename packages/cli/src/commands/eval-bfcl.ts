// `signalbox eval bfcl` (EVAL-1): the decider and the parameter injector on BFCL sets, public and live. Each record's
// functions become a registry (the registry's BFCL importer), the question becomes a task, the decider plans, the
// injector's own pure code prepares each planned step's arguments, and the BFCL-style checker of @signalbox/eval
// scores the outcome three ways: tool choice (the plan's tool names against the gold names), the full call (the
// prepared calls, names and arguments, against the gold calls), and shortlist recall (the gold tools among the
// candidates the decider would show a model).
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { Command } from 'commander';
import { TaskSpec, type Plan, type PlanStep } from '@signalbox/contracts';
import {
  BFCL_SETS,
  DatasetFormatError,
  DatasetNotFoundError,
  availableBfclSets,
  bfclQuestionFile,
  bfclSetExpectation,
  formatTable,
  goldPredictions,
  isBfclSet,
  loadBfclSet,
  resolveBfclDir,
  scoreRun,
  type BfclExpectation,
  type BfclSet,
  type CheckErrorType,
  type ErrorCounts,
  type EvalCase,
  type PredictedCall,
} from '@signalbox/eval';
import {
  buildArguments,
  dateContextOf,
  deniedFields,
  repairArguments,
  sensitiveFieldsOf,
  type RepairResult,
} from '@signalbox/parameter-injector';
import {
  RegistrySettings,
  createRegistry,
  importBfcl,
  type Registry,
  type ToolDefinition,
} from '@signalbox/registry';
import { RETRIEVAL_CONFIG, planTools, type PlanOutcome, type PlannerOptions } from '@signalbox/tool-decider';
import { UsageError } from '../errors.js';
import { deciderSemantic } from '../semantic.js';
import type { CliIo, CommandResult } from '../io.js';
import { startProgress } from '../progress.js';

/**
 * The eval registry's `settings.visibility_cap`, and the length of the shortlist recall is measured on: the product's
 * default (the registry schema's), so the eval sees what a registry that sets none would show. As in the product, it
 * also caps the visible set itself (by priority, then name, before any ranking): a case offering more functions than
 * this shows the decider only the first ones.
 */
export const BFCL_VISIBILITY_CAP: number = RegistrySettings.parse({}).visibility_cap;

/** The depths recall is also reported at (`shortlist_recall_at`). */
export const SHORTLIST_RECALL_DEPTHS = [1, 3, 5] as const;

/** "Now" of every eval task, so that relative dates ("tomorrow") resolve the same on every run. */
export const BFCL_REFERENCE_TIME = '2024-11-04T09:00:00.000Z';

/** Options of {@link evalBfcl}. */
export interface EvalBfclOptions {
  /** BFCL set names, comma-separated (`multiple`, `live_simple,live_multiple`, …), or `all`: every set in the folder. */
  set: string;
  /** The BFCL folder. @default $SIGNALBOX_BFCL_DIR, else ../shared/eval/bfcl from the repository root */
  data?: string;
  /** Evaluate only the first n cases of each set. */
  limit?: number;
  /** Show progress on stderr (a bar on a terminal, tenth-of-the-way lines elsewhere). @default false */
  progress?: boolean;
  /** Print the per-case lines also when several sets are evaluated. @default false (only for a single set) */
  verbose?: boolean;
  /** The decider's planner options: where an embedder (semantic scorer) is handed to it. @default {} */
  planner?: PlannerOptions;
}

/**
 * The planner options an eval run hands the decider: the one place they are built, so that an embedder (or any other
 * planner option) reaches every case the same way.
 */
export function plannerOptionsFor(options: Pick<EvalBfclOptions, 'planner'>): PlannerOptions {
  return { ...options.planner };
}

/** How a case's tool choice went wrong, for the confusion report. */
export type ConfusionKind =
  'refused_fitting' | 'called_irrelevant' | 'wrong_tool' | 'extra_tool' | 'missing_tool';

/**
 * How an irrelevance case came out right: nothing planned, a planned step the injector could not fill (it would ask
 * a clarification question), or a tool schema the injector could not use (the stage would dead-letter the message).
 */
export type NoCallKind = 'right_by_zero_step_plan' | 'right_by_clarification' | 'right_by_injector_error';

/** One tool-choice miss. */
export interface Confusion {
  id: string;
  kind: ConfusionKind;
  gold: string[];
  /** The tools of the plan. */
  chosen: string[];
  /** The tools of the calls the injector prepared. */
  prepared: string[];
  /** The decider's best candidate and its fit score. */
  best: { tool: string; score: number } | null;
}

/** Why a case's full call is wrong: the checker's class, or a clarification that stopped the calls short. */
export type CallMissKind = CheckErrorType | 'clarification';

/** One full-call miss. */
export interface CallMiss {
  id: string;
  kind: CallMissKind;
  message: string;
  calls: PredictedCall[];
}

/** What the parameter injector made of a plan. */
export interface PreparedCalls {
  /** The calls prepared, in plan order, up to the first step that could not be filled. */
  calls: PredictedCall[];
  /**
   * The step the injector could not fill — it would ask a clarification question and end the task, so no later step
   * is prepared either — with the fields it would ask about; null when every step was prepared.
   */
  clarification: { step_index: number; tool: string; fields: string[] } | null;
  /** A tool whose schema the injector could not use (the stage would fail the message), with the error. */
  error: { tool: string; message: string } | null;
}

/** The figures of one set: what `--json` prints for it. */
export interface BfclSetReport {
  set: BfclSet;
  /** What is right on the set: gold calls, no call, or any call. */
  expects: BfclExpectation;
  n: number;
  /**
   * Cases whose tool choice is right. With gold calls: the plan's tool names are the gold names. Without (irrelevance,
   * relevance): whether a call is prepared at all — so there `tool_accuracy` and `call_accuracy` agree.
   */
  correct: number;
  tool_accuracy: number;
  /** Cases whose prepared calls, names and arguments, pass the checker. */
  call_correct: number;
  call_accuracy: number;
  /** Share of cases whose gold tools are all among the top `shortlist_cap` candidates; null without gold calls. */
  shortlist_recall: number | null;
  /** The same at depths 1, 3 and 5; null without gold calls. */
  shortlist_recall_at: Record<`${(typeof SHORTLIST_RECALL_DEPTHS)[number]}`, number> | null;
  shortlist_cap: number;
  /** Tool-choice misses by kind, and (irrelevance sets) the right answers by how no call came about. */
  confusion_counts: Partial<Record<ConfusionKind | NoCallKind, number>>;
  /** The checker's classes of the tool-choice misses. */
  checker_errors: ErrorCounts;
  /** Full-call misses by kind. */
  call_confusion_counts: Partial<Record<CallMissKind, number>>;
  /** Cases where a planned step could not be filled (the injector would ask the user). */
  clarifications: number;
  /** Cases where the injector could not use a tool's schema. */
  injector_errors: { id: string; tool: string; message: string }[];
  confusion: Confusion[];
  call_confusion: CallMiss[];
}

const AGENT = 'bfcl_agent';
const SCENARIO = 'bfcl';
const TENANT = 'default';

/** A one-case registry: the case's functions, visible to one agent in one scenario, under the product's cap. */
export function bfclCaseRegistry(definitions: readonly ToolDefinition[]): Registry {
  return createRegistry({
    tools: definitions.map((t) => ({ ...t, scenarios: [SCENARIO], visible_agents: ['*'] })),
    agents: [{ id: AGENT, description: 'BFCL evaluation agent', max_permission: 'sensitive' }],
    scenes: [],
    tenants: [{ id: TENANT, allow: ['*'], deny: [], max_permission: 'sensitive' }],
    profiles: [],
    policies: [],
    settings: { visibility_cap: BFCL_VISIBILITY_CAP },
  });
}

function requestOf(question: EvalCase['question']): string {
  return question
    .flat()
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

const CONTEXT_ROLES = new Set<string>(['assistant', 'system', 'tool']);

/**
 * The task of a case, as the API would submit it: the user's messages are the request, the other turns (a system
 * prompt, an assistant's earlier answer) the context; English, UTC, at {@link BFCL_REFERENCE_TIME}. Parsed with the
 * contract's schema, so an eval task is a valid task.
 */
export function bfclTask(testCase: Pick<EvalCase, 'question'>): TaskSpec {
  const messages = testCase.question.flat();
  const request = requestOf(testCase.question);
  return TaskSpec.parse({
    // A record without a user turn still needs a request: all its text.
    request: request.trim() === '' ? messages.map((m) => m.content).join('\n') || '(empty)' : request,
    context: messages
      .filter((m) => CONTEXT_ROLES.has(m.role))
      .map((m) => ({ role: m.role, content: m.content })),
    locale: 'en',
    time_zone: 'UTC',
    reference_time: BFCL_REFERENCE_TIME,
    cost_ceiling_usd: null,
    required_modalities: ['text'],
    attachments: [],
    scenario: SCENARIO,
    needs_fresh_data: false,
    redrive_of: null,
  });
}

/**
 * The parameter injector on a plan, with its own pure code and no model (PI-1, PI-3): each step's arguments built
 * from the request (`buildArguments`), then validated and coerced (`repairArguments`) — what the stage does for a
 * step. Steps run in order as the pipeline would; nothing is executed, so no step sees an earlier one's output. The
 * first step with a value missing stops the calls there: the stage would end the task with `need_clarification`.
 */
export function prepareCalls(registry: Registry, plan: Pick<Plan, 'steps'>, task: TaskSpec): PreparedCalls {
  const calls: PredictedCall[] = [];
  const dates = dateContextOf(task);
  for (const step of plan.steps) {
    const tool = registry.tool(step.tool);
    if (!tool)
      return { calls, clarification: null, error: { tool: step.tool, message: 'not in the registry' } };
    const sensitive = sensitiveFieldsOf(tool);
    let result: RepairResult;
    try {
      const built = buildArguments({ tool, step, task, history: [], proposals: null, sensitive });
      result = repairArguments(tool.parameters, built.arguments, {
        sensitive,
        denied: deniedFields(tool, AGENT, {}),
        dates,
      });
    } catch (error) {
      return { calls, clarification: null, error: { tool: tool.name, message: (error as Error).message } };
    }
    if (!result.ok) {
      return {
        calls,
        clarification: {
          step_index: step.index,
          tool: tool.name,
          fields: result.errors.map((e) => e.field),
        },
        error: null,
      };
    }
    calls.push({ name: tool.name, arguments: result.arguments });
  }
  return { calls, clarification: null, error: null };
}

/** The decider's plan, as a promise: the planner is becoming asynchronous, and this works either way. */
function plan(registry: Registry, task: TaskSpec, options: PlannerOptions): Promise<PlanOutcome> {
  return Promise.resolve(
    planTools(
      registry,
      {
        request: task.request,
        context: task.context.map((m) => m.content).join('\n'),
        agent: AGENT,
        tenant: TENANT,
        scenario: SCENARIO,
        needsFreshData: task.needs_fresh_data,
      },
      options,
    ),
  );
}

function classify(
  expects: BfclExpectation,
  gold: readonly string[],
  chosen: readonly string[],
): ConfusionKind {
  if (expects === 'no_call') return 'called_irrelevant';
  if (expects === 'any_call' || chosen.length === 0) return 'refused_fitting';
  const g = new Set(gold);
  const c = new Set(chosen);
  if (![...g].some((n) => c.has(n))) return 'wrong_tool';
  return [...c].some((n) => !g.has(n)) ? 'extra_tool' : 'missing_tool';
}

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

function increment<K extends string>(counts: Partial<Record<K, number>>, key: K): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

interface CaseRun {
  steps: PlanStep[];
  chosen: string[];
  best: Confusion['best'];
  ranking: string[];
  prepared: PreparedCalls;
}

/** Runs the decider and the injector over one set's cases and scores them. */
export async function evalBfclSet(
  set: BfclSet,
  cases: readonly EvalCase[],
  definitions: ReadonlyMap<string, readonly ToolDefinition[]>,
  options: { planner?: PlannerOptions; onCase?: () => void } = {},
): Promise<BfclSetReport> {
  const expects = bfclSetExpectation(set);
  const plannerOptions = plannerOptionsFor(options);
  const runs = new Map<string, CaseRun>();
  const toolPredictions = new Map<string, PredictedCall[]>();
  const callPredictions = new Map<string, PredictedCall[]>();
  for (const testCase of cases) {
    const registry = bfclCaseRegistry(definitions.get(testCase.id) ?? []);
    const task = bfclTask(testCase);
    const outcome = await plan(registry, task, plannerOptions);
    const chosen = [...new Set(outcome.plan.steps.map((s) => s.tool))];
    const top = outcome.plan.candidate_scores[0];
    const prepared = prepareCalls(registry, outcome.plan, task);
    runs.set(testCase.id, {
      steps: outcome.plan.steps,
      chosen,
      best: top ? { tool: top.tool, score: top.score } : null,
      ranking: outcome.plan.candidate_scores.map((c) => c.tool),
      prepared,
    });
    callPredictions.set(testCase.id, prepared.calls);
    if (expects === 'calls') {
      // Tool choice only: a chosen gold function carries the gold arguments, anything else none — so the checker's
      // verdict is about names (wrong_function, wrong_count).
      const gold = goldPredictions(testCase);
      toolPredictions.set(
        testCase.id,
        chosen.flatMap((name) => {
          const matching = gold.filter((g) => g.name === name);
          return matching.length > 0 ? matching : [{ name, arguments: {} }];
        }),
      );
    } else {
      // No gold calls: what counts is whether a call is prepared at all (BFCL counts any answer that is not a call
      // as no call) — a plan whose only step needs a clarification makes none.
      toolPredictions.set(testCase.id, prepared.calls);
    }
    options.onCase?.();
  }

  const toolReport = scoreRun(cases, toolPredictions);
  const callReport = scoreRun(cases, callPredictions);
  const byId = new Map(cases.map((c) => [c.id, c]));
  const goldNames = (id: string): string[] => [...new Set((byId.get(id)?.expected ?? []).map((e) => e.name))];

  const confusion: Confusion[] = [];
  const counts: BfclSetReport['confusion_counts'] = {};
  for (const result of toolReport.results) {
    const run = runs.get(result.id);
    if (!run) continue;
    if (result.valid) {
      if (expects === 'no_call')
        increment(
          counts,
          run.steps.length === 0
            ? 'right_by_zero_step_plan'
            : run.prepared.clarification !== null
              ? 'right_by_clarification'
              : 'right_by_injector_error',
        );
      continue;
    }
    const gold = goldNames(result.id);
    const kind = classify(expects, gold, run.chosen);
    increment(counts, kind);
    confusion.push({
      id: result.id,
      kind,
      gold,
      chosen: run.chosen,
      prepared: run.prepared.calls.map((c) => c.name),
      best: run.best,
    });
  }

  const callConfusion: CallMiss[] = [];
  const callCounts: BfclSetReport['call_confusion_counts'] = {};
  for (const result of callReport.results) {
    if (result.valid) continue;
    const prepared = runs.get(result.id)?.prepared;
    // Where a call is wrong at all (irrelevance), a clarification after it is not why the case failed.
    const clarification = expects === 'no_call' ? null : (prepared?.clarification ?? null);
    const kind: CallMissKind =
      clarification !== null ? 'clarification' : (result.error_type ?? 'missing_prediction');
    increment(callCounts, kind);
    callConfusion.push({
      id: result.id,
      kind,
      message:
        clarification !== null
          ? `${clarification.tool} (step ${String(clarification.step_index)}) needs ${clarification.fields.join(', ')}`
          : (result.message ?? ''),
      calls: prepared?.calls ?? [],
    });
  }

  let shortlist: Pick<BfclSetReport, 'shortlist_recall' | 'shortlist_recall_at'> = {
    shortlist_recall: null,
    shortlist_recall_at: null,
  };
  if (expects === 'calls') {
    const recallAt = (depth: number): number => {
      if (cases.length === 0) return 0;
      const hits = cases.filter((c) => {
        const top = new Set(runs.get(c.id)?.ranking.slice(0, depth));
        return goldNames(c.id).every((name) => top.has(name));
      }).length;
      return round4(hits / cases.length);
    };
    shortlist = {
      shortlist_recall: recallAt(BFCL_VISIBILITY_CAP),
      shortlist_recall_at: Object.fromEntries(
        SHORTLIST_RECALL_DEPTHS.map((depth) => [String(depth), recallAt(depth)]),
      ) as NonNullable<BfclSetReport['shortlist_recall_at']>,
    };
  }

  const injectorErrors: BfclSetReport['injector_errors'] = [];
  let clarifications = 0;
  for (const [id, run] of runs) {
    if (run.prepared.clarification !== null) clarifications += 1;
    if (run.prepared.error !== null) injectorErrors.push({ id, ...run.prepared.error });
  }

  return {
    set,
    expects,
    n: toolReport.total,
    correct: toolReport.passed,
    tool_accuracy: round4(toolReport.accuracy),
    call_correct: callReport.passed,
    call_accuracy: round4(callReport.accuracy),
    ...shortlist,
    shortlist_cap: BFCL_VISIBILITY_CAP,
    confusion_counts: counts,
    checker_errors: toolReport.errors,
    call_confusion_counts: callCounts,
    clarifications,
    injector_errors: injectorErrors,
    confusion,
    call_confusion: callConfusion,
  };
}

/** The sets `--set` names: comma-separated names, or `all` for every set whose question file is in `dir`. */
export function parseSets(value: string, dir: string): BfclSet[] {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0)
    throw new UsageError(`no BFCL set given; use one of ${BFCL_SETS.join(', ')} or all`);
  const sets: BfclSet[] = [];
  for (const name of names) {
    if (name === 'all') {
      const found = availableBfclSets(dir);
      if (found.length === 0) throw new UsageError(`no BFCL set file (BFCL_v4_<set>.json) found in ${dir}`);
      sets.push(...found);
    } else if (isBfclSet(name)) sets.push(name);
    else throw new UsageError(`unknown BFCL set "${name}"; use one of ${BFCL_SETS.join(', ')} or all`);
  }
  return [...new Set(sets)];
}

function load(set: BfclSet, dir: string): { cases: EvalCase[]; definitions: Map<string, ToolDefinition[]> } {
  let cases: EvalCase[];
  try {
    cases = loadBfclSet(set, { dir });
  } catch (error) {
    if (error instanceof DatasetNotFoundError || error instanceof DatasetFormatError)
      throw new UsageError(error.message, { cause: error });
    throw error;
  }
  // loadBfclSet has read the file: it exists.
  const questionFile = bfclQuestionFile(dir, set);
  const imported = importBfcl(readFileSync(questionFile, 'utf8'), { file: questionFile });
  return { cases, definitions: new Map(imported.cases.map((c) => [c.id, c.definitions])) };
}

function pct(value: number | null): string {
  return value === null ? '-' : `${(value * 100).toFixed(1)}%`;
}

function countsLine(counts: Readonly<Record<string, number | undefined>>): string {
  return (
    Object.entries(counts)
      .map(([k, v]) => `${k} ${String(v ?? 0)}`)
      .join(', ') || 'none'
  );
}

function caseLines(report: BfclSetReport): string[] {
  return [
    ...report.confusion.map(
      (c) =>
        `  ${c.id.padEnd(22)} ${c.kind.padEnd(18)} gold [${c.gold.join(', ')}] chosen [${c.chosen.join(', ')}]` +
        (c.prepared.join(',') !== c.chosen.join(',') ? ` prepared [${c.prepared.join(', ')}]` : '') +
        (c.best ? ` best ${c.best.tool} ${c.best.score.toFixed(2)}` : ''),
    ),
    ...report.call_confusion.map((c) => `  call ${c.id.padEnd(22)} ${c.kind.padEnd(18)} ${c.message}`),
  ];
}

/** Runs the decider and the injector over one or more BFCL sets and scores tool choice, full calls and recall. */
export async function evalBfcl(io: CliIo, options: EvalBfclOptions): Promise<CommandResult> {
  const dir = options.data
    ? isAbsolute(options.data)
      ? options.data
      : resolve(io.cwd, options.data)
    : resolveBfclDir(io.env);
  const sets = parseSets(options.set, dir);
  const loaded = sets.map((set) => ({ set, ...load(set, dir) }));

  // The decider ranks as the tool-decider worker does: with the semantic model unless SIGNALBOX_EMBEDDINGS=off.
  const planner = options.planner ?? { semantic: await deciderSemantic(io.env) };
  const reports: BfclSetReport[] = [];
  for (const { set, cases: all, definitions } of loaded) {
    const cases = options.limit === undefined ? all : all.slice(0, options.limit);
    const progress = options.progress ? startProgress(io, `eval bfcl ${set}`, cases.length) : undefined;
    reports.push(
      await evalBfclSet(set, cases, definitions, {
        planner,
        onCase: () => {
          progress?.tick();
        },
      }),
    );
    progress?.done();
  }

  const common = {
    data: dir,
    shortlist_cap: BFCL_VISIBILITY_CAP,
    reference_time: BFCL_REFERENCE_TIME,
    config: RETRIEVAL_CONFIG,
    semantic_model: planner.semantic
      ? [...planner.semantic.models.values()].map((m) => ({ model: m.id, sha256: m.sha256 }))
      : null,
  };
  const [only] = reports;
  const json =
    reports.length === 1 && only ? { ok: true, ...only, ...common } : { ok: true, sets: reports, ...common };

  const depthHeaders = SHORTLIST_RECALL_DEPTHS.map((d) => `r@${String(d)}`);
  const table = formatTable(
    ['set', 'n', 'tool', 'call', `recall@${String(BFCL_VISIBILITY_CAP)}`, ...depthHeaders],
    reports.map((r) => [
      r.set,
      String(r.n),
      pct(r.tool_accuracy),
      pct(r.call_accuracy),
      pct(r.shortlist_recall),
      ...SHORTLIST_RECALL_DEPTHS.map((d) => pct(r.shortlist_recall_at?.[`${d}`] ?? null)),
    ]),
  );
  const perCase = reports.length === 1 || options.verbose === true;
  const text = [
    `BFCL ${dir}: tool choice, full call (decider + injector) and shortlist recall (cap ${String(BFCL_VISIBILITY_CAP)})`,
    ...table.split('\n'),
    ...reports.flatMap((r) => [
      `BFCL ${r.set}: tool choice ${String(r.correct)}/${String(r.n)} = ${pct(r.tool_accuracy)}, ` +
        `full call ${String(r.call_correct)}/${String(r.n)} = ${pct(r.call_accuracy)}`,
      `  confusion: ${countsLine(r.confusion_counts)}`,
      `  call misses: ${countsLine(r.call_confusion_counts)}`,
      ...(r.injector_errors.length > 0
        ? [`  injector errors: ${r.injector_errors.map((e) => `${e.id} ${e.tool}: ${e.message}`).join('; ')}`]
        : []),
      ...(perCase ? caseLines(r) : []),
    ]),
  ];
  return { exitCode: 0, json, text };
}

function nonNegativeInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`expected a non-negative integer, got "${value}"`);
  return n;
}

/** Adds `bfcl` to the program's `eval` command group (creating the group when nobody has yet). */
export function registerEvalBfcl(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const group =
    program.commands.find((c) => c.name() === 'eval') ??
    program.command('eval').description('evaluate stages on datasets (EVAL-1)');
  group
    .command('bfcl')
    .description(
      "score the tool decider's tool choice, the decider + injector's full calls and the shortlist recall on BFCL sets (EVAL-1)",
    )
    .requiredOption('--set <names>', `BFCL sets, comma-separated, or all: ${BFCL_SETS.join(', ')}`)
    .option('--data <dir>', 'BFCL folder (question files + possible_answer/); default ../shared/eval/bfcl')
    .option('--limit <n>', 'only the first n cases of each set', nonNegativeInt)
    .option('--verbose', 'print the per-case lines also for several sets')
    .action(async (opts: { set: string; data?: string; limit?: number; verbose?: boolean }) => {
      const json = program.opts<{ json?: boolean }>().json === true;
      done(await evalBfcl(io, { ...opts, progress: !json }));
    });
}
