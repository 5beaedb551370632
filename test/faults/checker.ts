// The exact-set checker: after a scenario, reads the event log, the executor's call store and the demo tools' act
// table (PostgreSQL, directly — never through the proxy a scenario cuts) for exactly the tasks the scenario's load
// had accepted, and counts what went wrong. Nothing is sampled: every task, every decision, every act.
import type pg from 'pg';
import { TEMPLATES, type Submission } from './load.js';

/** What the checker concluded for one scenario. Every number is a count of tasks unless it says otherwise. */
export interface ScenarioCheck {
  /** Tasks the load sent (accepted or not). */
  sent: number;
  /** Tasks the API accepted (202). */
  submitted: number;
  /** Tasks the client gave up on (never accepted): a 4xx, or no 202 within the give-up time. */
  notAccepted: number;
  /** Accepted tasks with exactly one `task_finished`. */
  finished: number;
  /** Accepted tasks without any `task_finished` when the wait ended. */
  lost: number;
  /** Accepted tasks with more than one `task_finished`. */
  finishedTwice: number;
  /** Extra decisions: rows beyond the first per (task, stage, causation). */
  duplicateDecisions: number;
  /** Extra acts: per task, demo-tools acts beyond what its request makes in a fault-free run. */
  duplicateSideEffects: number;
  /** Extra acts per idempotency key (acts beyond the first with the same key). */
  duplicateActsByKey: number;
  /** Tasks whose request should have acted but no act is recorded for them. */
  missingSideEffects: number;
  /** Executor calls sent more than once with the same key (allowed: the tool dedupes; informational). */
  resentCalls: number;
  /** `failed` events (a stage dead-lettered the task's message) of the scenario's tasks. */
  deadLetteredEvents: number;
  /** Messages that arrived on the dead-letter topics during the scenario. */
  deadLetteredMessages: number;
  /** Tasks that ended `failed` (status) or were dead-lettered without finishing. */
  failed: number;
  /** Of those, tasks whose request does not fail in the baseline. */
  failedUnlikeBaseline: number;
  /** Finished tasks whose status differs from the baseline's status for the same request. */
  statusChanged: number;
  /**
   * Of `failedUnlikeBaseline`, tasks whose tool call failed `transient` (connection refused or reset, breaker open) and
   * that the evaluator then routed like a broken tool (re-plan without it): the known bug of the tools scenario.
   */
  failedOnTransientTool: number;
  /** Final status → tasks. */
  statuses: Record<string, number>;
  /** Per template: status → tasks. */
  statusesByTemplate: Record<string, Record<string, number>>;
  /**
   * ms from the moment the fault was lifted until the last task whose first submission attempt was before that moment
   * finished; 0 when all had finished by then; null without a fault or when some of them never finished.
   */
  recoveryMs: number | null;
  /** Latency (first attempt → task_finished), ms. */
  latency: { p50: number; p95: number; max: number } | null;
  /** Up to 10 examples of each problem, for the report. */
  examples: Record<string, string[]>;
  /** The event path of up to 3 tasks named in `examples`: `stage event_type (rev n): reason`. */
  traces: Record<string, string[]>;
}

export interface CheckInput {
  db: pg.Pool;
  schema: string;
  executorSchema: string;
  demoSchema: string;
  submissions: readonly Submission[];
  /** Template → the status its tasks end with in the fault-free baseline (undefined while checking the baseline). */
  baseline?: Record<string, string>;
  deadLetteredMessages: number;
  /** When the fault was lifted (ms epoch); undefined for fault-free scenarios. */
  faultLiftedAt?: number;
}

interface TaskRow {
  task_id: string;
  finishes: string;
  failed_events: string;
  status: string | null;
  finished_at: Date | null;
}

const q = (id: string) => `"${id.replace(/"/g, '""')}"`;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Reads the state once. Callers wait for the tasks first ({@link waitForTasks}). */
export async function checkScenario(input: CheckInput): Promise<ScenarioCheck> {
  const { db } = input;
  const accepted = input.submissions.filter((s) => s.taskId !== undefined);
  const ids = accepted.map((s) => s.taskId!);
  const writesOf = new Map(TEMPLATES.map((t) => [t.id, t.writes]));
  const events = `${q(input.schema)}.events`;
  const examples: Record<string, string[]> = {};
  const example = (kind: string, text: string) => {
    const list = (examples[kind] ??= []);
    if (list.length < 10) list.push(text);
  };

  const tasks = await db.query<TaskRow>(
    `SELECT task_id,
            count(*) FILTER (WHERE event_type = 'task_finished') AS finishes,
            count(*) FILTER (WHERE event_type = 'failed') AS failed_events,
            (array_agg(finished_status ORDER BY stream_version DESC) FILTER (WHERE event_type = 'task_finished'))[1] AS status,
            max(recorded_at) FILTER (WHERE event_type = 'task_finished') AS finished_at
       FROM ${events} WHERE task_id = ANY($1) GROUP BY task_id`,
    [ids],
  );
  const rowOf = new Map(tasks.rows.map((r) => [r.task_id, r]));
  // The evaluator's reason names the failed call's class: "call_failed: the call failed (transient)".
  const transientTool = new Set(
    (
      await db.query<{ task_id: string }>(
        `SELECT DISTINCT task_id FROM ${events}
          WHERE task_id = ANY($1) AND stage = 'result_evaluator' AND event_type = 'replan_requested'
            AND decision_reason LIKE '%call_failed: the call failed (transient)%'`,
        [ids],
      )
    ).rows.map((r) => r.task_id),
  );

  let finished = 0;
  let lost = 0;
  let finishedTwice = 0;
  let failed = 0;
  let failedUnlikeBaseline = 0;
  let statusChanged = 0;
  let failedOnTransientTool = 0;
  let deadLetteredEvents = 0;
  const statuses: Record<string, number> = {};
  const statusesByTemplate: Record<string, Record<string, number>> = {};
  const latencies: number[] = [];
  for (const s of accepted) {
    const row = rowOf.get(s.taskId!);
    const finishes = Number(row?.finishes ?? 0);
    const failedEvents = Number(row?.failed_events ?? 0);
    deadLetteredEvents += failedEvents;
    const status = finishes > 0 ? (row?.status ?? 'unknown') : failedEvents > 0 ? 'dead_lettered' : 'lost';
    statuses[status] = (statuses[status] ?? 0) + 1;
    const per = (statusesByTemplate[s.template] ??= {});
    per[status] = (per[status] ?? 0) + 1;
    if (finishes === 1) finished++;
    if (finishes > 1) {
      finishedTwice++;
      example('finishedTwice', `${s.taskId!} (${s.template}): ${String(finishes)} task_finished`);
    }
    if (finishes === 0) {
      lost++;
      example('lost', `${s.taskId!} (${s.template})${failedEvents > 0 ? ' dead-lettered' : ''}`);
    }
    if (status === 'failed' || status === 'dead_lettered') {
      failed++;
      if (input.baseline && input.baseline[s.template] !== 'failed') {
        failedUnlikeBaseline++;
        if (transientTool.has(s.taskId!)) failedOnTransientTool++;
      }
    }
    const expected = input.baseline?.[s.template];
    if (finishes > 0 && expected !== undefined && status !== expected) {
      statusChanged++;
      example('statusChanged', `${s.taskId!} (${s.template}): ${status}, baseline ${expected}`);
    }
    if (row?.finished_at) latencies.push(row.finished_at.getTime() - s.firstAttemptAt);
  }

  // Decisions: one per (task, stage, causation). Event ids are deterministic in exactly these, so a second row means
  // a stage decided the same input twice in different ways (another event type, another id).
  const dups = await db.query<{ task_id: string; stage: string; causation_id: string | null; n: string }>(
    `SELECT task_id, stage, causation_id, count(*) AS n FROM ${events}
      WHERE task_id = ANY($1) GROUP BY task_id, stage, causation_id HAVING count(*) > 1`,
    [ids],
  );
  let duplicateDecisions = 0;
  for (const d of dups.rows) {
    duplicateDecisions += Number(d.n) - 1;
    example('duplicateDecisions', `${d.task_id} ${d.stage} ← ${String(d.causation_id)}: ${d.n} rows`);
  }

  // Side effects: the demo tools record one `actions` row per real act, with the Idempotency-Key it came with; the
  // executor's `executor_calls` maps each key to its task.
  const calls = `${q(input.executorSchema)}.executor_calls`;
  const actions = `${q(input.demoSchema)}.actions`;
  const exists = async (table: string) =>
    (await db.query<{ t: string | null }>(`SELECT to_regclass($1) AS t`, [table])).rows[0]?.t !== null;
  let duplicateSideEffects = 0;
  let duplicateActsByKey = 0;
  let missingSideEffects = 0;
  let resentCalls = 0;
  if ((await exists(calls)) && (await exists(actions))) {
    const byKey = await db.query<{ key: string; task_id: string; n: string }>(
      `SELECT a.idempotency_key AS key, c.task_id, count(*) AS n
         FROM ${actions} a JOIN ${calls} c ON c.idempotency_key = a.idempotency_key
        WHERE c.task_id = ANY($1) GROUP BY a.idempotency_key, c.task_id`,
      [ids],
    );
    const actsPerTask = new Map<string, number>();
    for (const r of byKey.rows) {
      const n = Number(r.n);
      actsPerTask.set(r.task_id, (actsPerTask.get(r.task_id) ?? 0) + n);
      if (n > 1) {
        duplicateActsByKey += n - 1;
        example('duplicateActsByKey', `${r.task_id} key ${r.key}: ${String(n)} acts`);
      }
    }
    for (const s of accepted) {
      const acts = actsPerTask.get(s.taskId!) ?? 0;
      const expected = writesOf.get(s.template) ?? 0;
      const status = rowOf.get(s.taskId!)?.status;
      if (acts > expected) {
        duplicateSideEffects += acts - expected;
        example(
          'duplicateSideEffects',
          `${s.taskId!} (${s.template}): ${String(acts)} acts, expected ${String(expected)}`,
        );
      }
      // A task that finished as its baseline says (success) must have acted.
      if (acts < expected && status === 'success') {
        missingSideEffects++;
        example('missingSideEffects', `${s.taskId!} (${s.template}): success without its act`);
      }
    }
    const resent = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${calls} WHERE task_id = ANY($1) AND send_count > 1`,
      [ids],
    );
    resentCalls = Number(resent.rows[0]?.n ?? 0);
  }

  let recoveryMs: number | null = null;
  if (input.faultLiftedAt !== undefined) {
    const lifted = input.faultLiftedAt;
    let last = lifted;
    let complete = true;
    for (const s of accepted.concat(input.submissions.filter((x) => x.taskId === undefined))) {
      if (s.firstAttemptAt > lifted) continue;
      const at = s.taskId ? rowOf.get(s.taskId)?.finished_at : undefined;
      if (!at) {
        complete = false;
        continue;
      }
      last = Math.max(last, at.getTime());
    }
    recoveryMs = complete ? last - lifted : null;
  }
  latencies.sort((a, b) => a - b);

  const traced = [
    ...new Set(Object.values(examples).flatMap((list) => list.map((e) => e.split(' ')[0] ?? ''))),
  ]
    .filter((id) => id.length > 0)
    .slice(0, 3);
  const traces: Record<string, string[]> = {};
  if (traced.length > 0) {
    const rows = await db.query<{
      task_id: string;
      stage: string;
      event_type: string;
      revision_count: number;
      decision_reason: string;
      recorded_at: Date;
    }>(
      `SELECT task_id, stage, event_type, revision_count, decision_reason, recorded_at FROM ${events}
        WHERE task_id = ANY($1) ORDER BY task_id, stream_version`,
      [traced],
    );
    for (const r of rows.rows) {
      (traces[r.task_id] ??= []).push(
        `${r.recorded_at.toISOString().slice(11, 23)} ${r.stage} ${r.event_type} (rev ${String(r.revision_count)}): ${r.decision_reason.slice(0, 300)}`,
      );
    }
  }

  return {
    sent: input.submissions.length,
    submitted: accepted.length,
    notAccepted: input.submissions.length - accepted.length,
    finished,
    lost,
    finishedTwice,
    duplicateDecisions,
    duplicateSideEffects,
    duplicateActsByKey,
    missingSideEffects,
    resentCalls,
    deadLetteredEvents,
    deadLetteredMessages: input.deadLetteredMessages,
    failed,
    failedUnlikeBaseline,
    statusChanged,
    failedOnTransientTool,
    statuses,
    statusesByTemplate,
    recoveryMs,
    latency:
      latencies.length > 0
        ? { p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: latencies.at(-1) ?? 0 }
        : null,
    examples,
    traces,
  };
}

/** Waits until every accepted task has a `task_finished` or a `failed` event, or `timeoutMs` passed. */
export async function waitForTasks(
  db: pg.Pool,
  schema: string,
  submissions: readonly Submission[],
  timeoutMs: number,
): Promise<{ pending: number }> {
  const ids = submissions.filter((s) => s.taskId !== undefined).map((s) => s.taskId!);
  const deadline = Date.now() + timeoutMs;
  let pending = ids.length;
  while (Date.now() < deadline) {
    try {
      const res = await db.query<{ n: string }>(
        `SELECT count(DISTINCT task_id) AS n FROM ${q(schema)}.events
          WHERE task_id = ANY($1) AND event_type IN ('task_finished', 'failed')`,
        [ids],
      );
      pending = ids.length - Number(res.rows[0]?.n ?? 0);
      if (pending === 0) return { pending };
    } catch {
      // The checker reads PostgreSQL directly; a hiccup there is retried.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { pending };
}

/** The baseline's status per template: the most common final status of its tasks. */
export function baselineStatuses(check: ScenarioCheck): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [template, counts] of Object.entries(check.statusesByTemplate)) {
    const top = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
    if (top) out[template] = top[0];
  }
  return out;
}
