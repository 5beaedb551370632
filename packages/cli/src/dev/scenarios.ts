import type { TaskSpec } from '@signalbox/contracts';

/** The scenario packs: the folders of registry/packs/ (a test keeps the two the same). */
export const PACK_NAMES = ['after-sales', 'office', 'research', 'reach'] as const;

/** A scenario-pack pack name: a folder of registry/packs/. */
export type PackName = (typeof PACK_NAMES)[number];

/** One request of the embedded demo. */
export interface DemoRequest {
  pack: PackName;
  /** What the demo shows with it (SP-*). */
  title: string;
  agent_id: string;
  request: string;
  scenario?: string;
  /** The task's locale. @default 'en-US' */
  locale?: string;
  /** The task's IANA time zone. @default 'UTC' */
  time_zone?: string;
  /** The task's "now" (ISO-8601 with offset). @default {@link DEMO_REFERENCE_TIME} */
  reference_time?: string;
}

/** "Now" of every demo task: Monday 2026-11-30, so "yesterday" is a Sunday (SP-2). */
export const DEMO_REFERENCE_TIME = '2026-11-30T09:00:00.000Z';

/** A Chinese-speaking user in China: their locale and zone. */
const ZH = { locale: 'zh-CN', time_zone: 'Asia/Shanghai' } as const;

/** The requests of SPEC §13, one pipeline per pack. */
export const DEMO_REQUESTS: readonly DemoRequest[] = [
  {
    pack: 'after-sales',
    title: 'SP-1 late delivery + refund',
    agent_id: 'refund_agent',
    request: 'My order 1234 is late and I want a refund.',
  },
  {
    pack: 'after-sales',
    title: 'SP-1 refund without an order number',
    agent_id: 'refund_agent',
    request: 'Refund my order.',
  },
  {
    pack: 'office',
    title: "SP-2 yesterday's minutes → weekly report → project group",
    agent_id: 'office_agent',
    request:
      "Turn the minutes of yesterday's meeting into the weekly report and send it to the Atlas project group.",
  },
  {
    pack: 'research',
    title: 'SP-3 what a page says, no URL given',
    agent_id: 'research_agent',
    request: 'What do the PostgreSQL 17 release notes say about performance?',
  },
  {
    pack: 'research',
    title: 'SP-3 a calculation over the figures a page states',
    agent_id: 'research_agent',
    request: 'How much faster is PostgreSQL 17 than 16 on pgbench, in percent?',
  },
  {
    pack: 'reach',
    title: 'SP-4 weather',
    agent_id: 'reach_agent',
    request: 'What is the weather in Berlin today?',
  },
  {
    pack: 'reach',
    title: 'SP-4 weather without a city',
    agent_id: 'reach_agent',
    request: 'What is the weather like?',
  },
  // One request per pack in Chinese, as the customers and staff the design notes were written for type them.
  {
    pack: 'after-sales',
    title: 'SP-1 (zh) refund an order not yet shipped',
    agent_id: 'refund_agent',
    request: '订单5678还没发货，我不想要了，帮我退款',
    ...ZH,
  },
  {
    pack: 'office',
    title: "SP-2 (zh) last Friday's minutes → weekly report → e-mail",
    agent_id: 'office_agent',
    request: '把上周五的会议纪要整理成周报，发邮件给Atlas项目组',
    ...ZH,
  },
  {
    pack: 'research',
    title: 'SP-3 (zh) a calculation over the figures given',
    agent_id: 'research_agent',
    request: '两千三百四十的百分之十七是多少？',
    ...ZH,
  },
  {
    pack: 'reach',
    title: "SP-4 (zh) tomorrow's weather in Beijing",
    agent_id: 'reach_agent',
    request: '北京明天天气怎么样？',
    ...ZH,
  },
];

/** The task spec of a demo request: its own locale, time zone and reference time, else the demo's. */
export function demoTask(request: DemoRequest): TaskSpec {
  return {
    request: request.request,
    context: [],
    locale: request.locale ?? 'en-US',
    time_zone: request.time_zone ?? 'UTC',
    reference_time: request.reference_time ?? DEMO_REFERENCE_TIME,
    cost_ceiling_usd: null,
    required_modalities: ['text'],
    attachments: [],
    scenario: request.scenario ?? null,
    needs_fresh_data: false,
    redrive_of: null,
  };
}
