// OP-3 / issue 24: SIGTERM to the executor's real src/main.ts, on real Kafka, the schema registry and PostgreSQL,
// while a tool call is in flight. The worker is the one owner of the signal: the call finishes, its step_executed is
// appended, published and its input's offset committed, then every resource the process holds is closed, in order,
// and the process exits 0. Before, a second listener in main.ts lost the race to process.exit and the MCP clients
// and the executor's store were never closed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS } from '@signalbox/contracts';
import { prefixTopic } from '@signalbox/bus';
import { testEndpoints, uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { publishExecutorStep } from '../support/executor-step.js';
import { startServiceProcess } from '../support/services.js';
import { prefixedBus } from '../support/topics.js';
import { waitFor } from '../support/workers.js';

const endpoints = testEndpoints();
let schema: IsolatedSchema;
let registryDir: string;

beforeAll(async () => {
  schema = await createMigratedSchema('executor_sigterm');
  registryDir = await mkdtemp(join(tmpdir(), 'executor-sigterm-'));
});
afterAll(async () => {
  await schema.drop();
  await rm(registryDir, { recursive: true, force: true });
});

/** A lookup API that holds its first answer until the test lets it go. */
async function startHeldApi(): Promise<{
  url: string;
  requests: () => number;
  release: () => void;
  close: () => Promise<void>;
}> {
  let count = 0;
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      void released.then(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ order_id: '20240917001', status: 'shipped' }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    requests: () => count,
    release: () => {
      release();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function registryJson(apiUrl: string): string {
  return JSON.stringify({
    tools: [
      {
        name: 'order_status_query',
        description: {
          purpose: 'Look up the status of an order.',
          returns: 'The order status.',
          not_for: 'Changing orders.',
        },
        parameters: {
          type: 'object',
          properties: { order_id: { type: 'string' } },
          required: ['order_id'],
        },
        action: 'read',
        permission: 'read_only',
        side_effects: 'none',
        idempotent: true,
        owner_agent: 'support',
        scenarios: ['orders'],
        evidence: 'source',
        timeout_ms: 20_000,
        transport: { kind: 'http', method: 'POST', url: `${apiUrl}/orders/status` },
      },
    ],
    agents: [{ id: 'support', description: 'Answers order questions.', max_permission: 'read_only' }],
    tenants: [{ id: 'default' }],
  });
}

/** The `closed` lines the worker logged, in order: the resources it closed. */
function closedResources(output: string): string[] {
  return output.split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line) as { msg?: string; resource?: string };
      return entry.msg === 'closed' && entry.resource ? [entry.resource] : [];
    } catch {
      return [];
    }
  });
}

describe('executor SIGTERM with a tool call in flight', () => {
  it('finishes and commits the call, closes every resource in order, and exits 0', async () => {
    const api = await startHeldApi();
    const prefix = `${uniqueName('exterm')}.`;
    const groupId = uniqueName('executor');
    const bus = prefixedBus('executor-sigterm-test', prefix);
    const admin = new Kafka({
      brokers: endpoints.kafkaBrokers.split(','),
      clientId: 'executor-sigterm-admin',
      logLevel: logLevel.NOTHING,
    }).admin();
    let worker: ReturnType<typeof startServiceProcess> | undefined;
    try {
      await admin.connect();
      const {
        taskId,
        dir,
        observer,
        executed: seen,
      } = await publishExecutorStep(bus, prefix, registryDir, registryJson(api.url), {
        tool: 'order_status_query',
        arguments: { order_id: '20240917001' },
        agent: 'support',
        scenario: null,
      });

      worker = startServiceProcess('executor', {
        KAFKA_BROKERS: endpoints.kafkaBrokers,
        SCHEMA_REGISTRY_URL: endpoints.schemaRegistryUrl,
        DATABASE_URL: schema.url,
        SIGNALBOX_TOPIC_PREFIX: prefix,
        SIGNALBOX_GROUP_ID: groupId,
        SIGNALBOX_REGISTRY_DIR: dir,
        SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(api.url).host,
        KAFKA_COMMIT_INTERVAL_MS: '500',
        DRAIN_TIMEOUT_MS: '20000',
      });
      const running = worker;
      const exited = new Promise<number | null>((resolve) => running.child.once('exit', resolve));
      await running.started;
      await waitFor(() => api.requests() === 1, 'the tool call in flight', 40_000);

      running.child.kill('SIGTERM');
      await waitFor(() => running.output().includes('shutting down'), 'the drain to begin', 10_000);
      // Still in flight as the drain begins: nothing of it is appended yet.
      const executed = async () =>
        (
          await schema.pool.query<{ n: string }>(
            `SELECT count(*) AS n FROM events WHERE stage = 'executor' AND event_type = 'step_executed' AND task_id = $1`,
            [taskId],
          )
        ).rows[0]?.n;
      expect(await executed()).toBe('0');
      api.release();

      expect(await exited, running.output()).toBe(0);
      expect(running.child.signalCode).toBeNull();
      // The in-flight call was finished, appended and published…
      expect(await executed()).toBe('1');
      await waitFor(() => seen.length > 0, 'step_executed downstream', 20_000);
      expect(seen[0]!.payload.result).toMatchObject({ ok: true, output: { status: 'shipped' } });
      expect(api.requests()).toBe(1);
      // …and its input committed: a new owner of the group would not receive it again.
      const [offsets] = await admin.fetchOffsets({
        groupId,
        topics: [prefixTopic(TOPICS.stepPrepared, prefix).name],
      });
      const committed = (offsets?.partitions ?? []).reduce((n, p) => n + Math.max(0, Number(p.offset)), 0);
      expect(committed).toBe(1);
      // Every resource closed, in the order the worker owns: the stage first, what its work used next, the telemetry
      // (its last spans) at the end.
      expect(closedResources(running.output())).toEqual([
        'stage runtime',
        'mcp clients',
        'executor store',
        'bus',
        'event log',
        'health server',
        'telemetry',
      ]);
      await observer.stop();
    } finally {
      if (worker && worker.child.exitCode === null && worker.child.signalCode === null)
        worker.child.kill('SIGKILL');
      api.release();
      await admin.disconnect();
      await bus.close();
      await api.close();
    }
  });
});
