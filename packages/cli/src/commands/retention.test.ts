import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPgEventStore } from '@signalbox/event-log';
import { testEndpoints, uniqueName } from '@signalbox/test-support';
import { runCli } from '../cli.js';
import { bufferIo } from '../io.js';

const url = testEndpoints().databaseUrl;

describe('signalbox retention', () => {
  let schema: string;
  let admin: pg.Pool;
  let dir: string;
  const now = new Date();
  const old = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 3, 12));
  const oldPartition = `events_${old.getUTCFullYear()}_${String(old.getUTCMonth() + 1).padStart(2, '0')}`;
  const currentMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))
    .toISOString()
    .slice(0, 10);

  beforeEach(async () => {
    schema = uniqueName('cli_retention').replace(/[^a-z0-9]/g, '_');
    admin = new pg.Pool({ connectionString: url, max: 2 });
    dir = await mkdtemp(join(tmpdir(), 'signalbox-cli-archive-'));
    const store = createPgEventStore({ connectionString: url, schema });
    await store.migrate();
    await store.close();
    // Three events of a task decided months ago, written as append writes them (append itself records now()).
    await admin.query(`SELECT "${schema}".event_log_ensure_partitions($1::timestamptz)`, [old.toISOString()]);
    await admin.query(
      `WITH ins AS (
         INSERT INTO "${schema}".events (event_id, task_id, stream_version, tenant_id, agent_id, stage, event_type,
           decision_reason, revision_count, degraded_flag, input_source, occurred_at, schema_version, payload,
           recorded_at, tools)
         SELECT 'ev_old_' || v, 'old-task', v, 't', 'a', 'api', 'task_submitted', 'seeded', 0, false, 'pipeline',
           $1, 1, jsonb_build_object('v', v), $1, '{}' FROM generate_series(1, 3) v
         RETURNING event_id, task_id, stream_version, global_position, recorded_at)
       INSERT INTO "${schema}".event_keys SELECT * FROM ins`,
      [old.toISOString()],
    );
  });
  afterEach(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const io = bufferIo(dir, { DATABASE_URL: url });
    const code = await runCli(['retention', ...args, '--schema', schema, '--json'], io);
    return { code, json: JSON.parse(io.out.join('')) as Record<string, unknown> };
  };

  it('archives the old month, refuses to prune without the archive, then prunes it and keeps the current month', async () => {
    const archived = await run(['archive', '--before', currentMonth, '--out', 'archive']);
    expect(archived.code).toBe(0);
    expect(archived.json.archived).toEqual([
      expect.objectContaining({ partition: oldPartition, rows: 3, file: `${oldPartition}.jsonl` }),
    ]);
    const lines = (await readFile(join(dir, 'archive', `${oldPartition}.jsonl`), 'utf8'))
      .trimEnd()
      .split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { event_id: string }).event_id)).toEqual([
      'ev_old_1',
      'ev_old_2',
      'ev_old_3',
    ]);

    const unarchived = await run(['prune', '--before', currentMonth, '--archived', 'elsewhere']);
    expect(unarchived.code).toBe(1);
    expect(unarchived.json).toMatchObject({
      pruned: [],
      refused: [
        { partition: oldPartition, reason: expect.stringMatching(/no manifest.json in .*elsewhere$/) },
      ],
    });

    const pruned = await run(['prune', '--before', currentMonth, '--archived', 'archive']);
    expect(pruned).toEqual({
      code: 0,
      json: {
        before: `${currentMonth}T00:00:00.000Z`,
        pruned: [{ partition: oldPartition, rows: 3, secret_rows: 0, exchange_rows: 0 }],
        refused: [],
      },
    });
    const left = await admin.query<{ n: number; keys: number }>(
      `SELECT (SELECT count(*) FROM "${schema}".events)::integer AS n, (SELECT count(*) FROM "${schema}".event_keys)::integer AS keys`,
    );
    expect(left.rows).toEqual([{ n: 0, keys: 3 }]);
    const parts = await admin.query<{ relname: string }>(
      `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"${schema}".events'::regclass`,
    );
    expect(parts.rows.map((r) => r.relname)).not.toContain(oldPartition);
    expect(parts.rows).toHaveLength(3);
  });

  it('needs --archived or --force, and a valid date', async () => {
    expect((await run(['prune', '--before', currentMonth])).code).toBe(2);
    expect((await run(['archive', '--before', 'someday', '--out', 'a'])).code).toBe(2);
  });
});
