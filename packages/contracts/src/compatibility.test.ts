import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkBackwardCompatible, type CompatibilityIssue } from './compatibility.js';
import { topicJsonSchema, type JsonSchema } from './json-schema.js';
import { Envelope } from './envelope.js';
import { TaskSubmitted } from './messages.js';
import { TaskSpec } from './task.js';
import { TOPICS } from './topics.js';

/** The JSON Schema of a zod schema, as the build would publish it. */
const js = (schema: z.ZodType): JsonSchema => topicJsonSchema({ name: 'test', schema });

function verdict(oldSchema: unknown, newSchema: unknown): Pick<CompatibilityIssue, 'kind' | 'path'>[] {
  return checkBackwardCompatible(oldSchema, newSchema).issues.map(({ kind, path }) => ({ kind, path }));
}

describe('checkBackwardCompatible on the real contracts', () => {
  it.each(Object.values(TOPICS).map((t) => [t.name, t] as const))(
    '%s is compatible with itself',
    (_name, topic) => {
      expect(checkBackwardCompatible(topicJsonSchema(topic), topicJsonSchema(topic))).toEqual({
        compatible: true,
        issues: [],
      });
    },
  );

  const union = (task: z.ZodType) =>
    js(
      z.discriminatedUnion('event_type', [
        Envelope.extend({ event_type: z.literal('task_submitted'), payload: z.object({ task }) }),
      ]),
    );

  it('a new optional property is compatible', () => {
    expect(verdict(union(TaskSpec), union(TaskSpec.extend({ priority: z.number().optional() })))).toEqual([]);
  });

  it('a new required property is not, and the path names it', () => {
    expect(verdict(union(TaskSpec), union(TaskSpec.extend({ priority: z.number() })))).toEqual([
      { kind: 'required_added', path: '$<event_type="task_submitted">.payload.task.priority' },
    ]);
  });

  it('a property removed from a closed object is not', () => {
    expect(verdict(union(TaskSpec), union(TaskSpec.omit({ scenario: true })))).toEqual([
      { kind: 'property_removed', path: '$<event_type="task_submitted">.payload.task.scenario' },
    ]);
  });

  it('a narrowed enum is not; a widened one is', () => {
    const narrowed = TaskSpec.extend({ required_modalities: z.array(z.enum(['text', 'image'])).max(4) });
    expect(verdict(union(TaskSpec), union(narrowed))).toEqual([
      { kind: 'enum_narrowed', path: '$<event_type="task_submitted">.payload.task.required_modalities[]' },
    ]);
    const widened = TaskSpec.extend({
      required_modalities: z.array(z.enum(['text', 'image', 'audio', 'file', 'video'])).max(4),
    });
    expect(verdict(union(TaskSpec), union(widened))).toEqual([]);
  });

  it('a narrowed type is not; nullable widening is', () => {
    const narrowed = TaskSpec.extend({ cost_ceiling_usd: z.number().min(0) });
    expect(verdict(union(TaskSpec), union(narrowed))).toEqual([
      {
        kind: 'type_narrowed',
        path: '$<event_type="task_submitted">.payload.task.cost_ceiling_usd|anyOf[1]',
      },
    ]);
    const widened = TaskSpec.extend({ locale: z.string().min(2).max(35).nullable() });
    expect(verdict(union(TaskSpec), union(widened))).toEqual([]);
  });

  it('a stricter bound is not; a looser one is', () => {
    expect(verdict(union(TaskSpec), union(TaskSpec.extend({ locale: z.string().min(2).max(10) })))).toEqual([
      { kind: 'bound_narrowed', path: '$<event_type="task_submitted">.payload.task.locale' },
    ]);
    expect(verdict(union(TaskSpec), union(TaskSpec.extend({ locale: z.string().min(1).max(64) })))).toEqual(
      [],
    );
  });

  it('a changed const (a renamed message kind) is a removed branch', () => {
    const renamed = js(
      z.discriminatedUnion('event_type', [
        Envelope.extend({ event_type: z.literal('task_received'), payload: z.object({ task: TaskSpec }) }),
      ]),
    );
    expect(verdict(union(TaskSpec), renamed)).toEqual([
      { kind: 'branch_removed', path: '$<event_type="task_submitted">' },
    ]);
  });

  it('a changed const outside a union is const_changed', () => {
    expect(verdict(js(z.object({ v: z.literal(1) })), js(z.object({ v: z.literal(2) })))).toEqual([
      { kind: 'const_changed', path: '$.v' },
    ]);
  });

  it('a new message kind on a topic is compatible; dropping one is not', () => {
    const before = topicJsonSchema(TOPICS.taskSubmitted);
    const after = js(z.discriminatedUnion('event_type', [TaskSubmitted]));
    expect(verdict(after, before)).toEqual([]);
    expect(verdict(before, after)).toEqual([
      { kind: 'branch_removed', path: '$<event_type="degrade_requested">' },
    ]);
  });

  it('reports every problem with a message, not only the first', () => {
    const changed = TaskSpec.omit({ scenario: true }).extend({ priority: z.number(), locale: z.number() });
    const result = checkBackwardCompatible(union(TaskSpec), union(changed));
    expect(result.compatible).toBe(false);
    expect(result.issues.map((i) => i.kind).sort()).toEqual([
      'property_removed',
      'required_added',
      'type_narrowed',
    ]);
    for (const issue of result.issues) expect(issue.message.length).toBeGreaterThan(10);
  });
});

describe('checkBackwardCompatible on hand-written schemas', () => {
  it('integer widens to number but number does not narrow to integer', () => {
    expect(verdict({ type: 'integer' }, { type: 'number' })).toEqual([]);
    expect(verdict({ type: 'number' }, { type: 'integer' })).toEqual([{ kind: 'type_narrowed', path: '$' }]);
  });

  it('closing an open object is incompatible; adding a property to an open object too', () => {
    expect(verdict({ type: 'object' }, { type: 'object', additionalProperties: false })).toEqual([
      { kind: 'content_model_closed', path: '${*}' },
    ]);
    expect(verdict({ type: 'object' }, { type: 'object', properties: { a: { type: 'string' } } })).toEqual([
      { kind: 'property_added_to_open_model', path: '$.a' },
    ]);
  });

  it('a removed property of an open object must fit the new additionalProperties', () => {
    const old = { type: 'object', properties: { a: { type: 'string' } } };
    expect(verdict(old, { type: 'object' })).toEqual([]);
    expect(verdict(old, { type: 'object', additionalProperties: { type: 'number' } })).toEqual([
      { kind: 'type_narrowed', path: '$.a' },
      // …and any other extra property an old message had could be a string.
      { kind: 'type_narrowed', path: '${*}' },
    ]);
  });

  it('a narrowed record value type is incompatible', () => {
    expect(verdict(js(z.record(z.string(), z.json())), js(z.record(z.string(), z.string())))).toEqual([
      { kind: 'type_narrowed', path: '${*}|anyOf[1]' },
      { kind: 'type_narrowed', path: '${*}|anyOf[2]' },
      { kind: 'type_narrowed', path: '${*}|anyOf[3]' },
      { kind: 'type_narrowed', path: '${*}|anyOf[4]' },
      { kind: 'type_narrowed', path: '${*}|anyOf[5]' },
    ]);
  });

  it('follows recursive $refs without looping', () => {
    const tree = js(z.object({ value: z.json() }));
    expect(checkBackwardCompatible(tree, tree).compatible).toBe(true);
  });

  it('annotations do not matter; unknown keywords that change are reported', () => {
    expect(
      verdict({ type: 'string', description: 'a' }, { type: 'string', description: 'b', title: 'x' }),
    ).toEqual([]);
    expect(verdict({ type: 'string' }, { type: 'string', contentEncoding: 'base64' })).toEqual([
      { kind: 'unsupported_change', path: '$' },
    ]);
  });

  it('a new pattern or format is incompatible', () => {
    expect(verdict({ type: 'string' }, { type: 'string', pattern: '^a' })).toEqual([
      { kind: 'pattern_changed', path: '$' },
    ]);
    expect(verdict({ type: 'string' }, { type: 'string', format: 'email' })).toEqual([
      { kind: 'format_changed', path: '$' },
    ]);
  });

  it('boolean schemas', () => {
    expect(verdict({ type: 'string' }, true)).toEqual([]);
    expect(verdict(false, { type: 'string' })).toEqual([]);
    expect(verdict({ type: 'string' }, false)).toEqual([{ kind: 'schema_false', path: '$' }]);
    expect(verdict(true, { type: 'string' })).toEqual([{ kind: 'type_narrowed', path: '$' }]);
  });

  it('rejects input that is not a schema', () => {
    expect(() => checkBackwardCompatible('nope', {})).toThrow(TypeError);
  });
});
