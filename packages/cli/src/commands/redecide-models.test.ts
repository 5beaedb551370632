import { deciderSemantic } from '../semantic.js';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteEventStore, type EventStore, type StoredEvent } from '@signalbox/event-log';
import { ProviderUnavailableError, type ModelProvider, type ModelResponse } from '@signalbox/providers';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { runEmbedded } from '../dev/embedded.js';
import type { DemoRequest } from '../dev/scenarios.js';
import { MODEL_NOT_RECORDED, redecideEvents, redecideTasks, stageDefinitions } from './redecide.js';

// EL-7 / EL-9 with a model: the tool decider of a recorded run asked a model (its exchanges are in the log next to
// its decisions); re-decide answers from those exchanges with the model gone, and says so when the new registry
// makes the decider ask something the recording does not answer.

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const packDir = join(repoRoot, 'registry', 'packs', 'after-sales');

const requests: DemoRequest[] = Array.from({ length: 3 }, (_, i) => [
  {
    pack: 'after-sales' as const,
    title: `invoice ${String(i)}`,
    agent_id: 'invoice_agent',
    request: `Please issue a company invoice for order ${String(20240917001 + i)}`,
  },
  {
    pack: 'after-sales' as const,
    title: `parcel ${String(i)}`,
    agent_id: 'logistics_agent',
    request: `Where is my parcel for order ${String(20240917001 + i)}?`,
  },
]).flat();

/**
 * The model: it proposes tools under names of its own (`issue_invoice` for invoice_issue…), which the rules resolve
 * (TD-3) and the plan records as resolutions — so a decision taken without its answers is visibly another one.
 * Once `reachable` is false it refuses every call, as an endpoint that is down would.
 */
let reachable = true;
let calls = 0;
const model: ModelProvider = {
  complete(request) {
    if (!reachable) return Promise.reject(new ProviderUnavailableError('connect ECONNREFUSED 127.0.0.1:9'));
    calls++;
    const offered = new Set((request.tools ?? []).map((t) => t.name));
    const names = [
      ...(offered.has('invoice_issue') ? ['issue_invoice'] : []),
      ...(offered.has('logistics_track_query') ? ['track_logistics'] : []),
    ];
    const response: ModelResponse = {
      content: null,
      toolCalls: names.map((name, i) => ({
        id: `call_${String(i + 1)}`,
        name,
        arguments: { order_id: '20240917001' },
        rawArguments: '{"order_id":"20240917001"}',
        argumentsError: null,
      })),
      usage: { inputTokens: 180, outputTokens: 12 },
      model: 'gpt-4o-mini-2024-07-18',
      finishReason: names.length > 0 ? 'tool_calls' : 'stop',
    };
    return Promise.resolve(response);
  },
};

let db: PGlite;
let store: EventStore;
let registry: Registry;
let changedDir: string;

beforeAll(async () => {
  db = new PGlite();
  registry = await loadRegistryDir(packDir);
  await runEmbedded({
    repoRoot,
    requests,
    db,
    taskIdPrefix: 'rdm-',
    timeoutMs: 120_000,
    models: { tool_decider: (profile) => (profile === 'deterministic' ? undefined : model) },
  });
  reachable = false;
  store = createPgliteEventStore({ pglite: db });
  changedDir = await mkdtemp(join(tmpdir(), 'signalbox-redecide-models-'));
  await cp(packDir, changedDir, { recursive: true });
  const scenes = await readFile(join(changedDir, 'scenes.yaml'), 'utf8');
  const before = 'tools: [order_status_query, invoice_issue, invoice_status_query]';
  expect(scenes).toContain(before);
  await writeFile(
    join(changedDir, 'scenes.yaml'),
    scenes.replace(before, 'tools: [order_status_query, invoice_status_query]'),
  );
}, 180_000);

afterAll(async () => {
  await store.close();
  await db.close();
  await rm(changedDir, { recursive: true, force: true });
});

/** The tool decider's recorded decisions, with their exchanges. */
async function plans(): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (const taskId of await store.findTasks({ limit: 100 })) {
    for (const e of await store.readTask(taskId, { withExchanges: true }))
      if (e.envelope.stage === 'tool_decider' && e.envelope.event_type === 'task_planned') out.push(e);
  }
  return out;
}

describe('signalbox redecide with recorded model exchanges (EL-7, EL-9)', () => {
  it('recorded each model-made plan with the exchange it rests on', async () => {
    const planned = await plans();
    expect(planned).toHaveLength(requests.length);
    expect(calls).toBeGreaterThanOrEqual(requests.length);
    for (const e of planned) {
      expect(e.envelope.decision_reason).toMatch(/model proposed \[(issue_invoice|track_logistics)\]/);
      expect(e.exchanges?.length).toBeGreaterThanOrEqual(1);
      expect(e.exchanges?.[0]).toMatchObject({
        profile_id: (e.payload as { selection: { primary: string } }).selection.primary,
        model: 'gpt-4o-mini-2024-07-18',
        input_tokens: 180,
        output_tokens: 12,
      });
    }
  });

  it('re-decides every recorded decision identically from the exchanges, with the model unreachable', async () => {
    const before = calls;
    const summary = await redecideTasks(store, registry, 'all', { limit: 100 });
    expect(summary.tasks).toBe(requests.length);
    expect(
      summary.diffs.filter((d) => d.changed).map((d) => `${d.task_id} ${d.stage} ${d.differences.join(',')}`),
    ).toEqual([]);
    expect(summary.model_not_recorded).toBe(0);
    const deciders = summary.diffs.filter((d) => d.stage === 'tool_decider');
    expect(deciders).toHaveLength(requests.length);
    for (const d of deciders) {
      expect(d.models.recorded).toBeGreaterThanOrEqual(1);
      expect(d.models.replayed).toBe(d.models.recorded);
      expect(d.models.not_recorded).toEqual([]);
      expect(d.redecided.decision_reason).toBe(d.recorded.decision_reason);
    }
    expect(calls).toBe(before);
  });

  it('would not: the same decisions taken without their exchanges come out differently', async () => {
    // The control: proof that the replayed answers are what made the decisions come out the same.
    const definitions = stageDefinitions(registry, await deciderSemantic());
    let changed = 0;
    for (const taskId of await store.findTasks({ limit: 100 })) {
      const events = (await store.readTask(taskId)).map((e) => ({ ...e, exchanges: [] }));
      const { diffs } = await redecideEvents(taskId, events, definitions, ['tool_decider']);
      changed += diffs.filter((d) => d.changed).length;
    }
    expect(changed).toBe(requests.length);
  });

  it('reports "model not recorded for this request" where a changed registry asks the model something new', async () => {
    const changed = await loadRegistryDir(changedDir);
    const before = calls;
    const summary = await redecideTasks(store, changed, 'tool_decider', { limit: 100 });
    const invoices = summary.diffs.filter((d) => d.recorded.summary.includes('invoice_issue'));
    expect(invoices).toHaveLength(3);
    for (const d of invoices) {
      expect(d.changed).toBe(true);
      expect(d.error).toBe(MODEL_NOT_RECORDED);
      expect(d.redecided.summary).toBe(MODEL_NOT_RECORDED);
      expect(d.models.not_recorded).toEqual([
        {
          profile_id: expect.any(String),
          request_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
          asked_live: false,
        },
      ]);
    }
    expect(summary.model_not_recorded).toBe(3);
    expect(summary.reasons).toEqual([{ reason: MODEL_NOT_RECORDED, count: 3 }]);
    // The parcels' requests are the recorded ones: answered from the recording, unchanged.
    expect(summary.diffs.filter((d) => !invoices.includes(d)).every((d) => !d.changed)).toBe(true);
    expect(calls).toBe(before);

    // Only on explicit request does a re-decide ask a live model; then the new question gets a new answer.
    reachable = true;
    try {
      const live = await redecideTasks(store, changed, 'tool_decider', { limit: 100 }, undefined, {
        live: () => model,
      });
      expect(calls).toBe(before + 3);
      expect(live.model_not_recorded).toBe(0);
      const asked = live.diffs.filter((d) => d.models.not_recorded.length > 0);
      expect(asked.map((d) => d.models.not_recorded.map((m) => m.asked_live))).toEqual([
        [true],
        [true],
        [true],
      ]);
      for (const d of asked) {
        expect(d.error).toBeNull();
        expect(d.redecided.summary).not.toContain('invoice_issue');
      }
    } finally {
      reachable = false;
    }
  });
});
