import { resolve } from 'node:path';
import {
  loadRegistryDir,
  validateAgainstSchema,
  type JsonSchema,
  type ToolDefinition,
} from '@signalbox/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEMO_TOOLS } from './catalog.js';
import { VALID_SAMPLES } from './samples.js';
import type { ToolSpec } from './tool-spec.js';

// The hand-written zod schemas and error tables mirror the pack YAML; these tests fail on any drift between them.

const packsDir = resolve(import.meta.dirname, '../../../../registry/packs');
const PACKS = ['after-sales', 'office', 'research', 'reach'] as const;
let packTools: ToolDefinition[] = [];

beforeAll(async () => {
  const registries = await Promise.all(PACKS.map((p) => loadRegistryDir(resolve(packsDir, p))));
  packTools = registries.flatMap((r) => [...r.content.tools]).filter((t) => t.transport?.kind === 'http');
});

function packTool(name: string): ToolDefinition {
  const found = packTools.find((t) => t.name === name);
  if (!found) throw new Error(`${name} is not an http tool of the packs`);
  return found;
}

/** Values around every constraint of a property schema, valid and invalid alike. */
function candidates(schema: JsonSchema): unknown[] {
  const out: unknown[] = [null, 12345, 1.5, 'x', true, [], {}];
  if (Array.isArray(schema.enum)) out.push(...(schema.enum as unknown[]), 'not_in_enum');
  const n = (key: string): number | undefined => (typeof schema[key] === 'number' ? schema[key] : undefined);
  const minLength = n('minLength');
  const maxLength = n('maxLength');
  if (minLength !== undefined) out.push('a'.repeat(minLength), 'a'.repeat(Math.max(0, minLength - 1)));
  if (maxLength !== undefined) out.push('a'.repeat(maxLength), 'a'.repeat(maxLength + 1));
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum']) {
    const v = n(key);
    if (v !== undefined) out.push(v, v - 1, v + 1, v + 0.5);
  }
  if (typeof schema.pattern === 'string') out.push('1234', '12', 'abcd', '12345678901234567890123');
  switch (schema.format) {
    case 'date':
      out.push('2026-11-27', '2026-02-30', '27/11/2026');
      break;
    case 'email':
      out.push('a@example.com', 'not-an-email');
      break;
    case 'uri':
      out.push('https://docs.example.org/x', 'not a url');
      break;
  }
  if (schema.type === 'array') {
    out.push(['a'], [1], ['a@example.com'], ['bad', 'a@example.com']);
    const minItems = n('minItems');
    if (minItems !== undefined) out.push(Array.from({ length: minItems }, () => 'a@example.com'));
  }
  if (schema.type === 'boolean') out.push(false);
  return out;
}

function samplesFor(def: ToolDefinition): Record<string, unknown>[] {
  const base = VALID_SAMPLES[def.name] ?? {};
  const properties = (def.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const samples: Record<string, unknown>[] = [base, {}, { ...base, unexpected: 1 }];
  for (const [name, schema] of Object.entries(properties)) {
    const { [name]: _dropped, ...without } = base;
    samples.push(without);
    for (const value of candidates(schema)) samples.push({ ...base, [name]: value });
  }
  return samples;
}

describe('demo tools catalog vs the scenario packs', () => {
  it('serves exactly the http bindings of the four packs, at their paths', () => {
    const served = DEMO_TOOLS.map((t) => [t.name, t.path]).sort();
    const declared = packTools
      .map((t) => [t.name, t.transport?.kind === 'http' ? t.transport.url : ''])
      .sort();
    expect(served).toEqual(declared);
    expect(declared).toHaveLength(19);
    expect(packTools.every((t) => t.transport?.kind === 'http' && t.transport.method === 'POST')).toBe(true);
  });

  it.each(DEMO_TOOLS.map((t) => [t.name, t] as const))(
    '%s: declared errors match the pack',
    (_name, tool: ToolSpec) => {
      const declared = packTool(tool.name)
        .errors.map((e) => [e.code, e.class])
        .sort();
      const mirrored = Object.entries(tool.errors)
        .map(([code, e]) => [code, e.class])
        .sort();
      expect(mirrored).toEqual(declared);
      for (const e of Object.values(tool.errors)) {
        expect(e.class === 'transient' ? e.status >= 500 : e.status >= 400 && e.status < 500).toBe(true);
      }
      for (const code of Object.values(tool.issueCodes)) expect(Object.keys(tool.errors)).toContain(code);
    },
  );

  it.each(DEMO_TOOLS.map((t) => [t.name, t] as const))(
    '%s: parameters have the pack’s names, required set, types and enums',
    (_name, tool: ToolSpec) => {
      const pack = packTool(tool.name).parameters;
      const mine = z.toJSONSchema(tool.parameters, { io: 'input' }) as JsonSchema;
      const packProps = pack.properties as Record<string, JsonSchema>;
      const myProps = mine.properties as Record<string, JsonSchema>;
      expect(Object.keys(myProps).sort()).toEqual(Object.keys(packProps).sort());
      expect([...((mine.required as string[] | undefined) ?? [])].sort()).toEqual(
        [...((pack.required as string[] | undefined) ?? [])].sort(),
      );
      expect(mine.additionalProperties).toBe(false);
      expect(pack.additionalProperties).toBe(false);
      for (const [name, schema] of Object.entries(packProps)) {
        const my = myProps[name]!;
        expect(my.type, `${tool.name}.${name} type`).toBe(schema.type);
        expect(my.enum, `${tool.name}.${name} enum`).toEqual(schema.enum);
      }
    },
  );

  it.each(DEMO_TOOLS.map((t) => [t.name, t] as const))(
    '%s: zod accepts exactly what the pack schema accepts (constraint probes)',
    (_name, tool: ToolSpec) => {
      const def = packTool(tool.name);
      const extra: Record<string, unknown>[] =
        tool.name === 'invoice_issue'
          ? [
              { order_id: '1234', invoice_type: 'personal', title: 'Li Wei' },
              { order_id: '1234', invoice_type: 'company', title: 'X' },
            ]
          : [];
      const disagreements = [...samplesFor(def), ...extra]
        .map((sample) => ({
          sample,
          pack: validateAgainstSchema(def.parameters, sample).length === 0,
          zod: tool.parameters.safeParse(sample).success,
        }))
        .filter((r) => r.pack !== r.zod);
      expect(disagreements).toEqual([]);
      // The probes must exercise both outcomes, or the comparison proves nothing.
      expect(validateAgainstSchema(def.parameters, VALID_SAMPLES[tool.name])).toEqual([]);
      expect(validateAgainstSchema(def.parameters, {}).length).toBeGreaterThan(0);
    },
  );
});
