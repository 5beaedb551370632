import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JSON_SCHEMA_DRAFT, allTopicJsonSchemas, topicJsonSchema } from './json-schema.js';
import { TOPICS } from './topics.js';

describe('topicJsonSchema', () => {
  it('is draft-07 with the topic name as title', () => {
    const schema = topicJsonSchema(TOPICS.stepExecuted);
    expect(schema.$schema).toBe(JSON_SCHEMA_DRAFT);
    expect(schema.title).toBe('signalbox.step.executed.v1');
    expect(schema.oneOf).toHaveLength(1);
  });

  it('gives the same text whatever order the fields were declared in', () => {
    const a = z.object({ b: z.string(), a: z.object({ y: z.number(), x: z.boolean() }) });
    const b = z.object({ a: z.object({ x: z.boolean(), y: z.number() }), b: z.string() });
    const textA = JSON.stringify(topicJsonSchema({ name: 't', schema: a }));
    expect(JSON.stringify(topicJsonSchema({ name: 't', schema: b }))).toBe(textA);
    expect(textA.indexOf('"x"')).toBeLessThan(textA.indexOf('"y"'));
  });

  it('is the same on every call (the registry deduplicates by text)', () => {
    expect(JSON.stringify(topicJsonSchema(TOPICS.taskPlanned))).toBe(
      JSON.stringify(topicJsonSchema(TOPICS.taskPlanned)),
    );
  });
});

describe('allTopicJsonSchemas', () => {
  it('has one schema per catalog topic, keyed by name', () => {
    const all = allTopicJsonSchemas();
    expect(Object.keys(all)).toEqual(Object.values(TOPICS).map((t) => t.name));
    for (const [name, schema] of Object.entries(all)) expect(schema.title).toBe(name);
  });
});
