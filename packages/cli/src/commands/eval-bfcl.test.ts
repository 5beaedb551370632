import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli.js';
import { bufferIo } from '../io.js';

// A folder laid out like BFCL (question files + possible_answer/), small enough to read in the test.
function bfclFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bfcl-'));
  mkdirSync(join(dir, 'possible_answer'));
  const weather = {
    name: 'get_weather',
    description: 'Get the current weather for a city.',
    parameters: {
      type: 'dict',
      properties: { city: { type: 'string', description: 'The city name.' } },
      required: ['city'],
    },
  };
  const area = {
    name: 'calculate_triangle_area',
    description: 'Calculate the area of a triangle given its base and height.',
    parameters: {
      type: 'dict',
      properties: {
        base: { type: 'integer', description: 'The base.' },
        height: { type: 'integer', description: 'The height.' },
      },
      required: ['base', 'height'],
    },
  };
  const lines = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join('\n');
  writeFileSync(
    join(dir, 'BFCL_v4_multiple.json'),
    lines([
      {
        id: 'multiple_0',
        question: [[{ role: 'user', content: 'What is the weather in Paris right now?' }]],
        function: [weather, area],
      },
      {
        id: 'multiple_1',
        question: [[{ role: 'user', content: 'Find the area of a triangle with base 10 and height 5.' }]],
        function: [weather, area],
      },
    ]),
  );
  writeFileSync(
    join(dir, 'possible_answer', 'BFCL_v4_multiple.json'),
    lines([
      { id: 'multiple_0', ground_truth: [{ get_weather: { city: ['Paris'] } }] },
      { id: 'multiple_1', ground_truth: [{ calculate_triangle_area: { base: [10], height: [5] } }] },
    ]),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_irrelevance.json'),
    lines([
      {
        id: 'irrelevance_0',
        question: [[{ role: 'user', content: 'Who won the world cup in 1998?' }]],
        function: [area],
      },
    ]),
  );
  return dir;
}

describe('signalbox eval bfcl', () => {
  it('prints one JSON object with set, n and tool_accuracy for any folder laid out like BFCL', async () => {
    const dir = bfclFolder();
    for (const [set, n] of [
      ['multiple', 2],
      ['irrelevance', 1],
    ] as const) {
      const io = bufferIo(process.cwd());
      const code = await runCli(['eval', 'bfcl', '--set', set, '--data', dir, '--json'], io);
      expect(code).toBe(0);
      expect(io.out).toHaveLength(1);
      const report = JSON.parse(io.out[0] ?? '{}') as Record<string, unknown>;
      expect(report).toMatchObject({ ok: true, set, n, tool_accuracy: 1 });
      expect(report.confusion).toEqual([]);
    }
  });

  it('prints a table with the confusion cases without --json, and refuses unknown sets', async () => {
    const dir = bfclFolder();
    const io = bufferIo(process.cwd());
    expect(await runCli(['eval', 'bfcl', '--set', 'multiple', '--data', dir], io)).toBe(0);
    expect(io.out.join('')).toMatch(/BFCL multiple: tool choice 2\/2 = 100.0%/);
    const bad = bufferIo(process.cwd());
    expect(await runCli(['eval', 'bfcl', '--set', 'live_simple', '--data', dir, '--json'], bad)).toBe(2);
    expect(bad.out.join('')).toMatch(/unknown BFCL set/);
  });
});
