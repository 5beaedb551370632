// The steady load: tasks submitted through the API (`POST /v1/tasks`) at a fixed rate, open loop (a submission does
// not wait for the previous one), each with its own Idempotency-Key so that a submission answered 503 (broker or
// event log away), refused at the socket (the API being restarted) or left without an answer is sent again — the
// same request, the same key, the same task — as the API's README tells clients to.

/** One kind of request of the load; the reach pack (SP-4) serves them all, each in a handful of hops. */
export interface TaskTemplate {
  id: string;
  agent_id: string;
  request: string;
  /** Side effects (demo tools' `actions` rows) a fault-free run of it makes. */
  writes: number;
  /** `needs_fresh_data`: the executor's cache is bypassed, so the read reaches the backend every time. */
  fresh?: boolean;
}

/**
 * The request mix, in order of use (round robin): reads that reach the weather backend (one bypassing the executor's
 * cache, one served from it after the first), writes that
 * open a ticket (one act per task, deduplicated by the executor's idempotency key), and a request that stops at the
 * injector for a clarification. The statuses come from the baseline run, not from here.
 */
export const TEMPLATES: readonly TaskTemplate[] = [
  {
    id: 'weather-en',
    agent_id: 'reach_agent',
    request: 'What is the weather in Berlin today?',
    writes: 0,
    fresh: true,
  },
  {
    id: 'ticket-en',
    agent_id: 'reach_agent',
    request: 'I want to file a complaint about my broken phone, please open a ticket.',
    writes: 1,
  },
  { id: 'weather-zh', agent_id: 'reach_agent', request: '北京明天天气怎么样？', writes: 0 },
  { id: 'ticket-zh', agent_id: 'reach_agent', request: '帮我提个工单，网页打不开', writes: 1 },
  { id: 'clarify-en', agent_id: 'reach_agent', request: 'What is the weather like?', writes: 0 },
];

/** One submitted task as the client saw it. */
export interface Submission {
  /** Position in the load (0-based). */
  index: number;
  template: string;
  idempotencyKey: string;
  /** The task id the API answered with; undefined when it never accepted the task. */
  taskId?: string;
  /** When the first attempt was sent (ms epoch). */
  firstAttemptAt: number;
  /** When the API answered 202 (ms epoch). */
  acceptedAt?: number;
  attempts: number;
  /** HTTP statuses (or 'network') of the attempts that were not a 202, in order. */
  refusals: string[];
  /** Set when the client gave up (a 4xx, or no 202 within the give-up time). */
  gaveUp?: string;
}

export interface LoadOptions {
  apiUrl: string;
  apiKey: string;
  /** Unique per run and scenario: the Idempotency-Keys are `<keyPrefix>-<index>`. */
  keyPrefix: string;
  count: number;
  ratePerSecond: number;
  /** A submission not accepted within this long is given up. @default 180000 */
  giveUpMs?: number;
  /** Called after each acceptance (progress). */
  onAccepted?: (s: Submission) => void;
}

export interface Load {
  /** Every submission so far (accepted or still being retried). */
  submissions: Submission[];
  /** Resolves when every submission was accepted or given up. */
  done: Promise<Submission[]>;
  /** Resolves when the last submission's first attempt was sent. */
  allSent: Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the load now; `count` tasks at `ratePerSecond`, templates in round robin. */
export function startLoad(options: LoadOptions): Load {
  const submissions: Submission[] = [];
  const giveUpMs = options.giveUpMs ?? 180_000;
  const intervalMs = 1000 / options.ratePerSecond;
  const started = Date.now();
  const pending: Promise<void>[] = [];

  const submitOne = async (index: number): Promise<void> => {
    const template = TEMPLATES[index % TEMPLATES.length]!;
    const s: Submission = {
      index,
      template: template.id,
      idempotencyKey: `${options.keyPrefix}-${String(index)}`,
      firstAttemptAt: Date.now(),
      attempts: 0,
      refusals: [],
    };
    submissions.push(s);
    const body = JSON.stringify({
      request: template.request,
      agent_id: template.agent_id,
      ...(template.fresh ? { needs_fresh_data: true } : {}),
    });
    for (;;) {
      s.attempts++;
      let retryAfterMs = 500;
      try {
        const res = await fetch(new URL('/v1/tasks', options.apiUrl), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${options.apiKey}`,
            'idempotency-key': s.idempotencyKey,
          },
          body,
          signal: AbortSignal.timeout(15_000),
        });
        const answer = (await res.json().catch(() => ({}))) as { task_id?: string };
        if (res.status === 202 && answer.task_id) {
          s.taskId = answer.task_id;
          s.acceptedAt = Date.now();
          options.onAccepted?.(s);
          return;
        }
        s.refusals.push(String(res.status));
        if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
          s.gaveUp = `HTTP ${String(res.status)}: ${JSON.stringify(answer).slice(0, 300)}`;
          return;
        }
        const header = Number(res.headers.get('retry-after'));
        if (Number.isFinite(header) && header > 0) retryAfterMs = Math.min(header * 1000, 5000);
      } catch (error) {
        s.refusals.push(`network:${(error as Error).name}`);
      }
      if (Date.now() - s.firstAttemptAt > giveUpMs) {
        s.gaveUp = `not accepted within ${String(giveUpMs)} ms (${String(s.attempts)} attempts)`;
        return;
      }
      await sleep(retryAfterMs);
    }
  };

  const allSent = (async () => {
    for (let i = 0; i < options.count; i++) {
      const due = started + i * intervalMs;
      const wait = due - Date.now();
      if (wait > 0) await sleep(wait);
      pending.push(submitOne(i));
    }
  })();
  const done = allSent.then(async () => {
    await Promise.all(pending);
    return submissions;
  });
  return { submissions, done, allSent };
}
