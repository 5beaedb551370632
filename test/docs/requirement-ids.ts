// Reads the requirement ids the repository cites and the ones docs/requirements.md defines, so that
// requirement-ids.test.ts can hold the two together: every cited id resolves to an entry, and every entry is well formed.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The id families, in the order of docs/requirements.md's sections (§1 FL … §14 EVAL). */
export const FAMILIES = [
  'FL',
  'MS',
  'RG',
  'TD',
  'PI',
  'EX',
  'EV',
  'EL',
  'OB',
  'IF',
  'OP',
  'RS',
  'SP',
  'EVAL',
] as const;

/** A well-formed id: a family, a dash, a number without leading zeros. */
export const ID_PATTERN = new RegExp(`^(?:${FAMILIES.join('|')})-[1-9][0-9]*$`);

// A citation: a family and a dash-number as a whole word. `EVAL-1` is not read as `EV` because `EV` must be followed
// by the dash; the lookbehind/lookahead keep `RG2-rule-name` (a lint rule) and `MAX-12` out.
const CITATION = new RegExp(`(?<![A-Za-z0-9_-])(?:${FAMILIES.join('|')})-[0-9]+(?![A-Za-z0-9_])`, 'g');

/** Where an id is cited: file and 1-based line. */
export interface Citation {
  id: string;
  file: string;
  line: number;
}

/** Every id citation in `text`. */
export function citationsIn(text: string, file: string): Citation[] {
  const found: Citation[] = [];
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(CITATION)) found.push({ id: match[0], file, line: index + 1 });
  });
  return found;
}

/**
 * Whether a tracked file is scanned for citations. Lockfiles and installed packages are not ours; recorded traces and
 * other JSON under a `fixtures/` folder are data whose reason texts were written by the code that is scanned anyway.
 */
export function isScanned(file: string): boolean {
  if (/(^|\/)(pnpm-lock\.yaml|package-lock\.json)$/.test(file)) return false;
  if (/(^|\/)node_modules\//.test(file)) return false;
  if (/(^|\/)fixtures\/.*\.(json|jsonl)$/.test(file)) return false;
  return !/\.(png|jpe?g|gif|ico|onnx|wasm|gz|tgz|zip|jar|pdf)$/i.test(file);
}

/** The repository's tracked files (`git ls-files`), as paths relative to `root`. */
export function trackedFiles(root: string): string[] {
  let out: string;
  try {
    out = execFileSync('git', ['ls-files', '-z'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(
      `cannot list the tracked files of ${root} with \`git ls-files\` (is this a git checkout?)`,
      {
        cause: error,
      },
    );
  }
  return out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)));
}

/** Every citation in the scanned tracked files under `root`. */
export function repositoryCitations(root: string, files = trackedFiles(root)): Citation[] {
  return files.filter(isScanned).flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    return text.includes('\0') ? [] : citationsIn(text, file);
  });
}

/** One entry of docs/requirements.md: its heading token, the section it sits in and its body. */
export interface Entry {
  heading: string;
  line: number;
  /** The `## N. Title (PREFIX)` section the entry sits in, or undefined before the first one. */
  sectionPrefix: string | undefined;
  body: string;
}

/**
 * The `### ` entries of the requirements page that look like an id (an upper-case word, a dash or none, digits, …).
 * Other `### ` headings (prose subsections) are not entries.
 */
export function entriesIn(markdown: string): Entry[] {
  const entries: Entry[] = [];
  let sectionPrefix: string | undefined;
  let current: Entry | undefined;
  markdown.split('\n').forEach((text, index) => {
    const section = /^## .*\(([A-Z]+)\)\s*$/.exec(text);
    const heading = /^### (\S+)\s*$/.exec(text);
    if (section || heading || /^#{1,3} /.test(text)) current = undefined;
    if (section) sectionPrefix = section[1];
    if (heading && /^[A-Za-z]{2,5}-?[0-9]/.test(heading[1]!)) {
      current = { heading: heading[1]!, line: index + 1, sectionPrefix, body: '' };
      entries.push(current);
    } else if (current) {
      current.body += `${text}\n`;
    }
  });
  return entries;
}

/** Why an entry is malformed; empty when it is fine. */
export function entryProblems(entry: Entry): string[] {
  const problems: string[] = [];
  const family = /^([A-Z]+)-/.exec(entry.heading)?.[1];
  if (!ID_PATTERN.test(entry.heading)) {
    problems.push(
      `"${entry.heading}" is not a requirement id (a family of ${FAMILIES.join(', ')}, a dash, a number without leading zeros)`,
    );
  } else if (family !== entry.sectionPrefix) {
    problems.push(
      `${entry.heading} sits in the ${entry.sectionPrefix ?? 'no'} section, not in its own (${family ?? '?'})`,
    );
  }
  if (!/^\*\*[^*]+\*\* \S/m.test(entry.body)) {
    problems.push(`${entry.heading} has no statement ("**Short title.** What it requires.")`);
  }
  if (!/^Where: \S/m.test(entry.body))
    problems.push(`${entry.heading} has no "Where:" line saying where it lives`);
  return problems;
}

/**
 * Repository paths a text names in backticks (`packages/x/src/y.ts`, `registry/packs/*\/tools.yaml`,
 * `infra/k8s/base/`), i.e. the ones whose first segment is a top-level entry of the repository. Paths relative to a
 * package (`src/env.ts`) and other code spans are left alone.
 */
export function namedPaths(text: string, topLevel: ReadonlySet<string>): string[] {
  const paths: string[] = [];
  for (const match of text.matchAll(/`([^`\s]+)`/g)) {
    const span = match[1]!;
    if (!/^[\w.@-]+\/[\w.@*/-]*$/.test(span)) continue;
    if (topLevel.has(span.split('/')[0]!)) paths.push(span);
  }
  return paths;
}

/** Whether a named path (a file, a folder with a trailing `/`, or `*` for one path segment) matches a tracked file. */
export function pathResolves(path: string, files: readonly string[]): boolean {
  const source = path
    .replace(/\/$/, '')
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  const pattern = new RegExp(`^${source}(/.*)?$`);
  return files.some((file) => pattern.test(file));
}
