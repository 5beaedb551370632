// Scenario-pack cases (EVAL-5): plain-data suites of realistic English and Chinese requests, one YAML file per pack
// (`<dir>/<pack>.yaml`, held out: `<dir>/holdout/<pack>.yaml`), run through the whole pipeline by
// `signalbox eval packs`. This module owns the file format (zod), loading with errors that name the file, line, case
// and field, the check of a case against its pack's registry, the verdict on one run (`checkPackCase`) and the
// aggregation into a report. It runs nothing itself: the outcome of a run is plain data handed in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LineCounter, isMap, isSeq, parseDocument, type Document } from 'yaml';
import { z } from 'zod';
import { canonicalJson, type Registry } from '@signalbox/registry';
import { REPO_ROOT } from './bfcl-dataset.js';
import { DatasetFormatError, DatasetNotFoundError } from './errors.js';

/** The task's "now" when a file's `defaults` give none: the demo backends' clock (Monday 2026-11-30). */
export const PACK_REFERENCE_TIME = '2026-11-30T09:00:00.000Z';

/** Where the case files live by default: `packages/eval/packs` under the repository root. */
export const PACK_CASES_DIR: string = join(REPO_ROOT, 'packages', 'eval', 'packs');

/** The languages a request may be written in. */
export const PackCaseLang = z.enum(['en', 'zh']);
export type PackCaseLang = z.infer<typeof PackCaseLang>;

/** What a case probes. */
export const PackCaseKind = z.enum([
  'lookup',
  'act',
  'multi_act',
  'missing_value',
  'out_of_scope',
  'unasked_write',
  'visibility',
  'relative_date',
]);
export type PackCaseKind = z.infer<typeof PackCaseKind>;

/** A task's final status, as the pipeline reports it. */
export const PackCaseStatus = z.enum(['success', 'partial_success', 'failed', 'need_clarification']);
export type PackCaseStatus = z.infer<typeof PackCaseStatus>;

/** The locale of a language when neither the case nor the file's defaults name one. */
export const DEFAULT_LOCALES: Readonly<Record<PackCaseLang, string>> = { en: 'en-US', zh: 'zh-CN' };

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

function isLocale(value: string): boolean {
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}

function duplicates(values: readonly string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}

const TimeZone = z
  .string()
  .refine(isTimeZone, { error: 'is not an IANA time zone (e.g. Asia/Shanghai, UTC)' });
const Locale = z.string().refine(isLocale, { error: 'is not a BCP 47 locale (e.g. en-US, zh-CN)' });
const ToolName = z.string().min(1).max(128);
const ToolList = z.array(ToolName).superRefine((names, ctx) => {
  for (const name of duplicates(names)) ctx.addIssue({ code: 'custom', message: `lists ${name} twice` });
});

/** What a run must show for the case to be right. */
export const PackCaseExpect = z.strictObject({
  /** Tools that must each have at least one successful step (order-free). */
  run: ToolList,
  /** Tools that must not be called at all (no attempt). */
  not_run: ToolList.default([]),
  /**
   * Tools a right plan includes beyond `run`'s, whose call cannot succeed here — a required value the request leaves
   * out (the question names it; the call is never made), a refusal the backend answers (already refunded, not paid):
   * what a right model proposes beside `run`'s tools (`--model gold`). Nothing in a run is checked against them.
   */
  planned: ToolList.default([]),
  /** Allowed final statuses. */
  status: z
    .array(PackCaseStatus)
    .min(1)
    .superRefine((statuses, ctx) => {
      for (const s of duplicates(statuses)) ctx.addIssue({ code: 'custom', message: `lists ${s} twice` });
    }),
  /** Parameter names the final question(s) must name (only with need_clarification). */
  asks_for: z.array(z.string().min(1)).min(1).optional(),
  /** Per tool, arguments its first answered call must carry (listed keys equal after JSON canonicalisation). */
  arguments: z.record(ToolName, z.record(z.string().min(1), z.json())).optional(),
  /** Most side-effecting calls the backends may perform. @default the number of write tools in `run` */
  max_writes: z.number().int().min(0).optional(),
});
export type PackCaseExpect = z.infer<typeof PackCaseExpect>;

/** One case as written. */
export const PackCaseEntry = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(80)
    .regex(/^[a-z0-9-]+$/, { error: "must be lower-case letters, digits and '-'" }),
  lang: PackCaseLang,
  agent: z.string().min(1),
  kind: PackCaseKind,
  request: z.string().trim().min(1, { error: 'must not be empty' }),
  note: z.string().optional(),
  expect: PackCaseExpect,
  time_zone: TimeZone.optional(),
  locale: Locale.optional(),
});
export type PackCaseEntry = z.infer<typeof PackCaseEntry>;

/** A case file as written: one YAML document per pack. */
export const PackCaseFile = z.strictObject({
  pack: z.string().min(1),
  defaults: z
    .strictObject({
      reference_time: z.iso.datetime({ offset: true }).optional(),
      time_zone: TimeZone.optional(),
      locale: Locale.optional(),
    })
    .optional(),
  cases: z.array(PackCaseEntry).min(1, { error: 'must list at least one case' }),
});
export type PackCaseFile = z.infer<typeof PackCaseFile>;

/** Which suite a file belongs to. */
export type PackSuite = 'dev' | 'holdout';

/** One case, loaded: the file's defaults applied, where it came from. */
export interface PackCase {
  pack: string;
  suite: PackSuite;
  file: string;
  /** One-based line of the case in its file. */
  line: number | null;
  id: string;
  lang: PackCaseLang;
  agent: string;
  kind: PackCaseKind;
  request: string;
  note: string | null;
  reference_time: string;
  time_zone: string;
  locale: string;
  expect: {
    run: string[];
    not_run: string[];
    planned: string[];
    status: PackCaseStatus[];
    asks_for: string[];
    arguments: Record<string, Record<string, unknown>>;
    /** null: the default, the number of write tools in `run` (known only with the registry). */
    max_writes: number | null;
  };
}

/** One loaded case file. */
export interface PackCaseSet {
  pack: string;
  suite: PackSuite;
  file: string;
  cases: PackCase[];
}

/** Options of {@link parsePackCases}. */
export interface ParsePackCasesOptions {
  /** The file name errors name. */
  file: string;
  /** The pack the file is for: the file's `pack` must equal it. */
  pack: string;
  /** @default 'dev' */
  suite?: PackSuite;
}

/** One problem of a case file, located. */
interface Located {
  line: number | null;
  message: string;
}

function lineOf(doc: Document, counter: LineCounter, path: readonly PropertyKey[]): number | null {
  // The node at the path, or the nearest one above it (a missing field is reported where its parent is).
  for (let depth = path.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
    const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
    if (range) return counter.linePos(range[0]).line;
  }
  return null;
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) =>
      typeof key === 'number' ? `${text}[${String(key)}]` : text ? `${text}.${String(key)}` : String(key),
    '',
  );
}

/** "case <id> (cases[i])" for a path inside a case, so an error names the case even when its id is the problem. */
function caseLabel(
  raw: unknown,
  path: readonly PropertyKey[],
): { label: string; rest: readonly PropertyKey[] } {
  if (path[0] !== 'cases' || typeof path[1] !== 'number') return { label: '', rest: path };
  const entry = (raw as { cases?: unknown[] } | null)?.cases?.[path[1]];
  const id = (entry as { id?: unknown } | undefined)?.id;
  const where = `cases[${String(path[1])}]`;
  return {
    label: typeof id === 'string' && id !== '' ? `case ${id} (${where})` : where,
    rest: path.slice(2),
  };
}

function locate(raw: unknown, path: readonly PropertyKey[], message: string): string {
  const { label, rest } = caseLabel(raw, path);
  const field = fieldPath(rest);
  return [label, field].filter((s) => s !== '').join(': ') + `: ${message}`;
}

function fail(file: string, problems: readonly Located[]): never {
  const sorted = [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const [only] = sorted;
  if (sorted.length === 1 && only)
    throw new DatasetFormatError(only.message, { file, ...(only.line === null ? {} : { line: only.line }) });
  const lines = sorted.map((p) => (p.line === null ? p.message : `line ${String(p.line)}: ${p.message}`));
  throw new DatasetFormatError(`${String(lines.length)} problems:\n  ${lines.join('\n  ')}`, { file });
}

/** Checks of a file that its schema cannot state: the pack, unique ids, and how expectations fit together. */
function crossChecks(parsed: PackCaseFile, pack: string): { path: PropertyKey[]; message: string }[] {
  const problems: { path: PropertyKey[]; message: string }[] = [];
  if (parsed.pack !== pack)
    problems.push({ path: ['pack'], message: `is "${parsed.pack}", but the file is the ${pack} pack's` });
  const seen = new Map<string, number>();
  parsed.cases.forEach((c, i) => {
    const at = (...rest: PropertyKey[]) => ['cases', i, ...rest];
    const first = seen.get(c.id);
    if (first !== undefined)
      problems.push({ path: at('id'), message: `is used again (first by cases[${String(first)}])` });
    else seen.set(c.id, i);
    if (c.lang === 'zh' && !/\p{Script=Han}/u.test(c.request))
      problems.push({ path: at('request'), message: 'has no Chinese character, but lang is zh' });
    const run = new Set(c.expect.run);
    for (const [j, tool] of c.expect.not_run.entries())
      if (run.has(tool))
        problems.push({ path: at('expect', 'not_run', j), message: `${tool} is also in expect.run` });
    for (const [j, tool] of c.expect.planned.entries())
      if (run.has(tool))
        problems.push({ path: at('expect', 'planned', j), message: `${tool} is also in expect.run` });
    for (const tool of Object.keys(c.expect.arguments ?? {}))
      if (!run.has(tool))
        problems.push({
          path: at('expect', 'arguments', tool),
          message: `${tool} is not in expect.run (arguments are checked on a run tool's first answered call)`,
        });
    if (c.expect.asks_for && !c.expect.status.includes('need_clarification'))
      problems.push({
        path: at('expect', 'asks_for'),
        message: 'is only for a case whose expect.status allows need_clarification',
      });
  });
  return problems;
}

/**
 * Parses one case file's text. Throws {@link DatasetFormatError} listing every problem with its line, the case (id
 * and index) and the field: YAML syntax, unknown or missing fields, bad values, a `pack` other than the file's,
 * duplicate ids, a `zh` request without Chinese, a tool both in `run` and `not_run`, `arguments` for a tool not in
 * `run`, `asks_for` without `need_clarification`.
 */
export function parsePackCases(text: string, options: ParsePackCasesOptions): PackCaseSet {
  const { file, pack } = options;
  const suite = options.suite ?? 'dev';
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter });
  // One syntax error makes the parser report several more after it; the first is the one to fix.
  const [syntax] = doc.errors;
  if (syntax)
    fail(file, [
      {
        line: syntax.linePos?.[0].line ?? null,
        message: `not valid YAML: ${syntax.message.split('\n')[0] ?? syntax.code}`,
      },
    ]);
  const raw: unknown = doc.toJS();
  const result = PackCaseFile.safeParse(raw);
  if (!result.success)
    fail(
      file,
      result.error.issues.flatMap((issue) =>
        // An unknown key is reported at the key itself, one problem per key.
        (issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => [...issue.path, key])
          : [issue.path]
        ).map((path) => ({
          line: lineOf(doc, counter, path),
          message: locate(raw, path, issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message),
        })),
      ),
    );
  const parsed = result.data;
  const problems = crossChecks(parsed, pack);
  if (problems.length > 0)
    fail(
      file,
      problems.map((p) => ({ line: lineOf(doc, counter, p.path), message: locate(raw, p.path, p.message) })),
    );
  const defaults = parsed.defaults ?? {};
  const casesNode = doc.get('cases', true);
  return {
    pack,
    suite,
    file,
    cases: parsed.cases.map((c, i) => {
      const item = isSeq(casesNode) ? casesNode.items[i] : undefined;
      const range = isMap(item) ? item.range : undefined;
      return {
        pack,
        suite,
        file,
        line: range ? counter.linePos(range[0]).line : null,
        id: c.id,
        lang: c.lang,
        agent: c.agent,
        kind: c.kind,
        request: c.request,
        note: c.note ?? null,
        reference_time: defaults.reference_time ?? PACK_REFERENCE_TIME,
        time_zone: c.time_zone ?? defaults.time_zone ?? 'UTC',
        locale: c.locale ?? defaults.locale ?? DEFAULT_LOCALES[c.lang],
        expect: {
          run: c.expect.run,
          not_run: c.expect.not_run,
          planned: c.expect.planned,
          status: c.expect.status,
          asks_for: c.expect.asks_for ?? [],
          arguments: c.expect.arguments ?? {},
          max_writes: c.expect.max_writes ?? null,
        },
      };
    }),
  };
}

/** Options of {@link loadPackCases}. */
export interface LoadPackCasesOptions {
  /** Read the held-out suite (`<dir>/holdout/<pack>.yaml`). @default false */
  holdout?: boolean;
  /** The packs to read. @default every `<pack>.yaml` in the folder */
  packs?: readonly string[];
}

/** The suite folder of `dir`: `dir` itself, or its `holdout/` folder. */
export function packCasesFolder(dir: string, holdout = false): string {
  return holdout ? join(dir, 'holdout') : dir;
}

/** The packs that have a case file in a suite folder (file names without `.yaml`), sorted. */
export function availablePackCaseFiles(dir: string, holdout = false): string[] {
  const folder = packCasesFolder(dir, holdout);
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.yaml'))
    .map((e) => e.name.slice(0, -'.yaml'.length))
    .sort();
}

/**
 * Reads `<dir>/<pack>.yaml` (or `<dir>/holdout/<pack>.yaml`) for each pack. Throws {@link DatasetNotFoundError} for a
 * missing folder or file, {@link DatasetFormatError} for a malformed one (see {@link parsePackCases}).
 */
export function loadPackCases(dir: string, options: LoadPackCasesOptions = {}): PackCaseSet[] {
  const holdout = options.holdout ?? false;
  const folder = packCasesFolder(dir, holdout);
  if (!existsSync(folder))
    throw new DatasetNotFoundError(`no ${holdout ? 'held-out ' : ''}case folder ${folder}`, { file: folder });
  const packs = options.packs ?? availablePackCaseFiles(dir, holdout);
  if (packs.length === 0)
    throw new DatasetNotFoundError(`no case file (<pack>.yaml) in ${folder}`, { file: folder });
  return packs.map((pack) => {
    const file = join(folder, `${pack}.yaml`);
    if (!existsSync(file))
      throw new DatasetNotFoundError(`no case file for pack ${pack}: ${file} does not exist`, { file });
    return parsePackCases(readFileSync(file, 'utf8'), { file, pack, suite: holdout ? 'holdout' : 'dev' });
  });
}

/** A case that does not fit its pack's registry. */
export interface PackCaseProblem {
  file: string;
  line: number | null;
  case_id: string;
  field: string;
  message: string;
}

/** The tools of a registry whose `action` is not `read`: what has side effects. */
export function writeToolsOf(registry: Pick<Registry, 'content'>): Set<string> {
  return new Set(registry.content.tools.filter((t) => t.action !== 'read').map((t) => t.name));
}

/**
 * Checks each case against its pack's registry: the agent exists; every tool named in `run`, `not_run`, `planned`
 * and `arguments` exists; every argument named is a parameter of its tool. Returns the problems (empty: all fit).
 */
export function validatePackCases(set: PackCaseSet, registry: Registry): PackCaseProblem[] {
  const problems: PackCaseProblem[] = [];
  const agents = registry.content.agents.map((a) => a.id).join(', ');
  const tools = registry.content.tools.map((t) => t.name).join(', ');
  for (const c of set.cases) {
    const add = (field: string, message: string) => {
      problems.push({ file: set.file, line: c.line, case_id: c.id, field, message });
    };
    if (!registry.agent(c.agent))
      add('agent', `${c.agent} is not an agent of the ${set.pack} pack (agents: ${agents})`);
    const named: [string, string][] = [
      ...c.expect.run.map((t, i): [string, string] => [`expect.run[${String(i)}]`, t]),
      ...c.expect.not_run.map((t, i): [string, string] => [`expect.not_run[${String(i)}]`, t]),
      ...c.expect.planned.map((t, i): [string, string] => [`expect.planned[${String(i)}]`, t]),
    ];
    for (const [field, tool] of named)
      if (!registry.tool(tool)) add(field, `${tool} is not a tool of the ${set.pack} pack (tools: ${tools})`);
    for (const [tool, args] of Object.entries(c.expect.arguments)) {
      const definition = registry.tool(tool);
      if (!definition) {
        add(`expect.arguments.${tool}`, `${tool} is not a tool of the ${set.pack} pack (tools: ${tools})`);
        continue;
      }
      const properties = definition.parameters.properties;
      if (properties === undefined || properties === null || typeof properties !== 'object') continue;
      const known = Object.keys(properties);
      for (const key of Object.keys(args))
        if (!known.includes(key))
          add(
            `expect.arguments.${tool}.${key}`,
            `${key} is not a parameter of ${tool} (parameters: ${known.join(', ') || 'none'})`,
          );
    }
  }
  return problems;
}

/** One step of a run, as the pipeline recorded it. */
export interface PackRunStep {
  tool: string;
  ok: boolean;
  /** The evaluator's verdict on the step; null when the run ended before it judged. */
  status: PackCaseStatus | null;
  arguments: Record<string, unknown>;
}

/** One side effect a backend performed for the case's task. */
export interface PackRunWrite {
  tool: string;
  /** The backend's name for the act (e.g. `refund_created`). */
  kind: string;
}

/** What the model path saw and did on one case (runs with a scripted model only). */
export interface PackRunModel {
  /** The tools offered to the model by the decider's first proposal request; null when it was never asked. */
  offered: string[] | null;
  /** Every tool the model proposed to the decider. */
  proposed: string[];
  /** Proposed tools the decider's final plan did not keep, with its reason. */
  vetoed: { tool: string; reason: string }[];
  /** The wrong writes the model was scripted to propose (`wrong-write` runs). */
  wrong_proposed: string[];
}

/** The outcome of one case's run: plain data, whatever ran it. */
export interface PackCaseOutcome {
  /** The final status; null when the task did not finish. */
  status: PackCaseStatus | null;
  questions: string[];
  issues: string[];
  steps: PackRunStep[];
  /** Every step the executor was asked to run, in order — refused and failed ones too. */
  attempted: string[];
  /** The side effects the backends performed for the task. */
  writes: PackRunWrite[];
  /** Why the run has no final status (a stage failed, the run timed out); null when it finished. */
  error: string | null;
  model?: PackRunModel;
}

/** Which expectation a failure is about. */
export type PackExpectation =
  'finished' | 'status' | 'run' | 'not_run' | 'arguments' | 'asks_for' | 'max_writes';

/** The verdict on one case. */
export interface PackCaseVerdict {
  right: boolean;
  /** Every expectation that failed, with what happened. */
  failures: { expectation: PackExpectation; message: string }[];
  /** The side effects performed, and the most allowed. */
  writes: number;
  max_writes: number;
  /** Writes by tools not in `run`. */
  unasked_writes: PackRunWrite[];
  /** The task finished `success` while a `run` tool had no successful step. */
  success_act_undone: boolean;
  /** Model runs: every `run` tool was offered to the model (null: no model asked). */
  needed_offered: boolean | null;
  /** Model runs: `run` tools the model proposed and the decider's final plan did not keep. */
  vetoed_right: { tool: string; reason: string }[];
  /** Model runs: writes the backends performed for the wrong writes the model proposed. */
  wrong_writes: number;
}

/** The words of a parameter name ("order_id", "orderId" → "order id"). */
function fieldWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.\s]+/g, ' ')
    .trim()
    .toLowerCase();
}

function names(question: string, field: string): boolean {
  const text = question.toLowerCase();
  return text.includes(field.toLowerCase()) || text.includes(fieldWords(field));
}

function successful(step: PackRunStep): boolean {
  return step.ok && step.status === 'success';
}

function shown(value: unknown): string {
  return value === undefined ? 'absent' : canonicalJson(value);
}

/**
 * The verdict on one run of a case. Right when: the task finished with an allowed status; every `run` tool has a
 * successful step; no `not_run` tool was attempted; the first answered call (ok, an empty answer included) of each tool in `arguments` carries
 * the listed values (equal after JSON canonicalisation); each `asks_for` field is named by a final question; and the
 * backends performed at most `max_writes` side effects (default: the write tools in `run`, per `writeTools`).
 */
export function checkPackCase(
  testCase: PackCase,
  outcome: PackCaseOutcome,
  writeTools: ReadonlySet<string>,
): PackCaseVerdict {
  const failures: PackCaseVerdict['failures'] = [];
  const { expect } = testCase;
  if (outcome.status === null)
    failures.push({
      expectation: 'finished',
      message: `the task did not finish: ${outcome.error ?? 'no final status'}`,
    });
  else if (!expect.status.includes(outcome.status))
    failures.push({
      expectation: 'status',
      message: `finished ${outcome.status}, expected ${expect.status.join(' or ')}`,
    });
  const undone = expect.run.filter((tool) => !outcome.steps.some((s) => s.tool === tool && successful(s)));
  for (const tool of undone) {
    const tried = outcome.steps.filter((s) => s.tool === tool);
    failures.push({
      expectation: 'run',
      message:
        tried.length === 0
          ? outcome.attempted.includes(tool)
            ? `${tool} was attempted but never executed`
            : `${tool} was not called`
          : `${tool} had no successful step (${tried.map((s) => (s.ok ? (s.status ?? 'unjudged') : 'failed')).join(', ')})`,
    });
  }
  for (const tool of expect.not_run) {
    const attempts = outcome.attempted.filter((t) => t === tool).length;
    if (attempts > 0)
      failures.push({
        expectation: 'not_run',
        message: `${tool} was attempted ${attempts === 1 ? 'once' : `${String(attempts)} times`}`,
      });
  }
  for (const [tool, wanted] of Object.entries(expect.arguments)) {
    // The arguments the request gave are those of the first call the tool answered — an empty answer included: a
    // look-up that found nothing for yesterday (SP-2) was still called with yesterday.
    const call = outcome.steps.find((s) => s.tool === tool && s.ok);
    if (!call) {
      failures.push({
        expectation: 'arguments',
        message: `${tool}: no answered call to check arguments on`,
      });
      continue;
    }
    const wrong = Object.entries(wanted).filter(
      ([key, value]) =>
        !(key in call.arguments) || canonicalJson(call.arguments[key]) !== canonicalJson(value),
    );
    if (wrong.length > 0)
      failures.push({
        expectation: 'arguments',
        message: `${tool}: ${wrong.map(([key, value]) => `${key} ${shown(call.arguments[key])}, expected ${canonicalJson(value)}`).join('; ')}`,
      });
  }
  const missing = expect.asks_for.filter((field) => !outcome.questions.some((q) => names(q, field)));
  if (missing.length > 0)
    failures.push({
      expectation: 'asks_for',
      message:
        outcome.questions.length === 0
          ? `no question asked; expected one naming ${missing.join(', ')}`
          : `no question names ${missing.join(', ')} (asked: ${outcome.questions.join(' | ')})`,
    });
  const maxWrites = expect.max_writes ?? expect.run.filter((t) => writeTools.has(t)).length;
  if (outcome.writes.length > maxWrites)
    failures.push({
      expectation: 'max_writes',
      message: `${String(outcome.writes.length)} write(s) performed (${outcome.writes.map((w) => w.tool).join(', ')}), at most ${String(maxWrites)} allowed`,
    });
  const run = new Set(expect.run);
  const model = outcome.model;
  const wrongProposed = new Set(model?.wrong_proposed ?? []);
  return {
    right: failures.length === 0,
    failures,
    writes: outcome.writes.length,
    max_writes: maxWrites,
    unasked_writes: outcome.writes.filter((w) => !run.has(w.tool)),
    success_act_undone: outcome.status === 'success' && undone.length > 0,
    needed_offered: model?.offered ? expect.run.every((t) => model.offered?.includes(t)) : null,
    vetoed_right: (model?.vetoed ?? []).filter((v) => run.has(v.tool)),
    wrong_writes: outcome.writes.filter((w) => wrongProposed.has(w.tool)).length,
  };
}

/** One case's result: the case, what happened, the verdict. */
export interface PackCaseResult {
  case: PackCase;
  outcome: PackCaseOutcome;
  verdict: PackCaseVerdict;
}

/** Cases and right cases. */
export interface PackKindScore {
  cases: number;
  right: number;
}

/** One row of the report: a pack, a language, a kind, or everything. */
export interface PackSummaryRow {
  key: string;
  cases: number;
  right: number;
  /** right ÷ cases in percent, one decimal; 0 without cases. */
  right_pct: number;
  /** Side effects by tools not in the case's `run`. */
  unasked_writes: number;
  /** Cases that finished `success` with a `run` tool without a successful step. */
  success_act_undone: number;
  by_kind: Partial<Record<PackCaseKind, PackKindScore>>;
  /** Model runs only: cases the model was asked on, with every `run` tool offered, with a right proposal vetoed, and
   * the wrong writes the backends performed. */
  model?: { asked: number; needed_offered: number; vetoed_cases: number; wrong_writes: number };
}

/** The aggregation of a suite run. */
export interface PackSuiteReport {
  total: PackSummaryRow;
  by_pack: PackSummaryRow[];
  by_lang: PackSummaryRow[];
  by_kind: PackSummaryRow[];
}

function summaryRow(key: string, results: readonly PackCaseResult[]): PackSummaryRow {
  const right = results.filter((r) => r.verdict.right).length;
  const byKind: PackSummaryRow['by_kind'] = {};
  for (const kind of PackCaseKind.options) {
    const of = results.filter((r) => r.case.kind === kind);
    if (of.length > 0) byKind[kind] = { cases: of.length, right: of.filter((r) => r.verdict.right).length };
  }
  const withModel = results.filter((r) => r.outcome.model !== undefined);
  return {
    key,
    cases: results.length,
    right,
    right_pct: results.length === 0 ? 0 : Math.round((right / results.length) * 1000) / 10,
    unasked_writes: results.reduce((n, r) => n + r.verdict.unasked_writes.length, 0),
    success_act_undone: results.filter((r) => r.verdict.success_act_undone).length,
    by_kind: byKind,
    ...(withModel.length > 0
      ? {
          model: {
            asked: withModel.filter((r) => r.verdict.needed_offered !== null).length,
            needed_offered: withModel.filter((r) => r.verdict.needed_offered === true).length,
            vetoed_cases: withModel.filter((r) => r.verdict.vetoed_right.length > 0).length,
            wrong_writes: withModel.reduce((n, r) => n + r.verdict.wrong_writes, 0),
          },
        }
      : {}),
  };
}

function groupBy(
  results: readonly PackCaseResult[],
  key: (r: PackCaseResult) => string,
  order: readonly string[],
) {
  const keys = [...new Set(results.map(key))].sort((a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return ia === -1 || ib === -1 ? a.localeCompare(b) : ia - ib;
  });
  return keys.map((k) =>
    summaryRow(
      k,
      results.filter((r) => key(r) === k),
    ),
  );
}

/** Aggregates results by pack (in the order they first appear), by language and by kind, and in total. */
export function summarizePackResults(results: readonly PackCaseResult[]): PackSuiteReport {
  const packs = [...new Set(results.map((r) => r.case.pack))];
  return {
    total: summaryRow('all', results),
    by_pack: groupBy(results, (r) => r.case.pack, packs),
    by_lang: groupBy(results, (r) => r.case.lang, PackCaseLang.options),
    by_kind: groupBy(results, (r) => r.case.kind, PackCaseKind.options),
  };
}
