// RS-1 / EX-3 under a real crash: the executor's real src/main.ts runs as a child process on real Kafka, the
// schema registry and PostgreSQL, and is SIGKILLed right after a write tool acted. After a restart the tool has
// acted exactly once (the test server counts and dedupes by Idempotency-Key, like a real API) and the step
// completes with exactly one step_executed event.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { publishExecutorStep } from '../support/executor-step.js';
import { workerEnv } from '../support/services.js';
import { prefixedBus } from '../support/topics.js';
import { waitFor } from '../support/workers.js';

const testDir = fileURLToPath(new URL('../', import.meta.url));
let schema: IsolatedSchema;
let registryDir: string;

/** A write API that acts once per Idempotency-Key and can kill the executor at the moment it acted. */
interface WriteApi {
  url: string;
  acted: number;
  requests: string[];
  /** Called once, on the first request, right after acting; `respond` answers it. */
  onFirstAct?: (respond: () => void) => void;
  close(): Promise<void>;
}

async function startWriteApi(): Promise<WriteApi> {
  const receipts = new Map<string, unknown>();
  const api: WriteApi = { url: '', acted: 0, requests: [], close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = String(req.headers['idempotency-key'] ?? '');
      api.requests.push(key);
      const respond = (value: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      const known = receipts.get(key);
      if (known) {
        respond(known);
        return;
      }
      api.acted++;
      const receipt = { refund_id: `rf-${String(api.acted)}`, key };
      receipts.set(key, receipt);
      const hook = api.onFirstAct;
      api.onFirstAct = undefined;
      if (hook)
        hook(() => {
          respond(receipt);
        });
      else respond(receipt);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  api.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        resolve();
      });
    });
  return api;
}

function registryYaml(apiUrl: string): string {
  // JSON is YAML: the registry loader reads it as any other file.
  return JSON.stringify({
    tools: [
      {
        name: 'refund_apply',
        description: {
          purpose: 'Apply a refund to an order.',
          returns: 'A refund receipt.',
          not_for: 'Looking up orders (use order_status_query).',
        },
        parameters: {
          type: 'object',
          properties: { order_id: { type: 'string' }, amount: { type: 'number' } },
          required: ['order_id', 'amount'],
        },
        action: 'write',
        permission: 'write',
        side_effects: 'creates a refund',
        idempotent: true,
        owner_agent: 'refund_agent',
        scenarios: ['refund'],
        evidence: 'action_receipt',
        timeout_ms: 2000,
        transport: { kind: 'http', method: 'POST', url: `${apiUrl}/refunds` },
      },
    ],
    agents: [{ id: 'refund_agent', description: 'Handles refunds.', max_permission: 'write' }],
    tenants: [{ id: 'default' }],
  });
}

beforeAll(async () => {
  schema = await createMigratedSchema('executor_crash');
  registryDir = await mkdtemp(join(tmpdir(), 'executor-crash-'));
});
afterAll(async () => {
  await schema.drop();
  await rm(registryDir, { recursive: true, force: true });
});

function startExecutor(env: Record<string, string>): {
  child: ChildProcess;
  exited: Promise<NodeJS.Signals | null>;
  output: () => string;
} {
  // The executor's real main.ts, from its sources, as production would run it.
  const child = spawn(
    process.execPath,
    ['--conditions=@signalbox/source', '--import', 'tsx', '../services/executor/src/main.ts'],
    {
      cwd: testDir,
      env: { ...process.env, LOG_LEVEL: 'warn', HTTP_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once('exit', (_code, signal) => {
      resolve(signal);
    }),
  );
  return { child, exited, output: () => out };
}

describe('executor crash right after a write tool acted (SIGKILL)', () => {
  for (const moment of ['before the response', 'after the response'] as const) {
    it(`acts exactly once and completes the step when killed ${moment}`, async () => {
      const api = await startWriteApi();
      const prefix = `${uniqueName('excrash')}.`;
      const bus = prefixedBus('executor-crash-test', prefix);
      const workers: ReturnType<typeof startExecutor>[] = [];
      try {
        // The plan pins the tool's definition hash (RG-3), computed by the registry package.
        const {
          taskId,
          dir,
          observer,
          executed: seen,
        } = await publishExecutorStep(bus, prefix, registryDir, registryYaml(api.url), {
          tool: 'refund_apply',
          arguments: { order_id: '20240917001', amount: 25 },
          agent: 'refund_agent',
          scenario: 'refund',
        });
        const env = {
          ...workerEnv({ prefix, schema, registryDir: dir }),
          SIGNALBOX_GROUP_ID: uniqueName('executor'),
          SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(api.url).host,
          KAFKA_COMMIT_INTERVAL_MS: '0',
        };
        const first = startExecutor(env);
        workers.push(first);
        api.onFirstAct = (respond) => {
          if (moment === 'after the response') {
            respond();
            first.child.kill('SIGKILL');
          } else {
            // The tool acted; the executor dies before it hears back.
            first.child.kill('SIGKILL');
            void first.exited.then(respond);
          }
        };
        expect(await first.exited, first.output()).toBe('SIGKILL');
        expect(api.acted).toBe(1);
        const events = async () =>
          (
            await schema.pool.query<{ n: string }>(
              `SELECT count(*) AS n FROM events WHERE stage = 'executor' AND event_type = 'step_executed' AND task_id = $1`,
              [taskId],
            )
          ).rows[0]?.n;
        expect(await events()).toBe('0');

        const second = startExecutor(env);
        workers.push(second);
        await waitFor(async () => (await events()) === '1', 'the step_executed event after restart', 50_000);
        await waitFor(() => seen.length > 0, 'step_executed downstream', 20_000);

        expect(api.acted).toBe(1);
        expect(new Set(api.requests).size).toBe(1);
        expect(await events()).toBe('1');
        const result = seen[0]!.payload.result;
        expect(result).toMatchObject({
          ok: true,
          output: { refund_id: 'rf-1' },
          output_kind: 'action_receipt',
        });
        expect(api.requests[0]).toBe(result.idempotency_key);
        const calls = await schema.pool.query<{ status: string; send_count: number }>(
          'SELECT status, send_count FROM executor_calls WHERE task_id = $1',
          [taskId],
        );
        expect(calls.rows).toHaveLength(1);
        expect(calls.rows[0]!.status).toBe('succeeded');
        if (moment === 'before the response') {
          // The key was left `started`; the restarted executor re-sent it with the same Idempotency-Key.
          expect(api.requests).toHaveLength(2);
          expect(calls.rows[0]!.send_count).toBe(2);
        }
        await observer.stop();
      } finally {
        for (const w of workers)
          if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
        await Promise.all(workers.map((w) => w.exited));
        await bus.close();
        await api.close();
      }
    });
  }
});
