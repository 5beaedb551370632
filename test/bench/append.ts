// `pnpm bench:append [--sizes 1,5,20,60] [--events N] [--json]` — what one event-log append costs PostgreSQL.
//
// The backbone benchmark says how much of a task's CPU is PostgreSQL's; this one says where that comes from. For
// each batch size, N events are appended one batch after another (as a stage's store does) by the real pg event
// store, then as raw inserts of the same payloads into a four-column table — the backbone ceiling's statement. The
// events are the pass-through pipeline's own decisions (1.1–1.9 KB payloads), each task's five in a row. Printed per
// batch size: PostgreSQL's CPU per event (all its processes, from /proc; n/a elsewhere) and the wall time per event.
// Prints a table and, last, one JSON line.
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPgEventStore, type NewEvent } from '@signalbox/event-log';
import { deterministicEventId } from '@signalbox/contracts';
import { createIsolatedSchema, resolveInfrastructure } from '@signalbox/test-support';
import { passThroughDecisions } from '../support/pass-through.js';
import { cpuSnapshot } from './machine-cpu.js';
import { createRawEventsTable, insertRawEvents } from './raw-events.js';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1,5,20,60' },
    events: { type: 'string', default: '6000' },
    json: { type: 'boolean', default: false },
  },
});
const SIZES = args.sizes.split(',').map((s) => Number(s.trim()));
if (SIZES.length === 0 || SIZES.some((n) => !Number.isInteger(n) || n < 1 || n > 1000)) {
  throw new Error(`--sizes must be a comma-separated list of integers from 1 to 1000, got ${args.sizes}`);
}
const EVENTS = Number(args.events);
if (!Number.isInteger(EVENTS) || EVENTS < 100) {
  throw new Error(`--events must be an integer ≥ 100, got ${args.events}`);
}
const log = (msg: string) => {
  process.stderr.write(`[bench] ${msg}\n`);
};

/** CPU seconds all PostgreSQL processes have used so far, or undefined without /proc. */
function postgresCpuS(): number | undefined {
  const snapshot = cpuSnapshot();
  if (!snapshot) return undefined;
  let seconds = 0;
  for (const { service, seconds: s } of snapshot.byPid.values()) if (service === 'postgresql') seconds += s;
  return seconds;
}

interface Measured {
  pgCpuUsPerEvent: number | null;
  wallUsPerEvent: number;
}

/** Runs `batch` until `events` are done (after a warm-up of a tenth), measuring PostgreSQL's CPU and the wall time. */
async function measure(events: number, size: number, batch: () => Promise<unknown>): Promise<Measured> {
  const batches = Math.max(1, Math.round(events / size));
  for (let i = 0; i < Math.max(1, Math.round(batches / 10)); i++) await batch();
  const cpuStarted = postgresCpuS();
  const started = performance.now();
  for (let i = 0; i < batches; i++) await batch();
  const wallMs = performance.now() - started;
  const cpuEnded = postgresCpuS();
  const n = batches * size;
  return {
    pgCpuUsPerEvent:
      cpuStarted === undefined || cpuEnded === undefined
        ? null
        : Math.round(((cpuEnded - cpuStarted) * 1e6) / n),
    wallUsPerEvent: Math.round((wallMs * 1000) / n),
  };
}

const decisions = await passThroughDecisions('bench', new Date());
const infra = await resolveInfrastructure(process.env);
const results: { batch_size: number; store: Measured; raw: Measured }[] = [];
try {
  log(`infrastructure from ${infra.endpoints.source}; ${String(EVENTS)} events per batch size`);
  for (const size of SIZES) {
    const schema = await createIsolatedSchema(infra.endpoints.databaseUrl, 'append');
    // One connection, with the session settings of the store's own pool: a batch after another, as a stage appends.
    const pool = new pg.Pool({
      connectionString: infra.endpoints.databaseUrl,
      max: 1,
      options: '-c plan_cache_mode=force_generic_plan -c jit=off',
    });
    // No linger: one batch after another has no company to wait for.
    const store = createPgEventStore({ pool, schema: schema.name, appendLingerMs: 0 });
    try {
      await store.migrate();
      let n = 0;
      // Each task's five decisions in a row, under fresh ids: the stage's usual path, nothing stored before.
      const nextEvents = (): NewEvent[] =>
        Array.from({ length: size }, () => {
          const decision = decisions[n % decisions.length]!;
          const taskId = `task-${String(Math.floor(n / decisions.length))}`;
          n++;
          return {
            envelope: {
              ...decision.envelope,
              task_id: taskId,
              event_id: deterministicEventId({
                task_id: taskId,
                stage: decision.envelope.stage,
                causation_id: `cause-${String(n)}`,
                event_type: decision.envelope.event_type,
              }),
            },
            topic: decision.topic,
            payload: decision.payload,
          };
        });
      log(`batches of ${String(size)}: the event store`);
      const stored = await measure(EVENTS, size, () => store.append(nextEvents()));
      await createRawEventsTable(pool, schema.name);
      log(`batches of ${String(size)}: raw inserts`);
      const raw = await measure(EVENTS, size, () =>
        insertRawEvents(
          pool,
          schema.name,
          nextEvents().map((e) => ({
            id: e.envelope.event_id,
            task: e.envelope.task_id,
            payload: JSON.stringify({ ...e.envelope, payload: e.payload }),
          })),
        ),
      );
      results.push({ batch_size: size, store: stored, raw });
    } finally {
      await store.close();
      await pool.end();
      await schema.drop();
    }
  }
} finally {
  await infra.release();
}

const figure = (value: number | null) => (value === null ? 'n/a' : String(value));
const table = [
  [
    'batch size',
    'store: PostgreSQL CPU µs/event, wall µs/event',
    'raw insert: PostgreSQL CPU µs/event, wall µs/event',
  ],
  ...results.map((r) => [
    String(r.batch_size),
    `${figure(r.store.pgCpuUsPerEvent)}, ${String(r.store.wallUsPerEvent)}`,
    `${figure(r.raw.pgCpuUsPerEvent)}, ${String(r.raw.wallUsPerEvent)}`,
  ]),
];
const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
(args.json ? console.error : console.log)(
  table.map((row) => row.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n'),
);
console.log(
  JSON.stringify({
    events: EVENTS,
    sizes: results.map((r) => ({
      batch_size: r.batch_size,
      store_pg_cpu_us_per_event: r.store.pgCpuUsPerEvent,
      store_wall_us_per_event: r.store.wallUsPerEvent,
      raw_pg_cpu_us_per_event: r.raw.pgCpuUsPerEvent,
      raw_wall_us_per_event: r.raw.wallUsPerEvent,
    })),
    infrastructure: infra.endpoints.source,
  }),
);
