import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram, runCli } from './cli.js';
import { REQUIREMENTS_PAGE, requirementIdsIn, requirementIdsNote } from './help.js';
import { bufferIo } from './io.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const requirements = readFileSync(resolve(repoRoot, REQUIREMENTS_PAGE), 'utf8');

/** Every command path of the program, the program itself first (`[]`). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return [path, ...command.commands.flatMap((sub) => commandPaths(sub, [...path, sub.name()]))];
}

async function help(path: string[]): Promise<{ code: number; out: string }> {
  const io = bufferIo(repoRoot);
  const code = await runCli([...path, '--help'], io);
  return { code, out: io.out.join('') };
}

describe('signalbox --help and every command help', () => {
  const paths = commandPaths(createProgram(bufferIo(repoRoot), () => undefined)).filter(
    (p) => p.at(-1) !== 'help',
  );

  it('covers the whole program', () => {
    // Guards the walk: registry, eval, topics, trace … and their subcommands.
    expect(paths.length).toBeGreaterThan(20);
  });

  it.each(paths.map((p) => [p.join(' ') || '(program)', p] as const))(
    '%s: every id it shows is explained, and it points to where',
    async (_name, path) => {
      const { code, out } = await help(path);
      expect(code).toBe(0);
      expect(out).toMatch(/^Usage: signalbox/);
      const note = out.indexOf('\nRequirement ids above');
      const body = note === -1 ? out : out.slice(0, note);
      const ids = requirementIdsIn(body);
      if (ids.length > 0) {
        expect(out.slice(note)).toBe(`${requirementIdsNote(body)}\n`);
        for (const id of ids) expect(requirements).toMatch(new RegExp(`^### ${id}$`, 'm'));
      } else {
        expect(note).toBe(-1);
      }
      // References to documents outside the repository (the product specification, its sections, the design notes).
      expect(out).not.toMatch(/SPEC|§|\bseed \d/);
    },
  );

  it('the program help lists the ids of its commands with the note', async () => {
    const { out } = await help([]);
    expect(out).toContain('(EL-6)');
    expect(out).toContain('\nRequirement ids above (');
    expect(out).toContain(`${REQUIREMENTS_PAGE}#`);
  });
});

describe('requirementIdsNote', () => {
  it('is empty for a text without ids, and does not take lint rule names or other dashed words for ids', () => {
    expect(requirementIdsNote('store a registry version; rule RG2-naming; UTF-8; MAX-12')).toBe('');
  });

  it('lists each id once, in order, links the first and wraps at the given width', () => {
    const note = requirementIdsNote('lint (RG-2), check (RG-5), again RG-2, eval (EVAL-1)', 40);
    expect(note.replace(/\n/g, ' ')).toContain('(RG-2, RG-5, EVAL-1)');
    expect(note).toContain(`${REQUIREMENTS_PAGE}#rg-2`);
    for (const line of note.trim().split('\n')) expect(line.length).toBeLessThanOrEqual(40);
  });
});
