// The BFCL-style checker (EVAL-1), modelled on BFCL's ast_checker.py (simple, multiple, parallel and irrelevance
// categories): one algorithm for all of them — the number of calls must equal the number of expected calls, and each
// expected call must be matched by a distinct predicted call, in any order. Deviations from BFCL are in README.md.
import { z } from 'zod';
import type { EvalCase, ExpectedCall, FunctionDoc, ParameterDoc, PredictedCall } from './eval-case.js';
import { isPlainObject, matchesAcceptable } from './normalize.js';

/** Why a case failed. A closed set, so reports can count by it and callers can switch on it exhaustively. */
export const CheckErrorType = z.enum([
  /** More or fewer calls than expected. */
  'wrong_count',
  /** No predicted call has the expected function name. */
  'wrong_function',
  /** The arguments could not be parsed into an object. */
  'invalid_arguments',
  /** A parameter the function doc requires is absent. */
  'missing_required',
  /** A parameter the doc marks optional is absent, but the gold answer does not allow omitting it (BFCL's name). */
  'missing_optional',
  /** A parameter that is not in the function doc, or not in the gold answer. */
  'unexpected_param',
  /** A value of the wrong type for the parameter (int is accepted where float is expected). */
  'type_error',
  /** A value of the right type that is not among the acceptable values. */
  'value_error',
  /** A call was made where no function fits (irrelevance). */
  'irrelevance_called',
  /** No call was made where some offered function fits (relevance: any call would do). */
  'relevance_not_called',
  /** The run produced no prediction for the case at all. */
  'missing_prediction',
]);
export type CheckErrorType = z.infer<typeof CheckErrorType>;

/** The failure of one case: a machine-readable `error_type`, a message, and where it was found. */
export interface CheckFailure {
  valid: false;
  error_type: CheckErrorType;
  message: string;
  /** The parameter at fault, for parameter-level errors. */
  param?: string;
  /** Index of the expected call that found no match (parallel cases). */
  expectedIndex?: number;
}

/** The outcome of checking one case. */
export type CheckResult = { valid: true } | CheckFailure;

/** Options of the checker. */
export interface CheckOptions {
  /**
   * Also accept a predicted name equal to the expected name with `.` replaced by `_` — OpenAI-style endpoints refuse
   * dots in function names, and BFCL applies the same conversion for such models. @default false
   */
  dotsAsUnderscores?: boolean;
}

type JsonKind = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';

/** BFCL (Python and JavaScript) type names → the JSON kind a value must have; undefined = any value. */
function declaredKind(type: string | undefined): JsonKind | undefined {
  switch ((type ?? '').toLowerCase()) {
    case 'string':
    case 'str':
      return 'string';
    case 'integer':
    case 'int':
    case 'long':
      return 'integer';
    case 'float':
    case 'number':
    case 'double':
      return 'number';
    case 'boolean':
    case 'bool':
      return 'boolean';
    case 'array':
    case 'tuple':
    case 'list':
      return 'array';
    case 'dict':
    case 'object':
      return 'object';
    default:
      // `any`, an empty type and names we do not know: BFCL cannot check them either.
      return undefined;
  }
}

function kindOf(value: unknown): JsonKind {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

/** True when a value of kind `actual` fits `wanted`; an integer fits a float (number). */
function fits(actual: JsonKind, wanted: JsonKind): boolean {
  return actual === wanted || (wanted === 'number' && actual === 'integer');
}

/** The kind of the first acceptable value that is not the "may be omitted" marker. */
function goldKind(acceptable: readonly unknown[]): JsonKind | undefined {
  const first = acceptable.find((value) => value !== '');
  return first === undefined ? undefined : kindOf(first);
}

function typeProblem(
  param: string,
  value: unknown,
  doc: ParameterDoc,
  acceptable: readonly unknown[],
): string | undefined {
  const wanted = declaredKind(doc.type);
  if (wanted === undefined) return undefined;
  const actual = kindOf(value);
  if (!fits(actual, wanted)) {
    // BFCL's "variable" rule: when the gold answer itself has another type than the doc declares (a variable name
    // given as a string for a dict parameter, say), a value of the gold answer's type is accepted too.
    const gold = goldKind(acceptable);
    if (gold !== undefined && !fits(gold, wanted) && fits(actual, gold)) return undefined;
    return `parameter ${param}: expected type ${doc.type ?? 'any'}, got ${actual}`;
  }
  if (wanted === 'array' && Array.isArray(value)) {
    const itemKind = declaredKind(doc.items?.type);
    if (itemKind === undefined) return undefined;
    // The same variable rule one level down: an element may have the type of any element of a gold list.
    const goldItemKinds = new Set(
      acceptable
        .filter((item): item is unknown[] => Array.isArray(item))
        .flat()
        .filter((item) => item !== '')
        .map((item) => kindOf(item)),
    );
    for (const [index, item] of value.entries()) {
      const kind = kindOf(item);
      if (fits(kind, itemKind) || goldItemKinds.has(kind)) continue;
      return `parameter ${param}[${index}]: expected element type ${doc.items?.type ?? 'any'}, got ${kind}`;
    }
  }
  return undefined;
}

function failure(
  error_type: CheckErrorType,
  message: string,
  extra: { param?: string; expectedIndex?: number } = {},
): CheckFailure {
  return { valid: false, error_type, message, ...extra };
}

function nameMatches(predicted: string, expected: string, options: CheckOptions): boolean {
  return (
    predicted === expected ||
    (options.dotsAsUnderscores === true && predicted === expected.replaceAll('.', '_'))
  );
}

/**
 * Checks one predicted call against one expected call, in BFCL's order: name, required parameters, each given
 * parameter (known, then type, then value), then expected parameters that were left out.
 */
export function checkCall(
  expected: ExpectedCall,
  doc: FunctionDoc | undefined,
  call: PredictedCall,
  options: CheckOptions = {},
): CheckResult {
  if (!nameMatches(call.name, expected.name, options)) {
    return failure('wrong_function', `expected a call to ${expected.name}, got ${call.name}`);
  }
  const args = call.arguments;
  if (!isPlainObject(args)) {
    return failure('invalid_arguments', `the arguments of ${call.name} are not an object`);
  }
  const properties = doc?.parameters.properties ?? {};
  for (const param of doc?.parameters.required ?? []) {
    if (!Object.hasOwn(args, param)) {
      return failure('missing_required', `missing required parameter ${param} of ${expected.name}`, {
        param,
      });
    }
  }
  for (const [param, value] of Object.entries(args)) {
    const paramDoc = properties[param];
    const acceptable = expected.params[param];
    if ((doc !== undefined && paramDoc === undefined) || acceptable === undefined) {
      return failure('unexpected_param', `unexpected parameter ${param} for ${expected.name}`, { param });
    }
    const problem = paramDoc === undefined ? undefined : typeProblem(param, value, paramDoc, acceptable);
    if (problem !== undefined) return failure('type_error', problem, { param });
    if (!matchesAcceptable(value, acceptable)) {
      return failure(
        'value_error',
        `invalid value for parameter ${param}: ${JSON.stringify(value)}; expected one of ${JSON.stringify(acceptable)}`,
        { param },
      );
    }
  }
  for (const [param, acceptable] of Object.entries(expected.params)) {
    if (!Object.hasOwn(args, param) && !acceptable.includes('')) {
      return failure(
        'missing_optional',
        `parameter ${param} of ${expected.name} is optional but expected here`,
        {
          param,
        },
      );
    }
  }
  return { valid: true };
}

/** Maximum bipartite matching (Kuhn): expected call → predicted call, using only compatible pairs. */
function maximumMatching(
  compatible: readonly (readonly boolean[])[],
  callCount: number,
): (number | undefined)[] {
  const callOwner: (number | undefined)[] = Array.from({ length: callCount }, () => undefined);
  const tryAssign = (expectedIndex: number, visited: boolean[]): boolean => {
    const row = compatible[expectedIndex] ?? [];
    for (let callIndex = 0; callIndex < callCount; callIndex += 1) {
      if (!row[callIndex] || visited[callIndex]) continue;
      visited[callIndex] = true;
      const owner = callOwner[callIndex];
      if (owner === undefined || tryAssign(owner, visited)) {
        callOwner[callIndex] = expectedIndex;
        return true;
      }
    }
    return false;
  };
  compatible.forEach((_, expectedIndex) => {
    tryAssign(expectedIndex, []);
  });
  const assignment: (number | undefined)[] = compatible.map(() => undefined);
  callOwner.forEach((owner, callIndex) => {
    if (owner !== undefined) assignment[owner] = callIndex;
  });
  return assignment;
}

/**
 * Checks the calls predicted for one case. A relevance case (`expect: 'any_call'`) passes with any call and fails as
 * `relevance_not_called` with none. No expected calls = irrelevance: any call fails as `irrelevance_called`. Otherwise the counts must be equal (`wrong_count`) and every expected call must be matched by
 * a distinct predicted call, in any order. When one is not, the failure is that of the closest candidate — a call
 * to the same function that is not needed elsewhere — or `wrong_function` when no call names it.
 */
export function checkCase(
  testCase: Pick<EvalCase, 'functions' | 'expected' | 'expect'>,
  calls: readonly PredictedCall[],
  options: CheckOptions = {},
): CheckResult {
  const { expected } = testCase;
  if (testCase.expect === 'any_call') {
    // BFCL's relevance checker: any decoded function call is right; its name and arguments are not checked.
    if (calls.length > 0) return { valid: true };
    return failure('relevance_not_called', 'an offered function fits this request, but no call was made');
  }
  if (expected.length === 0) {
    if (calls.length === 0) return { valid: true };
    return failure(
      'irrelevance_called',
      `no function fits this request, but ${calls.length} call(s) were made (${calls.map((call) => call.name).join(', ')})`,
    );
  }
  if (calls.length !== expected.length) {
    return failure('wrong_count', `expected ${expected.length} call(s), got ${calls.length}`);
  }
  const docFor = (name: string): FunctionDoc | undefined =>
    testCase.functions.find((doc) => doc.name === name);
  const results = expected.map((call) =>
    calls.map((predicted) => checkCall(call, docFor(call.name), predicted, options)),
  );
  const assignment = maximumMatching(
    results.map((row) => row.map((result) => result.valid)),
    calls.length,
  );
  const unmatched = assignment.findIndex((callIndex) => callIndex === undefined);
  if (unmatched === -1) return { valid: true };

  const expectedCall = expected[unmatched];
  const row = results[unmatched] ?? [];
  const taken = new Set(assignment.filter((index): index is number => index !== undefined));
  // The closest candidate: a call left over by the matching that at least names the expected function. (A left-over
  // call that fully matched would have been matched: the matching is maximum.)
  const closest = row
    .map((result, callIndex) => ({ result, callIndex }))
    .find(
      ({ result, callIndex }) =>
        !taken.has(callIndex) && !result.valid && result.error_type !== 'wrong_function',
    );
  const prefix =
    expected.length > 1 ? `expected call #${unmatched + 1} (${expectedCall?.name ?? '?'}): ` : '';
  if (closest === undefined || closest.result.valid) {
    const names = calls.map((call) => call.name).join(', ');
    return failure(
      'wrong_function',
      `${prefix}no call to ${expectedCall?.name ?? '?'} left to match (got ${names})`,
      {
        expectedIndex: unmatched,
      },
    );
  }
  const { result } = closest;
  return {
    ...result,
    message: prefix + result.message,
    ...(expected.length > 1 ? { expectedIndex: unmatched } : {}),
  };
}
