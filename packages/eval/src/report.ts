// Scoring a run and reporting it per category and per failure class (EVAL-4), as JSON and as a printed table.
import { checkCase, CheckErrorType, type CheckOptions } from './checker.js';
import type { EvalCase, PredictedCall } from './eval-case.js';

/** The verdict on one case. */
export interface CaseResult {
  id: string;
  category: string;
  valid: boolean;
  /** Why it failed; absent when valid. */
  error_type?: CheckErrorType;
  message?: string;
  /** The parameter at fault, for parameter-level failures. */
  param?: string;
}

/** Counts of failures by class; classes with no failure are absent. */
export type ErrorCounts = Partial<Record<CheckErrorType, number>>;

/** Score of one category (or of the whole run). */
export interface CategoryScore {
  total: number;
  passed: number;
  /** passed / total, 0 when there are no cases. */
  accuracy: number;
  errors: ErrorCounts;
}

/** The report of one run: JSON-serialisable as is. */
export interface RunReport extends CategoryScore {
  /** Mean of the category accuracies (BFCL's "overall" weighs categories equally). */
  macroAccuracy: number;
  /** Per category, in the order categories first appear among the cases. */
  categories: Record<string, CategoryScore>;
  results: CaseResult[];
}

/** Predictions by case id: a Map or a plain object. A case without an entry fails as `missing_prediction`. */
export type Predictions =
  | ReadonlyMap<string, readonly PredictedCall[]>
  | Readonly<Record<string, readonly PredictedCall[] | undefined>>;

function lookup(predictions: Predictions, id: string): readonly PredictedCall[] | undefined {
  if (predictions instanceof Map)
    return (predictions as ReadonlyMap<string, readonly PredictedCall[]>).get(id);
  const record = predictions as Readonly<Record<string, readonly PredictedCall[] | undefined>>;
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

function emptyScore(): CategoryScore {
  return { total: 0, passed: 0, accuracy: 0, errors: {} };
}

function add(score: CategoryScore, result: CaseResult): void {
  score.total += 1;
  if (result.valid) score.passed += 1;
  else if (result.error_type !== undefined) {
    score.errors[result.error_type] = (score.errors[result.error_type] ?? 0) + 1;
  }
  score.accuracy = score.passed / score.total;
}

/** Scores predictions against cases with the BFCL-style checker; the report is per case, category and class. */
export function scoreRun(
  cases: readonly EvalCase[],
  predictions: Predictions,
  options: CheckOptions = {},
): RunReport {
  const overall = emptyScore();
  const categories: Record<string, CategoryScore> = {};
  const results: CaseResult[] = [];
  for (const testCase of cases) {
    const calls = lookup(predictions, testCase.id);
    let result: CaseResult;
    if (calls === undefined) {
      result = {
        id: testCase.id,
        category: testCase.category,
        valid: false,
        error_type: 'missing_prediction',
        message: 'no prediction for this case',
      };
    } else {
      const checked = checkCase(testCase, calls, options);
      result = checked.valid
        ? { id: testCase.id, category: testCase.category, valid: true }
        : {
            id: testCase.id,
            category: testCase.category,
            valid: false,
            error_type: checked.error_type,
            message: checked.message,
            ...(checked.param === undefined ? {} : { param: checked.param }),
          };
    }
    results.push(result);
    add(overall, result);
    add((categories[testCase.category] ??= emptyScore()), result);
  }
  const scores = Object.values(categories);
  const macroAccuracy =
    scores.length === 0 ? 0 : scores.reduce((sum, score) => sum + score.accuracy, 0) / scores.length;
  return { ...overall, macroAccuracy, categories, results };
}

function percent(value: number): string {
  return `${(value * 100).toFixed(1)}%`;
}

/**
 * A plain-text table: the header, a rule, then the rows; the first column left-aligned, the others right-aligned
 * (figures), trailing spaces trimmed.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/**
 * Prints a report as two plain-text tables: accuracy per category (with the overall and macro rows), then failures
 * per class and category. Only failure classes that occurred get a column.
 */
export function formatReportTable(report: RunReport): string {
  const names = Object.keys(report.categories);
  const categoryRows = names.map((name) => {
    const score = report.categories[name] ?? emptyScore();
    return [name, String(score.total), String(score.passed), percent(score.accuracy)];
  });
  const accuracy = formatTable(
    ['category', 'cases', 'passed', 'accuracy'],
    [
      ...categoryRows,
      ['overall', String(report.total), String(report.passed), percent(report.accuracy)],
      ['overall (macro)', '', '', percent(report.macroAccuracy)],
    ],
  );
  const classes = CheckErrorType.options.filter((type) => (report.errors[type] ?? 0) > 0);
  if (classes.length === 0) return `${accuracy}\n\nno failures`;
  const failures = formatTable(
    ['failure class', ...names, 'total'],
    classes.map((type) => [
      type,
      ...names.map((name) => String(report.categories[name]?.errors[type] ?? 0)),
      String(report.errors[type] ?? 0),
    ]),
  );
  return `${accuracy}\n\n${failures}`;
}
