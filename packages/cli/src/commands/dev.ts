// `signalbox dev` (README command 1, `npm start`): the embedded run — all five stages in one process over the
// in-memory bus and PGlite with the demo tools — and each trace's timeline (EL-6); then, unless `--once`, the same
// stages kept serving behind the HTTP API and the trace viewer on loopback until Ctrl-C (dev/server.ts).
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import type { TraceTimeline } from '@signalbox/event-log';
import { removeDevServer, writeDevServer } from '../dev/dev-server-file.js';
import { runEmbedded, type EmbeddedTrace } from '../dev/embedded.js';
import { DEMO_REQUESTS, type PackName } from '../dev/scenarios.js';
import { DEV_ALLOW_HOSTS, startDevServer, type DevServer } from '../dev/server.js';
import { UsageError } from '../errors.js';
import { writeCorpus } from './replay.js';
import type { CliIo, CommandResult } from '../io.js';

const PACKS: readonly PackName[] = ['after-sales', 'office', 'research', 'reach'];
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** A readable timeline: one line per decision with its stage, event, reason, revision and degraded flag. */
export function formatTimeline(timeline: TraceTimeline, title?: string): string[] {
  const loops = Object.entries(timeline.loops)
    .filter(([, n]) => n > 0)
    .map(([loop, n]) => `${loop}×${String(n)}`)
    .join(' ');
  const lines = [
    `── ${title ? `${title} · ` : ''}${timeline.task_id} · agent ${timeline.agent_id} · ${timeline.status ?? timeline.state} · ` +
      `${String(timeline.duration_ms)} ms · ${String(timeline.events.length)} events${loops ? ` · loops ${loops}` : ''}`,
  ];
  for (const e of timeline.events) {
    const flags = `rev ${String(e.revision_count)}${e.degraded_flag ? ' DEGRADED' : ''}${e.loop ? ` ↺ ${e.loop}` : ''}`;
    const reason =
      e.decision_reason.length > 150 ? `${e.decision_reason.slice(0, 147)}...` : e.decision_reason;
    lines.push(
      `  +${String(e.since_start_ms).padStart(5)} ms  ${e.stage.padEnd(18)} ${e.event_type.padEnd(20)} ${flags.padEnd(8)}  ${reason}`,
    );
  }
  return lines;
}

function traceLines(trace: EmbeddedTrace): string[] {
  const lines = formatTimeline(trace.timeline, trace.request.title);
  lines.splice(1, 0, `  request: "${trace.request.request}"`);
  if (trace.final?.questions.length) lines.push(`  asks: ${trace.final.questions.join(' | ')}`);
  const evidence = trace.final?.evidence;
  if (evidence) {
    const shown = JSON.stringify(evidence.output);
    lines.push(`  evidence (${evidence.tool}): ${shown.length > 200 ? `${shown.slice(0, 197)}...` : shown}`);
  }
  return lines;
}

/** Options of `signalbox dev`. */
export interface DevCommandOptions {
  pack?: string[];
  record?: string;
  /** Run the demo and exit (today's embedded run) instead of serving. */
  once?: boolean;
  port?: number;
  apiKey?: string;
  data?: string;
  registry?: string[];
  allowHost?: string[];
  databasePort?: number;
  /** false: serve without running the demo requests first. @default true */
  demo?: boolean;
  /** `--json`: stdout carries one object at the end, so what a person reads meanwhile goes to stderr. */
  json?: boolean;
}

function checkPacks(packs: readonly string[]): PackName[] {
  for (const p of packs) {
    if (!(PACKS as readonly string[]).includes(p))
      throw new UsageError(`unknown pack "${p}" (known: ${PACKS.join(', ')})`);
  }
  return packs as PackName[];
}

/**
 * `signalbox dev`: with `--once` (or `--record`) the one-off embedded run; else the dev server, until `stopped`
 * resolves (SIGINT or SIGTERM by default).
 */
export async function dev(
  io: CliIo,
  opts: DevCommandOptions,
  stopped: () => Promise<string> = untilSignal,
): Promise<CommandResult> {
  if (opts.once || opts.record) {
    for (const [flag, given] of [
      ['--no-demo', opts.demo === false ? true : undefined],
      ['--data', opts.data],
      ['--registry', opts.registry?.length ? opts.registry : undefined],
      ['--port', opts.port],
      ['--api-key', opts.apiKey],
      ['--allow-host', opts.allowHost?.length ? opts.allowHost : undefined],
      ['--database-port', opts.databasePort],
    ] as const) {
      if (given !== undefined)
        throw new UsageError(
          `${flag} is a setting of the dev server; the one-off run (--once, --record) has none`,
        );
    }
    return runOnce(io, opts);
  }
  return serve(io, opts, stopped);
}

/** Resolves with the signal's name at the first SIGINT or SIGTERM. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

function banner(server: DevServer, opts: DevCommandOptions): string[] {
  const status = server.status();
  const lines = [
    `Signalbox dev server — the API and the trace viewer over the embedded stages (Ctrl-C stops it)`,
    `  viewer:     ${server.viewerUrl}`,
    `  API:        ${server.url}/v1`,
    `  MCP:        ${server.url}/mcp   (X-Signalbox-Agent: <agent>; stdio: signalbox mcp --agent <agent>)`,
    `  API key:    ${server.apiKey}   (tenant default; the viewer asks for it; Authorization: Bearer <key>)`,
  ];
  if (server.databaseUrl)
    lines.push(
      `  event log:  ${server.databaseUrl}   (signalbox trace/redecide/redrive use it while this runs)`,
    );
  lines.push(
    `  data:       ${status.data_dir ?? 'in memory, gone at exit (--data DIR keeps it)'}`,
    `  SSRF allow-list for your tools (--allow-host): ${status.allow_hosts.join(', ') || '(none)'}`,
  );
  for (const r of status.registries)
    lines.push(
      `  registry:   ${r.dir} — ${r.state}${r.registry_version ? ` (agents ${r.agents.join(', ') || 'none'})` : ''}`,
    );
  lines.push(
    `  demo packs: ${status.pipelines
      .filter((p) => p.kind === 'pack')
      .map((p) => `${p.name} (${p.agents.join(', ')})`)
      .join(', ')}`,
    '',
    status.pipelines.some((p) => p.agents.includes('reach_agent'))
      ? `Try: signalbox submit "What is the weather in Berlin today?" --agent reach_agent`
      : `Try: signalbox submit "<a request>" --agent ${status.pipelines[0]?.agents[0] ?? '<agent>'}`,
    `     signalbox trace <task id>      (or open the viewer)`,
  );
  if (opts.demo === false) lines.push('(the demo requests were not run: --no-demo)');
  return lines;
}

async function serve(
  io: CliIo,
  opts: DevCommandOptions,
  stopped: () => Promise<string>,
): Promise<CommandResult> {
  const packs = checkPacks(opts.pack?.length ? opts.pack : PACKS);
  // Listened for from the start: Ctrl-C while the demo runs stops the server once it is up, drained like any stop.
  const stop = stopped();
  const say = (line: string) => {
    if (opts.json) io.stderr(`${line}\n`);
    else io.stdout(`${line}\n`);
  };
  io.stderr(
    `[dev] starting: ${String(packs.length)} demo pack(s), ${String(opts.registry?.length ?? 0)} registry folder(s)\n`,
  );
  let done = 0;
  const total = opts.demo === false ? 0 : DEMO_REQUESTS.filter((r) => packs.includes(r.pack)).length;
  let server: DevServer;
  try {
    server = await startDevServer({
      packs,
      runDemo: opts.demo !== false,
      ...(opts.port !== undefined ? { port: opts.port } : {}),
      ...(opts.apiKey !== undefined ? { apiKey: opts.apiKey } : {}),
      ...(opts.data !== undefined ? { dataDir: opts.data } : {}),
      ...(opts.registry?.length ? { registryDirs: opts.registry } : {}),
      ...(opts.allowHost?.length
        ? { allowHosts: opts.allowHost.includes('none') ? [] : opts.allowHost }
        : {}),
      ...(opts.databasePort !== undefined ? { databasePort: opts.databasePort } : {}),
      env: io.env,
      log: (line) => {
        io.stderr(`${line}\n`);
      },
      onListening: ({ url, apiKey, databaseUrl }) => {
        // The record first: `signalbox submit` and `trace` find the server while the demo still runs.
        writeDevServer(io.env, {
          url,
          api_key: apiKey,
          ...(databaseUrl ? { database_url: databaseUrl } : {}),
          pid: process.pid,
          started_at: new Date().toISOString(),
        });
        say(`[dev] serving ${url}/viewer — API key ${apiKey}`);
        if (total > 0)
          say(
            `[dev] running the ${String(total)} demo requests first${opts.data ? ' (unless this data folder holds them from an earlier run)' : ''}; their timelines follow`,
          );
      },
      onDemoFinished: (request) => {
        done++;
        io.stderr(`[dev] ${String(done)}/${String(total)} finished: ${request.title}\n`);
      },
    });
  } catch (error) {
    removeDevServer(io.env);
    throw error;
  }
  let signal: string;
  try {
    const { traces, skipped, actions } = server.demo;
    if (traces.length > 0) {
      say(
        'Signalbox embedded run: five stages, in-memory bus, PGlite, demo tools (no Kafka/Java/PostgreSQL)',
      );
      say('');
      for (const trace of traces) for (const line of [...traceLines(trace), '']) say(line);
      say(
        `side effects: ${Object.entries(actions)
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(', ')}`,
      );
      say('');
    }
    if (skipped.length > 0)
      say(
        `The demo ran on this data folder before; its traces are kept, not run again: ${skipped.join(', ')}\n`,
      );
    for (const line of banner(server, opts)) say(line);
    signal = await stop;
    io.stderr(`[dev] ${signal}: draining the stages and closing\n`);
  } finally {
    removeDevServer(io.env);
    await server.close();
  }
  return {
    exitCode: 0,
    json: {
      url: server.url,
      viewer_url: server.viewerUrl,
      database_url: server.databaseUrl ?? null,
      stopped_by: signal,
      demo: {
        traces: server.demo.traces.map((t) => ({
          title: t.request.title,
          task_id: t.task_id,
          status: t.timeline.status,
        })),
        skipped: server.demo.skipped,
      },
    },
    text: ['signalbox dev stopped'],
  };
}

/** The one-off embedded run for the given packs (default all four): run, print the timelines, exit. */
async function runOnce(io: CliIo, opts: { pack?: string[]; record?: string }): Promise<CommandResult> {
  const packs = checkPacks(opts.pack?.length ? opts.pack : PACKS);
  const requests = DEMO_REQUESTS.filter((r) => packs.includes(r.pack));
  let done = 0;
  const result = await runEmbedded({
    repoRoot,
    requests,
    // A replay corpus (EL-9) holds each decision's input as its stage saw it: with the secret values in place (the
    // demo's made-up addresses), not masked as the log shows them, or a re-decision would see other input.
    ...(opts.record ? { secrets: true } : {}),
    onFinished: (request) => {
      done++;
      io.stderr(`[dev] ${String(done)}/${String(requests.length)} finished: ${request.title}\n`);
    },
  });
  const text = [
    'Signalbox embedded run: five stages, in-memory bus, PGlite, demo tools (no Kafka/Java/PostgreSQL)',
    '',
  ];
  for (const trace of result.traces) text.push(...traceLines(trace), '');
  if (opts.record) {
    const files = await writeCorpus(result, opts.record);
    text.push(`recorded a replay corpus: ${files.join(', ')}`, '');
  }
  text.push(
    `side effects: ${Object.entries(result.actions)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ')}`,
  );
  return {
    exitCode: result.traces.every((t) => t.timeline.state === 'finished') ? 0 : 1,
    json: {
      traces: result.traces.map((t) => ({
        title: t.request.title,
        pack: t.request.pack,
        task_id: t.task_id,
        status: t.timeline.status,
        state: t.timeline.state,
        final: t.final,
        timeline: t.timeline,
      })),
      actions: result.actions,
    },
    text,
  };
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('expected a port number from 0 to 65535 (0 picks a free one)');
  return n;
}

const collect = (v: string, prev: string[]) => [...prev, v];

/** Registers `dev`. */
export function registerDev(program: Command, io: CliIo, done: (result: CommandResult) => void): void {
  program
    .command('dev')
    .description(
      'the embedded run (all five stages in one process, no Kafka/PostgreSQL): the demo requests, then the API and ' +
        'the trace viewer on 127.0.0.1 until Ctrl-C (--once: run the demo and exit)',
    )
    .option(
      '--pack <name>',
      `a demo scenario pack (${PACKS.join(', ')}); repeatable; default all`,
      collect,
      [],
    )
    .option('--once', 'run the demo requests, print their timelines and exit (no server)')
    .option(
      '--record <dir>',
      "with the one-off run: write each pack's traces as a replay corpus (EL-9) into this directory",
    )
    .option('--port <n>', 'port of the API and viewer on 127.0.0.1; 0 picks a free one (default: 8080)', port)
    .option('--api-key <key>', 'the development API key (default: a new random one, printed at start)')
    .option(
      '--data <dir>',
      'keep the event log in this PGlite folder across restarts (default: in memory). The demo requests have ' +
        'fixed task ids (dev-<pack>-<n>): on a folder that already holds them they are not run again',
    )
    .option(
      '--registry <dir>',
      'serve your own registry folder (tool, agent, scene, profile YAML as in registry/packs/) beside the demo ' +
        "packs — its agents replace a demo pack's of the same id; reloaded on change, the last good one kept; " +
        'repeatable',
      collect,
      [],
    )
    .option(
      '--allow-host <host:port>',
      `SSRF allow-list entry for your tools, e.g. 127.0.0.1:9000 or 10.0.0.0/8:443 ("none" for none); repeatable ` +
        `(default: ${DEV_ALLOW_HOSTS.join(', ')})`,
      collect,
      [],
    )
    .option(
      '--database-port <n>',
      'port of the event log over the PostgreSQL protocol on 127.0.0.1, for signalbox trace/redecide/redrive (default: a free one)',
      port,
    )
    .option('--no-demo', 'serve without running the demo requests first')
    .action(async (opts: DevCommandOptions) => {
      done(await dev(io, { ...opts, json: program.opts<{ json?: boolean }>().json === true }));
    });
}
