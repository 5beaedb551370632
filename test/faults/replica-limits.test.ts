// Issue 21 item 3: a tool's declared `limits` hold per tool across executor replicas, not per process. Two real
// executor processes (services/executor/src/main.ts) share one consumer group on real Kafka, the schema registry and
// PostgreSQL; a burst of prepared calls of one rate- and concurrency-limited read tool is split between them, and the
// tool's backend (a test HTTP server) records when each call arrived, from which replica, and how many ran at once.
// With a limiter per process, the backend sees twice the declared rate and concurrency.
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOPICS, type TopicMessage } from '@signalbox/contracts';
import { stepPrepared } from '@signalbox/executor/testing';
import { uniqueName, type IsolatedSchema } from '@signalbox/test-support';
import { createMigratedSchema } from '../support/event-log-schema.js';
import { writeRegistryDir } from '../support/registry-dir.js';
import {
  startServiceProcess,
  stopServiceProcess,
  workerEnv,
  type ServiceProcess,
} from '../support/services.js';
import { collectMessages, prefixedBus, prepareTopics } from '../support/topics.js';
import { waitFor } from '../support/workers.js';

/** The declared limits under test: at most 2 calls at once, a bucket of 3 refilled at 3 a second. */
const CONCURRENCY = 2;
const BURST = 3;
const PER_SECOND = 3;
const CALLS = 24;
/** How long the backend takes per call: 2 slots serve ~6.7 calls/s, so the rate limit is what binds. */
const SERVICE_MS = 300;
/**
 * A token is granted in PostgreSQL; the call reaches the backend a moment later (an HTTP request from a process on a
 * busy machine). Arrival times are allowed this much delay between two calls beyond what the bucket permits.
 */
const ARRIVAL_JITTER_S = 0.5;

interface Backend {
  url: string;
  arrivals: { at: number; replica: string }[];
  maxInFlight: number;
  close(): Promise<void>;
}

/** The tool's backend: records arrivals (time, which replica's base URL), holds each call SERVICE_MS. */
async function startBackend(): Promise<Backend> {
  let inFlight = 0;
  const backend: Backend = { url: '', arrivals: [], maxInFlight: 0, close: () => Promise.resolve() };
  const server = http.createServer((req, res) => {
    req.resume();
    inFlight++;
    backend.maxInFlight = Math.max(backend.maxInFlight, inFlight);
    backend.arrivals.push({ at: Date.now(), replica: (req.url ?? '').split('/')[1] ?? '' });
    setTimeout(() => {
      inFlight--;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ value: backend.arrivals.length }));
    }, SERVICE_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  backend.url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  backend.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        resolve();
      });
    });
  return backend;
}

function registryJson(): string {
  // The URL is a path on a base URL each replica reads from its own environment, so the backend can tell the
  // replicas apart while the definition (and its pinned hash, RG-3) is the same for both.
  return JSON.stringify({
    tools: [
      {
        name: 'limited_lookup',
        description: {
          purpose: 'Look something up in a rate-limited backend.',
          returns: 'A value.',
          not_for: 'Writes (use none).',
        },
        parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
        action: 'read',
        permission: 'read_only',
        owner_agent: 'limits_agent',
        scenarios: ['limits'],
        evidence: 'lead',
        // The longest a call waits for a slot and a token before it is refused `rate_limited`.
        timeout_ms: 30_000,
        limits: {
          concurrency: CONCURRENCY,
          rate_limit: { requests: BURST, per_seconds: BURST / PER_SECOND },
        },
        transport: { kind: 'http', method: 'POST', url: 'lookup', base_url_env: 'LIMITS_TEST_BASE_URL' },
      },
    ],
    agents: [{ id: 'limits_agent', description: 'Looks things up.', max_permission: 'read_only' }],
    tenants: [{ id: 'default' }],
  });
}

let schema: IsolatedSchema;
let registryRoot: string;

beforeAll(async () => {
  schema = await createMigratedSchema('replica_limits');
  registryRoot = await mkdtemp(join(tmpdir(), 'replica-limits-'));
});
afterAll(async () => {
  await schema.drop();
  await rm(registryRoot, { recursive: true, force: true });
});

describe('tool limits across two executor replicas', () => {
  it('the backend never sees more than the declared concurrency and rate, with calls served by both replicas', async () => {
    const backend = await startBackend();
    const prefix = `${uniqueName('replimits')}.`;
    const bus = prefixedBus('replica-limits-test', prefix);
    const replicas: ServiceProcess[] = [];
    try {
      await prepareTopics(bus, prefix);
      const executed: TopicMessage<'stepExecuted'>[] = [];
      const observer = await collectMessages(bus, TOPICS.stepExecuted, (value) =>
        executed.push(value as TopicMessage<'stepExecuted'>),
      );
      const dir = join(registryRoot, prefix);
      const registry = await writeRegistryDir(dir, registryJson());
      const groupId = uniqueName('executor');
      for (const replica of ['a', 'b']) {
        replicas.push(
          startServiceProcess('executor', {
            ...workerEnv({ prefix, schema, registryDir: dir }),
            SIGNALBOX_GROUP_ID: groupId,
            SIGNALBOX_EXECUTOR_ALLOW_HOSTS: new URL(backend.url).host,
            LIMITS_TEST_BASE_URL: `${backend.url}/${replica}/`,
          }),
        );
      }
      await Promise.all(replicas.map((r) => r.started));
      // Both replicas joined one group: the six partitions are split between them before the burst.
      await new Promise((r) => setTimeout(r, 8000));
      const taskIds = Array.from({ length: CALLS }, (_, i) => `${prefix}task-${String(i)}`);
      await bus.publish(
        taskIds.map((taskId, n) => ({
          topic: TOPICS.stepPrepared,
          key: taskId,
          value: stepPrepared({
            registry,
            taskId,
            tool: 'limited_lookup',
            arguments: { n },
            agent: 'limits_agent',
            scenario: 'limits',
            needsFreshData: true,
          }),
        })),
      );
      await waitFor(
        () => new Set(executed.map((m) => m.task_id)).size >= CALLS,
        `${String(CALLS)} step_executed`,
        90_000,
      );
      await observer.stop();

      const results = executed.map((m) => m.payload.result);
      expect(
        results.filter((r) => !r.ok).map((r) => r.error_message),
        'every call succeeded',
      ).toEqual([]);
      expect(backend.arrivals).toHaveLength(CALLS);
      const byReplica: Record<string, number> = {};
      for (const a of backend.arrivals) byReplica[a.replica] = (byReplica[a.replica] ?? 0) + 1;
      expect(Object.keys(byReplica).sort(), 'both replicas called the tool').toEqual(['a', 'b']);

      expect(backend.maxInFlight, 'calls at once').toBeLessThanOrEqual(CONCURRENCY);

      // Token bucket: in any span of Δ seconds at most BURST + PER_SECOND × Δ calls start.
      const at = backend.arrivals.map((a) => a.at).sort((x, y) => x - y);
      const excess: string[] = [];
      for (let i = 0; i < at.length; i++)
        for (let j = i + 1; j < at.length; j++) {
          const span = (at[j]! - at[i]!) / 1000;
          const allowed = BURST + PER_SECOND * (span + ARRIVAL_JITTER_S);
          if (j - i + 1 > allowed)
            excess.push(
              `${String(j - i + 1)} calls within ${span.toFixed(3)} s (allowed ${allowed.toFixed(1)})`,
            );
        }
      expect(excess, 'spans with more calls than the rate limit allows').toEqual([]);
      const spanS = (at.at(-1)! - at[0]!) / 1000;
      expect(spanS).toBeGreaterThanOrEqual((CALLS - BURST) / PER_SECOND - ARRIVAL_JITTER_S);
      console.log(
        `[replica-limits] ${String(CALLS)} calls over ${spanS.toFixed(2)} s ` +
          `(${((CALLS - 1) / spanS).toFixed(2)}/s; declared ${String(PER_SECOND)}/s, burst ${String(BURST)}), ` +
          `max ${String(backend.maxInFlight)} at once (declared ${String(CONCURRENCY)}); ` +
          `replica a ${String(byReplica.a ?? 0)}, b ${String(byReplica.b ?? 0)}`,
      );
    } finally {
      await Promise.all(replicas.map((r) => stopServiceProcess(r)));
      await bus.close();
      await backend.close();
    }
  }, 180_000);
});
