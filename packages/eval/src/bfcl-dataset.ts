// Loading the BFCL sets (EVAL-2) from a folder beside the spec — never copied into the repository: the public sets
// (`../shared/eval/bfcl`) and the live sets (the development half in `../shared/eval/bfcl-live-dev`; the held-out half
// is in no folder this repository knows). The multi-turn sets are not supported and are refused.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DatasetFormatError, DatasetNotFoundError } from './errors.js';
import {
  CaseMessage,
  FunctionDoc,
  type EvalCase,
  type ExpectedCall,
  type PredictedCall,
} from './eval-case.js';
import { isPlainObject } from './normalize.js';

/** The public (non-live) BFCL sets, by the name in their file names (`BFCL_v4_<set>.json`). */
export const BFCL_PUBLIC_SETS = [
  'simple_python',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'irrelevance',
] as const;

/** BFCL's live sets (real user queries), by the name in their file names. */
export const BFCL_LIVE_SETS = [
  'live_simple',
  'live_multiple',
  'live_parallel',
  'live_parallel_multiple',
  'live_irrelevance',
  'live_relevance',
] as const;

/** Every BFCL set this package reads: the public sets, then the live sets. */
export const BFCL_SETS = [...BFCL_PUBLIC_SETS, ...BFCL_LIVE_SETS] as const;
export type BfclSet = (typeof BFCL_SETS)[number];

/**
 * What is right on a set: `calls` — the gold calls of its answer file; `no_call` — calling nothing (irrelevance
 * sets); `any_call` — at least one call of any offered function (BFCL's relevance set).
 */
export type BfclExpectation = 'calls' | 'no_call' | 'any_call';

/** Sets without an answer file, and what is right on them. */
const NO_ANSWER_SETS: Readonly<Partial<Record<BfclSet, Exclude<BfclExpectation, 'calls'>>>> = {
  irrelevance: 'no_call',
  live_irrelevance: 'no_call',
  live_relevance: 'any_call',
};

/** What is right on a set ({@link BfclExpectation}). */
export function bfclSetExpectation(set: BfclSet): BfclExpectation {
  return NO_ANSWER_SETS[set] ?? 'calls';
}

/** True for a known set name. */
export function isBfclSet(name: string): name is BfclSet {
  return (BFCL_SETS as readonly string[]).includes(name);
}

/** The question file of a set in a BFCL folder. */
export function bfclQuestionFile(dir: string, set: BfclSet): string {
  return join(dir, `BFCL_v4_${set}.json`);
}

/** The sets whose question file is in `dir`, in {@link BFCL_SETS} order (none when the folder is missing). */
export function availableBfclSets(dir: string): BfclSet[] {
  return BFCL_SETS.filter((set) => existsSync(bfclQuestionFile(dir, set)));
}

/** The environment variable naming the BFCL folder. */
export const BFCL_DIR_ENV = 'SIGNALBOX_BFCL_DIR';

/** The repository root, found from this file's own location (`packages/eval/src` or `packages/eval/dist`). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** One line of a BFCL question file. */
export const BfclQuestionLine = z.object({
  id: z.string().min(1),
  question: z.array(z.array(CaseMessage)),
  function: z.array(FunctionDoc),
});
export type BfclQuestionLine = z.infer<typeof BfclQuestionLine>;

/** One line of a BFCL possible-answer file: each gold call is `{ functionName: { param: [acceptable…] } }`. */
export const BfclAnswerLine = z.object({
  id: z.string().min(1),
  ground_truth: z.array(z.record(z.string(), z.record(z.string(), z.array(z.unknown())))),
});
export type BfclAnswerLine = z.infer<typeof BfclAnswerLine>;

/**
 * The BFCL folder: `$SIGNALBOX_BFCL_DIR` when set, else `../shared/eval/bfcl`; a relative path is resolved against
 * the repository root (not the working directory, which differs between `pnpm` scripts and packages).
 */
export function resolveBfclDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const configured = env[BFCL_DIR_ENV];
  const dir = configured !== undefined && configured.trim() !== '' ? configured : '../shared/eval/bfcl';
  return isAbsolute(dir) ? dir : resolve(REPO_ROOT, dir);
}

/** Options of {@link loadBfclSet}. */
export interface LoadBfclOptions {
  /** The BFCL folder. @default resolveBfclDir() */
  dir?: string;
}

function readJsonLines<T>(file: string, schema: z.ZodType<T>): T[] {
  if (!existsSync(file)) {
    throw new DatasetNotFoundError(`BFCL file not found: ${file} (set ${BFCL_DIR_ENV} to the BFCL folder)`, {
      file,
    });
  }
  const rows: T[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return;
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new DatasetFormatError('not valid JSON', { file, line: index + 1, cause: error });
      }
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new DatasetFormatError(
          `invalid at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`,
          {
            file,
            line: index + 1,
          },
        );
      }
      rows.push(parsed.data);
    });
  return rows;
}

function toExpectedCalls(
  groundTruth: BfclAnswerLine['ground_truth'],
  file: string,
  id: string,
): ExpectedCall[] {
  return groundTruth.map((call) => {
    const entries = Object.entries(call);
    const [entry] = entries;
    if (entries.length !== 1 || entry === undefined) {
      throw new DatasetFormatError(`case ${id}: each gold call must name exactly one function`, { file });
    }
    return { name: entry[0], params: entry[1] };
  });
}

/**
 * Loads one BFCL set as evaluation cases, with gold answers joined by id. The irrelevance sets and the relevance set
 * have no answer file: their cases expect no call (`expected: []`), or any call (`expect: 'any_call'`). Throws a
 * `RangeError` for an unknown set (the multi-turn sets among them), `DatasetNotFoundError` when a file is missing and
 * `DatasetFormatError` on a bad line or a case without a gold answer.
 */
export function loadBfclSet(set: BfclSet, options: LoadBfclOptions = {}): EvalCase[] {
  if (!isBfclSet(set)) {
    throw new RangeError(`unknown BFCL set ${JSON.stringify(set)}; use one of ${BFCL_SETS.join(', ')}`);
  }
  const dir = options.dir ?? resolveBfclDir();
  if (!existsSync(dir)) {
    throw new DatasetNotFoundError(`BFCL folder not found: ${dir} (set ${BFCL_DIR_ENV})`, { file: dir });
  }
  const expectation = bfclSetExpectation(set);
  const questionFile = bfclQuestionFile(dir, set);
  const questions = readJsonLines(questionFile, BfclQuestionLine);
  const answers = new Map<string, ExpectedCall[]>();
  if (expectation === 'calls') {
    const answerFile = join(dir, 'possible_answer', `BFCL_v4_${set}.json`);
    for (const line of readJsonLines(answerFile, BfclAnswerLine)) {
      answers.set(line.id, toExpectedCalls(line.ground_truth, answerFile, line.id));
    }
  }
  return questions.map((line) => {
    const expected = expectation === 'calls' ? answers.get(line.id) : [];
    if (expected === undefined) {
      throw new DatasetFormatError(`case ${line.id} has no gold answer`, { file: questionFile });
    }
    return {
      id: line.id,
      category: set,
      // The live sets are Python, like every public set but one.
      language: set === 'simple_javascript' ? 'javascript' : 'python',
      question: line.question,
      functions: line.function,
      expected,
      ...(expectation === 'any_call' ? { expect: 'any_call' as const } : {}),
    };
  });
}

/** Loads several sets (the public sets by default: the live sets live in another folder), in the given order. */
export function loadBfclSets(
  sets: readonly BfclSet[] = BFCL_PUBLIC_SETS,
  options: LoadBfclOptions = {},
): EvalCase[] {
  return sets.flatMap((set) => loadBfclSet(set, options));
}

function firstAcceptable(acceptable: readonly unknown[]): { omit: true } | { omit: false; value: unknown } {
  if (acceptable.includes('') || acceptable.length === 0) return { omit: true };
  return { omit: false, value: materialize(acceptable[0]) };
}

/** Turns a gold value (possibly a nested dict pattern) into a concrete value: first acceptable value everywhere. */
function materialize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(materialize);
  if (!isPlainObject(value)) return value;
  const concrete: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (!Array.isArray(member)) {
      concrete[key] = materialize(member);
      continue;
    }
    const chosen = firstAcceptable(member);
    if (!chosen.omit) concrete[key] = chosen.value;
  }
  return concrete;
}

/**
 * The gold answer of a case as predictions: the first acceptable value of each parameter, omitting optional
 * parameters whose acceptable values include `""`. A parameter the function doc requires is always given (a few BFCL
 * answers allow omitting a required parameter; BFCL's own checker would then fail them as `missing_required`).
 * Scoring these must give 100% — the checker's self-check, and an oracle run for the `eval` command.
 */
export function goldPredictions(testCase: Pick<EvalCase, 'expected' | 'functions'>): PredictedCall[] {
  return testCase.expected.map((call) => {
    const required = new Set(
      testCase.functions.find((doc) => doc.name === call.name)?.parameters.required ?? [],
    );
    const args: Record<string, unknown> = {};
    for (const [param, acceptable] of Object.entries(call.params)) {
      const given = required.has(param) ? acceptable.filter((value) => value !== '') : acceptable;
      const chosen = firstAcceptable(given);
      if (!chosen.omit) args[param] = chosen.value;
    }
    return { name: call.name, arguments: args };
  });
}
