// The task view's additions for the viewer (issue 22 item 3): the executor's pending confirmation as data, the answer a
// finished task ended on, and each decision's model calls summed and priced.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { Envelope } from '@signalbox/contracts';
import type { ModelExchange, StoredEvent } from '@signalbox/event-log';
import { canonicalJson, loadRegistryDir } from '@signalbox/registry';
import { describe, expect, it } from 'vitest';
import { confirmationAsked, modelCallsSummary, pendingConfirmation, taskView, traceView } from './tasks.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
let position = 0n;

function event(
  streamVersion: number,
  envelope: Pick<Envelope, 'stage' | 'event_type'> & Partial<Envelope>,
  payload: unknown,
  extra: Partial<StoredEvent> = {},
): StoredEvent {
  position += 1n;
  return {
    envelope: {
      event_id: `ev_${String(streamVersion)}`,
      task_id: 'task-c',
      tenant_id: 'acme',
      agent_id: 'refund_agent',
      causation_id: streamVersion === 1 ? null : `ev_${String(streamVersion - 1)}`,
      revision_count: 0,
      degraded_flag: false,
      decision_reason: `reason ${String(streamVersion)}`,
      input_source: streamVersion === 1 ? 'user' : 'pipeline',
      registry_version: null,
      profiles_version: null,
      policy_version: null,
      occurred_at: new Date(Date.UTC(2026, 10, 30, 9, 0, streamVersion)).toISOString(),
      schema_version: 5,
      traceparent: null,
      ...envelope,
    },
    topic: null,
    payload,
    global_position: position,
    stream_version: streamVersion,
    recorded_at: new Date(Date.UTC(2026, 10, 30, 9, 0, streamVersion)),
    ...extra,
  };
}

const task = { request: 'Refund order 1234, my phone is +49 170 1234567.', context: [] };
const call = (phone: string) => ({
  tool: 'refund_create',
  step_index: 1,
  arguments: { order_id: '1234', phone },
});
const finished = (status: string, extra: Record<string, unknown> = {}) => ({
  task,
  status,
  steps: [],
  evidence: [],
  questions: [],
  issues: [],
  total_cost_usd: 0,
  duration_ms: 10,
  ...extra,
});

/** A task the executor's confirmation gate stopped; the call's phone is a secret, stored redacted. */
function stoppedTask(): { events: StoredEvent[]; prepared: StoredEvent; real: StoredEvent } {
  const prepared = event(
    2,
    { stage: 'parameter_injector', event_type: 'step_prepared' },
    { call: call('[REDACTED]') },
  );
  const real = { ...prepared, payload: { call: call('+49 170 1234567') } };
  const events = [
    event(1, { stage: 'api', event_type: 'task_submitted' }, { task }),
    prepared,
    event(
      3,
      { stage: 'executor', event_type: 'task_finished' },
      finished('need_clarification', { questions: ['Confirm refund_create …'] }),
    ),
  ];
  return { events, prepared, real };
}

describe('the pending confirmation (EX-2) as data', () => {
  it('names the stopped call, shows its arguments redacted and hashes the real ones, as the gate does', () => {
    const { events, prepared, real } = stoppedTask();
    const asked = confirmationAsked(events);
    expect(asked?.prepared).toBe(prepared);
    const pending = pendingConfirmation(prepared, real);
    expect(pending).toEqual({
      tool: 'refund_create',
      step_index: 1,
      arguments: { order_id: '1234', phone: '[REDACTED]' },
      // The executor's argumentHash: sha256 of the canonical JSON of what it was given (the real value).
      arguments_hash: createHash('sha256')
        .update(canonicalJson({ order_id: '1234', phone: '+49 170 1234567' }))
        .digest('hex'),
    });
    const view = taskView(events, pending);
    expect(view.awaiting_answer).toBe(true);
    expect(view.pending_confirmation).toEqual(pending);
    expect(view.request).toBe(task.request);
  });

  it('is no confirmation when another stage asked, or once the task went on', () => {
    const { events } = stoppedTask();
    const asked = events.map((e, i) =>
      i === 2 ? { ...e, envelope: { ...e.envelope, stage: 'parameter_injector' as const } } : e,
    );
    expect(confirmationAsked(asked)).toBeUndefined();
    const continued = [...events, event(4, { stage: 'api', event_type: 'task_submitted' }, { task })];
    expect(confirmationAsked(continued)).toBeUndefined();
    // A view built without one says so, whatever the question.
    expect(taskView(events).pending_confirmation).toBeNull();
  });
});

describe('the answer of a finished task', () => {
  it('is the output of the last step that succeeded', () => {
    const step = (tool: string, ok: boolean, output: unknown) => ({
      call: { tool, step_index: 0, arguments: {} },
      result: { step_index: tool === 'order_status_query' ? 0 : 1, ok, output },
      status: ok ? 'success' : 'failed',
      issues: [],
    });
    const events = [
      event(1, { stage: 'api', event_type: 'task_submitted' }, { task }),
      event(
        2,
        { stage: 'result_evaluator', event_type: 'task_finished' },
        finished('partial_success', {
          steps: [step('order_status_query', true, { order_id: '1234' }), step('refund_create', false, null)],
        }),
      ),
    ];
    expect(taskView(events).answer).toEqual({
      tool: 'order_status_query',
      step_index: 0,
      output: { order_id: '1234' },
    });
    expect(taskView(events.slice(0, 1)).answer).toBeNull();
  });
});

describe('the model calls of a decision, summed', () => {
  const answered = (profile: string, input: number, output: number, latency: number): ModelExchange => ({
    profile_id: profile,
    model: 'm',
    request_hash: 'a'.repeat(64),
    request: {},
    response: {},
    input_tokens: input,
    output_tokens: output,
    latency_ms: latency,
  });
  const timedOut: ModelExchange = {
    profile_id: 'light_model',
    model: null,
    request_hash: 'b'.repeat(64),
    request: {},
    response: null,
    input_tokens: null,
    output_tokens: null,
    latency_ms: 3000,
    error: { name: 'ProviderTimeoutError', message: 'timed out', timeout: true },
  };

  it('counts calls and failures, adds tokens and latency, and prices them at the profiles the decision used', async () => {
    const registry = await loadRegistryDir(`${repoRoot}registry/packs/after-sales`);
    const price = registry.profile('light_model')?.cost_per_1k_tokens;
    if (!price) throw new Error('the after-sales pack has no light_model profile');
    const calls = [answered('light_model', 1000, 200, 400), timedOut];
    const summary = modelCallsSummary(calls, registry.versions.profiles_version, registry);
    expect(summary).toEqual({
      count: 2,
      failed: 1,
      input_tokens: 1000,
      output_tokens: 200,
      latency_ms: 3400,
      cost_usd: price.input + 0.2 * price.output,
    });
    // Taken under other profiles, or with no registry: the price is not known, which is not "free".
    expect(modelCallsSummary(calls, 'sha256:other', registry).cost_usd).toBeNull();
    expect(modelCallsSummary(calls, registry.versions.profiles_version, undefined).cost_usd).toBeNull();
    expect(modelCallsSummary([], null, undefined)).toEqual({
      count: 0,
      failed: 0,
      input_tokens: 0,
      output_tokens: 0,
      latency_ms: 0,
      cost_usd: 0,
    });

    // On the timeline: each decision its own calls.
    const events = [
      event(1, { stage: 'api', event_type: 'task_submitted' }, { task }, { exchanges: [] }),
      event(
        2,
        {
          stage: 'tool_decider',
          event_type: 'task_planned',
          profiles_version: registry.versions.profiles_version,
        },
        {},
        { exchanges: calls, work_ms: 12 },
      ),
    ];
    const trace = traceView(events, registry);
    expect(trace.events.map((e) => e.model_calls.count)).toEqual([0, 2]);
    expect(trace.events[1]?.model_calls.cost_usd).toBe(summary.cost_usd);
    expect(trace.events.map((e) => e.work_ms)).toEqual([null, 12]);
  });
});
