import type { TopicSpec } from '@signalbox/contracts';

const PREFIX = /^[A-Za-z0-9._-]*$/;

/** Throws unless `prefix` can start a Kafka topic name (letters, digits, `.`, `_`, `-`). */
export function checkTopicPrefix(prefix: string): string {
  if (!PREFIX.test(prefix) || prefix.length > 100) {
    throw new RangeError(
      `topic prefix "${prefix}" may only hold letters, digits, ".", "_" and "-" (max 100)`,
    );
  }
  return prefix;
}

/**
 * The physical topic of a catalog topic under a namespace prefix: name, subject and dead-letter topic all prefixed.
 * Lets several environments (or isolated tests) share one cluster and registry while stages keep using the catalog.
 */
export function prefixTopic<S extends TopicSpec>(spec: S, prefix: string): S {
  if (!prefix) return spec;
  return {
    ...spec,
    name: `${prefix}${spec.name}`,
    subject: `${prefix}${spec.subject}`,
    deadLetterTopic: spec.deadLetterTopic ? `${prefix}${spec.deadLetterTopic}` : null,
  };
}
