import { describe, expect, it } from 'vitest';
import { Envelope, deterministicEventId } from './envelope.js';
import { TOPICS } from './topics.js';

const parts = {
  task_id: 'tsk_01JD3Q8Z5V7RKM2X4N6P9T0B1C',
  stage: 'tool_decider',
  causation_id: 'ev_0123',
  event_type: 'task_planned',
} as const;

const envelope: Envelope = {
  event_id: 'ev_e86563281a51543c788c665e10c6d318f637cdfc',
  task_id: parts.task_id,
  tenant_id: 'acme-retail',
  agent_id: 'after-sales-refund',
  stage: 'api',
  event_type: 'task_submitted',
  causation_id: null,
  revision_count: 0,
  degraded_flag: false,
  decision_reason: 'accepted',
  input_source: 'user',
  registry_version: null,
  profiles_version: null,
  policy_version: null,
  occurred_at: '2024-11-30T09:12:00.184Z',
  schema_version: 1,
  traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
};

describe('deterministicEventId', () => {
  it('is frozen: ids already in the event log must keep matching their redeliveries (EL-2)', () => {
    // Recorded values. If this fails, every stored decision stops being found on redelivery: do not "fix" the
    // expectation, fix the function.
    expect(deterministicEventId(parts)).toBe('ev_fb4d29a0d37dacaf114a9a8c2b397f6eef375524');
    expect(
      deterministicEventId({ ...parts, stage: 'api', causation_id: null, event_type: 'task_submitted' }),
    ).toBe('ev_e86563281a51543c788c665e10c6d318f637cdfc');
  });

  it('changes when any part changes', () => {
    const base = deterministicEventId(parts);
    const variants = [
      { ...parts, task_id: 'tsk_other' },
      { ...parts, stage: 'executor' as const },
      { ...parts, causation_id: 'ev_0124' },
      { ...parts, causation_id: null },
      { ...parts, event_type: 'next_step_requested' },
      // Moving text across the boundary of two parts must not produce the same key.
      { ...parts, task_id: `${parts.task_id}tool_decider`, stage: 'tool_decider' as const },
    ];
    const ids = variants.map(deterministicEventId);
    expect(ids).not.toContain(base);
    expect(new Set(ids).size).toBe(variants.length);
  });

  it('fits the envelope: an event id is a valid event_id', () => {
    expect(Envelope.shape.event_id.safeParse(deterministicEventId(parts)).success).toBe(true);
  });
});

describe('Envelope validation', () => {
  it('accepts a complete envelope', () => {
    expect(Envelope.parse(envelope)).toEqual(envelope);
  });

  it.each([
    ['tenant_id', { tenant_id: '' }],
    ['revision_count', { revision_count: -1 }],
    ['occurred_at', { occurred_at: '30/11/2024 09:12' }],
    ['traceparent', { traceparent: '00-abc-01' }],
    ['input_source', { input_source: 'cron' }],
    ['stage', { stage: 'planner' }],
  ])('names the invalid field %s', (field, change) => {
    const result = Envelope.safeParse({ ...envelope, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual([field]);
  });

  it('names a missing field', () => {
    const { agent_id: _dropped, ...withoutAgent } = envelope;
    const result = Envelope.safeParse(withoutAgent);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['agent_id']);
  });

  it('names the nested path of an invalid payload field in a topic message', () => {
    const message = {
      ...envelope,
      payload: {
        task: {
          request: 'refund order 20241127-8841',
          context: [],
          locale: 'x',
          time_zone: 'Europe/London',
          reference_time: '2024-11-30T09:12:00+00:00',
          cost_ceiling_usd: null,
          required_modalities: ['text'],
          attachments: [],
          scenario: null,
          needs_fresh_data: false,
          redrive_of: null,
        },
      },
    };
    const result = TOPICS.taskSubmitted.schema.safeParse(message);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toEqual(['payload.task.locale']);
  });
});
