// `signalbox submit` (IF-2): submits a task through the HTTP API (IF-1), so the CLI goes through the same
// validation, tenant key and event-log-first path as any client.
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import type { CliIo, CommandResult } from '../io.js';

export interface SubmitOptions {
  agent: string;
  apiUrl?: string;
  apiKey?: string;
  scenario?: string;
  timeZone?: string;
  referenceTime?: string;
  idempotencyKey?: string;
}

/** POSTs the request to `<api>/v1/tasks`; prints the task id (and the API's field errors on a 4xx). */
export async function submit(io: CliIo, request: string, opts: SubmitOptions): Promise<CommandResult> {
  const api = opts.apiUrl ?? io.env.SIGNALBOX_API_URL;
  const key = opts.apiKey ?? io.env.SIGNALBOX_API_KEY;
  if (!api) throw new UsageError('SIGNALBOX_API_URL is not set (or pass --api-url)');
  if (!key) throw new UsageError('SIGNALBOX_API_KEY is not set (or pass --api-key)');
  const body = {
    request,
    agent_id: opts.agent,
    ...(opts.scenario ? { scenario: opts.scenario } : {}),
    ...(opts.timeZone ? { time_zone: opts.timeZone } : {}),
    ...(opts.referenceTime ? { reference_time: opts.referenceTime } : {}),
  };
  const res = await fetch(new URL('/v1/tasks', api), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      ...(opts.idempotencyKey ? { 'idempotency-key': opts.idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const error = (answer.error ?? {}) as { code?: string; fields?: { path: string; message: string }[] };
    return {
      exitCode: 1,
      json: { status: res.status, ...answer },
      text: [
        `refused: HTTP ${String(res.status)} ${error.code ?? ''}`.trim(),
        ...(error.fields ?? []).map((f) => `  ${f.path}: ${f.message}`),
      ],
    };
  }
  return {
    exitCode: 0,
    json: { status: res.status, ...answer },
    text: [
      `submitted: task ${String(answer.task_id)} (follow it with \`signalbox trace ${String(answer.task_id)}\`)`,
    ],
  };
}

export function registerSubmit(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('submit')
    .description('submit a task through the HTTP API')
    .argument('<request>', 'what the agent was asked')
    .requiredOption('--agent <id>', 'the agent the request is for')
    .option('--api-url <url>', 'the API (default: $SIGNALBOX_API_URL)')
    .option('--api-key <key>', 'the tenant API key (default: $SIGNALBOX_API_KEY)')
    .option('--scenario <id>', 'a scenario hint')
    .option('--time-zone <tz>', 'IANA time zone of the request')
    .option('--reference-time <iso>', '"now" for relative dates')
    .option('--idempotency-key <key>', 'submitting again with the same key returns the same task')
    .action(async (request: string, opts: SubmitOptions) => {
      done(await submit(io, request, opts));
    });
}
