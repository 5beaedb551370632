// RS-6 (issue 21, hole 6) on the embedded pipeline (`signalbox dev`'s, the five stages in one process on PGlite):
// a request whose text holds a phone number and an e-mail address is served — the ticket tool gets the real phone
// number — while no column of any events row of the task holds either value in clear; event_secrets holds them,
// and re-deciding the task from the log reproduces every decision.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPgliteEventStore } from '@signalbox/event-log';
import { loadRegistryDir } from '@signalbox/registry';
import { redecideTasks } from '../commands/redecide.js';
import { runEmbedded, type EmbeddedResult } from './embedded.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const PHONE_WRITTEN = '+46 70 123 45 67';
const PHONE = '+46701234567';
const EMAIL = 'ana.berg@example.se';
/** Every form in which the values could have been written down. */
const CLEAR = [PHONE_WRITTEN, PHONE, PHONE.slice(1), EMAIL];

let db: PGlite;
let result: EmbeddedResult;

beforeAll(async () => {
  db = new PGlite();
  result = await runEmbedded({
    repoRoot,
    db,
    taskIdPrefix: 'ft-',
    timeoutMs: 120_000,
    secrets: true,
    requests: [
      {
        pack: 'reach',
        title: 'complaint with a phone number',
        agent_id: 'reach_agent',
        request: `My parcel never arrived and I want to complain. Call me on ${PHONE_WRITTEN}`,
      },
      {
        pack: 'reach',
        title: 'complaint with a phone number and an e-mail address',
        agent_id: 'reach_agent',
        request: `My parcel never arrived and I want to complain. Call me on ${PHONE_WRITTEN} or mail ${EMAIL}`,
      },
    ],
  });
}, 180_000);

afterAll(async () => {
  await db.close();
});

describe('sensitive values in free text on the embedded pipeline (RS-6)', () => {
  it('calls the tool with the real phone number, stores neither value in clear, keeps both in event_secrets', async () => {
    expect(result.traces).toHaveLength(2);
    const [trace] = result.traces;
    const taskIds = result.traces.map((t) => t.task_id);
    // The call prepared for the executor has the real value (the trace read with its secrets, as `eval packs` reads
    // it), and so has the ticket the tool created.
    const executed = trace?.events.find((e) => e.envelope.event_type === 'step_prepared')?.payload as {
      call: { tool: string; arguments: Record<string, unknown> };
    };
    expect(executed.call.tool).toBe('create_ticket');
    expect(executed.call.arguments.contact).toBe(PHONE);
    const tickets = await db.query<{ contact: string }>('SELECT contact FROM demo_tools.tickets');
    expect(tickets.rows.map((r) => r.contact)).toContain(PHONE);

    const rows = await db.query<{ event_id: string; event_type: string }>(
      'SELECT *, payload::text AS payload_text FROM events WHERE task_id = ANY($1)',
      [taskIds],
    );
    expect(rows.rows.map((r) => r.event_type)).toEqual(
      expect.arrayContaining(['task_submitted', 'model_selected', 'task_planned', 'step_executed']),
    );
    const stored = JSON.stringify(rows.rows);
    for (const clear of CLEAR) expect(stored, clear).not.toContain(clear);
    expect(stored).toContain('Call me on [phone#1] or mail [email#1]');

    const secrets = await db.query<{ value: unknown }>(
      'SELECT value FROM event_secrets WHERE event_id = ANY($1)',
      [rows.rows.map((r) => r.event_id)],
    );
    const secretText = JSON.stringify(secrets.rows);
    expect(secretText).toContain(PHONE_WRITTEN);
    expect(secretText).toContain(EMAIL);
  });

  it('re-deciding the task from the log reproduces every decision', async () => {
    const store = createPgliteEventStore({ pglite: db });
    const registry = await loadRegistryDir(join(repoRoot, 'registry', 'packs', 'reach'));
    const summary = await redecideTasks(store, registry, 'all', { limit: 10 });
    expect(summary.tasks).toBe(2);
    expect(summary.decisions).toBeGreaterThanOrEqual(6);
    expect(
      summary.diffs.filter((d) => d.changed).map((d) => `${d.stage} ${d.differences.join(',')}`),
    ).toEqual([]);
  });
});
