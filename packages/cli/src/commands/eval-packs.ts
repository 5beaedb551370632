// `signalbox eval packs` (EVAL-5): the scenario-pack suites — plain-data cases of realistic English and Chinese
// requests per pack (packages/eval/packs/<pack>.yaml, held out: holdout/<pack>.yaml) — each run through the whole
// embedded pipeline (five stages, in-memory bus, PGlite, the demo tool backends) and checked by @signalbox/eval.
// Every case runs on its own copy of one migrated and seeded database, so no case sees another's side effects or
// read cache, and its writes are counted exactly: each act a demo backend records carries the executor's idempotency
// key, which the executor's call table maps to the task and tool that sent it. With `--model gold` the decider and
// the injector ask a scripted model built from the case (the right tools with the case's arguments); with
// `--model wrong-write` it also proposes a write nobody asked for. The harness measures: it tunes nothing.
import { readdirSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { PlanStep, StepRecord } from '@signalbox/contracts';
import {
  DatasetFormatError,
  DatasetNotFoundError,
  PACK_CASES_DIR,
  availablePackCaseFiles,
  checkPackCase,
  formatTable,
  loadPackCases,
  packCasesFolder,
  summarizePackResults,
  validatePackCases,
  writeToolsOf,
  type PackCase,
  type PackCaseOutcome,
  type PackCaseResult,
  type PackCaseSet,
  type PackRunModel,
  type PackRunStep,
  type PackSuiteReport,
  type PackSummaryRow,
} from '@signalbox/eval';
import type { StoredEvent } from '@signalbox/event-log';
import { UnexpectedModelCallError, type ModelProvider, type ModelRequest } from '@signalbox/providers';
import { createScriptedProvider, type ScriptedToolCall } from '@signalbox/providers/testing';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import type { ModelLookup } from '@signalbox/stage-kit';
import { PROPOSAL_SYSTEM_PROMPT, type SemanticScorer } from '@signalbox/tool-decider';
import { runEmbedded, type EmbeddedModels, type EmbeddedTrace } from '../dev/embedded.js';
import { PACK_NAMES, type PackName } from '../dev/scenarios.js';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';
import { startProgress } from '../progress.js';
import { deciderSemantic } from '../semantic.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** What the decider and the injector are given to ask. */
export const PACK_MODEL_MODES = ['none', 'gold', 'wrong-write'] as const;
export type PackModelMode = (typeof PACK_MODEL_MODES)[number];

/** Options of {@link evalPacks}. */
export interface EvalPacksOptions {
  /** Packs, comma-separated, or `all`: every pack with a case file. @default 'all' */
  pack?: string;
  /** The case folder. @default packages/eval/packs under the repository root */
  cases?: string;
  /** Run the held-out suite (`<cases>/holdout/<pack>.yaml`). @default false */
  holdout?: boolean;
  /** @default 'none' */
  model?: PackModelMode;
  /** The repository root (registry/packs/). @default this checkout's */
  repoRoot?: string;
  /** Cases run at once, each on its own database. @default 1 */
  concurrency?: number;
  /** How long one case may take. @default 60000 */
  timeoutMs?: number;
  /** The decider's semantic model. @default loaded from the environment, as the tool-decider worker does */
  semantic?: SemanticScorer | null;
  /** Called as each case finishes. */
  onCase?: (result: PackCaseResult) => void;
  /** Show progress on stderr (a bar on a terminal, tenth-of-the-way lines elsewhere). @default false */
  progress?: boolean;
}

/** What one case's report says, beyond the verdict: the expectations resolved, the run, the model's view. */
export interface PackCaseReport {
  id: string;
  pack: string;
  suite: string;
  lang: string;
  kind: string;
  agent: string;
  request: string;
  file: string;
  line: number | null;
  right: boolean;
  failures: PackCaseResult['verdict']['failures'];
  expected: PackCase['expect'] & {
    max_writes: number;
    reference_time: string;
    time_zone: string;
    locale: string;
  };
  outcome: PackCaseOutcome & { task_id: string; decision_reason: string | null };
  unasked_writes: PackCaseResult['verdict']['unasked_writes'];
  success_act_undone: boolean;
  needed_offered: boolean | null;
  missing_from_shortlist: string[];
  vetoed_right: PackCaseResult['verdict']['vetoed_right'];
  wrong_writes: number;
}

/** The model requests a scripted model could not attribute to its case (each one failed the case it came from). */
export interface ModelErrors {
  messages: string[];
}

/** What a case's scripted decider model proposed: every tool, and the wrong writes among them. */
export interface ModelProposals {
  proposed: Set<string>;
  wrong: Set<string>;
}

function lastUserMessage(request: ModelRequest): string {
  return request.messages.findLast((m) => m.role === 'user')?.content ?? '';
}

/** Answers one request with the strict scripted fake, so responses are built exactly as in the stages' own tests. */
function answer(request: ModelRequest, label: string, toolCalls: ScriptedToolCall[]) {
  return createScriptedProvider([{ label, respond: { toolCalls } }], { model: 'gold' }).complete(request);
}

/** The wrong writes a `wrong-write` model proposes: the case's `not_run` writes, else the first offered write not in `run`. */
export function wrongWritesFor(
  testCase: PackCase,
  offered: readonly string[],
  writeTools: ReadonlySet<string>,
): string[] {
  const named = testCase.expect.not_run.filter((t) => writeTools.has(t));
  if (named.length > 0) return named;
  const visible = offered.find((t) => writeTools.has(t) && !testCase.expect.run.includes(t));
  return visible === undefined ? [] : [visible];
}

/**
 * The tool decider's scripted model for one case: a proposal request for the case's request (or its re-proposal
 * after violations) is answered with exactly the case's `run` tools and their `arguments` (plus, `wrong-write`, a
 * write nobody asked for); any other request is an {@link UnexpectedModelCallError}, never an empty answer.
 */
export function deciderGoldModel(
  testCase: PackCase,
  mode: Exclude<PackModelMode, 'none'>,
  writeTools: ReadonlySet<string>,
  errors: ModelErrors,
  proposals: ModelProposals,
): ModelProvider {
  let calls = 0;
  return {
    complete(request) {
      const index = calls++;
      const user = lastUserMessage(request);
      const system = request.messages[0]?.role === 'system' ? request.messages[0].content : '';
      const attributed =
        system === PROPOSAL_SYSTEM_PROMPT &&
        (user === testCase.request ||
          user.startsWith(`${testCase.request}\n\nA previous plan was refused: `));
      if (!attributed) {
        const error = new UnexpectedModelCallError(
          index,
          `the decider's model for case ${testCase.id} was asked something that is not a proposal for its request: ${JSON.stringify(user.slice(0, 200))}`,
        );
        errors.messages.push(error.message);
        return Promise.reject(error);
      }
      const offered = (request.tools ?? []).map((t) => t.name);
      const wrong = mode === 'wrong-write' ? wrongWritesFor(testCase, offered, writeTools) : [];
      // (the tools that must succeed, and those a right plan includes although their call cannot succeed here)
      const tools = [...testCase.expect.run, ...testCase.expect.planned, ...wrong];
      for (const tool of tools) proposals.proposed.add(tool);
      for (const tool of wrong) proposals.wrong.add(tool);
      return answer(
        request,
        `gold proposal for ${testCase.id}`,
        tools.map((name) => ({ name, arguments: testCase.expect.arguments[name] ?? {} })),
      );
    },
  };
}

/**
 * The parameter injector's scripted model for one case: asked for one tool's arguments for the case's request, it
 * answers the case's `arguments` of that tool, or no call when the case lists none (the injector then extracts
 * them itself); any other request is an {@link UnexpectedModelCallError}.
 */
export function injectorGoldModel(testCase: PackCase, errors: ModelErrors): ModelProvider {
  let calls = 0;
  return {
    complete(request) {
      const index = calls++;
      const user = lastUserMessage(request);
      const [tool, ...more] = request.tools ?? [];
      const choice = request.toolChoice;
      const attributed =
        tool !== undefined &&
        more.length === 0 &&
        typeof choice === 'object' &&
        choice.name === tool.name &&
        user.startsWith(`Request: ${testCase.request}\n`);
      if (!attributed) {
        const error = new UnexpectedModelCallError(
          index,
          `the injector's model for case ${testCase.id} was asked something that is not one tool's arguments for its request: ${JSON.stringify(user.slice(0, 200))}`,
        );
        errors.messages.push(error.message);
        return Promise.reject(error);
      }
      const args = testCase.expect.arguments[tool.name];
      return answer(
        request,
        `gold arguments of ${tool.name} for ${testCase.id}`,
        args ? [{ name: tool.name, arguments: args }] : [],
      );
    },
  };
}

/** A lookup that hands `provider` to every profile of the registry that names a model (not the deterministic one). */
function forModelProfiles(registry: Registry, provider: ModelProvider): ModelLookup {
  return (profileId) => {
    const profile = registry.profile(profileId);
    return profile && profile.provider.kind !== 'deterministic' ? provider : undefined;
  };
}

function eventsOf(trace: EmbeddedTrace, stage: string, type: string): StoredEvent[] {
  return trace.events.filter((e) => e.envelope.stage === stage && e.envelope.event_type === type);
}

/** The outcome of a case whose task never finished: nothing happened, and why. */
function unfinished(error: string): PackCaseOutcome & { decision_reason: null } {
  return {
    status: null,
    questions: [],
    issues: [],
    steps: [],
    attempted: [],
    writes: [],
    error,
    decision_reason: null,
  };
}

/** What the pipeline did on one case, as plain data for the checker. */
export function outcomeOf(trace: EmbeddedTrace): PackCaseOutcome & { decision_reason: string | null } {
  const finished = trace.events.findLast((e) => e.envelope.event_type === 'task_finished');
  const records = (finished?.payload as { steps?: StepRecord[] } | undefined)?.steps;
  const steps: PackRunStep[] = records
    ? records.map((r) => ({
        tool: r.call.tool,
        ok: r.result.ok,
        status: r.status,
        arguments: r.call.arguments,
      }))
    : // No final record (a stage dead-lettered the task): what the executor returned, not judged.
      eventsOf(trace, 'executor', 'step_executed').map((e) => {
        const p = e.payload as {
          call: { tool: string; arguments: Record<string, unknown> };
          result: { ok: boolean };
        };
        return { tool: p.call.tool, ok: p.result.ok, status: null, arguments: p.call.arguments };
      });
  const decider = trace.events.findLast((e) => e.envelope.stage === 'tool_decider');
  return {
    status: trace.final?.status ?? null,
    questions: trace.final?.questions ?? [],
    issues: trace.final?.issues ?? [],
    steps,
    attempted: eventsOf(trace, 'parameter_injector', 'step_prepared').map(
      (e) => (e.payload as { call: { tool: string } }).call.tool,
    ),
    writes: trace.writes.map((w) => ({ tool: w.tool, kind: w.kind })),
    error: trace.final
      ? null
      : trace.failure
        ? `${trace.failure.stage} failed the task: ${trace.failure.reason}`
        : 'the task did not finish',
    decision_reason: decider?.envelope.decision_reason ?? null,
  };
}

/** What the model path saw: the shortlist offered, what was proposed, what no plan of the decider's kept. */
export function modelViewOf(trace: EmbeddedTrace, proposals: ModelProposals): PackRunModel {
  const deciderEvents = trace.events.filter((e) => e.envelope.stage === 'tool_decider');
  const first = deciderEvents.flatMap((e) => e.exchanges ?? [])[0];
  const offered = first ? ((first.request as ModelRequest).tools ?? []).map((t) => t.name) : null;
  const last = deciderEvents.at(-1);
  const plan = (
    last?.payload as
      { plan?: { steps: PlanStep[]; rejected: { candidate: string; reason: string }[] } } | undefined
  )?.plan;
  // A proposal any plan of the task kept was let through: a re-plan after a refused write keeps the steps already
  // done out of its plan (they ran) and refuses them again as duplicates (TD-5), which is no veto.
  const kept = new Set(
    deciderEvents.flatMap(
      (e) =>
        (e.payload as { plan?: { steps: PlanStep[] } } | undefined)?.plan?.steps.map((s) => s.tool) ?? [],
    ),
  );
  const issues = (last?.payload as { issues?: string[] } | undefined)?.issues ?? [];
  const reasonFor = (tool: string): string =>
    plan?.rejected.find((r) => r.candidate === tool)?.reason ??
    issues.find((i) => i.startsWith(`${tool}: `))?.slice(tool.length + 2) ??
    last?.envelope.decision_reason ??
    'the decider made no decision';
  return {
    offered,
    proposed: [...proposals.proposed],
    vetoed: [...proposals.proposed]
      .filter((t) => !kept.has(t))
      .map((tool) => ({ tool, reason: reasonFor(tool) })),
    wrong_proposed: [...proposals.wrong],
  };
}

/** The packs of registry/packs/ (its folders), sorted. */
export function registryPacks(root: string): string[] {
  return readdirSync(join(root, 'registry', 'packs'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

function isPackName(name: string): name is PackName {
  return (PACK_NAMES as readonly string[]).includes(name);
}

/** The packs `--pack` names: comma-separated, or `all` for every pack with a case file in the suite folder. */
export function parsePacks(value: string, casesDir: string, holdout: boolean, root: string): PackName[] {
  const known = registryPacks(root).filter(isPackName);
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (names.length === 0) throw new UsageError(`no pack given; use one of ${known.join(', ')} or all`);
  const packs: PackName[] = [];
  for (const name of names) {
    if (name === 'all') {
      const files = availablePackCaseFiles(casesDir, holdout);
      const folder = packCasesFolder(casesDir, holdout);
      if (files.length === 0) throw new UsageError(`no case file (<pack>.yaml) in ${folder}`);
      for (const file of files) {
        if (!isPackName(file) || !known.includes(file))
          throw new UsageError(
            `${join(folder, `${file}.yaml`)} is not the case file of a pack (packs: ${known.join(', ')})`,
          );
        packs.push(file);
      }
    } else if (isPackName(name) && known.includes(name)) packs.push(name);
    else throw new UsageError(`unknown pack "${name}"; use one of ${known.join(', ')} or all`);
  }
  return [...new Set(packs)];
}

function loadSets(dir: string, packs: readonly string[], holdout: boolean): PackCaseSet[] {
  try {
    return loadPackCases(dir, { holdout, packs });
  } catch (error) {
    if (error instanceof DatasetNotFoundError || error instanceof DatasetFormatError)
      throw new UsageError(error.message, { cause: error });
    throw error;
  }
}

/** Runs `work` over `items`, at most `limit` at once, results in item order. */
async function pooled<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

interface CaseRun {
  result: PackCaseResult;
  report: PackCaseReport;
}

/** Runs one case on its own copy of the template database and checks it. */
async function runCase(
  testCase: PackCase,
  registry: Registry,
  template: PGlite,
  options: Required<Pick<EvalPacksOptions, 'model' | 'timeoutMs' | 'repoRoot'>> & {
    semantic: SemanticScorer | null;
  },
  modelErrors: ModelErrors,
  unattributed: { kind: string; idempotency_key: string | null }[],
): Promise<CaseRun> {
  const writeTools = writeToolsOf(registry);
  const proposals: ModelProposals = { proposed: new Set(), wrong: new Set() };
  let models: EmbeddedModels | undefined;
  const mode = options.model;
  if (mode !== 'none')
    models = {
      tool_decider: forModelProfiles(
        registry,
        deciderGoldModel(testCase, mode, writeTools, modelErrors, proposals),
      ),
      parameter_injector: forModelProfiles(registry, injectorGoldModel(testCase, modelErrors)),
    };
  const taskIdPrefix = `eval-${testCase.id}-`;
  const taskId = `${taskIdPrefix}${testCase.pack}-1`;
  // PGlite's clone() is typed as its interface; it is a PGlite (a new instance loaded from the template's dump).
  const db = (await template.clone()) as PGlite;
  let outcome: PackCaseOutcome & { decision_reason: string | null };
  let trace: EmbeddedTrace | undefined;
  try {
    const run = await runEmbedded({
      repoRoot: options.repoRoot,
      requests: [
        {
          pack: testCase.pack as PackName,
          title: `${testCase.suite} case ${testCase.id}`,
          agent_id: testCase.agent,
          request: testCase.request,
          locale: testCase.locale,
          time_zone: testCase.time_zone,
          reference_time: testCase.reference_time,
        },
      ],
      db,
      taskIdPrefix,
      timeoutMs: options.timeoutMs,
      semantic: options.semantic,
      now: testCase.reference_time,
      submitter: 'signalbox eval packs',
      exchanges: true,
      // The arguments are checked as the tool got them, not as the trace shows them to a user (e-mail redacted).
      secrets: true,
      endOnFailure: true,
      ...(models ? { models } : {}),
    });
    unattributed.push(...run.unattributed_writes);
    trace = run.traces[0];
    outcome = trace ? outcomeOf(trace) : unfinished('no trace');
  } catch (error) {
    outcome = unfinished((error as Error).message);
  } finally {
    await db.close();
  }
  if (mode !== 'none' && trace) outcome.model = modelViewOf(trace, proposals);
  const { decision_reason, ...plain } = outcome;
  const verdict = checkPackCase(testCase, plain, writeTools);
  const result: PackCaseResult = { case: testCase, outcome: plain, verdict };
  const offered = outcome.model?.offered;
  return {
    result,
    report: {
      id: testCase.id,
      pack: testCase.pack,
      suite: testCase.suite,
      lang: testCase.lang,
      kind: testCase.kind,
      agent: testCase.agent,
      request: testCase.request,
      file: testCase.file,
      line: testCase.line,
      right: verdict.right,
      failures: verdict.failures,
      expected: {
        ...testCase.expect,
        max_writes: verdict.max_writes,
        reference_time: testCase.reference_time,
        time_zone: testCase.time_zone,
        locale: testCase.locale,
      },
      outcome: { ...plain, task_id: taskId, decision_reason },
      unasked_writes: verdict.unasked_writes,
      success_act_undone: verdict.success_act_undone,
      needed_offered: verdict.needed_offered,
      missing_from_shortlist: offered ? testCase.expect.run.filter((t) => !offered.includes(t)) : [],
      vetoed_right: verdict.vetoed_right,
      wrong_writes: verdict.wrong_writes,
    },
  };
}

function pct(row: PackSummaryRow): string {
  return `${row.right_pct.toFixed(1)}%`;
}

function summaryTable(
  title: string,
  rows: readonly PackSummaryRow[],
  total: PackSummaryRow,
  model: boolean,
): string[] {
  const header = [title, 'cases', 'right', 'right %', 'unasked writes', 'success, act undone'];
  if (model) header.push('needed offered', 'right vetoed', 'wrong writes');
  const line = (r: PackSummaryRow) => {
    const cells = [
      r.key,
      String(r.cases),
      String(r.right),
      pct(r),
      String(r.unasked_writes),
      String(r.success_act_undone),
    ];
    if (model)
      cells.push(
        r.model ? `${String(r.model.needed_offered)}/${String(r.model.asked)}` : '-',
        String(r.model?.vetoed_cases ?? 0),
        String(r.model?.wrong_writes ?? 0),
      );
    return cells;
  };
  return formatTable(header, [...rows.map(line), line(total)]).split('\n');
}

function clip(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}

function caseLines(c: PackCaseReport): string[] {
  const e = c.expected;
  const o = c.outcome;
  const expected = [
    `run [${e.run.join(', ')}]`,
    ...(e.not_run.length ? [`not_run [${e.not_run.join(', ')}]`] : []),
    `status [${e.status.join(', ')}]`,
    ...(e.asks_for.length ? [`asks_for [${e.asks_for.join(', ')}]`] : []),
    ...(Object.keys(e.arguments).length ? [`arguments ${JSON.stringify(e.arguments)}`] : []),
    `max_writes ${String(e.max_writes)}`,
  ];
  const steps = o.steps.map(
    (s) => `${s.tool} ${s.ok ? 'ok' : 'failed'}/${s.status ?? 'unjudged'} ${JSON.stringify(s.arguments)}`,
  );
  return [
    `  ${c.pack} ${c.id} [${c.lang} ${c.kind}, agent ${c.agent}]: ${c.failures.map((f) => `${f.expectation}: ${f.message}`).join('; ')}`,
    `    request:  "${c.request}"`,
    `    expected: ${expected.join('; ')}`,
    `    happened: ${o.status ?? 'unfinished'}; steps ${steps.length ? steps.join(', ') : 'none'}; attempted [${o.attempted.join(', ')}]; writes [${o.writes.map((w) => w.tool).join(', ')}]` +
      (o.questions.length ? `; asked: ${o.questions.join(' | ')}` : '') +
      (o.error ? `; error: ${o.error}` : ''),
    `    decider:  ${clip(o.decision_reason ?? 'no decision')}`,
    ...(c.missing_from_shortlist.length
      ? [`    shortlist lacked: ${c.missing_from_shortlist.join(', ')}`]
      : []),
    ...c.vetoed_right.map((v) => `    vetoed ${v.tool}: ${clip(v.reason, 200)}`),
  ];
}

/** Runs the scenario-pack suite through the embedded pipeline and reports per case, pack, language and kind. */
export async function evalPacks(io: CliIo, options: EvalPacksOptions = {}): Promise<CommandResult> {
  const root = options.repoRoot ?? repoRoot;
  const holdout = options.holdout ?? false;
  const model = options.model ?? 'none';
  if (!(PACK_MODEL_MODES as readonly string[]).includes(model))
    throw new UsageError(`unknown --model "${model}"; use one of ${PACK_MODEL_MODES.join(', ')}`);
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1)
    throw new UsageError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  const casesDir = options.cases
    ? isAbsolute(options.cases)
      ? options.cases
      : resolve(io.cwd, options.cases)
    : PACK_CASES_DIR;
  const packs = parsePacks(options.pack ?? 'all', casesDir, holdout, root);
  const sets = loadSets(casesDir, packs, holdout);
  const registries = new Map<string, Registry>();
  const problems: string[] = [];
  for (const set of sets) {
    const registry = await loadRegistryDir(join(root, 'registry', 'packs', set.pack));
    registries.set(set.pack, registry);
    for (const p of validatePackCases(set, registry))
      problems.push(
        `${p.file}${p.line === null ? '' : `:${String(p.line)}`}: case ${p.case_id}: ${p.field}: ${p.message}`,
      );
  }
  if (problems.length > 0)
    throw new UsageError(`the cases do not fit their packs' registries:\n  ${problems.join('\n  ')}`);

  const semantic = options.semantic === undefined ? await deciderSemantic(io.env) : options.semantic;
  // One migrated and seeded database; every case runs on its own copy of it.
  const template = new PGlite();
  const modelErrors: ModelErrors = { messages: [] };
  const unattributed: { kind: string; idempotency_key: string | null }[] = [];
  let runs: CaseRun[];
  try {
    await runEmbedded({ repoRoot: root, requests: [], db: template, semantic });
    const cases = sets.flatMap((s) => s.cases);
    const progress = options.progress ? startProgress(io, 'eval packs', cases.length) : undefined;
    runs = await pooled(cases, concurrency, async (testCase) => {
      const registry = registries.get(testCase.pack);
      if (!registry) throw new Error(`no registry loaded for pack ${testCase.pack}`);
      const run = await runCase(
        testCase,
        registry,
        template,
        { model, timeoutMs: options.timeoutMs ?? 60_000, repoRoot: root, semantic },
        modelErrors,
        unattributed,
      );
      options.onCase?.(run.result);
      progress?.tick();
      return run;
    });
    progress?.done();
  } finally {
    await template.close();
  }

  const report: PackSuiteReport = summarizePackResults(runs.map((r) => r.result));
  const wrong = runs.filter((r) => !r.result.verdict.right).map((r) => r.report);
  const suite = holdout ? 'held-out' : 'development';
  const withModel = model !== 'none';
  const integrity = [
    ...modelErrors.messages.map((m) => `scripted model: ${m}`),
    ...unattributed.map(
      (u) =>
        `a ${u.kind} act (idempotency key ${u.idempotency_key ?? 'none'}) matches no executor call: writes cannot be counted exactly`,
    ),
  ];
  const text = [
    `Scenario packs, ${suite} suite (${packCasesFolder(casesDir, holdout)}): ${String(report.total.cases)} cases through the embedded pipeline; model ${model}`,
    '',
    ...summaryTable('pack', report.by_pack, report.total, withModel),
    '',
    ...summaryTable('language', report.by_lang, report.total, withModel),
    '',
    ...summaryTable('kind', report.by_kind, report.total, withModel),
    '',
    wrong.length === 0 ? 'no wrong case' : `wrong cases (${String(wrong.length)}):`,
    // (a held-out case is shown by its id only: its request, expectations and outcome would invite tuning on it)
    ...(holdout ? wrong.map((c) => `  ${c.pack} ${c.id} [${c.lang} ${c.kind}]`) : wrong.flatMap(caseLines)),
    ...(integrity.length
      ? ['', `harness errors (${String(integrity.length)}):`, ...integrity.map((m) => `  ${m}`)]
      : []),
  ];
  return {
    exitCode: integrity.length > 0 ? 1 : 0,
    json: {
      ok: integrity.length === 0,
      suite: holdout ? 'holdout' : 'dev',
      cases_dir: packCasesFolder(casesDir, holdout),
      packs,
      model,
      semantic_model: semantic
        ? [...semantic.models.values()].map((m) => ({ model: m.id, sha256: m.sha256 }))
        : null,
      report,
      cases: holdout ? runs.map((r) => heldOutView(r.report)) : runs.map((r) => r.report),
      harness_errors: integrity,
    },
    text,
  };
}

/**
 * What a report shows of a held-out case: its id, pack, language and kind, and whether it was right (and kept the
 * write rules) — not its request, expectations or outcome, which would invite tuning on it (packs/README.md).
 */
function heldOutView(
  c: PackCaseReport,
): Pick<
  PackCaseReport,
  'id' | 'pack' | 'suite' | 'lang' | 'kind' | 'right' | 'success_act_undone' | 'wrong_writes'
> & { unasked_writes: number } {
  return {
    id: c.id,
    pack: c.pack,
    suite: c.suite,
    lang: c.lang,
    kind: c.kind,
    right: c.right,
    unasked_writes: c.unasked_writes.length,
    success_act_undone: c.success_act_undone,
    wrong_writes: c.wrong_writes,
  };
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`expected a positive integer, got "${value}"`);
  return n;
}

/** Adds `packs` to the program's `eval` command group (creating the group when nobody has yet). */
export function registerEvalPacks(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const group =
    program.commands.find((c) => c.name() === 'eval') ??
    program.command('eval').description('evaluate stages on datasets (EVAL-1)');
  group
    .command('packs')
    .description(
      'run the scenario-pack cases through the embedded pipeline and score them per pack, language and kind (EVAL-5)',
    )
    .option('--pack <names>', `packs, comma-separated, or all (${PACK_NAMES.join(', ')})`, 'all')
    .option('--cases <dir>', 'case folder (<pack>.yaml, holdout/<pack>.yaml); default packages/eval/packs')
    .option('--holdout', 'run the held-out suite (<cases>/holdout/<pack>.yaml)')
    .addOption(
      new Option(
        '--model <mode>',
        'what the decider and the injector may ask: no model, a gold model, a gold model that also proposes a wrong write',
      )
        .choices(PACK_MODEL_MODES)
        .default('none'),
    )
    .option('--concurrency <n>', 'cases run at once, each on its own database (default 1)', positiveInt)
    .action(
      async (opts: {
        pack: string;
        cases?: string;
        holdout?: boolean;
        model: PackModelMode;
        concurrency?: number;
      }) => {
        const json = program.opts<{ json?: boolean }>().json === true;
        done(await evalPacks(io, { ...opts, progress: !json }));
      },
    );
}
