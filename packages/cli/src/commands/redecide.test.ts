import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteEventStore, type EventStore } from '@signalbox/event-log';
import { createRegistryStore, loadRegistryDir, type RegistryStore } from '@signalbox/registry';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { runEmbedded } from '../dev/embedded.js';
import type { DemoRequest } from '../dev/scenarios.js';
import { REDECIDABLE_STAGES, redecideTasks } from './redecide.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const packDir = join(repoRoot, 'registry', 'packs', 'after-sales');

// 54 recorded tasks of three kinds; only the invoice requests plan `invoice_issue`.
const requests: DemoRequest[] = Array.from({ length: 18 }, (_, i) => [
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
  {
    pack: 'after-sales' as const,
    title: `repair ${String(i)}`,
    agent_id: 'repair_agent',
    request: `The kettle from order ${String(20240917001 + i)} is broken, can you repair it?`,
  },
]).flat();

let db: PGlite;
let store: EventStore;
let changedDir: string;
let schema: IsolatedSchema;
let registryStore: RegistryStore;
let publishedVersion: string;

beforeAll(async () => {
  db = new PGlite();
  await runEmbedded({ repoRoot, requests, db, taskIdPrefix: 'rd-', timeoutMs: 120_000 });
  store = createPgliteEventStore({ pglite: db });
  // A new registry version that changes one tool's scenes: invoice_issue leaves the invoice scene.
  changedDir = await mkdtemp(join(tmpdir(), 'signalbox-redecide-'));
  await cp(packDir, changedDir, { recursive: true });
  const scenes = await readFile(join(changedDir, 'scenes.yaml'), 'utf8');
  const before = 'tools: [order_status_query, invoice_issue, invoice_status_query]';
  expect(scenes).toContain(before);
  await writeFile(
    join(changedDir, 'scenes.yaml'),
    scenes.replace(before, 'tools: [order_status_query, invoice_status_query]'),
  );
  // …published as a new version of the after-sales registry in the registry store (RG-3), as an operator would.
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'cli-redecide');
  registryStore = createRegistryStore({ connectionString: testEndpoints().databaseUrl, schema: schema.name });
  await registryStore.migrate();
  await registryStore.publish('after-sales', await loadRegistryDir(packDir));
  publishedVersion = (await registryStore.publish('after-sales', await loadRegistryDir(changedDir)))
    .registry_version;
}, 180_000);

afterAll(async () => {
  await registryStore.close();
  await schema.drop();
  await store.close();
  await db.close();
  await rm(changedDir, { recursive: true, force: true });
});

async function eventCount(): Promise<number> {
  const r = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
  return r.rows[0]!.n;
}

describe('signalbox redecide (EL-7)', () => {
  it('under an unchanged registry reproduces every recorded decision', async () => {
    const registry = await loadRegistryDir(packDir);
    const summary = await redecideTasks(store, registry, 'all', { limit: 1000 });
    expect(summary.tasks).toBe(54);
    expect(summary.decisions).toBeGreaterThanOrEqual(54 * 3);
    expect(
      summary.diffs.filter((d) => d.changed).map((d) => `${d.task_id} ${d.stage} ${d.differences.join(',')}`),
    ).toEqual([]);
  });

  it('counts exactly the tasks whose plans change when one tool changes scenes, with reasons, and acts nowhere', async () => {
    const before = await eventCount();
    const { registry: changed, publication } = await registryStore.load('after-sales', publishedVersion);
    expect(publication.registry_version).not.toBe((await loadRegistryDir(packDir)).versions.registry_version);
    const summary = await redecideTasks(store, changed, 'tool_decider', { limit: 1000 });
    expect(summary.registry_version).toBe(publishedVersion);

    // Ground truth from the recording itself: the tasks whose recorded plans used invoice_issue.
    const planned = new Set<string>();
    for (const taskId of await store.findTasks({ limit: 1000 })) {
      for (const e of await store.readTask(taskId)) {
        const steps = (e.payload as { plan?: { steps?: { tool: string }[] } } | null)?.plan?.steps ?? [];
        if (e.envelope.stage === 'tool_decider' && steps.some((s) => s.tool === 'invoice_issue'))
          planned.add(taskId);
      }
    }
    expect(planned.size).toBe(18);
    expect(summary.tasks).toBe(54);
    expect(summary.changed_tasks).toBe(planned.size);
    expect(new Set(summary.diffs.filter((d) => d.changed).map((d) => d.task_id))).toEqual(planned);
    for (const d of summary.diffs.filter((x) => x.changed)) {
      expect(d.stage).toBe('tool_decider');
      expect(d.recorded.summary).toContain('invoice_issue');
      expect(d.redecided.summary).not.toContain('invoice_issue');
      expect(d.redecided.decision_reason.length).toBeGreaterThan(0);
    }
    expect(summary.reasons.length).toBeGreaterThan(0);
    // No side effects: nothing appended (hence nothing published), and the executor is never re-run.
    expect(await eventCount()).toBe(before);
    expect(REDECIDABLE_STAGES).not.toContain('executor');
  });
});
