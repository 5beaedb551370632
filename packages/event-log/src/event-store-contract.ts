import { createHash } from 'node:crypto';
import { deterministicEventId, type Envelope, type Stage } from '@signalbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EventStoreClosedError, InvalidEventError } from './errors.js';
import { SECRET_REDACTED, secretsAt } from './secrets.js';
import type { EventStore, FailedModelExchange, ModelExchange, NewEvent } from './event-store.js';

// The contract every EventStore adapter passes: pg against the real PostgreSQL, PGlite in process. Test files call
// defineEventStoreContract with a harness factory; every test gets a fresh, empty database schema.

/** What a test needs besides the store: raw SQL on the same tables, and more stores on the same database. */
export interface ContractHarness {
  /** A store on a fresh, empty (not migrated) schema. */
  store: EventStore;
  /** Another store on the same database and schema (its own connections where the adapter has several). */
  another(): EventStore;
  /** Runs one statement outside the store, in the store's schema; resolves to its rows. */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** `name` qualified for the store's schema, for use in `sql`. */
  table(name: string): string;
  /** Closes every store of this harness and drops the schema. */
  cleanup(): Promise<void>;
}

/** Options the contract sets per harness. */
export interface ContractSetupOptions {
  claimCheckThresholdBytes?: number;
}

export type ContractSetup = (options: ContractSetupOptions) => Promise<ContractHarness>;

/** Builds a valid NewEvent; the event id is deterministic in (task, stage, causation, event type) as in EL-2. */
export function makeEvent(
  overrides: Partial<Envelope> & { task_id: string; causation_id: string | null },
  payload: unknown = { kind: 'example' },
  topic: string | null = 'signalbox.task.planned.v1',
): NewEvent {
  const stage: Stage = overrides.stage ?? 'tool_decider';
  const event_type = overrides.event_type ?? 'task.planned';
  const envelope: Envelope = {
    event_id: deterministicEventId({
      task_id: overrides.task_id,
      stage,
      causation_id: overrides.causation_id,
      event_type,
    }),
    tenant_id: 'tenant-a',
    agent_id: 'agent-a',
    revision_count: 0,
    degraded_flag: false,
    decision_reason: 'the only tool that matches',
    input_source: 'pipeline',
    registry_version: 'reg-1',
    profiles_version: 'prof-1',
    policy_version: 'pol-1',
    occurred_at: '2026-11-30T09:00:00.123Z',
    schema_version: 1,
    traceparent: '00-0123456789abcdef0123456789abcdef-0123456789abcdef-01',
    ...overrides,
    stage,
    event_type,
  };
  return { envelope, topic, payload };
}

/** `items[index]`, failing the test when it is missing (no non-null assertions outside *.test.ts). */
function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at index ${index} of ${items.length}`);
  return item;
}

/** Defines the EventStore contract tests for one adapter. */
export function defineEventStoreContract(adapter: string, setup: ContractSetup): void {
  describe(`EventStore contract: ${adapter}`, () => {
    let h: ContractHarness;
    let store: EventStore;

    beforeEach(async () => {
      h = await setup({ claimCheckThresholdBytes: 1024 });
      store = h.store;
      await store.migrate();
    });
    afterEach(async () => {
      await h.cleanup();
    });

    const countRows = async (table: string) => {
      const rows = await h.sql(`SELECT count(*)::integer AS n FROM ${h.table(table)}`);
      return rows[0]?.n;
    };

    describe('append', () => {
      it('returns the stored rows in input order, numbered per task', async () => {
        const events = [
          makeEvent({ task_id: 'task-1', causation_id: null, stage: 'api', event_type: 'task.submitted' }),
          makeEvent({ task_id: 'task-2', causation_id: null, stage: 'api', event_type: 'task.submitted' }),
          makeEvent({ task_id: 'task-1', causation_id: 'c1' }, { plan: [1, 2, 3] }, null),
        ];
        const results = await store.append(events);

        expect(results.map((r) => r.inserted)).toEqual([true, true, true]);
        expect(results.map((r) => r.event.envelope)).toEqual(events.map((e) => e.envelope));
        expect(results.map((r) => r.event.payload)).toEqual(events.map((e) => e.payload));
        expect(results.map((r) => r.event.topic)).toEqual([
          'signalbox.task.planned.v1',
          'signalbox.task.planned.v1',
          null,
        ]);
        expect(results.map((r) => [r.event.envelope.task_id, r.event.stream_version])).toEqual([
          ['task-1', 1],
          ['task-2', 1],
          ['task-1', 2],
        ]);
        const positions = results.map((r) => r.event.global_position);
        expect(typeof positions[0]).toBe('bigint');
        expect(at(positions, 0) < at(positions, 1) && at(positions, 1) < at(positions, 2)).toBe(true);
        for (const r of results) {
          expect(Math.abs(r.event.recorded_at.getTime() - Date.now())).toBeLessThan(60_000);
        }
        expect(await store.readTask('task-1')).toEqual([at(results, 0).event, at(results, 2).event]);
      });

      it('returns a fresh payload as a read gives it back, to the byte (jsonb key order, JSON values)', async () => {
        const payload = {
          zeta: 1,
          b: [{ long_key: true, a: null }],
          aa: 'ä',
          é: 2,
          e: 3,
          10: 'ten',
          2: 'two',
          when: new Date('2026-01-02T03:04:05.678Z'),
          gone: undefined,
          big: 1e21,
        };
        const [appended] = await store.append([
          makeEvent({ task_id: 'task-k', causation_id: null }, payload),
        ]);
        const [read] = await store.readTask('task-k');
        expect(JSON.stringify(appended?.event.payload)).toBe(JSON.stringify(read?.payload));
        expect(appended?.event).toEqual(read);
      });

      it('stores a payload from the text given with it, and refuses a text that is not a string', async () => {
        // The text stands for the payload (the caller's promise: it is JSON.stringify(payload)), so the store does not
        // stringify it again; told apart here by a text that says otherwise.
        const event = {
          ...makeEvent({ task_id: 'task-j', causation_id: null }, { kind: 'a' }),
          payloadJson: '{"kind":"b"}',
        };
        await store.append([event]);
        const [read] = await store.readTask('task-j');
        expect(read?.payload).toEqual({ kind: 'b' });
        const bad = {
          ...makeEvent({ task_id: 'task-j2', causation_id: null }),
          payloadJson: 7 as unknown as string,
        };
        await expect(store.append([bad])).rejects.toThrow(/event 0 has a payloadJson that is not a string/);
        expect(await store.readTask('task-j2')).toEqual([]);
      });

      it('returns nothing and stores nothing for an empty batch', async () => {
        expect(await store.append([])).toEqual([]);
        expect(await countRows('events')).toBe(0);
      });

      it('keeps the original decision when the same event id is appended again', async () => {
        const original = makeEvent(
          { task_id: 'task-r', causation_id: 'c1', decision_reason: 'first decision' },
          { tool: 'a' },
        );
        const first = at(await store.append([original]), 0);
        const retry = makeEvent(
          {
            task_id: 'task-r',
            causation_id: 'c1',
            decision_reason: 'a different decision',
            revision_count: 3,
          },
          { tool: 'b' },
        );
        expect(retry.envelope.event_id).toBe(original.envelope.event_id);

        const again = at(await store.append([retry]), 0);

        expect(again.inserted).toBe(false);
        expect(again.event).toEqual(first.event);
        expect(again.event.envelope.decision_reason).toBe('first decision');
        expect(again.event.envelope.revision_count).toBe(0);
        expect(again.event.payload).toEqual({ tool: 'a' });
        expect(await countRows('events')).toBe(1);
      });

      it('stores an event id repeated within one batch once, and numbers the rest without gaps', async () => {
        const a = makeEvent({ task_id: 'task-d', causation_id: 'c1', decision_reason: 'first' });
        const aAgain = makeEvent({ task_id: 'task-d', causation_id: 'c1', decision_reason: 'second' });
        const b = makeEvent({ task_id: 'task-d', causation_id: 'c2' });

        const results = await store.append([a, aAgain, b]);

        expect(results.map((r) => r.inserted)).toEqual([true, false, true]);
        expect(at(results, 1).event).toEqual(at(results, 0).event);
        expect(at(results, 1).event.envelope.decision_reason).toBe('first');
        expect(results.map((r) => r.event.stream_version)).toEqual([1, 1, 2]);
        expect(await countRows('events')).toBe(2);
      });

      it('numbers stream versions 1..n per task across batches, also when a batch mixes stored and new events', async () => {
        const t1 = (c: string) => makeEvent({ task_id: 'task-x', causation_id: c });
        const t2 = (c: string) => makeEvent({ task_id: 'task-y', causation_id: c });
        await store.append([t1('a'), t2('a'), t1('b')]);
        const second = await store.append([t2('b'), t1('a'), t1('c'), t2('a'), t2('c')]);

        expect(second.map((r) => [r.inserted, r.event.stream_version])).toEqual([
          [true, 2],
          [false, 1],
          [true, 3],
          [false, 1],
          [true, 3],
        ]);
        const x = await store.readTask('task-x');
        const y = await store.readTask('task-y');
        expect(x.map((e) => e.stream_version)).toEqual([1, 2, 3]);
        expect(x.map((e) => e.envelope.causation_id)).toEqual(['a', 'b', 'c']);
        expect(y.map((e) => e.stream_version)).toEqual([1, 2, 3]);
        expect(y.map((e) => e.envelope.causation_id)).toEqual(['a', 'b', 'c']);
      });

      it('gives concurrent appends each their own results, and a failing one its own error', async () => {
        const batchOf = (task: string, causes: string[], payload: unknown = { ok: true }) =>
          causes.map((c) => makeEvent({ task_id: task, causation_id: c }, payload));
        // The first goes out at once; the ones made meanwhile may share one statement. One of them is refused by
        // the database itself (jsonb takes no NUL character), after the envelope checks passed.
        const first = batchOf('task-c1', ['a', 'b']);
        const second = batchOf('task-c2', ['a']);
        const refused = batchOf('task-c3', ['a'], { text: 'nul \u0000 inside' });
        const third = [...batchOf('task-c1', ['c']), ...batchOf('task-c4', ['a', 'b'])];
        const outcomes = await Promise.allSettled([
          store.append(first),
          store.append(second),
          store.append(refused),
          store.append(third),
        ]);

        expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
        const results = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : []));
        for (const [index, batch] of [first, second, [], third].entries()) {
          expect(at(results, index).map((r) => r.event.envelope)).toEqual(batch.map((e) => e.envelope));
          expect(at(results, index).every((r) => r.inserted)).toBe(true);
        }
        expect(
          (await store.readTask('task-c1')).map((e) => [e.envelope.causation_id, e.stream_version]),
        ).toEqual([
          ['a', 1],
          ['b', 2],
          ['c', 3],
        ]);
        expect(await store.readTask('task-c3')).toEqual([]);
        expect(await countRows('events')).toBe(6);
      });

      it('refuses an invalid envelope without storing any of the batch', async () => {
        const good = makeEvent({ task_id: 'task-bad', causation_id: 'c1' });
        const bad = makeEvent({ task_id: 'task-bad', causation_id: 'c2', traceparent: 'not-a-traceparent' });

        const error: unknown = await store.append([good, bad]).catch((e: unknown) => e);

        expect(error).toBeInstanceOf(InvalidEventError);
        expect((error as InvalidEventError).index).toBe(1);
        expect((error as InvalidEventError).retriable).toBe(false);
        expect((error as Error).message).toContain('traceparent');
        expect(await countRows('events')).toBe(0);
      });

      it('keeps a decision’s work time (EL-6) and refuses one that is not whole milliseconds', async () => {
        const timed = { ...makeEvent({ task_id: 'task-w', causation_id: 'c1' }), work_ms: 37 };
        const untimed = makeEvent({ task_id: 'task-w', causation_id: 'c2' });
        const [a, b] = await store.append([timed, untimed]);
        expect(a?.event.work_ms).toBe(37);
        expect(b?.event).not.toHaveProperty('work_ms');
        const read = await store.readTask('task-w');
        expect(read.map((e) => e.work_ms)).toEqual([37, undefined]);
        expect(
          (await store.findByEventIds([timed.envelope.event_id])).get(timed.envelope.event_id)?.work_ms,
        ).toBe(37);

        for (const work_ms of [1.5, -1]) {
          const bad = { ...makeEvent({ task_id: 'task-w2', causation_id: 'c1' }), work_ms };
          const error: unknown = await store.append([bad]).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidEventError);
          expect((error as Error).message).toContain('work_ms');
        }
        expect(await store.readTask('task-w2')).toEqual([]);
      });
    });

    describe('reads', () => {
      it('finds stored events by id and leaves unknown ids out', async () => {
        const a = makeEvent({ task_id: 'task-f', causation_id: 'c1' }, { n: 1 });
        const b = makeEvent({ task_id: 'task-g', causation_id: 'c1' }, { n: 2 });
        const stored = await store.append([a, b]);

        const found = await store.findByEventIds([b.envelope.event_id, 'ev_unknown', a.envelope.event_id]);

        expect([...found.keys()].sort()).toEqual([a.envelope.event_id, b.envelope.event_id].sort());
        expect(found.get(a.envelope.event_id)).toEqual(at(stored, 0).event);
        expect(found.get(b.envelope.event_id)).toEqual(at(stored, 1).event);
        expect((await store.findByEventIds([])).size).toBe(0);
      });

      it('reads an unknown task as empty', async () => {
        expect(await store.readTask('no-such-task')).toEqual([]);
      });
    });

    describe('append-only (EL-1)', () => {
      beforeEach(async () => {
        await store.append([
          makeEvent({ task_id: 'task-ro', causation_id: 'c1' }, { big: 'y'.repeat(4096) }),
          makeEvent({ task_id: 'task-ro', causation_id: 'c2' }),
        ]);
      });

      it('refuses UPDATE with the trigger message', async () => {
        await expect(h.sql(`UPDATE ${h.table('events')} SET decision_reason = 'rewritten'`)).rejects.toThrow(
          /event log is append-only: UPDATE on .*events is refused/,
        );
        const events = await store.readTask('task-ro');
        expect(events.map((e) => e.envelope.decision_reason)).toEqual([
          'the only tool that matches',
          'the only tool that matches',
        ]);
      });

      it('refuses DELETE with the trigger message', async () => {
        await expect(h.sql(`DELETE FROM ${h.table('events')} WHERE stream_version = 2`)).rejects.toThrow(
          /event log is append-only: DELETE on .*events is refused/,
        );
        expect(await countRows('events')).toBe(2);
      });

      it('refuses TRUNCATE with the trigger message', async () => {
        await expect(h.sql(`TRUNCATE ${h.table('events')}`)).rejects.toThrow(
          /event log is append-only: TRUNCATE on .*events is refused/,
        );
        expect(await countRows('events')).toBe(2);
      });

      it('refuses UPDATE, DELETE and TRUNCATE of claim-check blobs', async () => {
        expect(await countRows('payload_blobs')).toBe(1);
        const blobs = h.table('payload_blobs');
        await expect(h.sql(`UPDATE ${blobs} SET size = 0`)).rejects.toThrow(
          /append-only: UPDATE on .*payload_blobs/,
        );
        await expect(h.sql(`DELETE FROM ${blobs}`)).rejects.toThrow(/append-only: DELETE on .*payload_blobs/);
        await expect(h.sql(`TRUNCATE ${blobs}`)).rejects.toThrow(/append-only: TRUNCATE on .*payload_blobs/);
        expect(await countRows('payload_blobs')).toBe(1);
        expect(at(await store.readTask('task-ro'), 0).payload).toEqual({ big: 'y'.repeat(4096) });
      });
    });

    describe('secrets (PI-5, RS-6)', () => {
      const phone = '+46 70 123 45 67';
      const call = (contact: unknown) => ({
        step_index: 0,
        tool: 'create_ticket',
        arguments: { title: 'Parcel lost', contact, priority: 'high' },
      });
      // The shape the stages emit: the call, and the same call again in the history of a later message.
      const payload = (contact: unknown = phone) => ({
        call: call(contact),
        history: [{ call: call(contact), status: 'success' }],
        note: 'no secret here',
      });
      const paths = ['call.arguments.contact', 'history.0.call.arguments.contact'];
      const secretEvent = (contact: unknown = phone, causation = 'c1') => {
        const p = payload(contact);
        return {
          ...makeEvent(
            {
              task_id: 'task-s',
              causation_id: causation,
              stage: 'parameter_injector',
              event_type: 'step_prepared',
            },
            p,
            'signalbox.step.prepared.v1',
          ),
          secrets: secretsAt(p, paths),
        };
      };
      const redacted = () => payload(SECRET_REDACTED);

      it('stores the payload redacted and the values only in event_secrets', async () => {
        const event = secretEvent();
        const [result] = await store.append([event]);

        expect(result?.inserted).toBe(true);
        expect(result?.event.payload).toEqual(redacted());
        const rows = await h.sql(`SELECT payload::text AS payload FROM ${h.table('events')}`);
        expect(rows).toHaveLength(1);
        expect(String(rows[0]?.payload)).not.toContain(phone);
        expect(String(rows[0]?.payload)).toContain(SECRET_REDACTED);
        const secrets = await h.sql(
          `SELECT event_id, path, value FROM ${h.table('event_secrets')} ORDER BY path`,
        );
        expect(secrets).toEqual(
          [...paths].sort().map((path) => ({ event_id: event.envelope.event_id, path, value: phone })),
        );
        // The tool filter still works on the redacted row.
        expect(await store.findTasks({ tool: 'create_ticket' })).toEqual(['task-s']);
      });

      it('masks sensitive values in free text, keeps the clear strings in event_secrets, and restores them (RS-6)', async () => {
        const request = {
          text: 'Call me on +46 70 123 45 67 or mail ana@example.se',
          context: ['手机号 13812345678'],
        };
        const event = makeEvent(
          { task_id: 'task-f', causation_id: 'cf', stage: 'api', event_type: 'task_submitted' },
          { request, note: 'no secret here' },
          'signalbox.task.submitted.v1',
        );
        const [appended] = await store.append([{ ...event, payloadJson: JSON.stringify(event.payload) }], {
          withSecrets: true,
        });
        expect(appended?.event.payload).toEqual(event.payload);
        const rows = await h.sql(`SELECT * FROM ${h.table('events')} WHERE task_id = 'task-f'`);
        const row = JSON.stringify(rows);
        for (const clear of ['+46 70 123 45 67', 'ana@example.se', '13812345678'])
          expect(row).not.toContain(clear);
        const [read] = await store.readTask('task-f');
        expect(read?.payload).toEqual({
          request: { text: 'Call me on [phone#1] or mail [email#1]', context: ['手机号 [phone#1]'] },
          note: 'no secret here',
        });
        const secrets = await h.sql(`SELECT path, value FROM ${h.table('event_secrets')} ORDER BY path`);
        expect(secrets).toEqual([
          { path: 'request.context.0', value: request.context[0] },
          { path: 'request.text', value: request.text },
        ]);
        const id = event.envelope.event_id;
        const restored = (await store.findByEventIds([id], { withSecrets: true })).get(id);
        expect(restored?.payload).toEqual(event.payload);
      });

      it('stores the payload redacted also when its text is given: the text holds the values', async () => {
        const event = secretEvent();
        await store.append([{ ...event, payloadJson: JSON.stringify(event.payload) }]);
        const rows = await h.sql(`SELECT payload::text AS payload FROM ${h.table('events')}`);
        expect(String(rows[0]?.payload)).not.toContain(phone);
        expect(String(rows[0]?.payload)).toContain(SECRET_REDACTED);
      });

      it('reads tasks redacted, and gives a stage its decision back exactly with withSecrets', async () => {
        const event = secretEvent({ phone, email: 'ann@example.com' });
        const [appended] = await store.append([event], { withSecrets: true });
        expect(appended?.event.payload).toEqual(event.payload);

        const [read] = await store.readTask('task-s');
        expect(read?.payload).toEqual(redacted());
        expect(JSON.stringify(read?.payload)).not.toContain(phone);
        expect(JSON.stringify(read?.payload)).not.toContain('ann@example.com');

        const id = event.envelope.event_id;
        expect((await store.findByEventIds([id])).get(id)?.payload).toEqual(redacted());
        const restored = (await store.findByEventIds([id], { withSecrets: true })).get(id);
        expect(restored?.payload).toEqual(event.payload);
        // The same JSON text as the first append returned, so a re-published decision is byte-for-byte the first.
        expect(JSON.stringify(restored?.payload)).toBe(JSON.stringify(appended?.event.payload));
        expect({ ...restored, payload: null }).toEqual({ ...read, payload: null });
      });

      it('hides every copy of a secret value in the payload (a tool output echoing it), and restores them exactly', async () => {
        const echoing = {
          ...payload(),
          result: { status: 'success', output: { sent_to: phone, receipt: `Ticket for ${phone} created` } },
        };
        const event = {
          ...makeEvent(
            { task_id: 'task-s', causation_id: 'c9', stage: 'executor', event_type: 'step_executed' },
            echoing,
            'signalbox.step.executed.v1',
          ),
          secrets: secretsAt(echoing, paths),
        };
        const [appended] = await store.append([event], { withSecrets: true });
        expect(appended?.event.payload).toEqual(echoing);

        const rows = await h.sql(`SELECT payload::text AS payload FROM ${h.table('events')}`);
        expect(String(rows[0]?.payload)).not.toContain(phone);
        const [read] = await store.readTask('task-s');
        expect(JSON.stringify(read?.payload)).not.toContain(phone);
        expect(read?.payload).toMatchObject({
          result: { output: { sent_to: SECRET_REDACTED, receipt: SECRET_REDACTED } },
        });
        const id = event.envelope.event_id;
        const restored = (await store.findByEventIds([id], { withSecrets: true })).get(id);
        expect(JSON.stringify(restored?.payload)).toBe(JSON.stringify(appended?.event.payload));
        expect(restored?.payload).toEqual(echoing);
      });

      it('keeps the first secrets when the same event id is appended again, within a batch and later', async () => {
        const first = secretEvent();
        const sameBatch = secretEvent('+1 555 0100');
        const results = await store.append([first, sameBatch], { withSecrets: true });
        expect(results.map((r) => r.inserted)).toEqual([true, false]);
        expect(results.map((r) => r.event.payload)).toEqual([first.payload, first.payload]);

        const [later] = await store.append([secretEvent('+1 555 0199')], { withSecrets: true });
        expect(later?.inserted).toBe(false);
        expect(later?.event.payload).toEqual(first.payload);
        const [laterRedacted] = await store.append([secretEvent('+1 555 0199')]);
        expect(laterRedacted?.event.payload).toEqual(redacted());

        const values = await h.sql(`SELECT DISTINCT value FROM ${h.table('event_secrets')}`);
        expect(values).toEqual([{ value: phone }]);
        expect(await countRows('event_secrets')).toBe(2);
      });

      it('keeps secrets out of claim-checked blobs', async () => {
        const p = { ...payload(), filler: 'f'.repeat(4096) };
        const event = {
          ...makeEvent({ task_id: 'task-sb', causation_id: 'c1' }, p),
          secrets: secretsAt(p, paths),
        };
        await store.append([event]);

        expect(await countRows('payload_blobs')).toBe(1);
        const blobs = await h.sql(`SELECT payload::text AS payload FROM ${h.table('payload_blobs')}`);
        expect(String(blobs[0]?.payload)).not.toContain(phone);
        const id = event.envelope.event_id;
        expect(at(await store.readTask('task-sb'), 0).payload).toEqual({ ...redacted(), filler: p.filler });
        expect((await store.findByEventIds([id], { withSecrets: true })).get(id)?.payload).toEqual(p);
      });

      it('refuses secrets the payload does not hold, repeated or nested, without storing any of the batch', async () => {
        const good = secretEvent();
        const cases: [unknown[], RegExp][] = [
          [[{ path: 'call.arguments.phone', value: phone }], /not in the payload/],
          [[{ path: 'history.1.call', value: null }], /not in the payload/],
          [[{ path: '', value: phone }], /non-empty/],
          [[{ path: 'call..contact', value: phone }], /empty segment/],
          [
            [
              { path: 'call.arguments.contact', value: phone },
              { path: 'call.arguments.contact', value: phone },
            ],
            /twice/,
          ],
          [
            [
              { path: 'call.arguments', value: {} },
              { path: 'call.arguments.contact', value: phone },
            ],
            /inside secret path call.arguments/,
          ],
          [[{ path: 'call.arguments.contact', value: 10n }], /not JSON/],
        ];
        for (const [secrets, message] of cases) {
          const bad = { ...secretEvent(phone, 'c2'), secrets: secrets as NewEvent['secrets'] };
          const error: unknown = await store.append([good, bad]).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidEventError);
          expect((error as InvalidEventError).index).toBe(1);
          expect((error as Error).message).toMatch(message);
          expect((error as Error).message).not.toContain(phone);
        }
        expect(() => secretsAt(payload(), ['call.arguments.phone'])).toThrow(RangeError);
        expect(await countRows('events')).toBe(0);
        expect(await countRows('event_secrets')).toBe(0);
      });

      it('refuses UPDATE, DELETE and TRUNCATE of secrets', async () => {
        await store.append([secretEvent()]);
        const table = h.table('event_secrets');
        await expect(h.sql(`UPDATE ${table} SET value = '"x"'`)).rejects.toThrow(
          /append-only: UPDATE on .*event_secrets/,
        );
        await expect(h.sql(`DELETE FROM ${table}`)).rejects.toThrow(/append-only: DELETE on .*event_secrets/);
        await expect(h.sql(`TRUNCATE ${table}`)).rejects.toThrow(/append-only: TRUNCATE on .*event_secrets/);
        expect(await countRows('event_secrets')).toBe(2);
      });
    });

    describe('model exchanges (EL-7, EL-9)', () => {
      const phone = '+46 70 123 45 67';
      const hashOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');
      const exchange = (
        question: string,
        answer: Record<string, unknown>,
        latency = 812.4,
      ): ModelExchange => {
        const request = {
          messages: [
            { role: 'system', content: 'You fill in the arguments of one tool call.' },
            { role: 'user', content: question },
          ],
          toolChoice: { name: 'create_ticket' },
          temperature: 0,
        };
        return {
          profile_id: 'light_model',
          model: 'gpt-4o-mini-2024-07-18',
          request_hash: hashOf(request),
          request,
          response: {
            content: null,
            toolCalls: [
              {
                id: 'call_1',
                name: 'create_ticket',
                arguments: answer,
                rawArguments: JSON.stringify(answer),
                argumentsError: null,
              },
            ],
            usage: { inputTokens: 120, outputTokens: 18 },
            model: 'gpt-4o-mini-2024-07-18',
            finishReason: 'tool_calls',
          },
          input_tokens: 120,
          output_tokens: 18,
          latency_ms: latency,
        };
      };
      const decision = (causation: string, exchanges: ModelExchange[], contact = phone): NewEvent => {
        const payload = { call: { tool: 'create_ticket', arguments: { title: 'Parcel lost', contact } } };
        return {
          ...makeEvent(
            {
              task_id: 'task-x',
              causation_id: causation,
              stage: 'parameter_injector',
              event_type: 'step_prepared',
            },
            payload,
            'signalbox.step.prepared.v1',
          ),
          secrets: secretsAt(payload, ['call.arguments.contact']),
          exchanges,
        };
      };
      const asked = exchange(`Request: my parcel is lost, call me on ${phone}`, {
        title: 'Parcel lost',
        contact: phone,
      });
      const fixed = exchange('Fix only title', { title: 'Parcel lost' }, 95);

      it('stores each exchange with its decision in the same append, and reads them back in order on request', async () => {
        const plain = makeEvent({ task_id: 'task-x', causation_id: 'c0' });
        const event = decision('c1', [asked, fixed]);
        const results = await store.append([plain, event]);
        expect(results.map((r) => r.inserted)).toEqual([true, true]);
        expect(await countRows('model_exchanges')).toBe(2);

        const id = event.envelope.event_id;
        const read = await store.findByEventIds([id, plain.envelope.event_id], {
          withSecrets: true,
          withExchanges: true,
        });
        // Exactly as recorded (latency in whole milliseconds), in the order the decision asked.
        expect(read.get(id)?.exchanges).toEqual([
          { ...asked, latency_ms: 812 },
          { ...fixed, latency_ms: 95 },
        ]);
        expect(read.get(id)?.payload).toEqual(event.payload);
        expect(read.get(plain.envelope.event_id)?.exchanges).toEqual([]);
        // Only on request: the reads stages run on every batch stay as they were.
        expect((await store.findByEventIds([id])).get(id)).not.toHaveProperty('exchanges');
        expect((await store.findByEventIds([id], { withSecrets: true })).get(id)).not.toHaveProperty(
          'exchanges',
        );
        expect(at(await store.readTask('task-x'), 1)).not.toHaveProperty('exchanges');
        const task = await store.readTask('task-x', { withExchanges: true });
        expect(task.map((e) => e.exchanges?.length)).toEqual([0, 2]);
        const rows = await h.sql(
          `SELECT seq, profile_id, model, request_hash, input_tokens, output_tokens, latency_ms,
             x.tableoid::regclass::text AS part, e.recorded_at = x.recorded_at AS same_instant
           FROM ${h.table('model_exchanges')} x JOIN ${h.table('events')} e USING (event_id) ORDER BY seq`,
        );
        expect(rows.map(({ part, ...row }) => [row, String(part).replace(/^.*\./, '').slice(0, 16)])).toEqual(
          [
            [
              {
                seq: 0,
                profile_id: 'light_model',
                model: asked.model,
                request_hash: asked.request_hash,
                input_tokens: 120,
                output_tokens: 18,
                latency_ms: 812,
                same_instant: true,
              },
              'model_exchanges_',
            ],
            [
              {
                seq: 1,
                profile_id: 'light_model',
                model: fixed.model,
                request_hash: fixed.request_hash,
                input_tokens: 120,
                output_tokens: 18,
                latency_ms: 95,
                same_instant: true,
              },
              'model_exchanges_',
            ],
          ],
        );
      });

      it('redacts the secret values wherever they occur in the exchanges unless read withSecrets', async () => {
        const event = decision('c1', [asked]);
        await store.append([event]);
        const id = event.envelope.event_id;

        for (const read of [
          at(await store.readTask('task-x', { withExchanges: true }), 0),
          (await store.findByEventIds([id], { withExchanges: true })).get(id),
        ]) {
          const [x] = read?.exchanges ?? [];
          expect(JSON.stringify(x)).not.toContain(phone);
          expect(x?.request).toMatchObject({
            messages: [{}, { content: `Request: my parcel is lost, call me on ${SECRET_REDACTED}` }],
          });
          expect(x?.response).toMatchObject({
            toolCalls: [
              {
                arguments: { title: 'Parcel lost', contact: SECRET_REDACTED },
                rawArguments: `{"title":"Parcel lost","contact":"${SECRET_REDACTED}"}`,
              },
            ],
          });
          expect(x?.request_hash).toBe(asked.request_hash);
          expect(read?.payload).toEqual({
            call: { tool: 'create_ticket', arguments: { title: 'Parcel lost', contact: SECRET_REDACTED } },
          });
        }
        const exact = (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id);
        expect(exact?.exchanges).toEqual([{ ...asked, latency_ms: 812 }]);
        // Like the secrets themselves, the table is closed to PUBLIC: prompts hold user text and argument values.
        const [grant] = await h.sql(
          `SELECT has_table_privilege('public', '${h.table('model_exchanges')}', 'SELECT') AS can_read`,
        );
        expect(grant?.can_read).toBe(false);
      });

      it('keeps the first exchanges when the same event id is appended again, within a batch and later', async () => {
        const first = decision('c1', [asked]);
        const results = await store.append([first, decision('c1', [fixed, fixed])]);
        expect(results.map((r) => r.inserted)).toEqual([true, false]);
        const [later] = await store.append([decision('c1', [fixed])]);
        expect(later?.inserted).toBe(false);
        const id = first.envelope.event_id;
        expect(
          (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id)?.exchanges,
        ).toEqual([{ ...asked, latency_ms: 812 }]);
        expect(await countRows('model_exchanges')).toBe(1);
      });

      it('keeps each event its own exchanges when concurrent appends share one statement', async () => {
        // The first append goes out at once; the others, made meanwhile, may leave together as one statement.
        const events = [
          decision('c1', [asked]),
          decision('c2', []),
          decision('c3', [fixed, asked]),
          decision('c4', [fixed]),
        ];
        const results = await Promise.all(events.map((e) => store.append([e])));
        expect(results.map(([r]) => r?.inserted)).toEqual([true, true, true, true]);
        const read = await store.findByEventIds(
          events.map((e) => e.envelope.event_id),
          { withSecrets: true, withExchanges: true },
        );
        expect(events.map((e) => read.get(e.envelope.event_id)?.exchanges?.map((x) => x.latency_ms))).toEqual(
          [[812], [], [95, 812], [95]],
        );
        expect(await countRows('model_exchanges')).toBe(4);
      });

      it('stores a decision and its exchanges together or not at all', async () => {
        // A failure inside the exchanges' insert (here a trigger) must take the event with it: one statement.
        await h.sql(`CREATE FUNCTION ${h.table('refuse_exchange')}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'exchange refused by test'; END; $$`);
        await h.sql(`CREATE TRIGGER refuse_exchange BEFORE INSERT ON ${h.table('model_exchanges')}
          FOR EACH ROW EXECUTE FUNCTION ${h.table('refuse_exchange')}()`);
        await expect(store.append([decision('c1', [asked])])).rejects.toThrow(/exchange refused by test/);
        expect(await countRows('events')).toBe(0);
        expect(await countRows('event_keys')).toBe(0);
        expect(await countRows('event_secrets')).toBe(0);
        // Without exchanges the statement inserts none, and the trigger never fires.
        await store.append([decision('c2', [])]);
        expect(await countRows('events')).toBe(1);
      });

      it('refuses malformed exchanges, naming the field and not the prompt, without storing any of the batch', async () => {
        const cases: [unknown, RegExp][] = [
          [{ ...asked, profile_id: '' }, /exchange 0: profile_id must be a non-empty string/],
          [{ ...asked, model: 7 }, /exchange 0: model must be a non-empty string/],
          [{ ...asked, request_hash: 'abc' }, /exchange 0: request_hash must be a sha256/],
          [{ ...asked, input_tokens: -1 }, /exchange 0: input_tokens must be a non-negative integer/],
          [{ ...asked, output_tokens: 1.5 }, /exchange 0: output_tokens must be a non-negative integer/],
          [{ ...asked, latency_ms: Number.NaN }, /exchange 0: latency_ms must be a non-negative number/],
          [{ ...asked, request: undefined }, /exchange 0: request is not JSON/],
          [{ ...asked, response: { n: 10n } }, /exchange 0: response is not JSON/],
          [null, /exchange 0: is not an object/],
        ];
        for (const [bad, message] of cases) {
          const event = { ...decision('c2', []), exchanges: [bad] as unknown as ModelExchange[] };
          const error: unknown = await store
            .append([decision('c1', [asked]), event])
            .catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidEventError);
          expect((error as InvalidEventError).index).toBe(1);
          expect((error as Error).message).toMatch(message);
          expect((error as Error).message).not.toContain(phone);
        }
        const notList = { ...decision('c2', []), exchanges: {} as unknown as ModelExchange[] };
        await expect(store.append([notList])).rejects.toThrow(/exchanges that are not an array/);
        expect(await countRows('events')).toBe(0);
        expect(await countRows('model_exchanges')).toBe(0);
      });

      /** A call that failed: the endpoint refused the request, quoting the prompt (and so the phone number). */
      const refused: FailedModelExchange = {
        profile_id: 'light_model',
        model: null,
        request_hash: hashOf({ messages: [{ role: 'user', content: `call me on ${phone}` }] }),
        request: { messages: [{ role: 'user', content: `call me on ${phone}` }] },
        response: null,
        input_tokens: null,
        output_tokens: null,
        latency_ms: 30_000.6,
        error: {
          name: 'ProviderRequestError',
          message: `400 content refused: "call me on ${phone}"`,
          timeout: false,
          retriable: false,
          status: 400,
          code: 'content_filter',
          model: 'gpt-4o-mini-2024-07-18',
        },
      };

      it('stores a failed call with its error and no answer, in the order asked, and reads it back by id and by task', async () => {
        const event = decision('c1', [asked, refused, fixed]);
        const [result] = await store.append([event]);
        expect(result?.inserted).toBe(true);
        const id = event.envelope.event_id;
        const expected = [
          { ...asked, latency_ms: 812 },
          { ...refused, latency_ms: 30_001 },
          { ...fixed, latency_ms: 95 },
        ];
        const byId = (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id);
        expect(byId?.exchanges).toEqual(expected);
        // An answered exchange reads back without an `error` key, as before failed calls were recorded.
        expect(byId?.exchanges?.[0]).not.toHaveProperty('error');
        const [byTask] = await store.readTask('task-x', { withExchanges: true });
        expect(byTask?.exchanges?.map((x) => [x.error?.name ?? null, x.model, x.input_tokens])).toEqual([
          [null, asked.model, 120],
          ['ProviderRequestError', null, null],
          [null, fixed.model, 120],
        ]);
        const rows = await h.sql(
          `SELECT seq, model, response, input_tokens, output_tokens, latency_ms, error IS NOT NULL AS failed
           FROM ${h.table('model_exchanges')} ORDER BY seq`,
        );
        expect(rows).toEqual([
          expect.objectContaining({ seq: 0, failed: false, input_tokens: 120 }),
          {
            seq: 1,
            model: null,
            response: null,
            input_tokens: null,
            output_tokens: null,
            latency_ms: 30_001,
            failed: true,
          },
          expect.objectContaining({ seq: 2, failed: false, latency_ms: 95 }),
        ]);
      });

      it('redacts the secret values in a failed call’s error message and request unless read withSecrets', async () => {
        const event = decision('c1', [refused]);
        await store.append([event]);
        const id = event.envelope.event_id;
        for (const read of [
          at(await store.readTask('task-x', { withExchanges: true }), 0),
          (await store.findByEventIds([id], { withExchanges: true })).get(id),
        ]) {
          const [x] = read?.exchanges ?? [];
          expect(JSON.stringify(x)).not.toContain(phone);
          expect(x?.error).toEqual({
            ...refused.error,
            message: `400 content refused: "call me on ${SECRET_REDACTED}"`,
          });
          expect(x?.request).toEqual({
            messages: [{ role: 'user', content: `call me on ${SECRET_REDACTED}` }],
          });
          expect(x?.response).toBeNull();
        }
        const exact = (await store.findByEventIds([id], { withSecrets: true, withExchanges: true })).get(id);
        expect(exact?.exchanges?.[0]?.error?.message).toBe(`400 content refused: "call me on ${phone}"`);
      });

      it('refuses a failed exchange that also has an answer, or whose error is malformed', async () => {
        const cases: [unknown, RegExp][] = [
          [{ ...refused, response: asked.response }, /exchange 0: a failed exchange has no response/],
          [{ ...refused, model: 'gpt-4o-mini' }, /exchange 0: a failed exchange has no model/],
          [{ ...refused, input_tokens: 3 }, /exchange 0: a failed exchange has no input_tokens/],
          [{ ...refused, error: 'boom' }, /exchange 0: error must be an object/],
          [
            { ...refused, error: { ...refused.error, name: '' } },
            /exchange 0: error.name must be a non-empty string/,
          ],
          [
            { ...refused, error: { ...refused.error, message: 7 } },
            /exchange 0: error.message must be a string/,
          ],
          [
            { ...refused, error: { ...refused.error, timeout: 'no' } },
            /exchange 0: error.timeout must be a boolean/,
          ],
          [{ ...refused, error: { ...refused.error, status: 10n } }, /exchange 0: error is not JSON/],
        ];
        for (const [bad, message] of cases) {
          const event = { ...decision('c2', []), exchanges: [bad] as unknown as ModelExchange[] };
          const error: unknown = await store.append([event]).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(InvalidEventError);
          expect((error as Error).message).toMatch(message);
          expect((error as Error).message).not.toContain(phone);
        }
        expect(await countRows('model_exchanges')).toBe(0);
        // The table holds each row to one or the other, whoever writes it.
        await expect(
          h.sql(
            `INSERT INTO ${h.table('model_exchanges')} (event_id, seq, profile_id, model, request_hash, request,
               response, input_tokens, output_tokens, latency_ms, error)
             VALUES ('e1', 0, 'p', 'm', '${'a'.repeat(64)}', '{}', '{}', 1, 1, 1, '{"name":"Error"}')`,
          ),
        ).rejects.toThrow(/model_exchanges_answered_or_failed/);
      });

      it('refuses UPDATE, DELETE and TRUNCATE of model exchanges', async () => {
        await store.append([decision('c1', [asked, fixed])]);
        const table = h.table('model_exchanges');
        await expect(h.sql(`UPDATE ${table} SET response = '{}'`)).rejects.toThrow(
          /append-only: UPDATE on .*model_exchanges/,
        );
        await expect(h.sql(`DELETE FROM ${table}`)).rejects.toThrow(
          /append-only: DELETE on .*model_exchanges/,
        );
        await expect(h.sql(`TRUNCATE ${table}`)).rejects.toThrow(
          /append-only: TRUNCATE on .*model_exchanges/,
        );
        expect(await countRows('model_exchanges')).toBe(2);
      });
    });

    describe('claim check (EL-3)', () => {
      const large = { report: 'z'.repeat(5000), rows: [1, 2, 3] };

      it('stores a large payload once by sha256 and reads it back whole', async () => {
        const event = makeEvent({ task_id: 'task-cc', causation_id: 'c1' }, large);
        const small = makeEvent({ task_id: 'task-cc', causation_id: 'c2' }, { small: true });
        const appended = at(await store.append([event, small]), 0);
        expect(appended.event.payload).toEqual(large);

        const json = JSON.stringify(large);
        const sha = createHash('sha256').update(json).digest('hex');
        const raw = await h.sql(`SELECT payload FROM ${h.table('events')} ORDER BY stream_version`);
        expect(raw.map((r) => r.payload)).toEqual([
          { $ref: `sha256:${sha}`, size: Buffer.byteLength(json) },
          { small: true },
        ]);
        const blobs = await h.sql(`SELECT sha256, size FROM ${h.table('payload_blobs')}`);
        expect(blobs).toEqual([{ sha256: sha, size: Buffer.byteLength(json) }]);

        expect((await store.readTask('task-cc')).map((e) => e.payload)).toEqual([large, { small: true }]);
        expect(
          (await store.findByEventIds([event.envelope.event_id])).get(event.envelope.event_id)?.payload,
        ).toEqual(large);
        const [again] = await store.append([event]);
        expect(again).toMatchObject({ inserted: false, event: { payload: large } });
      });

      it('keeps payloads at the threshold inline', async () => {
        // {"s":"…"} is 8 bytes of JSON around the string: exactly 1024 bytes in all.
        const atThreshold = { s: 'q'.repeat(1024 - 8) };
        expect(Buffer.byteLength(JSON.stringify(atThreshold))).toBe(1024);
        await store.append([makeEvent({ task_id: 'task-th', causation_id: 'c1' }, atThreshold)]);
        expect(await countRows('payload_blobs')).toBe(0);
        expect(at(await store.readTask('task-th'), 0).payload).toEqual(atThreshold);
      });

      it('stores equal large payloads once, within a batch and across batches', async () => {
        await store.append([
          makeEvent({ task_id: 'task-dd', causation_id: 'c1' }, large),
          makeEvent({ task_id: 'task-dd', causation_id: 'c2' }, large),
        ]);
        await store.append([makeEvent({ task_id: 'task-ee', causation_id: 'c1' }, large)]);

        expect(await countRows('payload_blobs')).toBe(1);
        expect(await countRows('events')).toBe(3);
        const all = [...(await store.readTask('task-dd')), ...(await store.readTask('task-ee'))];
        expect(all.map((e) => e.payload)).toEqual([large, large, large]);
      });
    });

    describe('findTasks (EL-5)', () => {
      let before: Date;
      let between: Date;

      beforeEach(async () => {
        before = new Date(Date.now() - 1000);
        await store.append([
          makeEvent({ task_id: 'old', causation_id: null, tenant_id: 'tenant-a', agent_id: 'agent-a' }),
          makeEvent({
            task_id: 'old',
            causation_id: 'c1',
            stage: 'executor',
            event_type: 'step.executed',
            revision_count: 1,
          }),
          makeEvent({
            task_id: 'other-tenant',
            causation_id: null,
            tenant_id: 'tenant-b',
            agent_id: 'agent-b',
          }),
        ]);
        // recorded_at is the commit-time clock of the database; leave a gap so a time range can split the tasks.
        await new Promise((resolve) => setTimeout(resolve, 50));
        between = new Date();
        await new Promise((resolve) => setTimeout(resolve, 50));
        await store.append([
          makeEvent({ task_id: 'degraded', causation_id: null }),
          makeEvent({
            task_id: 'degraded',
            causation_id: 'c1',
            stage: 'model_selector',
            event_type: 'task.model_selected',
            degraded_flag: true,
            revision_count: 3,
          }),
          makeEvent({ task_id: 'newest', causation_id: null, agent_id: 'agent-b' }),
        ]);
      });

      it('lists every task newest first without filters', async () => {
        expect(await store.findTasks({})).toEqual(['newest', 'degraded', 'other-tenant', 'old']);
      });

      it('filters by tenant and by agent', async () => {
        expect(await store.findTasks({ tenant_id: 'tenant-a' })).toEqual(['newest', 'degraded', 'old']);
        expect(await store.findTasks({ tenant_id: 'tenant-b' })).toEqual(['other-tenant']);
        expect(await store.findTasks({ agent_id: 'agent-b' })).toEqual(['newest', 'other-tenant']);
        expect(await store.findTasks({ tenant_id: 'tenant-a', agent_id: 'agent-b' })).toEqual(['newest']);
      });

      it('filters by degraded, both ways', async () => {
        expect(await store.findTasks({ degraded: true })).toEqual(['degraded']);
        expect(await store.findTasks({ degraded: false })).toEqual(['newest', 'other-tenant', 'old']);
      });

      it('filters by revision_count above N', async () => {
        expect(await store.findTasks({ revision_count_above: 0 })).toEqual(['degraded', 'old']);
        expect(await store.findTasks({ revision_count_above: 1 })).toEqual(['degraded']);
        expect(await store.findTasks({ revision_count_above: 3 })).toEqual([]);
      });

      it('filters by stage and event type on the same event', async () => {
        expect(await store.findTasks({ stage: 'executor' })).toEqual(['old']);
        expect(await store.findTasks({ event_type: 'task.model_selected' })).toEqual(['degraded']);
        expect(await store.findTasks({ stage: 'executor', event_type: 'task.model_selected' })).toEqual([]);
      });

      it('filters by time range (from inclusive, to exclusive) and limits', async () => {
        expect(await store.findTasks({ from: between })).toEqual(['newest', 'degraded']);
        expect(await store.findTasks({ from: before, to: between })).toEqual(['other-tenant', 'old']);
        expect(await store.findTasks({ to: before })).toEqual([]);
        expect(await store.findTasks({ limit: 2 })).toEqual(['newest', 'degraded']);
        await expect(store.findTasks({ limit: 0 })).rejects.toThrow(RangeError);
      });
    });

    describe('findTasks status, tool and cursor; findTraces (EL-5)', () => {
      const finished = (task_id: string, causation_id: string, status: string, tools: string[] = []) =>
        makeEvent(
          { task_id, causation_id, stage: 'result_evaluator', event_type: 'task_finished' },
          { status, steps: tools.map((tool) => ({ call: { tool }, result: { tool } })), questions: [] },
          'signalbox.task.finished.v1',
        );
      const submitted = (task_id: string, causation_id: string | null) =>
        makeEvent({ task_id, causation_id, stage: 'api', event_type: 'task_submitted' }, { task: {} });
      const step = (task_id: string, causation_id: string, event_type: string, tool: string, filler = '') =>
        makeEvent(
          { task_id, causation_id, stage: 'executor', event_type },
          { call: { tool, arguments: { filler } }, plan: { steps: [{ tool: 'planned_only' }] } },
        );

      beforeEach(async () => {
        await store.append([
          submitted('done', null),
          step('done', 'c1', 'step_prepared', 'order_status_query'),
          step('done', 'c2', 'step_executed', 'order_status_query'),
          finished('done', 'c3', 'success', ['order_status_query', 'refund_create']),
          submitted('asked', null),
          finished('asked', 'c1', 'need_clarification'),
          submitted('answered', null),
          finished('answered', 'c1', 'need_clarification'),
          submitted('answered', 'answer-1'),
          submitted('retried', null),
          finished('retried', 'c1', 'failed'),
          finished('retried', 'c2', 'success'),
          submitted('running', null),
          // Above the 1 KiB claim-check threshold: the row holds a reference, the derived column still knows the tool.
          step('running', 'c1', 'step_prepared', 'visit_page', 'x'.repeat(4096)),
        ]);
      });

      it("filters by the current round's finished status", async () => {
        expect(await store.findTasks({ status: 'success' })).toEqual(['retried', 'done']);
        // 'answered' was continued by a new submission, so it is running again and has no status.
        expect(await store.findTasks({ status: 'need_clarification' })).toEqual(['asked']);
        expect(await store.findTasks({ status: 'failed' })).toEqual([]);
        expect(await store.findTasks({ status: 'success', tenant_id: 'tenant-b' })).toEqual([]);
      });

      it('filters by a tool a step used, including claim-checked payloads, not by planned-only tools', async () => {
        expect(await store.findTasks({ tool: 'order_status_query' })).toEqual(['done']);
        expect(await store.findTasks({ tool: 'refund_create' })).toEqual(['done']);
        expect(await store.findTasks({ tool: 'visit_page' })).toEqual(['running']);
        expect(await store.findTasks({ tool: 'planned_only' })).toEqual([]);
        await expect(store.findTasks({ tool: '' })).rejects.toThrow(RangeError);
      });

      it('matches rows appended before migration 0002 through their payload', async () => {
        const legacy = finished('legacy', 'c1', 'partial_success', ['scholar_search']);
        const e = legacy.envelope;
        // A row as 0001 wrote it: no derived columns.
        await h.sql(
          `INSERT INTO ${h.table('events')} (event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
             decision_reason, revision_count, degraded_flag, input_source, occurred_at, schema_version, payload)
           VALUES ($1, $2, 1, $3, $4, $5, $6, 'legacy', 0, false, 'pipeline', now(), 1, $7::jsonb)`,
          [
            e.event_id,
            e.task_id,
            e.tenant_id,
            e.agent_id,
            e.stage,
            e.event_type,
            JSON.stringify(legacy.payload),
          ],
        );
        expect(await store.findTasks({ status: 'partial_success' })).toEqual(['legacy']);
        expect(await store.findTasks({ tool: 'scholar_search' })).toEqual(['legacy']);
        const [summary] = await store.findTraces({ tool: 'scholar_search' });
        expect(summary?.status).toBe('partial_success');
      });

      it('summarises each task over all its events and pages with before_position', async () => {
        const all = await store.findTraces({ tenant_id: 'tenant-a' });
        expect(all.map((t) => t.task_id)).toEqual(['running', 'retried', 'answered', 'asked', 'done']);
        const done = all.find((t) => t.task_id === 'done');
        expect(done).toMatchObject({
          tenant_id: 'tenant-a',
          agent_id: 'agent-a',
          event_count: 4,
          last_stage: 'result_evaluator',
          last_event_type: 'task_finished',
          status: 'success',
          degraded: false,
          max_revision_count: 0,
        });
        expect(all.map((t) => t.status)).toEqual([null, 'success', null, 'need_clarification', 'success']);
        expect(typeof done?.position).toBe('bigint');

        const page1 = await store.findTraces({ limit: 2 });
        expect(page1.map((t) => t.task_id)).toEqual(['running', 'retried']);
        const page2 = await store.findTraces({ limit: 2, before_position: page1[1]?.position ?? 0n });
        expect(page2.map((t) => t.task_id)).toEqual(['answered', 'asked']);
        const page3 = await store.findTraces({ limit: 2, before_position: page2[1]?.position ?? 0n });
        expect(page3.map((t) => t.task_id)).toEqual(['done']);
        expect(await store.findTasks({ before_position: page2[1]?.position ?? 0n })).toEqual(['done']);
      });
    });

    describe('migrate', () => {
      it('is safe to run twice and from several stores at once', async () => {
        const fresh = await setup({});
        try {
          const stores = [fresh.store, fresh.another(), fresh.another()];
          await Promise.all(stores.map((s) => s.migrate()));
          await Promise.all(stores.map((s) => s.migrate()));
          await fresh.store.migrate();

          const applied = await fresh.sql(
            `SELECT id FROM ${fresh.table('event_log_migrations')} ORDER BY id`,
          );
          expect(applied).toEqual([
            { id: '0001-events' },
            { id: '0002-trace-columns' },
            { id: '0003-event-secrets' },
            { id: '0004-monthly-partitions' },
            { id: '0005-model-exchanges' },
            { id: '0006-failed-model-exchanges' },
            { id: '0007-work-time' },
          ]);
          const result = at(
            await at(stores, 2).append([makeEvent({ task_id: 'task-m', causation_id: null })]),
            0,
          );
          expect(result.inserted).toBe(true);
        } finally {
          await fresh.cleanup();
        }
      });
    });

    describe('lifecycle', () => {
      it('answers ping and refuses work after close', async () => {
        await store.ping();
        const other = h.another();
        await other.close();
        await other.close();
        await expect(other.ping()).rejects.toBeInstanceOf(EventStoreClosedError);
        await expect(other.append([makeEvent({ task_id: 't', causation_id: null })])).rejects.toBeInstanceOf(
          EventStoreClosedError,
        );
        await store.ping();
      });
    });
  });
}
