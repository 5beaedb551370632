// `signalbox eval bfcl` (EVAL-1): tool choice of the decider on a public BFCL set. Each record's functions become a
// registry (the registry's BFCL importer), the question becomes a task, the decider plans, and the BFCL-style checker
// of @signalbox/eval scores the chosen function names against the gold names (irrelevance: correct = zero steps).
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { Command } from 'commander';
import {
  BFCL_SETS,
  DatasetFormatError,
  DatasetNotFoundError,
  goldPredictions,
  loadBfclSet,
  resolveBfclDir,
  scoreRun,
  type BfclSet,
  type EvalCase,
  type PredictedCall,
} from '@signalbox/eval';
import { createRegistry, importBfcl, type Registry, type ToolDefinition } from '@signalbox/registry';
import { RETRIEVAL_CONFIG, planTools } from '@signalbox/tool-decider';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';
import { startProgress } from '../progress.js';

/** Options of {@link evalBfcl}. */
export interface EvalBfclOptions {
  /** A BFCL set name (`multiple`, `simple_python`, `irrelevance`, …). */
  set: string;
  /** The BFCL folder. @default $SIGNALBOX_BFCL_DIR, else ../shared/eval/bfcl from the repository root */
  data?: string;
  /** Evaluate only the first n cases. */
  limit?: number;
  /** Show progress on stderr (a bar on a terminal, tenth-of-the-way lines elsewhere). @default false */
  progress?: boolean;
}

/** How a case went wrong, for the confusion report. */
export type ConfusionKind =
  'refused_fitting' | 'called_irrelevant' | 'wrong_tool' | 'extra_tool' | 'missing_tool';

/** One miss. */
export interface Confusion {
  id: string;
  kind: ConfusionKind;
  gold: string[];
  chosen: string[];
  /** The decider's best candidate and its fit score. */
  best: { tool: string; score: number } | null;
}

const AGENT = 'bfcl_agent';
const SCENARIO = 'bfcl';

/** A one-case registry: the case's functions, visible to one agent in one scenario. */
export function bfclCaseRegistry(definitions: readonly ToolDefinition[]): Registry {
  return createRegistry({
    tools: definitions.map((t) => ({ ...t, scenarios: [SCENARIO], visible_agents: ['*'] })),
    agents: [{ id: AGENT, description: 'BFCL evaluation agent', max_permission: 'sensitive' }],
    scenes: [],
    tenants: [{ id: 'default', allow: ['*'], deny: [], max_permission: 'sensitive' }],
    profiles: [],
    policies: [],
    settings: { visibility_cap: 200 },
  });
}

function requestOf(question: EvalCase['question']): string {
  return question
    .flat()
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

function classify(gold: readonly string[], chosen: readonly string[]): ConfusionKind {
  if (gold.length === 0) return 'called_irrelevant';
  if (chosen.length === 0) return 'refused_fitting';
  const g = new Set(gold);
  const c = new Set(chosen);
  if (![...g].some((n) => c.has(n))) return 'wrong_tool';
  return [...c].some((n) => !g.has(n)) ? 'extra_tool' : 'missing_tool';
}

/** Runs the decider over one BFCL set and scores its tool choice. */
export function evalBfcl(io: CliIo, options: EvalBfclOptions): CommandResult {
  if (!(BFCL_SETS as readonly string[]).includes(options.set))
    throw new UsageError(`unknown BFCL set "${options.set}"; use one of ${BFCL_SETS.join(', ')}`);
  const set = options.set as BfclSet;
  const dir = options.data
    ? isAbsolute(options.data)
      ? options.data
      : resolve(io.cwd, options.data)
    : resolveBfclDir(io.env);
  let cases: EvalCase[];
  try {
    cases = loadBfclSet(set, { dir });
  } catch (error) {
    if (error instanceof DatasetNotFoundError || error instanceof DatasetFormatError)
      throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const questionFile = join(dir, `BFCL_v4_${set}.json`);
  if (!existsSync(questionFile)) throw new UsageError(`BFCL file not found: ${questionFile}`);
  const imported = importBfcl(readFileSync(questionFile, 'utf8'), { file: questionFile });
  const definitions = new Map(imported.cases.map((c) => [c.id, c.definitions]));
  if (options.limit !== undefined) cases = cases.slice(0, options.limit);

  const progress = options.progress ? startProgress(io, `eval bfcl ${set}`, cases.length) : undefined;
  const predictions = new Map<string, PredictedCall[]>();
  const chosenById = new Map<string, { chosen: string[]; best: Confusion['best'] }>();
  cases.forEach((testCase) => {
    const tools = definitions.get(testCase.id) ?? [];
    const outcome = planTools(bfclCaseRegistry(tools), {
      request: requestOf(testCase.question),
      agent: AGENT,
      tenant: 'default',
      scenario: SCENARIO,
    });
    const chosen = [...new Set(outcome.plan.steps.map((s) => s.tool))];
    const best = outcome.plan.candidate_scores[0];
    chosenById.set(testCase.id, { chosen, best: best ? { tool: best.tool, score: best.score } : null });
    // Tool choice only: a chosen gold function carries the gold arguments, anything else none — so the checker's
    // verdict is about names (wrong_function, wrong_count, irrelevance_called).
    const gold = goldPredictions(testCase);
    predictions.set(
      testCase.id,
      chosen.flatMap((name) => {
        const matching = gold.filter((g) => g.name === name);
        return matching.length > 0 ? matching : [{ name, arguments: {} }];
      }),
    );
    progress?.tick();
  });
  progress?.done();

  const report = scoreRun(cases, predictions);
  const confusion: Confusion[] = [];
  const counts: Partial<Record<ConfusionKind, number>> = {};
  for (const result of report.results) {
    if (result.valid) continue;
    const testCase = cases.find((c) => c.id === result.id);
    const gold = [...new Set((testCase?.expected ?? []).map((e) => e.name))];
    const seen = chosenById.get(result.id) ?? { chosen: [], best: null };
    const kind = classify(gold, seen.chosen);
    counts[kind] = (counts[kind] ?? 0) + 1;
    confusion.push({ id: result.id, kind, gold, chosen: seen.chosen, best: seen.best });
  }
  const accuracy = Math.round(report.accuracy * 10_000) / 10_000;
  const json = {
    ok: true,
    set,
    n: report.total,
    correct: report.passed,
    tool_accuracy: accuracy,
    confusion_counts: counts,
    checker_errors: report.errors,
    confusion,
    data: dir,
    config: RETRIEVAL_CONFIG,
  };
  const text = [
    `BFCL ${set}: tool choice ${String(report.passed)}/${String(report.total)} = ${(accuracy * 100).toFixed(1)}%`,
    `confusion: ${
      Object.entries(counts)
        .map(([k, v]) => `${k} ${String(v)}`)
        .join(', ') || 'none'
    }`,
    ...confusion.map(
      (c) =>
        `  ${c.id.padEnd(22)} ${c.kind.padEnd(18)} gold [${c.gold.join(', ')}] chosen [${c.chosen.join(', ')}]` +
        (c.best ? ` best ${c.best.tool} ${c.best.score.toFixed(2)}` : ''),
    ),
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
    .description("score the tool decider's tool choice on a public BFCL set (EVAL-1)")
    .requiredOption('--set <name>', `BFCL set: ${BFCL_SETS.join(', ')}`)
    .option('--data <dir>', 'BFCL folder (question files + possible_answer/); default ../shared/eval/bfcl')
    .option('--limit <n>', 'only the first n cases', nonNegativeInt)
    .action((opts: { set: string; data?: string; limit?: number }) => {
      const json = program.opts<{ json?: boolean }>().json === true;
      done(evalBfcl(io, { ...opts, progress: !json }));
    });
}
