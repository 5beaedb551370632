// The HTTP API with nothing but `fetch`: submit a task with an idempotency key, wait for its outcome with a capped
// backoff, and read its trace — what any language's HTTP client can do (the typed client, @signalbox/client, wraps
// the same calls).
//
//   SIGNALBOX_API_URL=http://127.0.0.1:8080 SIGNALBOX_API_KEY=… \
//   pnpm --filter @signalbox/examples fetch reach_agent "What's the weather in Beijing?"
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/** Options of {@link submitAndWait}. */
export interface SubmitAndWaitOptions {
  /** The Signalbox API, e.g. `http://127.0.0.1:8080`. */
  apiUrl: string;
  apiKey: string;
  /** The agent the task runs as. */
  agent: string;
  request: string;
  /** The same key always names the same task: a retried submission never starts a second one. @default random */
  idempotencyKey?: string;
  /** How long to wait for the outcome. @default 60000 */
  timeoutMs?: number;
}

/** The outcome: the task, its final status and result, and how many decisions its trace holds. */
export interface SubmitAndWaitResult {
  task_id: string;
  state: string;
  status: string | null;
  /** The last successful step's output (what an agent answers from). */
  output: unknown;
  questions: string[];
  trace_events: number;
}

async function api(
  options: SubmitAndWaitOptions,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Record<string, unknown>> {
  const res = await fetch(new URL(path, options.apiUrl), {
    ...init,
    headers: {
      authorization: `Bearer ${options.apiKey}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });
  const body = (await res.json()) as Record<string, unknown>;
  if (!res.ok) {
    const error = body.error as { code?: string; message?: string } | undefined;
    throw new Error(`${path}: HTTP ${String(res.status)} ${error?.code ?? ''}: ${error?.message ?? ''}`);
  }
  return body;
}

/** Submits `request`, waits until the task is no longer running, and reads its trace. */
export async function submitAndWait(options: SubmitAndWaitOptions): Promise<SubmitAndWaitResult> {
  const submitted = await api(options, '/v1/tasks', {
    method: 'POST',
    headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() },
    body: JSON.stringify({ request: options.request, agent_id: options.agent }),
  });
  const taskId = String(submitted.task_id);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let delay = 100;
  for (;;) {
    const task = await api(options, `/v1/tasks/${taskId}`);
    if (task.state !== 'running') {
      const result = task.result as {
        status: string;
        questions: string[];
        steps: { result: { ok: boolean; output: unknown } }[];
      } | null;
      const trace = await api(options, `/v1/traces/${taskId}`);
      return {
        task_id: taskId,
        state: String(task.state),
        status: result?.status ?? null,
        output: result?.steps.findLast((s) => s.result.ok)?.result.output ?? null,
        questions: result?.questions ?? [],
        trace_events: Array.isArray(trace.events) ? trace.events.length : 0,
      };
    }
    if (Date.now() > deadline)
      throw new Error(`task ${taskId} still running after ${String(options.timeoutMs ?? 60_000)} ms`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    // Capped backoff: quick answers are seen quickly, slow ones cost few requests.
    delay = Math.min(delay * 2, 2000);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [agent, ...words] = process.argv.slice(2);
  const apiUrl = process.env.SIGNALBOX_API_URL;
  const apiKey = process.env.SIGNALBOX_API_KEY;
  if (!agent || words.length === 0) throw new Error('usage: submit-and-wait <agent> <request…>');
  if (!apiUrl || !apiKey) throw new Error('set SIGNALBOX_API_URL and SIGNALBOX_API_KEY');
  const outcome = await submitAndWait({ apiUrl, apiKey, agent, request: words.join(' ') });
  process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
}
