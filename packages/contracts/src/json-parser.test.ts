import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { Envelope } from './envelope.js';
import { compileForJson, jsonParser } from './json-parser.js';
import { TOPICS } from './topics.js';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

/** Every frozen message fixture of a topic (all versions). */
function fixturesOf(topic: string): unknown[] {
  const dir = join(FIXTURES, topic);
  return readdirSync(dir).flatMap((version) =>
    readdirSync(join(dir, version)).map(
      (file) => JSON.parse(readFileSync(join(dir, version, file), 'utf8')) as unknown,
    ),
  );
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const REPLACEMENTS: Json[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  '',
  'x',
  'y'.repeat(3000),
  '2026-11-30T12:00:00Z',
  [],
  [1, 'a', { b: null }],
  {},
  { nested: { deep: [1, 2, { k: 'v' }] } },
];

/** Every path to a value inside `value`, depth first. */
function paths(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

/** A copy of `root` with `edit` applied to the container of `path`'s last key. */
function mutate(
  root: Json,
  path: (string | number)[],
  edit: (parent: Json[] | Record<string, Json>, key: string | number) => void,
): Json {
  const copy = structuredClone(root);
  let parent: Json = copy;
  for (const key of path.slice(0, -1)) parent = (parent as Record<string, Json>)[key] as Json;
  edit(parent as Record<string, Json>, path[path.length - 1]!);
  return copy;
}

/** The fixture and its mutations: every value replaced by each of REPLACEMENTS, every key deleted, a key added. */
function variants(fixture: Json): Json[] {
  const out: Json[] = [fixture];
  for (const path of paths(fixture)) {
    if (path.length === 0) {
      out.push(...REPLACEMENTS);
      continue;
    }
    for (const r of REPLACEMENTS)
      out.push(mutate(fixture, path, (p, k) => ((p as Record<string, Json>)[k] = r)));
    out.push(
      mutate(fixture, path, (p, k) => {
        if (Array.isArray(p)) p.splice(k as number, 1);
        else Reflect.deleteProperty(p, k);
      }),
    );
    out.push(
      mutate(fixture, path, (p, k) => {
        const target = (p as Record<string, Json>)[k];
        if (target !== null && typeof target === 'object' && !Array.isArray(target))
          target.zz_extra = 'extra';
      }),
    );
  }
  return out;
}

/** What a parse tells a caller: success and the output's JSON, or the issues. */
function outcome(schema: z.ZodType, value: unknown): unknown {
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, json: JSON.stringify(result.data) }
    : { ok: false, issues: result.error.issues };
}

describe('jsonParser (compiled validation of JSON values)', () => {
  it('compiles every topic schema and the envelope (no runtime fallback)', () => {
    for (const topic of Object.values(TOPICS)) {
      expect(() => compileForJson(topic.schema, true), topic.name).not.toThrow();
    }
    expect(() => compileForJson(Envelope, true)).not.toThrow();
    // Compiled: a clone, not the schema itself.
    expect(jsonParser(TOPICS.stepPrepared.schema)).not.toBe(TOPICS.stepPrepared.schema);
    expect(jsonParser(TOPICS.stepPrepared.schema)).toBe(jsonParser(TOPICS.stepPrepared.schema));
  });

  it.each(Object.values(TOPICS).map((t) => [t.name, t] as const))(
    '%s: same successes, outputs and issues as the schema on the fixtures and their mutations',
    (_name, topic) => {
      const fast = jsonParser(topic.schema);
      let accepted = 0;
      let refused = 0;
      for (const fixture of fixturesOf(topic.name)) {
        for (const value of variants(fixture as Json)) {
          const expected = outcome(topic.schema, value);
          expect(outcome(fast, value)).toEqual(expected);
          if ((expected as { ok: boolean }).ok) accepted++;
          else refused++;
        }
      }
      // Both kinds were compared, many of each.
      expect(accepted).toBeGreaterThan(50);
      expect(refused).toBeGreaterThan(50);
    },
    // Exhaustive, so CPU-bound: 3,900–14,300 variants per topic, each parsed twice and compared. On the 2-core machine
    // a topic takes 1.5–6.5 s (task.planned, with the most fixture paths, is the slowest), over vitest's 5 s default.
    // A limit guards against a hang; it is not what the test checks.
    60_000,
  );

  it('agrees inside tool arguments and outputs on any JSON', () => {
    const fast = jsonParser(TOPICS.stepExecuted.schema);
    const [fixture] = fixturesOf(TOPICS.stepExecuted.name) as Record<string, Json>[];
    const deep: Json = { a: [1, { b: [null, true, 'x', { c: 2.5 }] }], '': {}, ключ: ['ü'] };
    for (const output of [deep, [deep, deep], 'text', 0, null, [], {}]) {
      const value = structuredClone(fixture!) as Record<string, Record<string, Record<string, Json>>>;
      value.payload!.result!.output = output;
      const expected = outcome(TOPICS.stepExecuted.schema, value);
      expect(expected).toMatchObject({ ok: true });
      expect(outcome(fast, value)).toEqual(expected);
    }
  });
});

describe('jsonParser and a __proto__ key', () => {
  it('keeps one two levels inside free-form JSON, which zod itself turns into a prototype (the one difference)', () => {
    const [fixture] = fixturesOf(TOPICS.stepPrepared.name);
    const text = JSON.stringify(fixture).replace(
      '"arguments":{',
      '"arguments":{"top":{"__proto__":{"a":1},"b":2},"deep":{"x":{"__proto__":{"a":1}}},',
    );
    const weird = (schema: z.ZodType) => {
      const out = schema.parse(JSON.parse(text)) as { payload: { call: { arguments: object } } };
      return JSON.stringify(out.payload.call.arguments).slice(0, 60);
    };
    // One level in: the same. Two levels in: kept by the compiled parser only.
    expect(weird(TOPICS.stepPrepared.schema)).toMatch(/^\{"top":\{"b":2\},"deep":\{"x":\{\}\}/);
    expect(weird(jsonParser(TOPICS.stepPrepared.schema))).toMatch(
      /^\{"top":\{"b":2\},"deep":\{"x":\{"__proto__":\{"a":1\}\}\}/,
    );
  });
});

describe('jsonParser on a schema without free-form JSON', () => {
  it('is the plain compiled schema: exact for any value, JSON or not', () => {
    const fast = jsonParser(Envelope);
    const [fixture] = fixturesOf(TOPICS.taskSubmitted.name) as Record<string, unknown>[];
    const { payload: _payload, ...envelope } = fixture!;
    for (const value of [
      envelope,
      { ...envelope, occurred_at: new Date() },
      { ...envelope, revision_count: undefined },
      { ...envelope, revision_count: Number.NaN },
      { ...envelope, extra: () => 1 },
      new Map(),
      undefined,
    ]) {
      expect(outcome(fast, value)).toEqual(outcome(Envelope, value));
    }
    expect(outcome(fast, envelope)).toMatchObject({ ok: true });
  });
});
