import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from './event-store-contract.js';
import type { EventStore, ModelExchange, NewEvent } from './event-store.js';
import { MIGRATIONS } from './migrations/index.js';
import { resolveNames } from './internal/names.js';
import { SECRET_REDACTED, secretsAt } from './secrets.js';
import type { EventLogRetention } from './retention.js';

// EL-4, shared by the pg and PGlite adapters: monthly partitions, archive and prune. Every test gets a fresh schema.

/** What a retention test needs. */
export interface RetentionHarness {
  /** The schema of the log (not yet migrated). */
  schema: string;
  store: EventStore;
  retention: EventLogRetention;
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Runs several `;`-separated statements without parameters. */
  exec(text: string): Promise<void>;
  /**
   * Per-table cumulative `n_tup_ins/upd/del` of the schema (pg_stat_user_tables), once the statistics show at least
   * `minInserted` inserts in all; undefined where the adapter keeps no statistics.
   */
  tupleStats?(minInserted: number): Promise<{ relname: string; ins: number; upd: number; del: number }[]>;
  cleanup(): Promise<void>;
}

/** The first instant of the UTC month `offset` months from now. */
function monthStart(offset: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}
const suffix = (d: Date) => `${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/** Defines the retention tests for one adapter. */
export function defineRetentionContract(adapter: string, setup: () => Promise<RetentionHarness>): void {
  describe(`EventLogRetention: ${adapter}`, () => {
    let h: RetentionHarness;
    let dir: string;
    const t = (name: string) => `"${h.schema}".${name}`;
    const count = async (table: string) =>
      Number((await h.sql(`SELECT count(*)::integer AS n FROM ${t(table)}`))[0]?.n);

    beforeEach(async () => {
      h = await setup();
      dir = await mkdtemp(join(tmpdir(), 'signalbox-archive-'));
    });
    afterEach(async () => {
      await h.cleanup();
      await rm(dir, { recursive: true, force: true });
    });

    /**
     * Stores `events` as if appended at `recordedAt` (an append always records now()): the month's partitions are
     * made the way append makes them, and events, keys and secrets are written as the append statement writes them.
     */
    async function appendAt(recordedAt: Date, events: NewEvent[]): Promise<void> {
      await h.sql(`SELECT ${t('event_log_ensure_partitions')}($1::timestamptz)`, [recordedAt.toISOString()]);
      for (const [index, event] of events.entries()) {
        const e = event.envelope;
        await h.sql(
          `WITH ins AS (
             INSERT INTO ${t('events')} (event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
               topic, decision_reason, revision_count, degraded_flag, input_source, causation_id, occurred_at,
               schema_version, payload, recorded_at, tools)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'seeded', 0, false, 'pipeline', $9, $10, 1, $11::jsonb, $12, '{}')
             RETURNING event_id, task_id, stream_version, global_position, recorded_at)
           INSERT INTO ${t('event_keys')} SELECT event_id, task_id, stream_version, global_position, recorded_at FROM ins`,
          [
            e.event_id,
            e.task_id,
            index + 1,
            e.tenant_id,
            e.agent_id,
            e.stage,
            e.event_type,
            event.topic,
            e.causation_id,
            e.occurred_at,
            JSON.stringify(event.payload),
            recordedAt.toISOString(),
          ],
        );
        for (const secret of event.secrets ?? []) {
          await h.sql(
            `INSERT INTO ${t('event_secrets')} (event_id, path, value, recorded_at) VALUES ($1, $2, $3::jsonb, $4)`,
            [e.event_id, secret.path, JSON.stringify(secret.value), recordedAt.toISOString()],
          );
        }
        for (const [seq, x] of (event.exchanges ?? []).entries()) {
          await h.sql(
            `INSERT INTO ${t('model_exchanges')} (event_id, seq, profile_id, model, request_hash, request, response,
               input_tokens, output_tokens, latency_ms, recorded_at, error)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
            [
              e.event_id,
              seq,
              x.profile_id,
              x.model,
              x.request_hash,
              JSON.stringify(x.request),
              x.error === undefined ? JSON.stringify(x.response) : null,
              x.input_tokens,
              x.output_tokens,
              x.latency_ms,
              recordedAt.toISOString(),
              x.error === undefined ? null : JSON.stringify(x.error),
            ],
          );
        }
      }
    }

    /** A model exchange whose prompt quotes `text`, as a stage records it. */
    const exchange = (text: string): ModelExchange => {
      const request = { messages: [{ role: 'user', content: `call me on ${text}` }] };
      return {
        profile_id: 'light_model',
        model: 'gpt-4o-mini',
        request_hash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
        request,
        response: { content: `noted: ${text}`, toolCalls: [], usage: { inputTokens: 9, outputTokens: 3 } },
        input_tokens: 9,
        output_tokens: 3,
        latency_ms: 40,
      };
    };

    /** A model call whose prompt quotes `text` and that failed, the endpoint's error quoting the prompt. */
    const failedExchange = (text: string): ModelExchange => {
      const request = { messages: [{ role: 'user', content: `call me on ${text}` }] };
      return {
        profile_id: 'light_model',
        model: null,
        request_hash: createHash('sha256').update(JSON.stringify(request)).digest('hex'),
        request,
        response: null,
        input_tokens: null,
        output_tokens: null,
        latency_ms: 30_000,
        error: {
          name: 'ProviderRequestError',
          message: `400 content refused: "call me on ${text}"`,
          timeout: false,
          retriable: false,
          status: 400,
        },
      };
    };

    const old = monthStart(-3);
    const older = monthStart(-4);
    const mid = (d: Date) => new Date(d.getTime() + 10 * 86_400_000);
    const oldEvents = (task: string, n: number) =>
      Array.from({ length: n }, (_, i) => makeEvent({ task_id: task, causation_id: `c${i}` }, { i }));

    it('migrates to monthly partitions and lands each append in the partition of its month', async () => {
      await h.store.migrate();
      const names = (await h.retention.partitions()).map((p) => p.partition);
      expect(names).toEqual([0, 1, 2].map((m) => `events_${suffix(monthStart(m))}`));

      await h.store.append([
        makeEvent({ task_id: 'p', causation_id: null }),
        makeEvent({ task_id: 'p', causation_id: 'c' }),
      ]);
      const rows = await h.sql(
        `SELECT tableoid::regclass::text AS part, to_char(recorded_at AT TIME ZONE 'UTC', 'YYYY_MM') AS month
         FROM ${t('events')}`,
      );
      expect(rows).toHaveLength(2);
      for (const row of rows) expect(String(row.part)).toMatch(new RegExp(`events_${String(row.month)}$`));
      expect(await count('event_keys')).toBe(2);
    });

    it('creates the partition of the current month when append finds none', async () => {
      await h.store.migrate();
      const current = suffix(monthStart(0));
      await h.sql(`DROP TABLE ${t(`events_${current}`)}, ${t(`event_secrets_${current}`)}`);
      const payload = { call: { arguments: { phone: '+1 555 0100' } } };
      const event = {
        ...makeEvent({ task_id: 'np', causation_id: null }, payload),
        secrets: secretsAt(payload, ['call.arguments.phone']),
      };
      const [result] = await h.store.append([event], { withSecrets: true });
      expect(result).toMatchObject({ inserted: true, event: { payload, stream_version: 1 } });
      expect((await h.retention.partitions()).map((p) => p.partition)).toContain(`events_${current}`);
      expect(await count(`event_secrets_${current}`)).toBe(1);
    });

    it('refuses UPDATE, DELETE and TRUNCATE on a partition, on event_keys, on a secrets and an exchanges partition', async () => {
      await h.store.migrate();
      const payload = { call: { arguments: { phone: '+1 555 0100' } } };
      await h.store.append([
        {
          ...makeEvent({ task_id: 'ro', causation_id: null }, payload),
          secrets: secretsAt(payload, ['call.arguments.phone']),
          exchanges: [exchange('+1 555 0100')],
        },
      ]);
      const part = `events_${suffix(monthStart(0))}`;
      const secrets = `event_secrets_${suffix(monthStart(0))}`;
      const exchanges = `model_exchanges_${suffix(monthStart(0))}`;
      for (const table of [part, 'event_keys', secrets, exchanges]) {
        const column = table === 'event_keys' ? 'task_id' : 'event_id';
        await expect(h.sql(`UPDATE ${t(table)} SET ${column} = 'x'`)).rejects.toThrow(
          /append-only: UPDATE on/,
        );
        await expect(h.sql(`DELETE FROM ${t(table)}`)).rejects.toThrow(/append-only: DELETE on/);
        await expect(h.sql(`TRUNCATE ${t(table)}`)).rejects.toThrow(/append-only: TRUNCATE on/);
        expect(await count(table)).toBe(1);
      }
      await expect(h.sql(`DELETE FROM ${t(part)}`)).rejects.toThrow(
        new RegExp(`DELETE on partition ${h.schema}\\.${part} of ${h.schema}\\.events is refused`),
      );
    });

    it('moves the rows of an unpartitioned log into the partitions of their months, keeping positions and keys', async () => {
      const names = resolveNames(h.schema);
      await h.sql(`CREATE SCHEMA IF NOT EXISTS "${h.schema}"`);
      await h.sql(
        `CREATE TABLE ${t('event_log_migrations')} (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const migration of MIGRATIONS.slice(0, 3)) {
        await h.exec(migration.sql(names));
        await h.sql(`INSERT INTO ${t('event_log_migrations')} (id) VALUES ($1)`, [migration.id]);
      }
      // Rows as 0001–0003 stored them: one of them months ago.
      const legacy = oldEvents('legacy', 2);
      for (const [i, event] of legacy.entries()) {
        const e = event.envelope;
        await h.sql(
          `INSERT INTO ${t('events')} (event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
             decision_reason, revision_count, degraded_flag, input_source, occurred_at, schema_version, payload,
             recorded_at, tools)
           VALUES ($1, $2, $3, 'tenant-a', 'agent-a', $4, $5, 'legacy', 0, false, 'pipeline', $6, 1, $7::jsonb, $8, '{}')`,
          [
            e.event_id,
            e.task_id,
            i + 1,
            e.stage,
            e.event_type,
            e.occurred_at,
            JSON.stringify(event.payload),
            (i === 0 ? mid(old) : new Date()).toISOString(),
          ],
        );
      }
      await h.sql(`INSERT INTO ${t('event_secrets')} (event_id, path, value) VALUES ($1, 'i', '0')`, [
        legacy[1]?.envelope.event_id,
      ]);
      const before = await h.sql(
        `SELECT event_id, global_position::text AS pos FROM ${t('events')} ORDER BY 2`,
      );

      await h.store.migrate();

      const after = await h.sql(
        `SELECT event_id, global_position::text AS pos, tableoid::regclass::text AS part FROM ${t('events')} ORDER BY 2`,
      );
      expect(after.map(({ event_id, pos }) => ({ event_id, pos }))).toEqual(before);
      expect(String(after[0]?.part)).toMatch(new RegExp(`events_${suffix(old)}$`));
      expect(String(after[1]?.part)).toMatch(new RegExp(`events_${suffix(monthStart(0))}$`));
      expect(await count('event_keys')).toBe(2);
      expect(await count('event_secrets')).toBe(1);
      // 0005 gives every month the log has, old ones included, its model_exchanges partition.
      const exchangeParts = await h.sql(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = '${t('model_exchanges')}'::regclass ORDER BY 1`,
      );
      expect(exchangeParts.map((r) => r.name)).toEqual(
        [old, monthStart(0), monthStart(1), monthStart(2)].map((m) => `model_exchanges_${suffix(m)}`),
      );
      const [again, next] = await h.store.append([
        at(legacy, 0),
        makeEvent({ task_id: 'legacy', causation_id: 'c9' }),
      ]);
      expect(again).toMatchObject({
        inserted: false,
        event: { stream_version: 1, envelope: { decision_reason: 'legacy' } },
      });
      expect(next).toMatchObject({ inserted: true, event: { stream_version: 3 } });
      expect(next && next.event.global_position > BigInt(String(before[1]?.pos))).toBe(true);
    });

    describe('archive and prune', () => {
      beforeEach(async () => {
        await h.store.migrate();
        await appendAt(mid(older), oldEvents('older', 3));
        const withSecret = oldEvents('old', 4).map((e, i) =>
          // Stored as append stores it: the payload redacted, the value in event_secrets; the model exchanges it
          // used (the prompt quoted the value) in model_exchanges.
          i === 0
            ? {
                ...e,
                payload: { phone: SECRET_REDACTED },
                secrets: secretsAt({ phone: '+1 555 0100' }, ['phone']),
                exchanges: [exchange('+1 555 0100'), exchange('the same number')],
              }
            : e,
        );
        await appendAt(mid(old), withSecret);
        await h.store.append([makeEvent({ task_id: 'current', causation_id: null })]);
      });

      it('writes one JSON-lines file per old partition whose row counts and sha256 match the manifest', async () => {
        const manifest = await h.retention.archive(monthStart(0), dir);
        expect(
          manifest.partitions.map((p) => [p.partition, p.rows, p.secret_rows, p.secrets, p.exchange_rows]),
        ).toEqual([
          [`events_${suffix(older)}`, 3, 0, 'excluded', 0],
          [`events_${suffix(old)}`, 4, 1, 'excluded', 2],
        ]);
        for (const p of manifest.partitions) {
          const text = await readFile(join(dir, p.file), 'utf8');
          const lines = text
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>);
          expect(lines).toHaveLength(await count(p.partition));
          expect(p.sha256).toBe(createHash('sha256').update(text).digest('hex'));
          expect(lines[0]).toMatchObject({ stream_version: 1, decision_reason: 'seeded' });
          expect(text).not.toContain('+1 555 0100');
          for (const line of lines) expect(Array.isArray(line.exchanges)).toBe(true);
        }
        // The model exchanges are archived with their events, the secret values redacted where they occur.
        const oldLines = (await readFile(join(dir, `events_${suffix(old)}.jsonl`), 'utf8'))
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { exchanges: (ModelExchange & { seq: number })[] });
        expect(oldLines[0]?.exchanges.map((x) => [x.seq, x.request, x.response])).toEqual([
          [
            0,
            { messages: [{ role: 'user', content: `call me on ${SECRET_REDACTED}` }] },
            {
              content: `noted: ${SECRET_REDACTED}`,
              toolCalls: [],
              usage: { inputTokens: 9, outputTokens: 3 },
            },
          ],
          [1, exchange('the same number').request, exchange('the same number').response],
        ]);
        expect(oldLines[0]?.exchanges[0]).toMatchObject({
          profile_id: 'light_model',
          model: 'gpt-4o-mini',
          request_hash: exchange('+1 555 0100').request_hash,
          input_tokens: 9,
          output_tokens: 3,
          latency_ms: 40,
        });
        expect(oldLines.slice(1).map((l) => l.exchanges)).toEqual([[], [], []]);
        const onDisk = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
        expect(onDisk.partitions).toEqual(manifest.partitions);

        const withSecrets = await h.retention.archive(monthStart(0), join(dir, 's'), {
          includeSecrets: true,
        });
        expect(withSecrets.partitions[1]?.secrets).toBe('included');
        const included = await readFile(join(dir, 's', `events_${suffix(old)}.jsonl`), 'utf8');
        expect(included).toContain('+1 555 0100');
        const [first] = included
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { exchanges: ModelExchange[] });
        expect(first?.exchanges[0]?.request).toEqual(exchange('+1 555 0100').request);
      });

      it('archives a failed model call with its error, the secret values redacted in its message', async () => {
        const [late] = oldEvents('old-failed', 1);
        if (!late) throw new Error('no event');
        await appendAt(mid(old), [
          {
            ...late,
            payload: { phone: SECRET_REDACTED },
            secrets: secretsAt({ phone: '+1 555 0199' }, ['phone']),
            exchanges: [failedExchange('+1 555 0199'), exchange('the same number')],
          },
        ]);
        const manifest = await h.retention.archive(monthStart(0), dir);
        expect(manifest.partitions.map((p) => p.exchange_rows)).toEqual([0, 4]);
        type Line = { task_id: string; exchanges: (ModelExchange & { seq: number })[] };
        const lineOf = async (file: string) =>
          (await readFile(file, 'utf8'))
            .trimEnd()
            .split('\n')
            .map((l) => JSON.parse(l) as Line)
            .find((l) => l.task_id === 'old-failed');
        const line = await lineOf(join(dir, `events_${suffix(old)}.jsonl`));
        expect(line?.exchanges).toEqual([
          {
            seq: 0,
            profile_id: 'light_model',
            model: null,
            request_hash: failedExchange('+1 555 0199').request_hash,
            request: { messages: [{ role: 'user', content: `call me on ${SECRET_REDACTED}` }] },
            response: null,
            input_tokens: null,
            output_tokens: null,
            latency_ms: 30_000,
            error: {
              name: 'ProviderRequestError',
              message: `400 content refused: "call me on ${SECRET_REDACTED}"`,
              timeout: false,
              retriable: false,
              status: 400,
            },
          },
          { seq: 1, ...exchange('the same number'), error: null },
        ]);
        // With the secrets in the archive, the failure is kept exactly as recorded.
        await h.retention.archive(monthStart(0), join(dir, 's'), { includeSecrets: true });
        const exact = await lineOf(join(dir, 's', `events_${suffix(old)}.jsonl`));
        expect(exact?.exchanges[0]).toEqual({ seq: 0, ...failedExchange('+1 555 0199') });
      });

      it('prunes only archived old partitions, keeps the current ones and the keys, and never edits a row', async () => {
        const currentParts = (await h.retention.partitions()).filter((p) => p.from >= monthStart(0));
        expect(await h.retention.prune(monthStart(0))).toEqual({
          pruned: [],
          refused: [
            { partition: `events_${suffix(older)}`, reason: 'not in the archive manifest' },
            { partition: `events_${suffix(old)}`, reason: 'not in the archive manifest' },
          ],
        });
        // Archive only the older month: the newer old month stays.
        await h.retention.archive(new Date(older.getTime() + 40 * 86_400_000), dir);
        const statsBefore = await h.tupleStats?.(17);

        const result = await h.retention.prune(monthStart(0), { archived: dir });

        expect(result.pruned).toEqual([
          { partition: `events_${suffix(older)}`, rows: 3, secret_rows: 0, exchange_rows: 0 },
        ]);
        expect(result.refused).toEqual([
          { partition: `events_${suffix(old)}`, reason: 'not in the archive manifest' },
        ]);
        const left = (await h.retention.partitions()).map((p) => p.partition);
        expect(left).toEqual([`events_${suffix(old)}`, ...currentParts.map((p) => p.partition)]);
        // The month's secrets and model exchanges went with it; the other months keep theirs.
        for (const table of ['event_secrets', 'model_exchanges']) {
          const parts = await h.sql(
            `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = '${t(table)}'::regclass ORDER BY 1`,
          );
          expect(parts.map((r) => r.name)).toEqual(left.map((p) => p.replace(/^events_/, `${table}_`)));
        }
        expect(await count('model_exchanges')).toBe(2);
        expect(await count('events')).toBe(5);
        expect(await count('event_keys')).toBe(8);

        // A redelivery of a pruned decision is still recognised (EL-2), and numbering goes on after it.
        const redelivered = makeEvent({ task_id: 'older', causation_id: 'c1' }, { i: 'again' });
        const [again, next] = await h.store.append([
          redelivered,
          makeEvent({ task_id: 'older', causation_id: 'c7' }),
        ]);
        expect(again).toMatchObject({ inserted: false, pruned: true, event: { stream_version: 2 } });
        expect(next).toMatchObject({ inserted: true, event: { stream_version: 4 } });
        expect(await h.store.readTask('older')).toHaveLength(1);

        if (statsBefore) {
          expect(statsBefore.some((s) => s.relname === `events_${suffix(older)}` && s.ins === 3)).toBe(true);
          const statsAfter = (await h.tupleStats?.(17 - 3 + 2)) ?? [];
          for (const s of [...statsBefore, ...statsAfter])
            expect([s.relname, s.upd, s.del]).toEqual([s.relname, 0, 0]);
        }
      }, 30_000);

      it('refuses partitions whose archive file or row count no longer matches, unless forced', async () => {
        const manifest = await h.retention.archive(monthStart(0), dir);
        await writeFile(join(dir, at(manifest.partitions, 0).file), '{}\n');
        await appendAt(mid(old), [
          { ...makeEvent({ task_id: 'late', causation_id: null }), exchanges: [exchange('late')] },
        ]);

        const result = await h.retention.prune(monthStart(0), { archived: dir });
        expect(result.pruned).toEqual([]);
        expect(result.refused.map((r) => r.reason)).toEqual([
          `events_${suffix(older)}.jsonl fails its sha256`,
          'the archive holds 4 rows, 1 secrets and 2 model exchanges, the partition 5, 1 and 3',
        ]);
        // A manifest that does not know the month's exchanges (written before they were stored) vouches for none.
        const legacy = {
          ...manifest,
          partitions: manifest.partitions.map((p) => ({ ...p, rows: 5, exchange_rows: undefined })),
        };
        expect((await h.retention.prune(monthStart(0), { archived: legacy })).refused.at(-1)?.reason).toBe(
          'the archive holds 5 rows, 1 secrets and 0 model exchanges, the partition 5, 1 and 3',
        );

        // A far-future cutoff never reaches the month still being appended to.
        const forced = await h.retention.prune(new Date('2999-01-01T00:00:00Z'), { force: true });
        expect(forced.pruned.map((p) => [p.rows, p.exchange_rows])).toEqual([
          [3, 0],
          [5, 3],
        ]);
        expect(await count('events')).toBe(1);
        expect(await count('event_secrets')).toBe(0);
        expect(await count('model_exchanges')).toBe(0);
      });
    });
  });
}

/** `items[index]`, failing the test when it is missing. */
function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`expected an item at index ${index} of ${items.length}`);
  return item;
}
