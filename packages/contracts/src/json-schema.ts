import { z } from 'zod';
import { TOPICS, type TopicSpec } from './topics.js';

/** A JSON Schema document as produced for a topic (draft-07). */
export type JsonSchema = { [keyword: string]: unknown };

/** The JSON Schema dialect every topic schema is published in (FL-2). */
export const JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/**
 * FL-2: the JSON Schema of a topic's value, generated from its zod schema, as registered under the topic's
 * subject. `title` is the topic name. Keys are sorted recursively, so the text is the same for the same contract
 * whatever order the zod fields were declared in — the registry identifies a schema by its text, and a reordering
 * must not look like a new version.
 */
export function topicJsonSchema(topic: Pick<TopicSpec, 'name' | 'schema'>): JsonSchema {
  const generated = z.toJSONSchema(topic.schema, { target: 'draft-7' }) as JsonSchema;
  return sortKeys({ ...generated, title: topic.name }) as JsonSchema;
}

/** The JSON Schema of every catalog topic, keyed by topic name, in catalog order. */
export function allTopicJsonSchemas(): Record<string, JsonSchema> {
  return Object.fromEntries(Object.values(TOPICS).map((topic) => [topic.name, topicJsonSchema(topic)]));
}

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => byCodeUnit(a, b));
  return Object.fromEntries(
    entries.map(([k, v]) => [
      k,
      // `required` is a set of property names, so its order follows the declaration order too. Union branches and
      // enum values keep their order: it is what a reader of the schema sees first, and zod preserves it.
      k === 'required' && Array.isArray(v) && v.every((n) => typeof n === 'string')
        ? [...v].sort(byCodeUnit)
        : sortKeys(v),
    ]),
  );
}
