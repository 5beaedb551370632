import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportMcpTools, exportOpenAITools } from '../export.js';
import { importBfcl } from './bfcl.js';
import { importMcpTools } from './mcp.js';
import { importOpenAITools } from './openai.js';

const fixture = (name: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8')) as unknown;

// BFCL data lives outside the repository (eval/bfcl beside it); SIGNALBOX_BFCL_DIR overrides.
const repoRoot = resolve(import.meta.dirname, '../../../..');
const bfclDir = process.env.SIGNALBOX_BFCL_DIR ?? resolve(repoRoot, '../shared/eval/bfcl');
const BFCL_SETS = [
  'simple_python',
  'simple_javascript',
  'multiple',
  'parallel',
  'parallel_multiple',
  'irrelevance',
];

describe('OpenAI import/export (RG-6)', () => {
  it('round-trips a fixture through import → export unchanged in meaning', () => {
    const input = fixture('openai-tools.json') as { tools: unknown[] };
    const imported = importOpenAITools(input);
    expect(imported.problems).toEqual([]);
    expect(imported.tools.map((t) => [t.name, t.action])).toEqual([
      ['get_current_weather', 'write'],
      ['order_cancel', 'write'],
    ]);
    // A description exported by the registry comes back structured.
    expect(imported.tools[1]!.description).toEqual({
      purpose: 'Cancel an order that has not shipped yet.',
      returns: 'the cancellation receipt.',
      not_for: 'orders already shipped; use get_current_weather never.',
    });
    expect(exportOpenAITools(imported.tools)).toEqual(input.tools);
  });

  it('accepts a bare list of functions and the read assumption', () => {
    const result = importOpenAITools(
      [{ name: 'lookup_thing', description: 'x', parameters: { type: 'object', properties: {} } }],
      {
        assume: 'read',
      },
    );
    expect(result.tools[0]).toMatchObject({ action: 'read', permission: 'read_only', idempotent: true });
  });

  it('reports each broken definition and imports none of it', () => {
    const result = importOpenAITools(
      [
        { type: 'function', function: { name: 'bad name!', parameters: { type: 'object' } } },
        {
          type: 'function',
          function: { name: 'ok_tool', parameters: { type: 'object', properties: { a: { type: 'strin' } } } },
        },
      ],
      { file: 'tools.json' },
    );
    expect(result.tools).toEqual([]);
    expect(result.problems.map((p) => [p.item, p.field])).toEqual([
      ['bad name!', 'name'],
      ['ok_tool', 'parameters.properties.a.type'],
    ]);
    expect(importOpenAITools({ nope: 1 }).problems[0]!.code).toBe('import-format');
  });

  it('refuses to export a name OpenAI would reject', () => {
    const result = importBfcl(
      JSON.stringify({
        id: 'x',
        function: [
          { name: 'math.factorial', description: 'f', parameters: { type: 'dict', properties: {} } },
        ],
      }),
    );
    expect(() => exportOpenAITools(result.tools)).toThrow(/math\.factorial/);
  });
});

describe('MCP import/export (RG-6)', () => {
  it('maps annotations to action and permission and round-trips the tool list', () => {
    const input = fixture('mcp-tools-list.json') as { result: { tools: unknown[] } };
    const imported = importMcpTools(input, { server: 'files' });
    expect(imported.problems).toEqual([]);
    expect(
      imported.tools.map((t) => [t.name, t.action, t.permission, t.idempotent, t.requires_confirmation]),
    ).toEqual([
      ['read_file', 'read', 'read_only', true, false],
      ['write_file', 'write', 'write', true, false],
      ['delete_file', 'delete', 'sensitive', false, true],
    ]);
    expect(imported.tools[0]!.transport).toEqual({ kind: 'mcp', server: 'files', tool: 'read_file' });
    expect(exportMcpTools(imported.tools)).toEqual({ tools: input.result.tools });
  });

  it('treats a tool without annotations as destructive, per the MCP defaults', () => {
    const imported = importMcpTools({ tools: [{ name: 'do_it', inputSchema: { type: 'object' } }] });
    expect(imported.tools[0]).toMatchObject({
      action: 'delete',
      permission: 'sensitive',
      requires_confirmation: true,
    });
  });
});

describe('BFCL import (RG-6)', () => {
  it('maps BFCL type names to JSON Schema', () => {
    const line = JSON.stringify({
      id: 't',
      question: [],
      function: [
        {
          name: 'f',
          description: 'd',
          parameters: {
            type: 'dict',
            properties: {
              a: { type: 'float' },
              b: { type: 'tuple', items: { type: 'String' } },
              c: { type: 'any' },
              d: { type: 'dict', properties: { e: { type: 'Boolean' } }, optional: true },
            },
            required: ['a'],
          },
        },
      ],
    });
    const result = importBfcl(line);
    expect(result.problems).toEqual([]);
    expect(result.tools[0]!.parameters).toEqual({
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'array', items: { type: 'string' } },
        c: {},
        d: { type: 'object', properties: { e: { type: 'boolean' } } },
      },
      required: ['a'],
    });
  });

  // The public BFCL sets live outside the repository (../shared/eval/bfcl next to the checkout, or
  // SIGNALBOX_BFCL_DIR); a checkout without them skips this test and says so below instead of passing silently.
  const present = existsSync(bfclDir);
  if (!present) console.warn(`[bfcl import] folder ${bfclDir} is absent: the BFCL import test is skipped`);
  it.skipIf(!present)(
    `imports all six public sets with zero errors (from ${bfclDir})`,
    () => {
      const counts: Record<string, { cases: number; functions: number; errors: number }> = {};
      for (const set of BFCL_SETS) {
        const file = join(bfclDir, `BFCL_v4_${set}.json`);
        const result = importBfcl(readFileSync(file, 'utf8'), { file });
        counts[set] = {
          cases: result.cases.length,
          functions: result.functions,
          errors: result.problems.length,
        };
        expect(result.problems, `${set}: ${JSON.stringify(result.problems.slice(0, 3))}`).toEqual([]);
        expect(result.tools).toHaveLength(result.functions);
      }
      console.info('[bfcl import]', JSON.stringify(counts));
      expect(Object.values(counts).map((c) => c.cases)).toEqual([400, 50, 200, 200, 200, 240]);
      // Only the six public sets are read; the reserved live and multi_turn sets must not be here.
      expect(readdirSync(bfclDir).filter((f) => /live|multi_turn/.test(f))).toEqual([]);
      // Parsing and validating about 1,700 function definitions takes 1–2 s on an idle 2-core machine and 7 s when the
      // integration suites share it (seen in a fresh-clone CI run): the budget is for that work, not for a wait.
    },
    30_000,
  );
});
