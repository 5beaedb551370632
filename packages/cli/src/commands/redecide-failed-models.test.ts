import { deciderSemantic } from '../semantic.js';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepExecuted } from '@signalbox/contracts';
import {
  createPgliteEventStore,
  type EventStore,
  type NewEvent,
  type StoredEvent,
} from '@signalbox/event-log';
import { ProviderTimeoutError, type ModelProvider } from '@signalbox/providers';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { recordExchanges } from '@signalbox/stage-kit';
import { runEmbedded } from '../dev/embedded.js';
import { formatRedecide, redecideEvents, redecideTasks, stageDefinitions } from './redecide.js';

// EL-9 with a model call that FAILED: the result evaluator asks its judge only when its checks are inconclusive (a
// slow step), and when the judge cannot be reached it records the judge as unavailable and lets the checks' result
// stand — a degraded decision that rests on the failure. Re-decide must re-take it on the recorded failure and come
// out the same, with the model gone; without the recorded failure it would come out otherwise.

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const packDir = join(repoRoot, 'registry', 'packs', 'after-sales');

let source: PGlite;
let db: PGlite;
let store: EventStore;
let registry: Registry;
let judgeCalls = 0;
const judgeDown: ModelProvider = {
  complete() {
    judgeCalls++;
    return Promise.reject(
      new ProviderTimeoutError('request timed out after 30000 ms', { model: 'gpt-4o-mini' }),
    );
  },
};
let recordedReason = '';

beforeAll(async () => {
  registry = await loadRegistryDir(packDir);
  // A real recorded step, executed by the demo tools, to be the evaluator's input.
  source = new PGlite();
  await runEmbedded({
    repoRoot,
    requests: [
      {
        pack: 'after-sales',
        title: 'invoice',
        agent_id: 'invoice_agent',
        request: 'Please issue a company invoice for order 20240917001',
      },
    ],
    db: source,
    taskIdPrefix: 'rdf-',
    timeoutMs: 120_000,
  });
  const recorded = createPgliteEventStore({ pglite: source });
  const [taskId = ''] = await recorded.findTasks({ limit: 10 });
  const events = await recorded.readTask(taskId);
  await recorded.close();
  // A step that succeeded cleanly (its checks conclusive), and the step_executed it was decided on.
  const evaluated = events.find(
    (e) =>
      e.envelope.stage === 'result_evaluator' && /^step \d+ \(\w+\) success/.test(e.envelope.decision_reason),
  );
  const executed = events.find((e) => e.envelope.event_id === evaluated?.envelope.causation_id);
  if (!executed || !evaluated) throw new Error('the embedded run recorded no evaluated step');

  // The same step, but slow (over 80 % of its tool's timeout): the checks only note it, so the judge is asked.
  const payload = structuredClone(executed.payload) as StepExecuted['payload'];
  const tool = registry.tool(payload.result.tool);
  if (!tool) throw new Error(`no tool ${payload.result.tool}`);
  payload.result.duration_ms = Math.ceil(tool.timeout_ms * 0.9);
  const slow: NewEvent = { envelope: executed.envelope, topic: executed.topic, payload };

  // The evaluator decides as the stage runtime has it decide: its models wrapped to record every call.
  const evaluator = stageDefinitions(registry, await deciderSemantic()).result_evaluator;
  const recorder = recordExchanges((profile) => (profile === 'deterministic' ? undefined : judgeDown));
  const decision = await evaluator.decide(
    { ...executed.envelope, event_type: 'step_executed', payload },
    {
      stage: 'result_evaluator',
      versions: evaluator.versions(),
      models: recorder.models,
    },
  );
  recordedReason = decision.decision_reason;
  const decided: NewEvent = {
    envelope: {
      ...evaluated.envelope,
      event_type: decision.event_type,
      decision_reason: decision.decision_reason,
      revision_count: decision.revision_count,
      degraded_flag: decision.degraded_flag,
    },
    topic: decision.topic.name,
    payload: decision.payload,
    exchanges: recorder.exchanges(),
  };
  db = new PGlite();
  store = createPgliteEventStore({ pglite: db });
  await store.migrate();
  await store.append([slow, decided]);
}, 180_000);

afterAll(async () => {
  await store.close();
  await db.close();
  await source.close();
});

describe('signalbox redecide with a recorded FAILED model call (EL-9)', () => {
  it('recorded the degraded decision with the failed judge call it rests on', async () => {
    expect(judgeCalls).toBe(1);
    expect(recordedReason).toContain('model judge unavailable (request timed out after 30000 ms)');
    const tasks = await store.findTasks({ limit: 10 });
    expect(tasks).toHaveLength(1);
    const [taskId = ''] = tasks;
    const evaluated = (await store.readTask(taskId, { withExchanges: true })).find(
      (e) => e.envelope.stage === 'result_evaluator',
    );
    expect(evaluated?.exchanges).toEqual([
      expect.objectContaining({
        model: null,
        response: null,
        error: expect.objectContaining({
          name: 'ProviderTimeoutError',
          timeout: true,
          retriable: true,
        }) as unknown,
      }),
    ]);
  });

  it('re-decides it identically from the recorded failure, with the model gone: 0 differences', async () => {
    const summary = await redecideTasks(store, registry, 'result_evaluator', { limit: 10 });
    expect(summary.decisions).toBe(1);
    expect(summary.changed_decisions).toBe(0);
    expect(summary.model_not_recorded).toBe(0);
    const [d] = summary.diffs;
    expect(d?.differences).toEqual([]);
    expect(d?.error).toBeNull();
    expect(d?.redecided.decision_reason).toBe(recordedReason);
    expect(d?.models).toEqual({
      recorded: 1,
      replayed: 1,
      not_recorded: [],
      failed: [
        {
          profile_id: expect.any(String) as string,
          request_hash: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
          error: 'ProviderTimeoutError: request timed out after 30000 ms (timeout, retriable)',
        },
      ],
    });
    expect(formatRedecide(summary)[0]).toMatch(/^0 of 1 result_evaluator decisions change/);
    // Replayed, not asked: the judge was called once, when the decision was recorded.
    expect(judgeCalls).toBe(1);
  });

  it('would not: without the recorded failure the same decision comes out differently', async () => {
    const [taskId = ''] = await store.findTasks({ limit: 10 });
    const events: StoredEvent[] = (await store.readTask(taskId)).map((e) => ({ ...e, exchanges: [] }));
    const { diffs } = await redecideEvents(
      taskId,
      events,
      stageDefinitions(registry, await deciderSemantic()),
      ['result_evaluator'],
    );
    expect(diffs).toHaveLength(1);
    expect(diffs[0]?.changed).toBe(true);
    expect(diffs[0]?.redecided.decision_reason).not.toContain('model judge unavailable');
  });
});
