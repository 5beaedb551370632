import { usccCheckCharacter } from './after-sales.js';

/** A company tax id with a correct check character (built, not hard-coded, so the checksum code is exercised). */
export const VALID_TAX_ID = `91310000MA1FL8AB2${usccCheckCharacter('91310000MA1FL8AB2') ?? ''}`;

/**
 * A valid request for every tool, against the seeded data. Shared by the tests and the README's curl examples;
 * kept in src/ (not a test file) so the MCP and HTTP tests use the same arguments.
 */
export const VALID_SAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  order_status_query: { order_id: '1234' },
  refund_create: { order_id: '1234', reason: 'late_delivery', comment: 'Ten days late.' },
  refund_status_query: { order_id: '7777' },
  logistics_track_query: { order_id: '1234' },
  invoice_issue: {
    order_id: '20261101001',
    invoice_type: 'company',
    title: 'Atlas Trading Ltd',
    tax_id: VALID_TAX_ID,
    email: 'finance@atlas-trading.example.org',
  },
  invoice_status_query: { order_id: '20261101001' },
  repair_create: { order_id: '20261101001', issue: 'The grinder makes a loud noise', pickup: true },
  repair_status_query: { order_id: '20261101001' },
  minutes_list: { date_from: '2026-11-27', project: 'Atlas' },
  minutes_parse: { minutes_id: 'MIN-2026-11-27-ATLAS' },
  report_generate: { minutes_ids: ['MIN-2026-11-27-ATLAS'] },
  contact_lookup: { query: 'Atlas project group' },
  message_send: { chat_ids: ['g_atlas'], text: 'The weekly report is in your inbox.' },
  email_send: { to: ['atlas-team@example.com'], subject: 'Atlas weekly report', body: '# Weekly report' },
  web_search: { query: 'PostgreSQL 17 benchmark', max_results: 5 },
  page_visit: {
    url: 'https://docs.example.org/benchmarks/postgresql-17-vs-16',
    goal: 'transactions per second',
  },
  scholar_search: { query: 'retrieval augmented generation', year_from: 2019 },
  get_weather: { city: 'Beijing', unit: 'celsius' },
  create_ticket: { title: 'My order arrived broken', priority: 'high', category: 'complaint' },
};
