import { z } from 'zod';
import type { TopicSpec } from './topics.js';

/**
 * The message kinds (`event_type` literals) a topic carries, in the order of its discriminated union. Used to
 * check that every kind has a fixture and a handler; throws `TypeError` for a schema that is not a union of
 * objects with a literal `event_type`, which would be a programmer error in the catalog.
 */
export function messageKindsOf(topic: Pick<TopicSpec, 'name' | 'schema'>): string[] {
  const { schema } = topic;
  if (!(schema instanceof z.ZodDiscriminatedUnion)) {
    throw new TypeError(`topic ${topic.name}: schema is not a discriminated union`);
  }
  return schema.options.map((option: unknown) => {
    const eventType =
      option instanceof z.ZodObject ? (option.shape as Record<string, unknown>).event_type : undefined;
    if (!(eventType instanceof z.ZodLiteral) || typeof eventType.value !== 'string') {
      throw new TypeError(`topic ${topic.name}: a message kind has no string literal event_type`);
    }
    return eventType.value;
  });
}
