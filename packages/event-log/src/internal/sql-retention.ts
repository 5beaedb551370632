import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PARTITION_MONTHS_AHEAD } from '../migrations/0004-monthly-partitions.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_MANIFEST_FILE,
  createDirectorySink,
  parseArchiveManifest,
  readArchiveManifest,
  sha256OfFile,
  type ArchivedPartition,
  type ArchiveManifest,
  type ArchiveSink,
  type EventLogRetention,
  type PartitionInfo,
  type PruneResult,
} from '../retention.js';
import type { EventSecret } from '../secrets.js';
import { redactExchange, toModelExchange, type StoredExchangeRow } from './exchanges.js';
import { classifyError } from './classify-error.js';
import type { Names } from './names.js';
import type { SqlDriver } from './sql-driver.js';

// Rows are read in pages by global_position, so a month of any size is archived in bounded memory.
const ARCHIVE_PAGE_ROWS = 1000;
const PARTITION_NAME = /^events_(\d{4})_(\d{2})$/;

/** What pruning one partition came to. */
type PruneOutcome =
  { refused: string } | { pruned: { rows: number; secret_rows: number; exchange_rows: number } };

/** Retention over any SqlDriver: the one implementation both adapters share. */
export function createSqlRetention(driver: SqlDriver, names: Names): EventLogRetention {
  const table = (name: string) => `${names.prefix}${name}`;

  async function run<T>(doing: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw classifyError(error, doing);
    }
  }

  async function partitions(): Promise<PartitionInfo[]> {
    const rows = await run('listing partitions', () =>
      driver.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = '${names.events}'::regclass ORDER BY c.relname`,
      ),
    );
    return rows.flatMap(({ name }) => {
      const match = PARTITION_NAME.exec(name);
      if (!match) return [];
      const from = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
      const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
      return [{ partition: name, from, to }];
    });
  }

  /** Partitions wholly before `before` and before the current month (by the database clock). */
  async function oldPartitions(before: Date): Promise<PartitionInfo[]> {
    if (Number.isNaN(before.getTime())) throw new RangeError('before is an invalid Date');
    const [row] = await run('reading the clock', () =>
      driver.query<{ month: string }>(
        `SELECT to_char(date_trunc('month', now() AT TIME ZONE 'UTC'), 'YYYY-MM-DD"T"00:00:00"Z"') AS month`,
      ),
    );
    const currentMonth = new Date(row?.month ?? Number.NaN);
    const cutoff = Math.min(before.getTime(), currentMonth.getTime());
    return (await partitions()).filter((p) => p.to.getTime() <= cutoff);
  }

  const secretsPartition = (partition: string) => partition.replace(/^events_/, 'event_secrets_');
  const exchangesPartition = (partition: string) => partition.replace(/^events_/, 'model_exchanges_');

  async function counts(session: Pick<SqlDriver, 'query'>, partition: string) {
    const [row] = await session.query<{ rows: number; secret_rows: number; exchange_rows: number }>(
      `SELECT (SELECT count(*) FROM ${table(partition)})::integer AS rows,
              (SELECT count(*) FROM ${table(secretsPartition(partition))})::integer AS secret_rows,
              (SELECT count(*) FROM ${table(exchangesPartition(partition))})::integer AS exchange_rows`,
    );
    return {
      rows: row?.rows ?? 0,
      secret_rows: row?.secret_rows ?? 0,
      exchange_rows: row?.exchange_rows ?? 0,
    };
  }

  async function archivePartition(
    p: PartitionInfo,
    sink: ArchiveSink,
    includeSecrets: boolean,
  ): Promise<ArchivedPartition> {
    const file = `${p.partition}.jsonl`;
    const secrets = includeSecrets
      ? `|| jsonb_build_object('secrets', coalesce((SELECT jsonb_agg(jsonb_build_object('path', x.path, 'value', x.value) ORDER BY x.path)
           FROM ${table(secretsPartition(p.partition))} x WHERE x.event_id = e.event_id), '[]'::jsonb))`
      : '';
    // The stored row as it is (every column, so later migrations' columns come along), the claim-checked payload
    // resolved so the archive stands alone, global_position as text (a bigint). The model exchanges come as json
    // (their request, response and error as JSON texts) and are put into the line below, redacted unless secrets are in.
    const page = `SELECT e.global_position::text AS position,
  (to_jsonb(e) || jsonb_build_object('global_position', e.global_position::text,
     'payload', CASE WHEN e.payload_ref IS NULL THEN e.payload ELSE b.payload END) ${secrets})::text AS line,
  (SELECT json_agg(json_build_object('seq', x.seq, 'profile_id', x.profile_id, 'model', x.model,
       'request_hash', x.request_hash, 'request', x.request, 'response', x.response, 'input_tokens', x.input_tokens,
       'output_tokens', x.output_tokens, 'latency_ms', x.latency_ms, 'error', x.error) ORDER BY x.seq)
     FROM ${table(exchangesPartition(p.partition))} x WHERE x.event_id = e.event_id)::text AS exchanges,
  ${
    includeSecrets
      ? 'NULL::text'
      : `(SELECT json_agg(json_build_object('path', s.path, 'value', s.value))
     FROM ${table(secretsPartition(p.partition))} s WHERE s.event_id = e.event_id)::text`
  } AS secrets
FROM ${table(p.partition)} e LEFT JOIN ${names.payloadBlobs} b ON b.sha256 = e.payload_ref
WHERE e.global_position > $1::bigint ORDER BY e.global_position LIMIT ${ARCHIVE_PAGE_ROWS}`;
    const writer = await sink.create(file);
    const hash = createHash('sha256');
    let rows = 0;
    let bytes = 0;
    try {
      let after = '0';
      for (;;) {
        const batch = await run(`archiving ${p.partition}`, () =>
          driver.query<{ position: string; line: string; exchanges: string | null; secrets: string | null }>(
            page,
            [after],
          ),
        );
        if (batch.length === 0) break;
        const chunk = batch.map((r) => `${withExchanges(r.line, r.exchanges, r.secrets)}\n`).join('');
        hash.update(chunk, 'utf8');
        bytes += Buffer.byteLength(chunk, 'utf8');
        rows += batch.length;
        await writer.write(chunk);
        after = batch[batch.length - 1]?.position ?? after;
      }
    } finally {
      await writer.close();
    }
    const { secret_rows, exchange_rows } = await run(`counting ${p.partition}`, () =>
      counts(driver, p.partition),
    );
    return {
      partition: p.partition,
      from: p.from.toISOString(),
      to: p.to.toISOString(),
      file,
      rows,
      secret_rows,
      secrets: includeSecrets ? 'included' : 'excluded',
      exchange_rows,
      sha256: hash.digest('hex'),
      bytes,
    };
  }

  return {
    partitions,

    async ensurePartitions(monthsAhead = PARTITION_MONTHS_AHEAD) {
      if (!Number.isSafeInteger(monthsAhead) || monthsAhead < 0) {
        throw new RangeError(`monthsAhead must be a non-negative integer, got ${String(monthsAhead)}`);
      }
      const rows = await run('creating partitions', () =>
        driver.query<{ name: string }>(
          `SELECT ${names.prefix}event_log_ensure_partitions(now(), $1::integer) AS name`,
          [monthsAhead],
        ),
      );
      return rows.map((r) => r.name);
    },

    async archive(before, target, options) {
      const sink = typeof target === 'string' ? createDirectorySink(target) : target;
      const archived: ArchivedPartition[] = [];
      for (const p of await oldPartitions(before)) {
        archived.push(await archivePartition(p, sink, options?.includeSecrets === true));
      }
      // Earlier runs into the same archive stay listed (their partitions may be pruned by now).
      const previous = await sink.read?.(ARCHIVE_MANIFEST_FILE);
      const kept = previous
        ? parseArchiveManifest(previous).partitions.filter(
            (old) => !archived.some((a) => a.partition === old.partition),
          )
        : [];
      const manifest: ArchiveManifest = {
        format: ARCHIVE_FORMAT,
        written_at: new Date().toISOString(),
        partitions: [...kept, ...archived].sort((a, b) => a.partition.localeCompare(b.partition)),
      };
      const writer = await sink.create(ARCHIVE_MANIFEST_FILE);
      try {
        await writer.write(`${JSON.stringify(manifest, null, 2)}\n`);
      } finally {
        await writer.close();
      }
      return { ...manifest, partitions: archived };
    },

    async prune(before, options) {
      const force = options?.force === true;
      const archived = options?.archived;
      let manifest: ArchiveManifest | undefined;
      let missing = 'not in the archive manifest';
      if (typeof archived === 'string') {
        // A directory without a manifest vouches for nothing: every old month is kept, and the result says why.
        manifest = await readArchiveManifest(archived).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          missing = `no ${ARCHIVE_MANIFEST_FILE} in ${archived}`;
          return undefined;
        });
      } else {
        manifest = archived;
      }
      const result: PruneResult = { pruned: [], refused: [] };
      for (const p of await oldPartitions(before)) {
        const entry = manifest?.partitions.find((a) => a.partition === p.partition);
        if (!force) {
          if (!entry) {
            result.refused.push({ partition: p.partition, reason: missing });
            continue;
          }
          if (typeof archived === 'string') {
            const actual = await sha256OfFile(join(archived, entry.file)).catch(() => undefined);
            if (actual !== entry.sha256) {
              result.refused.push({
                partition: p.partition,
                reason: actual === undefined ? `${entry.file} is missing` : `${entry.file} fails its sha256`,
              });
              continue;
            }
          }
        }
        const outcome = await run(`pruning ${p.partition}`, () =>
          driver.transaction(async (tx): Promise<PruneOutcome> => {
            // Counted under the locks DETACH takes anyway, so no row can arrive between the check and the drop.
            await tx.exec(
              `LOCK TABLE ${table(p.partition)}, ${table(secretsPartition(p.partition))}, ${table(exchangesPartition(p.partition))} IN ACCESS EXCLUSIVE MODE`,
            );
            const now = await counts(tx, p.partition);
            // A manifest written before model exchanges were stored lists none.
            const archivedExchanges = entry?.exchange_rows ?? 0;
            if (
              !force &&
              entry &&
              (entry.rows !== now.rows ||
                entry.secret_rows !== now.secret_rows ||
                archivedExchanges !== now.exchange_rows)
            ) {
              return {
                refused: `the archive holds ${entry.rows} rows, ${entry.secret_rows} secrets and ${archivedExchanges} model exchanges, the partition ${now.rows}, ${now.secret_rows} and ${now.exchange_rows}`,
              };
            }
            await tx.exec(`ALTER TABLE ${names.events} DETACH PARTITION ${table(p.partition)};
DROP TABLE ${table(p.partition)};
ALTER TABLE ${names.eventSecrets} DETACH PARTITION ${table(secretsPartition(p.partition))};
DROP TABLE ${table(secretsPartition(p.partition))};
ALTER TABLE ${names.modelExchanges} DETACH PARTITION ${table(exchangesPartition(p.partition))};
DROP TABLE ${table(exchangesPartition(p.partition))};`);
            return { pruned: now };
          }),
        );
        if ('refused' in outcome) result.refused.push({ partition: p.partition, reason: outcome.refused });
        else result.pruned.push({ partition: p.partition, ...outcome.pruned });
      }
      return result;
    },

    async close() {
      await driver.close();
    },
  };
}

/**
 * An archive line (a JSON object's text) with the event's model exchanges added as `exchanges` (always, `[]` when it
 * asked no model), each with its `seq` and as reads return it — a failed call with its `error`, an answered one
 * with `"error": null`; given `secrets` (the event's, when they are not archived), their values are redacted in them.
 */
function withExchanges(line: string, exchanges: string | null, secrets: string | null): string {
  const values = secrets === null ? [] : (JSON.parse(secrets) as EventSecret[]);
  const shown = (JSON.parse(exchanges ?? '[]') as StoredExchangeRow[]).map((row) => {
    const x = redactExchange(toModelExchange(row), values);
    // The columns' order, as archives written before failed calls were recorded have it.
    return {
      seq: row.seq,
      profile_id: x.profile_id,
      model: x.model,
      request_hash: x.request_hash,
      request: x.request,
      response: x.response,
      input_tokens: x.input_tokens,
      output_tokens: x.output_tokens,
      latency_ms: x.latency_ms,
      error: x.error ?? null,
    };
  });
  if (!line.endsWith('}')) throw new TypeError('an archive line is a JSON object');
  return `${line.slice(0, -1)}, "exchanges": ${JSON.stringify(shown)}}`;
}
