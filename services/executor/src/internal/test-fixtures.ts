// Builders shared by the executor's tests and the integration suites that run it: a real fault-injecting HTTP tool
// server, a small registry and step_prepared inputs. Test-only: exported through `@signalbox/executor/testing`,
// never from index.ts.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TopicMessage } from '@signalbox/contracts';
import {
  testMessage,
  testPlan,
  testPlanStep,
  testPreparedCall,
  testProgress,
  testSelection,
  testTask,
} from '@signalbox/contracts/testing';
import {
  createRegistry,
  RegistryContent,
  type Registry,
  type ToolDefinitionInput,
} from '@signalbox/registry';

/** One request the tool server saw. */
export interface SeenRequest {
  path: string;
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A real HTTP tool server on 127.0.0.1 that injects faults by path. */
export interface FaultServer {
  url: string;
  port: number;
  seen: SeenRequest[];
  /** How many times `/write` acted (after dedupe by Idempotency-Key). */
  acted(): number;
  /** Requests seen on one path. */
  hits(path: string): number;
  close(): Promise<void>;
}

/**
 * Paths: `/ok`, `/slow` (300 ms), `/hang` (never answers), `/500`, `/503-then-ok` (first 2 fail), `/429-then-ok`
 * (first answers 429 with `Retry-After: 1`), `/403`, `/empty` (200, no body), `/empty-list` (200, `[]`),
 * `/declared` (404 with declared code `order_not_found`), `/big` (≈ 100 kB), `/write` (acts once per
 * Idempotency-Key, like a real API, and answers with the same receipt for a repeated key), `/echo`.
 */
export async function startFaultServer(): Promise<FaultServer> {
  const seen: SeenRequest[] = [];
  const receipts = new Map<string, unknown>();
  let acted = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      seen.push({ path, method: req.method ?? '', headers: req.headers, body, at: Date.now() });
      const count = seen.filter((s) => s.path === path).length;
      const json = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(value));
      };
      switch (path) {
        case '/ok': {
          json(200, { value: 42, n: count });
          return;
        }
        case '/echo': {
          json(200, { body: JSON.parse(body || '{}') as unknown, query: req.url });
          return;
        }
        case '/slow':
          setTimeout(() => {
            json(200, { value: 'slow' });
          }, 300);
          return;
        case '/hang':
          return;
        case '/500': {
          json(500, { error: { code: 'boom', message: 'exploded\n    at secret (/srv/app.js:1:1)' } });
          return;
        }
        case '/503-then-ok': {
          if (count <= 2) json(503, { error: 'unavailable' });
          else json(200, { value: 'recovered', n: count });
          return;
        }
        case '/429-then-ok': {
          if (count === 1) json(429, { error: 'slow down' }, { 'retry-after': '1' });
          else json(200, { value: 'ok' });
          return;
        }
        case '/403': {
          json(403, { error: { code: 'forbidden', message: 'no' } });
          return;
        }
        case '/empty':
          res.writeHead(200);
          res.end();
          return;
        case '/empty-list': {
          json(200, []);
          return;
        }
        case '/declared': {
          json(404, { error: { code: 'order_not_found', message: 'no such order' } });
          return;
        }
        case '/big': {
          json(200, { rows: Array.from({ length: 2000 }, (_, i) => ({ i, text: 'x'.repeat(40) })) });
          return;
        }
        case '/write': {
          const key = String(req.headers['idempotency-key'] ?? '');
          const known = receipts.get(key);
          if (known) {
            json(200, known);
            return;
          }
          acted++;
          const receipt = { receipt_id: `r-${String(acted)}`, key };
          receipts.set(key, receipt);
          json(200, receipt);
          return;
        }
        default: {
          json(404, { error: 'no route' });
          return;
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    port,
    seen,
    acted: () => acted,
    hits: (path) => seen.filter((s) => s.path === path).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** An HTTP tool bound to `path` on `baseUrl` (a full URL), read-only unless overridden. */
export function httpTool(
  name: string,
  url: string,
  extra: Partial<ToolDefinitionInput> = {},
): ToolDefinitionInput {
  return {
    name,
    description: {
      purpose: `Test tool ${name}.`,
      returns: 'Test output.',
      not_for: 'Anything real (use none).',
    },
    action: 'read',
    permission: 'read_only',
    owner_agent: 'test_agent',
    scenarios: ['testing'],
    timeout_ms: 1000,
    transport: { kind: 'http', method: 'POST', url },
    ...extra,
  };
}

/** A registry with one agent (`test_agent`, may use sensitive tools), one tenant policy and the given tools. */
export function testRegistry(
  tools: ToolDefinitionInput[],
  tenants: unknown[] = [{ id: 'default' }],
): Registry {
  return createRegistry(
    RegistryContent.parse({
      tools,
      agents: [
        { id: 'test_agent', description: 'Runs the executor tests.', max_permission: 'sensitive' },
        { id: 'reader_agent', description: 'May only read.', max_permission: 'read_only' },
      ],
      scenes: [],
      tenants,
      profiles: [],
      policies: [],
      settings: {},
    }),
  );
}

/** A JSON value, as prepared-call arguments hold them. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** What a `step_prepared` input needs to vary in tests. */
export interface StepPreparedParts {
  registry: Registry;
  tool: string;
  arguments: Record<string, JsonValue>;
  taskId?: string;
  tenant?: string;
  agent?: string;
  scenario?: string | null;
  context?: { role: 'user' | 'assistant' | 'system' | 'tool'; content: string }[];
  needsFreshData?: boolean;
  /** Overrides the plan's pinned definition hash. */
  toolHash?: string;
  visibleTools?: string[];
}

/** A valid `step_prepared` message (envelope and payload) for the executor's decide. */
export function stepPrepared(p: StepPreparedParts): TopicMessage<'stepPrepared'> {
  const now = '2026-11-30T10:00:00.000Z';
  const taskId = p.taskId ?? `task-${randomUUID()}`;
  const step = testPlanStep({
    tool: p.tool,
    tool_definition_hash: p.toolHash ?? p.registry.versions.tool_hashes[p.tool] ?? 'sha256:none',
    purpose: 'test',
  });
  return testMessage(
    'stepPrepared',
    'step_prepared',
    {
      task: testTask({
        request: 'do the thing',
        context: p.context ?? [],
        locale: 'en-GB',
        time_zone: 'Europe/London',
        reference_time: now,
        required_modalities: [],
        scenario: p.scenario === undefined ? 'testing' : p.scenario,
        needs_fresh_data: p.needsFreshData ?? false,
      }),
      progress: testProgress({ started_at: now }),
      history: [],
      selection: testSelection(),
      plan: testPlan([step], { visible_tools: p.visibleTools ?? [p.tool] }),
      call: testPreparedCall({ tool: p.tool, arguments: p.arguments }),
    },
    {
      event_id: `evt-${randomUUID()}`,
      task_id: taskId,
      tenant_id: p.tenant ?? 'acme',
      agent_id: p.agent ?? 'test_agent',
      stage: 'parameter_injector',
      event_type: 'step_prepared',
      decision_reason: 'prepared',
      input_source: 'pipeline',
      registry_version: p.registry.versions.registry_version,
      occurred_at: now,
      schema_version: 1,
    },
  );
}
