// `signalbox submit` (IF-2): submits a task through the HTTP API (IF-1) with @signalbox/client, so the CLI goes
// through the same validation, tenant key and event-log-first path as any client — and, with `--wait`, follows the
// task's server-sent events to its result.
import {
  SignalboxApiError,
  SignalboxClientError,
  SignalboxTimeoutError,
  createSignalboxClient,
  type SubmitTaskRequest,
  type TaskStatus,
} from '@signalbox/client';
import type { Command } from 'commander';
import { devServerFile, readDevServer } from '../dev/dev-server-file.js';
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
  /** Wait for the result (server-sent events) and print it. */
  wait?: boolean;
  /** Seconds `--wait` waits at most. @default 120 */
  timeout?: string;
}

/** Where `submit` sends the task, and how the CLI found it. */
export interface SubmitTarget {
  url: string;
  apiKey: string;
  source: 'flag' | 'environment' | 'dev server';
}

/**
 * `--api-url` / `--api-key`, else `$SIGNALBOX_API_URL` / `$SIGNALBOX_API_KEY`, else — only when no URL is given — the
 * running dev server's record (its URL and development key; a recorded key is never sent to another URL). Throws
 * UsageError naming what is missing.
 */
export function submitTarget(
  env: CliIo['env'],
  opts: Pick<SubmitOptions, 'apiUrl' | 'apiKey'>,
): SubmitTarget {
  const given = opts.apiUrl ?? env.SIGNALBOX_API_URL;
  const dev = given === undefined ? readDevServer(env) : undefined;
  const url = given ?? dev?.url;
  if (url === undefined) {
    throw new UsageError(
      `no API to submit to: pass --api-url and --api-key, set SIGNALBOX_API_URL and SIGNALBOX_API_KEY, or start ` +
        `\`signalbox dev\` (no running dev server is recorded in ${devServerFile(env)})`,
    );
  }
  const apiKey = opts.apiKey ?? env.SIGNALBOX_API_KEY ?? dev?.api_key;
  if (!apiKey) throw new UsageError('SIGNALBOX_API_KEY is not set (or pass --api-key)');
  return {
    url,
    apiKey,
    source:
      opts.apiUrl !== undefined ? 'flag' : env.SIGNALBOX_API_URL !== undefined ? 'environment' : 'dev server',
  };
}

function timeoutMs(seconds: string | undefined): number {
  if (seconds === undefined) return 120_000;
  const value = Number(seconds);
  if (!Number.isFinite(value) || value <= 0) {
    throw new UsageError(`--timeout must be a positive number of seconds, got ${seconds}`);
  }
  return Math.round(value * 1000);
}

/** The lines of a finished (or failed) task. */
function outcomeLines(status: TaskStatus): string[] {
  const result = status.result;
  if (status.state === 'failed') {
    return [
      `failed: ${status.last_event.stage} dead-lettered its input (${status.last_event.decision_reason})`,
    ];
  }
  if (result === null) return [`${status.state}: ${status.last_event.decision_reason}`];
  const lines = [`${result.status}: ${status.last_event.decision_reason}`];
  if (status.answer) lines.push(`  answer (${status.answer.tool}): ${JSON.stringify(status.answer.output)}`);
  for (const question of result.questions) lines.push(`  question: ${question}`);
  for (const issue of result.issues) lines.push(`  issue: ${issue}`);
  if (status.pending_confirmation) {
    const pending = status.pending_confirmation;
    lines.push(
      `  confirm ${pending.tool} ${JSON.stringify(pending.arguments)}: answer with the confirmation ` +
        `{ "tool": "${pending.tool}", "arguments_hash": "${pending.arguments_hash}" } (POST ${status.links.answers})`,
    );
  } else if (status.awaiting_answer) {
    lines.push(`  answer it: POST ${status.links.answers} { "answer": "…" } (or in the viewer)`);
  }
  return lines;
}

/**
 * Submits the request to `<api>/v1/tasks`; prints the task id (and the API's field errors on a 4xx). With `wait`,
 * follows the task to its result.
 */
export async function submit(io: CliIo, request: string, opts: SubmitOptions): Promise<CommandResult> {
  const target = submitTarget(io.env, opts);
  const waitFor = opts.wait ? timeoutMs(opts.timeout) : undefined;
  const client = createSignalboxClient({ baseUrl: target.url, apiKey: target.apiKey });
  const where = target.source === 'dev server' ? ` (the dev server at ${target.url})` : '';
  const body: SubmitTaskRequest = {
    request,
    agent_id: opts.agent,
    ...(opts.scenario ? { scenario: opts.scenario } : {}),
    ...(opts.timeZone ? { time_zone: opts.timeZone } : {}),
    ...(opts.referenceTime ? { reference_time: opts.referenceTime } : {}),
  };
  let submitted;
  try {
    submitted = await client.submitTask(
      body,
      opts.idempotencyKey !== undefined ? { idempotencyKey: opts.idempotencyKey } : {},
    );
  } catch (error) {
    if (error instanceof SignalboxApiError) {
      return {
        exitCode: 1,
        json: {
          status: error.status,
          error: { code: error.code, message: error.apiMessage, fields: error.fields },
        },
        text: [
          `refused: HTTP ${String(error.status)} ${error.code}: ${error.apiMessage}`,
          ...error.fields.map((f) => `  ${f.path}: ${f.message}`),
        ],
      };
    }
    if (error instanceof SignalboxClientError) {
      return { exitCode: 1, json: { error: { message: error.message } }, text: [`${error.message}${where}`] };
    }
    throw error;
  }
  const { task_id: taskId } = submitted;
  const json: Record<string, unknown> = {
    status: 202,
    ...submitted,
    api_url: target.url,
    api_source: target.source,
  };
  const text = [
    `submitted${where}: task ${taskId}${submitted.replayed ? ' (the same Idempotency-Key made it before)' : ''}` +
      (waitFor === undefined ? ` (follow it with \`signalbox trace ${taskId}\`)` : ''),
  ];
  if (waitFor === undefined) return { exitCode: 0, json, text };

  try {
    const final = await client.waitForTask(taskId, {
      timeoutMs: waitFor,
      onStatus: (status) => {
        io.stderr(
          `${status.last_event.stage} ${status.last_event.event_type}: ${status.last_event.decision_reason}\n`,
        );
      },
    });
    const ok = final.state === 'finished' && final.result?.status !== 'failed';
    return { exitCode: ok ? 0 : 1, json: { ...json, task: final }, text: [...text, ...outcomeLines(final)] };
  } catch (error) {
    if (error instanceof SignalboxTimeoutError) {
      return {
        exitCode: 1,
        json: { ...json, error: { message: error.message } },
        text: [...text, `${error.message}: follow it with \`signalbox trace ${taskId}\``],
      };
    }
    if (error instanceof SignalboxClientError) {
      return {
        exitCode: 1,
        json: { ...json, error: { message: error.message } },
        text: [...text, error.message],
      };
    }
    throw error;
  }
}

export function registerSubmit(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('submit')
    .description(
      'submit a task through the HTTP API (the running `signalbox dev` server unless told otherwise)',
    )
    .argument('<request>', 'what the agent was asked')
    .requiredOption('--agent <id>', 'the agent the request is for')
    .option('--api-url <url>', 'the API (default: $SIGNALBOX_API_URL, else the running dev server)')
    .option('--api-key <key>', 'the tenant API key (default: $SIGNALBOX_API_KEY, else the dev server’s key)')
    .option('--scenario <id>', 'a scenario hint')
    .option('--time-zone <tz>', 'IANA time zone of the request')
    .option('--reference-time <iso>', '"now" for relative dates')
    .option(
      '--idempotency-key <key>',
      'submitting again with the same key returns the same task (default: a new key)',
    )
    .option('--wait', 'follow the task (server-sent events) and print its result')
    .option('--timeout <seconds>', 'how long --wait waits at most (default 120)')
    .action(async (request: string, opts: SubmitOptions) => {
      done(await submit(io, request, opts));
    });
}
