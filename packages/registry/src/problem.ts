/** Where in a source file something was written (1-based line and column). */
export interface SourceLocation {
  /** File path as given to the loader (relative paths stay relative). */
  file: string;
  line: number;
  column: number;
}

/** What kind of registry item a problem or finding is about. */
export type ItemKind = 'tool' | 'agent' | 'scene' | 'tenant' | 'profile' | 'policy' | 'settings';

/**
 * One problem found while loading or importing: a YAML syntax error, a field with the wrong type or name, a
 * dangling relation, a cycle. Always names the file and, when known, the item and the field.
 */
export interface Problem {
  /** A stable code: `yaml-syntax`, `schema`, `json-schema`, or an RG2 lint rule id for relation problems. */
  code: string;
  /** What is wrong and how to fix it. */
  message: string;
  /** Where it is; absent only for problems about input that has no file (an in-memory import). */
  location?: SourceLocation | undefined;
  /** The kind of item, when the problem is inside one. */
  kind?: ItemKind | undefined;
  /** The item's id (a tool's name, an agent's id…), when known. */
  item?: string | undefined;
  /** Dotted path of the offending field inside the item, e.g. `parameters.properties.amount.type`. */
  field?: string | undefined;
}

/** `file:line:column kind "id" field "x": message` — one line, the way compilers print it. */
export function formatProblem(problem: Problem): string {
  const where = problem.location
    ? `${problem.location.file}:${problem.location.line}:${problem.location.column}`
    : '(input)';
  const item = problem.kind && problem.item !== undefined ? ` ${problem.kind} "${problem.item}"` : '';
  const field = problem.field ? ` field "${problem.field}"` : '';
  return `${where}${item}${field}: ${problem.message} [${problem.code}]`;
}
