import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deterministicEventId } from '@signalbox/contracts';
import { createPgEventStore, secretsAt, type EventStore, type ModelExchange } from '@signalbox/event-log';
import { hashModelRequest, type ModelRequest } from '@signalbox/providers';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import { UsageError } from '../errors.js';
import { bufferIo } from '../io.js';
import { redecide, trace } from './trace.js';

// The operator's view of a model-made decision (EL-6 + EL-7) on real PostgreSQL: `trace --exchanges` lists the model
// calls under the decision with the sensitive values redacted, and `redecide --live-models` is an explicit choice.

const endpoints = testEndpoints();
const packDir = fileURLToPath(new URL('../../../../registry/packs/after-sales', import.meta.url));
const phone = '+46 70 123 45 67';
let schema: IsolatedSchema;
let store: EventStore;

const request: ModelRequest = {
  messages: [
    { role: 'system', content: 'You fill in the arguments of one tool call.' },
    { role: 'user', content: `Request: my parcel is lost, call me on ${phone}` },
  ],
  toolChoice: { name: 'ticket_create' },
  temperature: 0,
};
const exchange: ModelExchange = {
  profile_id: 'light_model',
  model: 'gpt-4o-mini-2024-07-18',
  request_hash: hashModelRequest(request),
  request,
  response: {
    content: null,
    toolCalls: [
      {
        id: 'call_1',
        name: 'ticket_create',
        arguments: { contact: phone },
        rawArguments: JSON.stringify({ contact: phone }),
        argumentsError: null,
      },
    ],
    usage: { inputTokens: 120, outputTokens: 18 },
    model: 'gpt-4o-mini-2024-07-18',
    finishReason: 'tool_calls',
  },
  input_tokens: 120,
  output_tokens: 18,
  latency_ms: 640,
};

/** A second call the injector made, which failed: the endpoint refused it, quoting the prompt. */
const failed: ModelExchange = {
  profile_id: 'light_model',
  model: null,
  request_hash: hashModelRequest({ ...request, temperature: 0.2 }),
  request: { ...request, temperature: 0.2 },
  response: null,
  input_tokens: null,
  output_tokens: null,
  latency_ms: 30_000,
  error: {
    name: 'ProviderTimeoutError',
    message: `request timed out after 30000 ms\nwhile asking: call me on ${phone}`,
    timeout: true,
    retriable: true,
  },
};

beforeAll(async () => {
  schema = await createIsolatedSchema(endpoints.databaseUrl, 'cli-trace-exchanges');
  store = createPgEventStore({ connectionString: endpoints.databaseUrl, schema: schema.name });
  await store.migrate();
  const payload = { call: { step_index: 0, tool: 'ticket_create', arguments: { contact: phone } } };
  await store.append([
    {
      envelope: {
        event_id: deterministicEventId({
          task_id: 'tx-1',
          stage: 'parameter_injector',
          causation_id: 'ev_plan',
          event_type: 'decision',
        }),
        task_id: 'tx-1',
        tenant_id: 'default',
        agent_id: 'logistics_agent',
        stage: 'parameter_injector',
        event_type: 'step_prepared',
        causation_id: 'ev_plan',
        revision_count: 0,
        degraded_flag: false,
        decision_reason: 'prepared ticket_create step 0: contact←model',
        input_source: 'pipeline',
        registry_version: null,
        profiles_version: null,
        policy_version: null,
        occurred_at: new Date().toISOString(),
        schema_version: 1,
        traceparent: null,
      },
      topic: 'signalbox.step.prepared.v1',
      payload,
      secrets: secretsAt(payload, ['call.arguments.contact']),
      exchanges: [exchange, failed],
    },
  ]);
});

afterAll(async () => {
  await store.close();
  await schema.drop();
});

describe('signalbox trace --exchanges and redecide --live-models', () => {
  it('lists each model call under its decision, with the sensitive values redacted', async () => {
    const io = bufferIo(process.cwd(), { DATABASE_URL: endpoints.databaseUrl });
    const plain = await trace(io, 'tx-1', { schema: schema.name });
    expect(plain.json).not.toHaveProperty('exchanges');
    expect(plain.text.join('\n')).not.toContain('gpt-4o-mini');

    const result = await trace(io, 'tx-1', { schema: schema.name, exchanges: true });
    expect(result.text[2]).toBe(
      `      model gpt-4o-mini-2024-07-18 (light_model): 120 → 18 tokens, 640 ms, request ${exchange.request_hash.slice(0, 12)}`,
    );
    // A failed call is listed as failed, with its error (first line), not as a model that answered.
    expect(result.text[3]).toBe(
      `      model call failed (light_model): ProviderTimeoutError: request timed out after 30000 ms (timeout, retriable), ` +
        `30000 ms, request ${failed.request_hash.slice(0, 12)}`,
    );
    const shown = JSON.stringify(result.json.exchanges);
    expect(shown).toContain('while asking: call me on [REDACTED]');
    expect(shown).toContain('call me on [REDACTED]');
    expect(shown).not.toContain(phone);
  });

  it('asks a live model only on request, and refuses the request when no endpoint is configured', async () => {
    const io = bufferIo(process.cwd(), { DATABASE_URL: endpoints.databaseUrl });
    const error: unknown = await redecide(io, {
      stage: 'all',
      registryDir: packDir,
      schema: schema.name,
      liveModels: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/--live-models needs a model endpoint/);
  });
});
