import { resolve } from 'node:path';
import { loadRegistryDir, validateAgainstSchema, type ToolDefinition } from '@signalbox/registry';
import { createIsolatedSchema, testEndpoints, type IsolatedSchema } from '@signalbox/test-support';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoStore, type ActionKind, type DemoStore } from './demo-store.js';
import { GENERIC_ERROR_CODES } from './errors.js';
import { createDemoToolsServer, REPLAYED_HEADER } from './server.js';
import { DEMO_TOOLS } from './tools/catalog.js';
import { VALID_SAMPLES } from './tools/samples.js';

// Monday 2026-11-30, 09:00 UTC: "yesterday" is Sunday.
const MONDAY = new Date('2026-11-30T09:00:00Z');
const packsDir = resolve(import.meta.dirname, '../../../registry/packs');

let schema: IsolatedSchema;
let store: DemoStore;
let app: FastifyInstance;
const defs = new Map<string, ToolDefinition>();

beforeAll(async () => {
  schema = await createIsolatedSchema(testEndpoints().databaseUrl, 'demo_tools');
  store = createDemoStore(schema.pool, { schema: schema.name, inProgressWaitMs: 5000 });
  await store.migrate();
  await store.seed();
  app = createDemoToolsServer({ store, now: () => MONDAY, faults: { slowMs: 150, timeoutMs: 200 } });
  for (const pack of ['after-sales', 'office', 'research', 'reach']) {
    for (const tool of (await loadRegistryDir(resolve(packsDir, pack))).content.tools)
      defs.set(tool.name, tool);
  }
});

afterAll(async () => {
  await app.close();
  await schema.drop();
});

function pathOf(tool: string): string {
  const found = DEMO_TOOLS.find((t) => t.name === tool);
  if (!found) throw new Error(`unknown tool ${tool}`);
  return found.path;
}

async function call(tool: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'POST', url: pathOf(tool), payload: body as object, headers });
  const text = response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    text,
    body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> & {
      error?: { code: string; message: string };
    },
  };
}

/** The error code of an answer, checked to be declared by the tool or one of the generic codes. */
async function expectError(
  tool: string,
  body: unknown,
  status: number,
  code: string,
  headers?: Record<string, string>,
) {
  const answer = await call(tool, body, headers);
  expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status, code });
  const declared = defs.get(tool)!.errors.map((e) => e.code);
  expect([...declared, ...Object.keys(GENERIC_ERROR_CODES)]).toContain(code);
  expect(answer.body.error?.message).toEqual(expect.any(String));
  return answer;
}

describe('every tool path', () => {
  it.each(DEMO_TOOLS.map((t) => t.name))(
    '%s answers a valid request with a body valid against its returns schema',
    async (name) => {
      const answer = await call(name, VALID_SAMPLES[name]);
      expect(answer.status, answer.text).toBe(200);
      expect(validateAgainstSchema(defs.get(name)!.returns, answer.body)).toEqual([]);
    },
  );

  it.each(DEMO_TOOLS.map((t) => t.name))(
    '%s rejects an invalid body with invalid_arguments and the fields',
    async (name) => {
      const empty = await expectError(name, {}, 400, 'invalid_arguments');
      expect((empty.body.error as unknown as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
      const extra = await expectError(
        name,
        { ...VALID_SAMPLES[name], surprise: 1 },
        400,
        'invalid_arguments',
      );
      expect(JSON.stringify(extra.body)).toContain('surprise');
    },
  );

  it('answers unparsable JSON and unknown routes with JSON errors', async () => {
    const bad = await app.inject({
      method: 'POST',
      url: '/reach/weather',
      payload: '{"city":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'invalid_arguments' } });
    const unknown = await app.inject({ method: 'POST', url: '/reach/nothing', payload: {} });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'unknown_route' } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
  });
});

describe('after-sales (SP-1)', () => {
  it('order 1234 is in transit, refundable and ten days late; 20240917001 is delivered', async () => {
    expect((await call('order_status_query', { order_id: '20240917001' })).body).toMatchObject({
      status: 'delivered',
      delivered_at: '2024-09-20T06:32:00.000Z',
    });
    const late = await call('logistics_track_query', { order_id: '1234' });
    expect(late.body).toMatchObject({
      carrier: 'SF Express',
      estimated_delivery: '2026-11-20',
      days_late: 10,
      delivered: false,
    });
    expect((late.body.events as unknown[]).length).toBe(4);
    await expectError('order_status_query', { order_id: '0000' }, 404, 'order_not_found');
    await expectError('logistics_track_query', { order_id: '5678' }, 404, 'not_shipped');
    await expectError('logistics_track_query', { order_id: '0000' }, 404, 'order_not_found');
  });

  it('refunds: declared refusals, then a partial refund visible in the status query', async () => {
    await expectError('refund_create', { order_id: '9999', reason: 'other' }, 422, 'order_not_refundable');
    await expectError('refund_create', { order_id: '7777', reason: 'other' }, 422, 'order_not_refundable');
    await expectError('refund_create', { order_id: '0001', reason: 'other' }, 404, 'order_not_found');
    await expectError(
      'refund_create',
      { order_id: '20240917001', reason: 'damaged', amount: 1000 },
      422,
      'amount_exceeds_paid',
    );
    const partial = await call('refund_create', { order_id: '20240917001', reason: 'damaged', amount: 20 });
    expect(partial.body).toMatchObject({ status: 'pending', amount: 20, currency: 'CNY' });
    const status = await call('refund_status_query', { order_id: '20240917001' });
    expect(status.body.refunds).toEqual([
      expect.objectContaining({ refund_id: partial.body.refund_id, status: 'pending' }),
    ]);
    expect((await call('order_status_query', { order_id: '20240917001' })).body).toMatchObject({
      status: 'refunding',
      refundable: true,
    });
    await expectError('refund_status_query', { refund_id: 'RF-NOPE' }, 404, 'refund_not_found');
    await expectError(
      'refund_status_query',
      { order_id: '20240917001', status: 'done' },
      404,
      'refund_not_found',
    );
  });

  it('invoices and repairs: declared refusals', async () => {
    await expectError(
      'invoice_issue',
      { order_id: '9999', invoice_type: 'personal', title: 'X' },
      422,
      'order_not_paid',
    );
    await expectError(
      'invoice_issue',
      { order_id: '20261101001', invoice_type: 'company', title: 'X', tax_id: '91310000MA1FL8AB20' },
      422,
      'invalid_tax_id',
    );
    await expectError('invoice_status_query', { invoice_id: 'INV-NOPE' }, 404, 'invoice_not_found');
    await expectError(
      'repair_create',
      { order_id: '20240917001', issue: 'Broken lid' },
      422,
      'warranty_expired',
    );
    // 2026-12-06 is a Sunday: no courier.
    await expectError(
      'repair_create',
      { order_id: '20261101001', issue: 'Broken lid', preferred_date: '2026-12-06' },
      422,
      'no_slot',
    );
    await expectError('repair_status_query', { repair_id: 'RP-NOPE' }, 404, 'repair_not_found');
  });
});

describe('office (SP-2)', () => {
  it('the weekend is empty, Friday 2026-11-27 has the Atlas minutes', async () => {
    expect((await call('minutes_list', { date_from: '2026-11-29' })).body).toEqual({ minutes: [] });
    expect((await call('minutes_list', { date_from: '2026-11-28', date_to: '2026-11-29' })).body).toEqual({
      minutes: [],
    });
    const friday = await call('minutes_list', { date_from: '2026-11-27' });
    expect(friday.body.minutes).toEqual([
      expect.objectContaining({ minutes_id: 'MIN-2026-11-27-ATLAS', project: 'Atlas', date: '2026-11-27' }),
    ]);
    const week = await call('minutes_list', { date_from: '2026-11-23', date_to: '2026-11-29' });
    expect((week.body.minutes as { date: string }[]).map((m) => m.date)).toEqual([
      '2026-11-27',
      '2026-11-25',
      '2026-11-23',
    ]);
    const parsed = await call('minutes_parse', { minutes_id: 'MIN-2026-11-27-ATLAS' });
    expect((parsed.body.decisions as string[]).length).toBe(3);
    expect((parsed.body.action_items as unknown[]).length).toBe(3);
    await expectError(
      'minutes_list',
      { date_from: '2026-11-27', date_to: '2026-11-20' },
      422,
      'invalid_range',
    );
    await expectError('minutes_parse', { minutes_id: 'MIN-NOPE' }, 404, 'minutes_not_found');
  });

  it('writes the report in the default format when no template is given; an unknown template is template_not_found', async () => {
    const report = await call('report_generate', { minutes_ids: ['MIN-2026-11-27-ATLAS'] });
    expect(report.body).toMatchObject({
      item_count: 7,
      template: 'default',
      period: { from: '2026-11-27', to: '2026-11-27' },
    });
    expect(report.body.body).toContain('## Decisions');
    expect(report.body.body).toContain('Release Atlas 1.4 on 2026-12-10.');
    const html = await call('report_generate', {
      minutes_ids: ['MIN-2026-11-27-ATLAS'],
      template: 'weekly_status',
      format: 'html',
    });
    expect(html.body.body).toContain('<h2>Done this week</h2>');
    const nothing = await call('report_generate', { minutes_ids: ['MIN-2026-11-29-NONE'] });
    expect(nothing.body).toMatchObject({ item_count: 0, missing_minutes_ids: ['MIN-2026-11-29-NONE'] });
    await expectError(
      'report_generate',
      { minutes_ids: ['MIN-2026-11-27-ATLAS'], template: 'fancy' },
      404,
      'template_not_found',
    );
  });

  it('contacts and sending: the project group resolves; unknown recipients are refused', async () => {
    const group = await call('contact_lookup', { query: 'atlas project group' });
    expect(group.body.contacts).toEqual([
      expect.objectContaining({
        kind: 'group',
        chat_id: 'g_atlas',
        email: 'atlas-team@example.com',
        members: ['Li Wei', 'Zhang Min', 'Chen Jie'],
      }),
    ]);
    await expectError('contact_lookup', { query: 'Nobody Here' }, 404, 'no_match');
    await expectError(
      'message_send',
      { chat_ids: ['g_atlas', 'g_nope'], text: 'hi' },
      422,
      'unknown_recipient',
    );
    await expectError(
      'email_send',
      { to: ['ghost@example.com'], subject: 's', body: 'b' },
      422,
      'address_rejected',
    );
  });
});

describe('research (SP-3) and reach (SP-4)', () => {
  it('search gives leads with URLs, visit gives passages with numbers, scholar gives metadata only', async () => {
    const search = await call('web_search', { query: 'PostgreSQL 17 benchmark' });
    const results = search.body.results as { url: string }[];
    expect(results[0]!.url).toBe('https://docs.example.org/benchmarks/postgresql-17-vs-16');
    expect(results.every((r) => r.url.startsWith('https://docs.example.org/'))).toBe(true);
    const visit = await call('page_visit', VALID_SAMPLES.page_visit);
    expect(JSON.stringify(visit.body.passages)).toContain('52,300 transactions per second');
    expect(visit.body.fetched_at).toBe(MONDAY.toISOString());
    const scholar = await call('scholar_search', { query: 'retrieval augmented generation' });
    const papers = scholar.body.papers as Record<string, unknown>[];
    expect(Object.keys(papers[0]!).sort()).toEqual(['authors', 'citations', 'title', 'url', 'venue', 'year']);
    await expectError('web_search', { query: 'zebra migration patterns' }, 404, 'no_results');
    await expectError(
      'web_search',
      { query: 'PostgreSQL 17 release notes', recency: 'week' },
      404,
      'no_results',
    );
    await expectError('scholar_search', { query: 'zebra migration' }, 404, 'no_results');
    await expectError(
      'page_visit',
      { url: 'https://docs.example.org/nope', goal: 'anything' },
      404,
      'page_not_found',
    );
  });

  it('the forbidden page is a 403 with the pack’s permission code', async () => {
    const lead = await call('web_search', { query: 'roadmap 2027' });
    expect((lead.body.results as { url: string }[])[0]!.url).toBe(
      'https://docs.example.org/internal/roadmap-2027',
    );
    await expectError(
      'page_visit',
      { url: 'https://docs.example.org/internal/roadmap-2027', goal: 'plans' },
      403,
      'forbidden',
    );
    expect(defs.get('page_visit')!.errors.find((e) => e.code === 'forbidden')!.class).toBe('permission');
  });

  it('weather is deterministic per city and day, Chinese names resolve, unknown cities are unknown_city', async () => {
    const a = await call('get_weather', { city: '上海' });
    const b = await call('get_weather', { city: 'shanghai' });
    expect(a.body).toEqual(b.body);
    expect(a.body).toMatchObject({ city: 'Shanghai', unit: 'celsius', date: '2026-11-30' });
    const f = await call('get_weather', { city: 'Shanghai', unit: 'fahrenheit' });
    expect(f.body.temperature).toBeCloseTo(((a.body.temperature as number) * 9) / 5 + 32, 1);
    await expectError('get_weather', { city: 'Atlantis' }, 404, 'unknown_city');
  });
});

describe('writes are deduplicated by Idempotency-Key', () => {
  const writes: [string, ActionKind, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'refund_create',
      'refund_created',
      { order_id: '20261101001', reason: 'damaged', amount: 10 },
      { order_id: '20261101001', reason: 'damaged', amount: 11 },
    ],
    [
      'invoice_issue',
      'invoice_issued',
      VALID_SAMPLES.invoice_issue!,
      { ...VALID_SAMPLES.invoice_issue, title: 'Other Ltd' },
    ],
    [
      'repair_create',
      'repair_booked',
      VALID_SAMPLES.repair_create!,
      { ...VALID_SAMPLES.repair_create, issue: 'Leaks water' },
    ],
    [
      'message_send',
      'message_sent',
      VALID_SAMPLES.message_send!,
      { ...VALID_SAMPLES.message_send, text: 'Other' },
    ],
    [
      'email_send',
      'email_sent',
      VALID_SAMPLES.email_send!,
      { ...VALID_SAMPLES.email_send, subject: 'Other' },
    ],
    ['create_ticket', 'ticket_created', VALID_SAMPLES.create_ticket!, { title: 'Another problem' }],
  ];

  it.each(writes)(
    '%s: the same key returns the same receipt and acts once',
    async (tool, kind, args, otherArgs) => {
      const key = `idem_${tool}_${String(Date.now())}`;
      const before = await store.countActions(kind);
      const first = await call(tool, args, { 'idempotency-key': key });
      const second = await call(tool, args, { 'idempotency-key': key });
      expect(first.status, first.text).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(first.headers[REPLAYED_HEADER]).toBeUndefined();
      expect(second.headers[REPLAYED_HEADER]).toBe('true');
      expect(await store.countActions(kind, { idempotencyKey: key })).toBe(1);
      expect(await store.countActions(kind)).toBe(before + 1);
      await expectError(tool, otherArgs, 422, 'idempotency_key_reused', { 'idempotency-key': key });
      const other = await call(tool, otherArgs, { 'idempotency-key': `${key}_2` });
      expect(other.status, other.text).toBe(200);
      expect(await store.countActions(kind)).toBe(before + 2);
    },
  );

  it('concurrent requests with one key act once; requests without a key each act', async () => {
    const key = `idem_concurrent_${String(Date.now())}`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call('create_ticket', { title: 'Concurrent duplicate' }, { 'idempotency-key': key }),
      ),
    );
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((a) => a.body.ticket_id)).size).toBe(1);
    expect(await store.countActions('ticket_created', { idempotencyKey: key })).toBe(1);
    const before = await store.countActions('ticket_created');
    await call('create_ticket', { title: 'No key' });
    await call('create_ticket', { title: 'No key' });
    expect(await store.countActions('ticket_created')).toBe(before + 2);
  });

  it('a declared refusal is the stored answer for its key and acts nothing', async () => {
    const key = `idem_refusal_${String(Date.now())}`;
    const first = await call(
      'refund_create',
      { order_id: '9999', reason: 'other' },
      { 'idempotency-key': key },
    );
    const again = await call(
      'refund_create',
      { order_id: '9999', reason: 'other' },
      { 'idempotency-key': key },
    );
    expect(first.body.error?.code).toBe('order_not_refundable');
    expect(again.body).toEqual(first.body);
    expect(again.headers[REPLAYED_HEADER]).toBe('true');
    expect(await store.countActions('refund_created', { idempotencyKey: key })).toBe(0);
  });
});

describe('fault injection (x-demo-fault)', () => {
  it('500, 429 and 403 answer with the tool’s declared codes and act nothing', async () => {
    const before = await store.countActions('refund_created');
    await expectError('refund_create', VALID_SAMPLES.refund_create, 500, 'payment_gateway_unavailable', {
      'x-demo-fault': '500',
    });
    expect(await store.countActions('refund_created')).toBe(before);
    const limited = await expectError('web_search', VALID_SAMPLES.web_search, 429, 'search_rate_limited', {
      'x-demo-fault': '429',
    });
    expect(limited.headers['retry-after']).toBe('1');
    await expectError('order_status_query', { order_id: '1234' }, 429, 'rate_limited', {
      'x-demo-fault': '429',
    });
    await expectError('page_visit', VALID_SAMPLES.page_visit, 403, 'forbidden', { 'x-demo-fault': '403' });
    await expectError('get_weather', { city: 'Beijing' }, 403, 'forbidden', { 'x-demo-fault': '403' });
    await expectError('get_weather', { city: 'Beijing' }, 400, 'invalid_fault', {
      'x-demo-fault': 'explode',
    });
  });

  it('timeout holds the request, then 504; slow delays a normal answer; empty is a 200 without a body', async () => {
    let started = Date.now();
    await expectError('page_visit', VALID_SAMPLES.page_visit, 504, 'fetch_timeout', {
      'x-demo-fault': 'timeout',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    started = Date.now();
    const slow = await call('get_weather', { city: 'Beijing' }, { 'x-demo-fault': 'slow' });
    expect(slow.status).toBe(200);
    expect(slow.body.city).toBe('Beijing');
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    const empty = await call('minutes_list', { date_from: '2026-11-27' }, { 'x-demo-fault': 'empty' });
    expect({ status: empty.status, text: empty.text }).toEqual({ status: 200, text: '' });
  });
});
