import { hash } from 'node:crypto';
import { z } from 'zod';
import { MAX_DECISION_REASON, MAX_ID } from './limits.js';
import { Stage } from './stage.js';

/** Where a stage's input came from (FL-4 `input_source`). */
export const InputSource = z.enum(['user', 'pipeline', 'feedback', 'redrive', 'replay', 'operator']);
export type InputSource = z.infer<typeof InputSource>;

/** A W3C trace context header value: `00-<32 hex trace id>-<16 hex span id>-<2 hex flags>`. */
export const Traceparent = z.string().regex(/^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/);

/**
 * The contract version producers stamp as `schema_version` (the frozen fixture version in `fixtures/`). v2 added the
 * optional `text` of a plan step's `user_text` input; v3 the optional `semantic_model` of a plan (the embedding model
 * and the sha256 of its file the candidates were ranked with); v4 the optional `asked_acts` of a plan (TD-5: the acts the
 * request asks for and the step serving each); v5 the optional `proposed_call` of a task (a tool call an agent proposes
 * through MCP, validated by the decider instead of a plan of its own); v6 the optional `reinjections` of a task's
 * progress (the count the re-injection ceiling compares with, FL-6).
 */
export const CONTRACT_VERSION = 6;

/**
 * FL-4: the envelope every message and every event-log row carries.
 * `event_id` is deterministic (see {@link deterministicEventId}) so a redelivered input maps to the same event.
 */
export const Envelope = z.object({
  event_id: z.string().min(1).max(MAX_ID),
  /** Also the trace id of the task's whole journey. */
  task_id: z.string().min(1).max(MAX_ID),
  tenant_id: z.string().min(1).max(MAX_ID),
  agent_id: z.string().min(1).max(MAX_ID),
  stage: Stage,
  /** The message kind (`kind` of the payload union), repeated here so event-log rows are self-describing. */
  event_type: z.string().min(1).max(64),
  /** The `event_id` this event reacts to; null only for a task's first event. */
  causation_id: z.string().min(1).max(MAX_ID).nullable(),
  revision_count: z.number().int().min(0),
  degraded_flag: z.boolean(),
  decision_reason: z.string().max(MAX_DECISION_REASON),
  input_source: InputSource,
  registry_version: z.string().max(128).nullable(),
  profiles_version: z.string().max(128).nullable(),
  policy_version: z.string().max(128).nullable(),
  /** ISO-8601 instant with offset. */
  occurred_at: z.iso.datetime({ offset: true }),
  schema_version: z.number().int().min(1),
  traceparent: Traceparent.nullable(),
});
export type Envelope = z.infer<typeof Envelope>;

/**
 * EL-2: the deterministic key of a decision — the same (task, stage, causation, event type) always gives the same
 * id, so a stage that sees its input again appends nothing new and reuses the stored decision.
 */
export function deterministicEventId(parts: {
  task_id: string;
  stage: Stage;
  causation_id: string | null;
  event_type: string;
}): string {
  // One-shot `hash`, without a Hash object per id: every decision of every stage computes one.
  const digest = hash(
    'sha256',
    [parts.task_id, parts.stage, parts.causation_id ?? '-', parts.event_type].join('\u001f'),
    'hex',
  );
  return `ev_${digest.slice(0, 40)}`;
}
