// `signalbox eval repair`: the parameter-repair benchmark. Each gold call of the public BFCL sets (first acceptable
// value per parameter) is perturbed the way models err, run through the injector's own validation and coercion
// (`repairArguments`, the code the stage runs) and scored with the BFCL-style checker. Per perturbation class:
// repaired and correct, ended in a clarification, or — the one outcome that must never happen — accepted but wrong.
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  BFCL_PUBLIC_SETS,
  bfclSetExpectation,
  checkCase,
  goldPredictions,
  loadBfclSets,
  resolveBfclDir,
  type BfclSet,
  type EvalCase,
  type PredictedCall,
} from '@signalbox/eval';
import {
  dateFormatOf,
  enumKey,
  isInDateFormat,
  parseDateString,
  repairArguments,
  type DateContext,
  type RepairResult,
} from '@signalbox/parameter-injector';
import { bfclSchemaToJsonSchema } from '@signalbox/registry';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

/** The ways a model gets an argument wrong that the benchmark reproduces. */
export const PERTURBATION_CLASSES = [
  'number_as_string',
  'array_as_string',
  'boolean_as_word',
  'enum_case',
  'enum_synonym',
  'date_format',
  'unknown_extra_param',
  'missing_required',
  'empty_required',
] as const;
export type PerturbationClass = (typeof PERTURBATION_CLASSES)[number];

/** Classes a correct injector repairs; the others (a required value absent) must end in a clarification. */
export const REPAIRABLE_CLASSES: readonly PerturbationClass[] = PERTURBATION_CLASSES.filter(
  (c) => c !== 'missing_required' && c !== 'empty_required',
);

/** Counts of one class. */
export interface ClassScore {
  n: number;
  repaired_correct: number;
  clarified: number;
  /** Clarifications whose field errors name the perturbed parameter. */
  clarified_naming_field: number;
  accepted_wrong: number;
  /** repaired_correct / n for repairable classes; clarified_naming_field / n for the missing ones. */
  rate: number;
}

/** The benchmark's report (what `--json` prints under `classes` and `acceptance`). */
export interface RepairReport {
  sets: string[];
  cases: number;
  /** The unperturbed gold calls through the same code: accepted and correct, or not (then the case is skipped). */
  baseline: { n: number; accepted_correct: number; skipped: number };
  classes: Record<PerturbationClass, ClassScore>;
  acceptance: {
    repairable_min_rate: number;
    missing_named_rate: number;
    accepted_wrong_total: number;
    pass: boolean;
  };
  /** Up to three failing sites per class, for reading. */
  examples: Partial<Record<PerturbationClass, string[]>>;
}

type Schema = Record<string, unknown>;

// Only for the odd relative word a coercion may meet; the perturbations write absolute dates.
const BENCH_DATES: DateContext = { referenceTime: '2024-11-04T09:00:00Z', timeZone: 'UTC' };
const EXTRA_PARAM = 'extra_note';
const TRUE_WORDS = ['yes', 'True', 'on'];
const FALSE_WORDS = ['no', 'False', 'off'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

function schemaOf(doc: EvalCase['functions'][number]): Schema {
  return bfclSchemaToJsonSchema(doc.parameters, new Set()) as Schema;
}

function typesOf(schema: Schema | undefined): string[] {
  if (!schema) return [];
  if (typeof schema.type === 'string') return [schema.type];
  return Array.isArray(schema.type) ? schema.type.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * A synonym for each enum value, declared the way an operator declares them for an imported tool: the initials of a
 * multi-word value (`lightly active` → `la`) or the first four letters of a longer word (`descending` → `desc`). A
 * candidate equal to a value or to another candidate (case-insensitively) is dropped. BFCL declares no synonyms, so
 * these are the benchmark's own; what is measured is that declared synonyms are honoured.
 */
export function benchSynonyms(values: readonly unknown[]): Record<string, string> {
  const keys = new Set(values.map((v) => enumKey(String(v))));
  const candidates = new Map<string, string[]>();
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const words = v.split(/[\s_-]+/).filter(Boolean);
    const alias =
      words.length > 1 ? words.map((w) => w[0] ?? '').join('') : v.length > 5 ? v.slice(0, 4) : '';
    if (alias.length < 2 || keys.has(enumKey(alias))) continue;
    candidates.set(enumKey(alias), [...(candidates.get(enumKey(alias)) ?? []), v]);
  }
  const out: Record<string, string> = {};
  for (const [alias, owners] of candidates)
    if (owners.length === 1 && owners[0] !== undefined) out[alias] = owners[0];
  return out;
}

function otherDateNotation(
  parts: { year: number; month: number; day: number },
  target: string,
  variant: number,
): string {
  const mm = String(parts.month).padStart(2, '0');
  const dd = String(parts.day).padStart(2, '0');
  const month = MONTHS[parts.month - 1] ?? '';
  const options = [
    `${month} ${String(parts.day)}, ${String(parts.year)}`,
    `${String(parts.day)} ${month.slice(0, 3)} ${String(parts.year)}`,
    `${String(parts.year)}/${mm}/${dd}`,
    target === 'YYYY-MM-DD' ? `${mm}/${dd}/${String(parts.year)}` : `${String(parts.year)}-${mm}-${dd}`,
  ];
  return options[variant % options.length] ?? options[0] ?? '';
}

/** One perturbed site: which call and parameter, and the arguments (and schema) the injector gets. */
interface Site {
  cls: PerturbationClass;
  call: number;
  param: string;
  args: Record<string, unknown>;
  schema: Schema;
}

function sitesOf(
  schemas: readonly Schema[],
  gold: readonly PredictedCall[],
  docs: readonly EvalCase['functions'][number][],
): Site[] {
  const sites: Site[] = [];
  gold.forEach((call, index) => {
    const schema = schemas[index];
    const args = call.arguments ?? {};
    if (!schema) return;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = new Set(docs[index]?.parameters.required ?? []);
    const add = (
      cls: PerturbationClass,
      param: string,
      value: unknown,
      siteSchema: Schema = schema,
      remove = false,
    ) => {
      const next: Record<string, unknown> = { ...args };
      if (remove) Reflect.deleteProperty(next, param);
      else next[param] = value;
      sites.push({ cls, call: index, param, args: next, schema: siteSchema });
    };
    let variant = 0;
    for (const [param, value] of Object.entries(args)) {
      variant += 1;
      const p = properties[param];
      const types = typesOf(p);
      if (typeof value === 'number' && (types.includes('integer') || types.includes('number')))
        add('number_as_string', param, String(value));
      if (
        Array.isArray(value) &&
        value.length > 0 &&
        types.includes('array') &&
        value.every(
          (v) =>
            (typeof v === 'string' && v.trim() === v && v !== '' && !/[,;]/.test(v)) || typeof v === 'number',
        )
      ) {
        const itemTypes = typesOf((p?.items ?? undefined) as Schema | undefined);
        // Numbers written into a list of strings would not read back as strings; only same-kind lists.
        const fitsItems = value.every((v) =>
          typeof v === 'number'
            ? itemTypes.some((t) => t === 'integer' || t === 'number')
            : itemTypes.length === 0 || itemTypes.includes('string'),
        );
        if (fitsItems) add('array_as_string', param, value.join(', '));
      }
      if (typeof value === 'boolean' && types.includes('boolean')) {
        add('boolean_as_word', param, (value ? TRUE_WORDS : FALSE_WORDS)[variant % 3]);
      }
      const values = Array.isArray(p?.enum) ? (p.enum as unknown[]) : undefined;
      if (values && typeof value === 'string') {
        const variants = [
          value.toUpperCase(),
          value.toLowerCase(),
          value.replace(/^./, (c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())),
        ];
        // The variant must be refused as it is and match exactly one value case-insensitively (`AA`/`Aa`/`aa` cannot).
        const variantValue = variants.find(
          (v) =>
            v !== value &&
            !values.includes(v) &&
            values.filter((e) => typeof e === 'string' && enumKey(e) === enumKey(v)).length === 1,
        );
        if (variantValue !== undefined) add('enum_case', param, variantValue);
        const synonyms = benchSynonyms(values);
        const alias = Object.entries(synonyms).find(([, canonical]) => canonical === value)?.[0];
        if (alias !== undefined) {
          const withSynonyms: Schema = {
            ...schema,
            properties: { ...properties, [param]: { ...p, synonyms } },
          };
          add('enum_synonym', param, alias, withSynonyms);
        }
      }
      if (typeof value === 'string' && p) {
        const format = dateFormatOf(p);
        if (format && format !== 'date-time' && isInDateFormat(value, format)) {
          const parts = parseDateString(value, BENCH_DATES);
          if (parts) add('date_format', param, otherDateNotation(parts, format, variant));
        }
      }
      if (required.has(param)) {
        add('missing_required', param, undefined, schema, true);
        add('empty_required', param, '');
      }
    }
    if (!Object.hasOwn(properties, EXTRA_PARAM)) add('unknown_extra_param', EXTRA_PARAM, 'please be quick');
  });
  return sites;
}

function emptyScore(): ClassScore {
  return { n: 0, repaired_correct: 0, clarified: 0, clarified_naming_field: 0, accepted_wrong: 0, rate: 0 };
}

/** Runs the benchmark over loaded cases (those with gold calls). Pure: no I/O. */
export function runRepairBenchmark(cases: readonly EvalCase[]): RepairReport {
  const classes = Object.fromEntries(PERTURBATION_CLASSES.map((c) => [c, emptyScore()])) as Record<
    PerturbationClass,
    ClassScore
  >;
  const examples: Partial<Record<PerturbationClass, string[]>> = {};
  const baseline = { n: 0, accepted_correct: 0, skipped: 0 };
  const withGold = cases.filter((c) => c.expected.length > 0);
  for (const testCase of withGold) {
    const gold = goldPredictions(testCase);
    const docs = gold.map((call) => testCase.functions.find((f) => f.name === call.name));
    if (docs.some((d) => d === undefined)) continue;
    const presentDocs = docs as EvalCase['functions'][number][];
    let schemas: Schema[];
    try {
      schemas = presentDocs.map(schemaOf);
      // Compiling happens inside repairArguments; a schema ajv cannot compile makes the case unusable.
      gold.forEach((call, i) =>
        repairArguments(schemas[i] ?? {}, call.arguments ?? {}, { dates: BENCH_DATES }),
      );
    } catch {
      baseline.n += 1;
      baseline.skipped += 1;
      continue;
    }
    baseline.n += 1;
    const run = (args: readonly Record<string, unknown>[], siteSchemas: readonly Schema[]) =>
      args.map((a, i) => repairArguments(siteSchemas[i] ?? {}, a, { dates: BENCH_DATES }));
    const score = (results: readonly RepairResult[]) =>
      checkCase(
        testCase,
        results.map((r, i) => ({ name: gold[i]?.name ?? '', arguments: r.arguments })),
      );
    const base = run(
      gold.map((g) => g.arguments ?? {}),
      schemas,
    );
    if (!base.every((r) => r.ok) || !score(base).valid) {
      // Gold answers the tool's own schema refuses (BFCL quirks: values typed unlike the doc): not a repair question.
      baseline.skipped += 1;
      continue;
    }
    baseline.accepted_correct += 1;
    for (const site of sitesOf(schemas, gold, presentDocs)) {
      const tally = classes[site.cls];
      tally.n += 1;
      const args = gold.map((g, i) => (i === site.call ? site.args : (g.arguments ?? {})));
      const siteSchemas = schemas.map((s, i) => (i === site.call ? site.schema : s));
      const results = run(args, siteSchemas);
      const note = (what: string) => {
        const list = (examples[site.cls] ??= []);
        if (list.length < 3)
          list.push(`${testCase.id} ${gold[site.call]?.name ?? ''}.${site.param}: ${what}`);
      };
      if (results.every((r) => r.ok)) {
        const check = score(results);
        if (check.valid) tally.repaired_correct += 1;
        else {
          tally.accepted_wrong += 1;
          note(`accepted but the checker says ${check.error_type}: ${check.message}`);
        }
      } else {
        tally.clarified += 1;
        const errors = results.flatMap((r) => r.errors);
        if (errors.some((e) => e.field === site.param || e.field.startsWith(`${site.param}.`)))
          tally.clarified_naming_field += 1;
        if (REPAIRABLE_CLASSES.includes(site.cls))
          note(`not repaired: ${errors.map((e) => `${e.field} ${e.reason}`).join('; ')}`);
      }
    }
  }
  for (const cls of PERTURBATION_CLASSES) {
    const t = classes[cls];
    const good = REPAIRABLE_CLASSES.includes(cls) ? t.repaired_correct : t.clarified_naming_field;
    t.rate = t.n === 0 ? 0 : Math.round((good / t.n) * 10_000) / 10_000;
  }
  const repairableRates = REPAIRABLE_CLASSES.filter((c) => classes[c].n > 0).map((c) => classes[c].rate);
  const missing = [classes.missing_required, classes.empty_required];
  const missingN = missing.reduce((n, t) => n + t.n, 0);
  const missingNamed = missing.reduce((n, t) => n + t.clarified_naming_field, 0);
  const acceptance = {
    repairable_min_rate: repairableRates.length === 0 ? 0 : Math.min(...repairableRates),
    missing_named_rate: missingN === 0 ? 0 : Math.round((missingNamed / missingN) * 10_000) / 10_000,
    accepted_wrong_total: PERTURBATION_CLASSES.reduce((n, c) => n + classes[c].accepted_wrong, 0),
    pass: false,
  };
  acceptance.pass =
    acceptance.repairable_min_rate >= 0.95 &&
    acceptance.missing_named_rate === 1 &&
    acceptance.accepted_wrong_total === 0;
  return {
    sets: [...new Set(withGold.map((c) => c.category))],
    cases: withGold.length,
    baseline,
    classes,
    acceptance,
    examples,
  };
}

/** Options of {@link evalRepair}. */
export interface EvalRepairOptions {
  /** The BFCL folder. @default $SIGNALBOX_BFCL_DIR, else ../shared/eval/bfcl from the repository root */
  data?: string;
  /** Sets to run. @default every public set with gold calls */
  sets?: readonly string[];
}

function pct(rate: number): string {
  return `${(rate * 100).toFixed(1)}%`;
}

/** `signalbox eval repair`: loads the sets, runs {@link runRepairBenchmark}, and reports it as JSON and a table. */
export function evalRepair(io: CliIo, options: EvalRepairOptions = {}): CommandResult {
  const dir = options.data
    ? isAbsolute(options.data)
      ? options.data
      : resolve(io.cwd, options.data)
    : resolveBfclDir(io.env);
  if (!existsSync(dir))
    throw new UsageError(`BFCL folder not found: ${dir} (give --data <dir> or set SIGNALBOX_BFCL_DIR)`);
  const available = BFCL_PUBLIC_SETS.filter((s) => bfclSetExpectation(s) === 'calls');
  const sets = (options.sets ?? available) as BfclSet[];
  for (const s of sets) {
    if (!(available as readonly string[]).includes(s))
      throw new UsageError(`unknown set "${s}"; choose from ${available.join(', ')}`);
  }
  const report = runRepairBenchmark(loadBfclSets(sets, { dir }));
  const rows = PERTURBATION_CLASSES.map((c) => {
    const t = report.classes[c];
    return `${c.padEnd(20)} ${String(t.n).padStart(6)} ${String(t.repaired_correct).padStart(9)} ${String(t.clarified).padStart(9)} ${String(t.accepted_wrong).padStart(9)} ${pct(t.rate).padStart(7)}`;
  });
  return {
    exitCode: report.acceptance.pass ? 0 : 1,
    json: { ok: report.acceptance.pass, data: dir, ...report },
    text: [
      `parameter repair on ${String(report.cases)} BFCL cases (${report.sets.join(', ')}); baseline ${String(report.baseline.accepted_correct)}/${String(report.baseline.n)} gold cases accepted as-is`,
      `${'class'.padEnd(20)} ${'n'.padStart(6)} ${'repaired'.padStart(9)} ${'clarified'.padStart(9)} ${'wrong'.padStart(9)} ${'rate'.padStart(7)}`,
      ...rows,
      `repairable min ${pct(report.acceptance.repairable_min_rate)} (≥ 95%), missing/empty named ${pct(report.acceptance.missing_named_rate)} (100%), accepted wrong ${String(report.acceptance.accepted_wrong_total)} (0): ${report.acceptance.pass ? 'PASS' : 'FAIL'}`,
    ],
  };
}

/** Adds `eval repair` to the program, creating the `eval` group when no other command has yet. */
export function registerEvalRepair(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  const group =
    program.commands.find((c) => c.name() === 'eval') ??
    program.command('eval').description('evaluate stages on datasets (EVAL-1)');
  group
    .command('repair')
    .description("measure the parameter injector's repair of perturbed BFCL gold calls (PI-3)")
    .option('--data <dir>', 'BFCL folder (question files + possible_answer/); default ../shared/eval/bfcl')
    .option('--sets <names>', 'comma-separated sets (default: every set with gold calls)', (v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .action((opts: { data?: string; sets?: string[] }) => {
      done(evalRepair(io, opts));
    });
}
