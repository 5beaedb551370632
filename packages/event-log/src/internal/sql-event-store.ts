import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Envelope, EvaluationStatus, jsonParser, type Stage } from '@signalbox/contracts';
import { backoffDelay, resolveBackoff } from '@signalbox/retry';
import {
  AppendConflictError,
  EventStoreClosedError,
  EventStoreQueryError,
  EventStoreUnavailableError,
  InvalidEventError,
} from '../errors.js';
import type {
  AnsweredModelExchange,
  AppendResult,
  EventStore,
  FailedModelExchange,
  ModelExchange,
  ModelExchangeError,
  NewEvent,
  StoredEvent,
  TraceFilter,
  TraceSummary,
} from '../event-store.js';
import { inJsonbKeyOrder } from '../republish-identity.js';
import {
  redactSecrets,
  restoreSecrets,
  withEchoedSecrets,
  withFreeTextSecrets,
  type EventSecret,
} from '../secrets.js';
import { createAppendQueue } from './append-queue.js';
import { redactExchange, toModelExchange, type StoredExchangeRow } from './exchanges.js';
import { MIGRATIONS } from '../migrations/index.js';
import { PARTITION_MONTHS_AHEAD } from '../migrations/0004-monthly-partitions.js';
import { classifyError, constraintName, errorCode } from './classify-error.js';
import { deriveColumns } from './derived-columns.js';
import type { Names } from './names.js';
import {
  APPEND_COLUMNS,
  appendParam,
  type AppendRow,
  buildFindTasks,
  buildFindTraces,
  buildStatements,
  EXCHANGE_COLUMNS,
  type EventRow,
  type EventRowWithExchanges,
  type EventRowWithSecrets,
  MAX_TRACE_LIMIT,
  type TraceSummaryRow,
} from './statements.js';
import type { SqlDriver } from './sql-driver.js';

// The statements a stage runs for every batch.
const HOT = { hot: true } as const;

/** Default claim-check threshold (EL-3): payloads whose JSON text is longer than 64 KiB are stored once, by hash. */
export const DEFAULT_CLAIM_CHECK_THRESHOLD_BYTES = 64 * 1024;

// Concurrent writers of one task race for the next stream_version; the loser's statement fails as a whole and runs
// again under a fresh snapshot. Ten jittered attempts (≤ ~1 s in total) outlast any realistic burst on one task —
// FL-1 keys messages by task, so only redeliveries and rebalances put two writers on the same task.
const MAX_APPEND_ATTEMPTS = 10;
// Full jitter (0 to twice the exponential delay): racing writers spread out instead of colliding again.
const APPEND_RACE_BACKOFF = resolveBackoff({ initialMs: 2, maxMs: 200, multiplier: 2, jitter: 1 });
// Since migration 0004 the global keys live in event_keys; the events_* names cover a store not migrated that far.
const RACE_CONSTRAINTS = [
  'event_keys_task_stream_version_key',
  'event_keys_pkey',
  'events_task_stream_version_key',
  'events_event_id_key',
];
// How many times one append creates a missing monthly partition and tries again: a month boundary passing while
// the partition is made can need a second one.
const MAX_PARTITION_CREATIONS = 3;

/** Resolved options of a SQL-backed store. */
export interface SqlEventStoreConfig {
  names: Names;
  claimCheckThresholdBytes: number;
  /** How long the first append of an idle store waits for others to share its statement. @default 0 */
  appendLingerMs?: number;
}

/** Checks an append linger option (0–1000 ms); throws RangeError at construction for nonsense values. */
export function resolveAppendLinger(value: number | undefined, fallback: number): number {
  const linger = value ?? fallback;
  if (!Number.isSafeInteger(linger) || linger < 0 || linger > 1_000) {
    throw new RangeError(`appendLingerMs must be an integer from 0 to 1000, got ${String(value)}`);
  }
  return linger;
}

/** Checks a claim-check threshold option; throws RangeError at construction for nonsense values. */
export function resolveClaimCheckThreshold(value: number | undefined): number {
  const threshold = value ?? DEFAULT_CLAIM_CHECK_THRESHOLD_BYTES;
  if (!Number.isSafeInteger(threshold) || threshold < 1) {
    throw new RangeError(`claimCheckThresholdBytes must be a positive integer, got ${String(value)}`);
  }
  return threshold;
}

interface PreparedBlob {
  sha256: string;
  size: number;
  json: string;
}

/** The EventStore over any SqlDriver: the one implementation both adapters share. */
export function createSqlEventStore(driver: SqlDriver, config: SqlEventStoreConfig): EventStore {
  const statements = buildStatements(config.names);
  let closed = false;

  const ensureOpen = () => {
    if (closed) throw new EventStoreClosedError('the event store is closed');
  };

  async function run<T>(doing: string, work: () => Promise<T>): Promise<T> {
    ensureOpen();
    try {
      return await work();
    } catch (error) {
      throw classifyError(error, doing);
    }
  }

  /** Checks one event and turns it into its row: column values, claim-checked blob, secrets cut from the payload. */
  function prepareEvent(event: NewEvent, index: number): PreparedRow {
    // Compiled: the envelope holds no free-form JSON, so the compiled parser is exact for any value.
    const parsed = jsonParser(Envelope).safeParse(event.envelope);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(envelope)'}: ${issue.message}` : 'invalid envelope';
      throw new InvalidEventError(`event ${index} has an invalid envelope — ${where}`, { index });
    }
    if (event.topic !== null && (typeof event.topic !== 'string' || event.topic.length === 0)) {
      throw new InvalidEventError(`event ${index} has an invalid topic`, { index });
    }
    if (event.secrets !== undefined && !Array.isArray(event.secrets)) {
      throw new InvalidEventError(`event ${index} has secrets that are not an array`, { index });
    }
    if (event.exchanges !== undefined && !Array.isArray(event.exchanges)) {
      throw new InvalidEventError(`event ${index} has exchanges that are not an array`, { index });
    }
    if (
      event.work_ms !== undefined &&
      !(Number.isSafeInteger(event.work_ms) && event.work_ms >= 0 && event.work_ms <= 2_147_483_647)
    ) {
      throw new InvalidEventError(
        `event ${index} has a work_ms that is not a whole number of milliseconds (0 or more): ${String(event.work_ms)}`,
        { index },
      );
    }
    // EL-7: the model exchanges, as EXCHANGE_COLUMNS values (`seq` = position in the event's list).
    const exchanges = (event.exchanges ?? []).map((exchange: unknown, seq) => {
      const row = exchangeRow(exchange, seq);
      if (typeof row === 'string')
        throw new InvalidEventError(`event ${index} exchange ${seq}: ${row}`, { index });
      return row;
    });
    // PI-5 / RS-6: what is stored (and claim-checked) is the redacted payload; the values go to event_secrets.
    // Every copy of a secret's value in the payload (a tool output echoing it) is stored as a secret too, and so is
    // every string holding a sensitive value in free text (RS-6: the request's phone number), shown masked.
    const redacted = redactSecrets(
      event.payload,
      withFreeTextSecrets(event.payload, withEchoedSecrets(event.payload, event.secrets ?? [])),
    );
    if (typeof redacted === 'string') throw new InvalidEventError(`event ${index}: ${redacted}`, { index });
    if (event.payloadJson !== undefined && typeof event.payloadJson !== 'string') {
      throw new InvalidEventError(`event ${index} has a payloadJson that is not a string`, { index });
    }
    // Redaction copies the payload; with no secret it is the caller's, whose text may come with it.
    const json: unknown =
      redacted.payload === event.payload && event.payloadJson !== undefined
        ? event.payloadJson
        : JSON.stringify(redacted.payload);
    if (typeof json !== 'string') {
      throw new InvalidEventError(`event ${index} has a payload that is not JSON`, { index });
    }
    const size = Buffer.byteLength(json, 'utf8');
    let storedPayload = json;
    let blob: PreparedBlob | null = null;
    if (size > config.claimCheckThresholdBytes) {
      const ref = createHash('sha256').update(json, 'utf8').digest('hex');
      blob = { sha256: ref, size, json };
      storedPayload = JSON.stringify({ $ref: `sha256:${ref}`, size });
    }
    const envelope = parsed.data;
    const derived = deriveColumns(envelope.event_type, event.payload);
    return {
      envelope,
      topic: event.topic,
      payload: event.payload,
      redacted: redacted.payload,
      json,
      secrets: redacted.secrets,
      blob,
      exchanges,
      values: [
        envelope.event_id,
        envelope.task_id,
        envelope.tenant_id,
        envelope.agent_id,
        envelope.stage,
        envelope.event_type,
        event.topic,
        envelope.decision_reason,
        envelope.revision_count,
        envelope.degraded_flag,
        envelope.input_source,
        envelope.causation_id,
        envelope.registry_version,
        envelope.profiles_version,
        envelope.policy_version,
        envelope.occurred_at,
        envelope.schema_version,
        envelope.traceparent,
        storedPayload,
        blob?.sha256 ?? null,
        derived.finished_status,
        JSON.stringify(derived.tools),
        event.work_ms ?? null,
      ],
    };
  }

  /**
   * The append statement's parameters for `rows`: one array per column, then the blobs, the secrets and the model
   * exchanges (eleven empty arrays for rows without any).
   */
  function paramsOf(rows: readonly PreparedRow[]): unknown[] {
    const columns: unknown[][] = APPEND_COLUMNS.map(() => []);
    const blobs = new Map<string, PreparedBlob>();
    const secretColumns: [number[], string[], string[]] = [[], [], []];
    // The event's input position, then one array per EXCHANGE_COLUMNS entry.
    const exchangeColumns: unknown[][] = [[], ...EXCHANGE_COLUMNS.map(() => [])];
    rows.forEach((row, index) => {
      row.values.forEach((value, column) => columns[column]?.push(value));
      if (row.blob) blobs.set(row.blob.sha256, row.blob);
      for (const secret of row.secrets) {
        // `ord` is 1-based like the input's WITH ORDINALITY, so the statement finds the secret's event.
        secretColumns[0].push(index + 1);
        secretColumns[1].push(secret.path);
        secretColumns[2].push(secret.json);
      }
      for (const exchange of row.exchanges) {
        exchangeColumns[0]?.push(index + 1);
        exchange.forEach((value, column) => exchangeColumns[column + 1]?.push(value));
      }
    });
    const blobList = [...blobs.values()];
    return [
      ...APPEND_COLUMNS.map(([, type], column) => appendParam(type, columns[column] ?? [])),
      blobList.map((b) => b.sha256),
      blobList.map((b) => b.size),
      blobList.map((b) => b.json),
      ...secretColumns,
      ...exchangeColumns,
    ];
  }

  async function appendOnce(params: unknown[]): Promise<AppendRow[]> {
    return driver.query<AppendRow>(statements.append, params, HOT);
  }

  /** One append statement for `rows` (one transaction), retried when it loses a race with a concurrent writer. */
  async function appendRows(rows: readonly PreparedRow[], withSecrets: boolean): Promise<AppendResult[]> {
    const params = paramsOf(rows);
    let partitionsCreated = 0;
    for (let attempt = 1; ; attempt++) {
      let result: AppendRow[];
      try {
        result = await appendOnce(params);
      } catch (error) {
        if (isMissingPartition(error) && partitionsCreated < MAX_PARTITION_CREATIONS) {
          // The month of now() has no partition yet (migrate() was not run this month): create it and go again.
          partitionsCreated++;
          attempt--;
          await run('creating a monthly partition', () => driver.query(statements.ensurePartitions, [1]));
          continue;
        }
        const lostRace =
          errorCode(error) === '23505' &&
          RACE_CONSTRAINTS.some(
            (name) =>
              constraintName(error) === name || (error instanceof Error && error.message.includes(name)),
          );
        const serialization = errorCode(error) === '40001' || errorCode(error) === '40P01';
        if (!lostRace && !serialization) throw classifyError(error, 'appending events');
        if (attempt >= MAX_APPEND_ATTEMPTS) {
          throw new AppendConflictError(
            `appending ${rows.length} events kept conflicting with concurrent writers after ${attempt} attempts`,
            { cause: error, sqlState: errorCode(error), attempts: attempt },
          );
        }
        await sleep(backoffDelay(attempt, APPEND_RACE_BACKOFF));
        ensureOpen();
        continue;
      }
      if (result.length !== rows.length) {
        throw new EventStoreQueryError(`append returned ${result.length} rows for ${rows.length} events`);
      }
      return result.map((row): AppendResult => {
        if (row.pruned) {
          const input = rows[row.ord - 1];
          if (!input) throw new EventStoreQueryError(`append returned an unknown input position ${row.ord}`);
          return { event: prunedEvent(row, input, withSecrets), inserted: false, pruned: true };
        }
        if (row.fresh) {
          const input = rows[row.first_ord - 1];
          if (!input)
            throw new EventStoreQueryError(`append returned an unknown input position ${row.first_ord}`);
          return { event: freshEvent(row, input, withSecrets), inserted: row.inserted };
        }
        return { event: toStoredEvent(row, withSecrets ? row.secrets : null), inserted: row.inserted };
      });
    }
  }

  // The append queue (append-queue.ts): appends made while one statement is out leave together as the next.
  const appends = createAppendQueue<PreparedRow, AppendResult>({
    lingerMs: config.appendLingerMs ?? 0,
    appendRows,
    failsEveryone: (error) => error instanceof EventStoreUnavailableError || closed,
  });

  const store: EventStore = {
    async migrate() {
      await run('migrating the event log', () =>
        driver.transaction(async (tx) => {
          // Serialises concurrent migrate() calls (several replicas starting at once); released at COMMIT.
          await tx.query(statements.lockMigrations, [config.names.schema ?? null]);
          if (statements.createSchema) await tx.exec(statements.createSchema);
          await tx.exec(statements.createMigrationsTable);
          const applied = new Set(
            (await tx.query<{ id: string }>(statements.appliedMigrations)).map((row) => row.id),
          );
          for (const migration of MIGRATIONS) {
            if (applied.has(migration.id)) continue;
            await tx.exec(migration.sql(config.names));
            await tx.query(statements.recordMigration, [migration.id]);
          }
          // EL-4: keep partitions ready a few months ahead, so appends do not stop for DDL at a month boundary.
          await tx.query(statements.ensurePartitions, [PARTITION_MONTHS_AHEAD]);
        }),
      );
    },

    async append(events, options) {
      ensureOpen();
      if (events.length === 0) return [];
      const withSecrets = options?.withSecrets === true;
      const rows = events.map(prepareEvent);
      return appends.append(withSecrets, rows);
    },

    async findByEventIds(eventIds, options) {
      if (eventIds.length === 0) {
        ensureOpen();
        return new Map<string, StoredEvent>();
      }
      if (options?.withExchanges === true) {
        const withSecrets = options.withSecrets === true;
        const rows = await run('reading events by id', () =>
          driver.query<EventRowWithExchanges>(statements.findByEventIdsWithExchanges, [[...eventIds]]),
        );
        return new Map(rows.map((row) => [row.event_id, toStoredEventWithExchanges(row, withSecrets)]));
      }
      if (options?.withSecrets === true) {
        const rows = await run('reading events by id', () =>
          driver.query<EventRowWithSecrets>(statements.findByEventIdsWithSecrets, [[...eventIds]], HOT),
        );
        return new Map(rows.map((row) => [row.event_id, toStoredEvent(row, row.secrets)]));
      }
      const rows = await run('reading events by id', () =>
        driver.query<EventRow>(statements.findByEventIds, [[...eventIds]], HOT),
      );
      return new Map(rows.map((row) => [row.event_id, toStoredEvent(row)]));
    },

    async readTask(taskId, options) {
      if (options?.withExchanges === true) {
        const rows = await run('reading a task', () =>
          driver.query<EventRowWithExchanges>(statements.readTaskWithExchanges, [taskId]),
        );
        return rows.map((row) => toStoredEventWithExchanges(row, false));
      }
      const rows = await run('reading a task', () => driver.query<EventRow>(statements.readTask, [taskId]));
      return rows.map((row) => toStoredEvent(row));
    },

    async findTasks(filter) {
      validateFilter(filter);
      const { text, params } = buildFindTasks(config.names, filter);
      const rows = await run('finding tasks', () => driver.query<{ task_id: string }>(text, params));
      return rows.map((row) => row.task_id);
    },

    async findTraces(filter) {
      validateFilter(filter);
      const { text, params } = buildFindTraces(config.names, filter);
      const rows = await run('finding traces', () => driver.query<TraceSummaryRow>(text, params));
      return rows.map(toTraceSummary);
    },

    async ping() {
      await run('pinging PostgreSQL', () => driver.query(statements.ping));
    },

    async close() {
      if (closed) return;
      closed = true;
      // Appends made before close() still get their statement; then the connections go.
      await appends.flush();
      await driver.close();
    },
  };
  return store;
}

/** An input event as `append` validated it: the parsed envelope, the payload as given and as stored. */
/** A checked event with its statement values (see `prepareEvent`). */
interface PreparedRow extends PreparedEvent {
  values: unknown[];
  blob: PreparedBlob | null;
  /** Its model exchanges' EXCHANGE_COLUMNS values. */
  exchanges: unknown[][];
}

/** An append waiting for the statement that will carry it. */
interface PreparedEvent {
  envelope: Envelope;
  topic: string | null;
  payload: unknown;
  redacted: unknown;
  /** The JSON text of the redacted payload, as the statement stored it. */
  json: string;
  /** The secrets cut from the payload, values as JSON text. */
  secrets: readonly { path: string; json: string }[];
}

/** PostgreSQL's "no partition of relation … found for row" (23514): the row's month has no partition yet. */
function isMissingPartition(error: unknown): boolean {
  return (
    errorCode(error) === '23514' &&
    error instanceof Error &&
    error.message.includes('no partition of relation')
  );
}

/**
 * The result for an event id whose stored event was pruned (EL-4): the stored decision is gone, so the event is the
 * input's, under the identity `event_keys` kept (stream version, position, recorded_at).
 */
function prunedEvent(row: AppendRow, input: PreparedEvent, withSecrets: boolean): StoredEvent {
  if (row.key_stream_version === null || row.key_global_position === null || row.key_recorded_at === null) {
    throw new EventStoreQueryError(`append reported event ${input.envelope.event_id} pruned without its key`);
  }
  return {
    envelope: input.envelope,
    topic: input.topic,
    payload: withSecrets ? input.payload : input.redacted,
    global_position: BigInt(row.key_global_position),
    stream_version: row.key_stream_version,
    recorded_at: new Date(row.key_recorded_at),
  };
}

/**
 * The result for an event this append inserted: the row's columns, and the payload the caller gave, as a read would
 * return it (the stored JSON text, object keys in jsonb's order: the republish-identity rule, see
 * republish-identity.ts) — made only when asked for, because the usual caller
 * (a stage publishing the decision it just validated) never reads it, and sending it back cost a 3–4 KB text per row.
 */
function freshEvent(row: AppendRow, input: PreparedEvent, withSecrets: boolean): StoredEvent {
  return withLazyPayload(storedEventWithoutPayload(row), () => {
    const payload = inJsonbKeyOrder(JSON.parse(input.json));
    if (!withSecrets || input.secrets.length === 0) return payload;
    const secrets = input.secrets.map(({ path, json }) => ({
      path,
      value: inJsonbKeyOrder(JSON.parse(json)),
    }));
    return restoreSecrets(payload, secrets);
  });
}

/** `event` with its payload made by `read` on first access and kept. */
function withLazyPayload(event: Omit<StoredEvent, 'payload'>, read: () => unknown): StoredEvent {
  let payload: unknown;
  let done = false;
  return Object.defineProperty(event, 'payload', {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        payload = read();
        done = true;
      }
      return payload;
    },
    set(value: unknown) {
      payload = value;
      done = true;
    },
  }) as StoredEvent;
}

function validateFilter(filter: TraceFilter): void {
  if (
    filter.limit !== undefined &&
    (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > MAX_TRACE_LIMIT)
  ) {
    throw new RangeError(`limit must be an integer from 1 to ${MAX_TRACE_LIMIT}, got ${filter.limit}`);
  }
  if (filter.revision_count_above !== undefined && !Number.isInteger(filter.revision_count_above)) {
    throw new RangeError(`revision_count_above must be an integer, got ${filter.revision_count_above}`);
  }
  if (filter.tool !== undefined && (typeof filter.tool !== 'string' || filter.tool.length === 0)) {
    throw new RangeError('tool must be a non-empty string');
  }
  if (filter.status !== undefined && !EvaluationStatus.safeParse(filter.status).success) {
    throw new RangeError(
      `status must be one of ${EvaluationStatus.options.join(', ')}, got ${filter.status as string}`,
    );
  }
  if (filter.before_position !== undefined && typeof filter.before_position !== 'bigint') {
    throw new RangeError('before_position must be a bigint');
  }
  for (const key of ['from', 'to'] as const) {
    const value = filter[key];
    if (value !== undefined && Number.isNaN(value.getTime()))
      throw new RangeError(`${key} is an invalid Date`);
  }
}

/**
 * Maps a row of any read statement to the port's StoredEvent; `secrets` (the row's JSON array of `{path, value}`)
 * are put back into the payload when given.
 */
function toStoredEvent(row: EventRow, secrets: string | null = null): StoredEvent {
  if (row.payload === null) {
    // Blobs are written in the same statement as the event that references them, so this is corruption.
    throw new EventStoreQueryError(
      `event ${row.event_id} references payload blob sha256:${row.payload_ref ?? '?'} which is missing`,
    );
  }
  return { ...storedEventWithoutPayload(row), payload: withRestoredSecrets(row, secrets) };
}

/** A row's envelope, topic and log position. */
function storedEventWithoutPayload(row: EventRow): Omit<StoredEvent, 'payload'> {
  const envelope: Envelope = {
    event_id: row.event_id,
    task_id: row.task_id,
    tenant_id: row.tenant_id,
    agent_id: row.agent_id,
    stage: row.stage as Stage,
    event_type: row.event_type,
    causation_id: row.causation_id,
    revision_count: row.revision_count,
    degraded_flag: row.degraded_flag,
    decision_reason: row.decision_reason,
    input_source: row.input_source as Envelope['input_source'],
    registry_version: row.registry_version,
    profiles_version: row.profiles_version,
    policy_version: row.policy_version,
    occurred_at: row.occurred_at,
    schema_version: row.schema_version,
    traceparent: row.traceparent,
  };
  return {
    envelope,
    topic: row.topic,
    global_position: BigInt(row.global_position),
    stream_version: row.stream_version,
    recorded_at: new Date(row.recorded_at),
    ...(row.work_ms === null ? {} : { work_ms: row.work_ms }),
  };
}

function withRestoredSecrets(row: EventRow, secrets: string | null): unknown {
  const payload = JSON.parse(row.payload ?? 'null') as unknown;
  if (secrets === null) return payload;
  try {
    return restoreSecrets(payload, JSON.parse(secrets) as EventSecret[]);
  } catch (error) {
    throw new EventStoreQueryError(`event ${row.event_id} cannot take back its stored secrets`, {
      cause: error,
    });
  }
}

/**
 * A read row with its model exchanges: payload and exchanges exactly as recorded `withSecrets`, else both with the
 * event's secret values redacted (the payload by path, the exchanges wherever the values occur).
 */
function toStoredEventWithExchanges(row: EventRowWithExchanges, withSecrets: boolean): StoredEvent {
  const event = toStoredEvent(row, withSecrets ? row.secrets : null);
  let exchanges: ModelExchange[];
  let secrets: EventSecret[];
  try {
    exchanges = (JSON.parse(row.exchanges ?? '[]') as StoredExchangeRow[]).map(toModelExchange);
    secrets = JSON.parse(row.secrets ?? '[]') as EventSecret[];
  } catch (error) {
    throw new EventStoreQueryError(`event ${row.event_id} has unreadable model exchanges`, { cause: error });
  }
  event.exchanges = withSecrets ? exchanges : exchanges.map((x) => redactExchange(x, secrets));
  return event;
}

const REQUEST_HASH = /^[0-9a-f]{64}$/;
const MAX_INT = 2_147_483_647;

/**
 * The EXCHANGE_COLUMNS values of one model exchange (`seq` = its position in the event's list), or what is wrong
 * with it. Never quotes the request or response: they may hold user text and sensitive values.
 */
function exchangeRow(exchange: unknown, seq: number): unknown[] | string {
  if (typeof exchange !== 'object' || exchange === null) return 'is not an object';
  const x = exchange as Partial<Record<keyof AnsweredModelExchange | keyof FailedModelExchange, unknown>>;
  if (typeof x.profile_id !== 'string' || x.profile_id.length === 0) {
    return 'profile_id must be a non-empty string';
  }
  const failed = x.error !== undefined && x.error !== null;
  if (!failed && (typeof x.model !== 'string' || x.model.length === 0)) {
    return 'model must be a non-empty string';
  }
  if (typeof x.request_hash !== 'string' || !REQUEST_HASH.test(x.request_hash)) {
    return 'request_hash must be a sha256 in lower-case hex';
  }
  if (failed) {
    // Nothing was answered: an exchange that has both an error and an answer is not one the replay can honour.
    for (const key of ['model', 'response', 'input_tokens', 'output_tokens'] as const) {
      if (x[key] !== undefined && x[key] !== null) return `a failed exchange has no ${key}`;
    }
  } else {
    for (const key of ['input_tokens', 'output_tokens'] as const) {
      const value = x[key];
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_INT) {
        return `${key} must be a non-negative integer`;
      }
    }
  }
  if (typeof x.latency_ms !== 'number' || !Number.isFinite(x.latency_ms) || x.latency_ms < 0) {
    return 'latency_ms must be a non-negative number';
  }
  const request = jsonText(x.request);
  if (request === undefined) return 'request is not JSON';
  let response: string | null = null;
  let error: string | null = null;
  if (failed) {
    const raw: unknown = x.error;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'error must be an object';
    const e = raw as Partial<Record<keyof ModelExchangeError, unknown>>;
    if (typeof e.name !== 'string' || e.name.length === 0) return 'error.name must be a non-empty string';
    if (typeof e.message !== 'string') return 'error.message must be a string';
    if (typeof e.timeout !== 'boolean') return 'error.timeout must be a boolean';
    error = jsonText(e) ?? null;
    if (error === null) return 'error is not JSON';
  } else {
    response = jsonText(x.response) ?? null;
    if (response === null) return 'response is not JSON';
  }
  return [
    seq,
    x.profile_id,
    failed ? null : x.model,
    x.request_hash,
    request,
    response,
    failed ? null : x.input_tokens,
    failed ? null : x.output_tokens,
    Math.min(MAX_INT, Math.round(x.latency_ms)),
    error,
  ];
}

/** `value` as JSON text, or undefined when it is not JSON (undefined, a bigint, a cycle…). */
function jsonText(value: unknown): string | undefined {
  try {
    const text: unknown = JSON.stringify(value);
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** Maps a findTraces row to the port's TraceSummary. */
function toTraceSummary(row: TraceSummaryRow): TraceSummary {
  const status = EvaluationStatus.safeParse(row.status);
  return {
    task_id: row.task_id,
    tenant_id: row.tenant_id,
    agent_id: row.agent_id,
    position: BigInt(row.position),
    event_count: row.event_count,
    started_at: new Date(row.started_at),
    last_activity_at: new Date(row.last_activity_at),
    last_stage: row.last_stage as Stage,
    last_event_type: row.last_event_type,
    status: status.success ? status.data : null,
    degraded: row.degraded,
    max_revision_count: row.max_revision_count,
  };
}
