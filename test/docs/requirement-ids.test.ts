// Every requirement id the repository cites (code, comments, help texts, READMEs, YAML) must resolve to an entry of
// docs/requirements.md, and every entry there must be well formed, sit in its family's section and name where it
// lives with paths that exist. A newcomer with only the repository can then look any id up.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  citationsIn,
  entriesIn,
  entryProblems,
  ID_PATTERN,
  isScanned,
  namedPaths,
  pathResolves,
  repositoryCitations,
  trackedFiles,
} from './requirement-ids.js';

const root = resolve(import.meta.dirname, '../..');
const requirementsFile = 'docs/requirements.md';
// This file is left out of the scan: its own checks below cite malformed ids on purpose.
const files = trackedFiles(root).filter((f) => f !== 'test/docs/requirement-ids.test.ts');
// The page is read from the working tree: an entry being written is checked before it is committed.
const requirements = readFileSync(resolve(root, requirementsFile), 'utf8');
const entries = entriesIn(requirements);
const defined = new Set(entries.map((e) => e.heading));

describe('requirement ids', () => {
  it('the page defines entries', () => {
    // Guards the parser: a page it cannot read would make every check below vacuous.
    expect(entries.length).toBeGreaterThan(80);
  });

  it('every id cited in the repository has an entry in docs/requirements.md', () => {
    const citations = repositoryCitations(root, files);
    expect(citations.length).toBeGreaterThan(500);
    const unresolved = citations
      .filter((c) => !defined.has(c.id))
      .map((c) =>
        ID_PATTERN.test(c.id)
          ? `${c.file}:${String(c.line)} cites ${c.id}, which has no entry in ${requirementsFile}`
          : `${c.file}:${String(c.line)} cites ${c.id}, which is not a well-formed id (no leading zeros)`,
      );
    expect(unresolved).toEqual([]);
  });

  it('every entry is a well-formed id with a statement and a "Where:" line, in its own section, once', () => {
    const problems = entries.flatMap((e) =>
      entryProblems(e).map((p) => `${requirementsFile}:${String(e.line)} ${p}`),
    );
    const seen = new Set<string>();
    for (const e of entries) {
      if (seen.has(e.heading))
        problems.push(`${requirementsFile}:${String(e.line)} defines ${e.heading} twice`);
      seen.add(e.heading);
    }
    expect(problems).toEqual([]);
  });

  it('every path the requirements and architecture pages name exists', () => {
    const topLevel = new Set(readdirSync(root));
    const missing = ['docs/requirements.md', 'docs/architecture.md'].flatMap((page) =>
      namedPaths(readFileSync(resolve(root, page), 'utf8'), topLevel)
        // A file on disk counts too, so that an entry can name a file written in the same change before it is staged.
        .filter((path) => !pathResolves(path, files) && !existsSync(resolve(root, path)))
        .map((path) => `${page} names ${path}, which no tracked file matches; update the page`),
    );
    expect(missing).toEqual([]);
  });
});

describe('the checks themselves', () => {
  it('reads citations as whole ids, not lint rule names or other dashed words', () => {
    const text =
      'see TD-5 and EVAL-2; rule RG2-not-for-names (RG-2), UTF-8, MAX-12, xTD-5, TD-5a, EL-7/EL-9\n(EX-01)';
    expect(citationsIn(text, 'f').map((c) => `${c.id}@${String(c.line)}`)).toEqual([
      'TD-5@1',
      'EVAL-2@1',
      'RG-2@1',
      'EL-7@1',
      'EL-9@1',
      'EX-01@2',
    ]);
    expect(ID_PATTERN.test('EX-01')).toBe(false);
  });

  it('skips lockfiles, installed packages and recorded data, not code or YAML', () => {
    expect(isScanned('pnpm-lock.yaml')).toBe(false);
    expect(isScanned('packages/cli/node_modules/x/index.js')).toBe(false);
    expect(isScanned('packages/cli/fixtures/traces/office.json')).toBe(false);
    expect(isScanned('packages/cli/src/cli.ts')).toBe(true);
    expect(isScanned('registry/packs/office/tools.yaml')).toBe(true);
  });

  it('flags malformed, misplaced and incomplete entries', () => {
    const page = [
      '## 4. Tool decider (TD)',
      '### TD-05',
      '**Title.** Text.',
      'Where: `a/b.ts`.',
      '### td-6',
      '**Title.** Text.',
      'Where: `a/b.ts`.',
      '### EL-1',
      '**Title.** Text.',
      'Where: `a/b.ts`.',
      '### TD-7',
      'Only prose.',
      '### The design notes',
      'Prose, not an entry.',
    ].join('\n');
    const problems = entriesIn(page).map((e) => [e.heading, entryProblems(e).length > 0]);
    expect(problems).toEqual([
      ['TD-05', true],
      ['td-6', true],
      ['EL-1', true],
      ['TD-7', true],
    ]);
  });

  it('resolves named paths against tracked files: files, folders and one-segment globs', () => {
    const tracked = ['registry/packs/office/tools.yaml', 'infra/k8s/base/api.yaml'];
    const top = new Set(['registry', 'infra']);
    expect(namedPaths('`registry/packs/*/tools.yaml` `src/env.ts` `infra/k8s/base/` `a | b`', top)).toEqual([
      'registry/packs/*/tools.yaml',
      'infra/k8s/base/',
    ]);
    expect(pathResolves('registry/packs/*/tools.yaml', tracked)).toBe(true);
    expect(pathResolves('infra/k8s/base/', tracked)).toBe(true);
    expect(pathResolves('infra/k8s/bas', tracked)).toBe(false);
    expect(pathResolves('registry/packs/*/agents.yaml', tracked)).toBe(false);
  });
});
