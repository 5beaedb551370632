// Deterministic seed rows. The demo "today" is Monday 2026-11-30: order 1234 was promised for 2026-11-20 and is
// still in transit (late), Friday 2026-11-27 has the Atlas minutes, and the weekend before has none.

/** A seeded order. Amounts are in cents so that pg and PGlite both return plain numbers. */
export interface SeedOrder {
  order_id: string;
  status: string;
  paid_amount_cents: number;
  currency: string;
  refundable: boolean;
  product: string;
  ordered_at: string;
  delivered_at: string | null;
  warranty_until: string | null;
}

export const SEED_ORDERS: readonly SeedOrder[] = [
  {
    order_id: '1234',
    status: 'in_transit',
    paid_amount_cents: 29900,
    currency: 'CNY',
    refundable: true,
    product: 'Noise-cancelling headphones',
    ordered_at: '2026-11-15T09:12:00Z',
    delivered_at: null,
    warranty_until: '2027-11-15',
  },
  {
    order_id: '20240917001',
    status: 'delivered',
    paid_amount_cents: 8990,
    currency: 'CNY',
    refundable: true,
    product: 'Electric kettle',
    ordered_at: '2024-09-17T02:30:00Z',
    delivered_at: '2024-09-20T06:32:00Z',
    warranty_until: '2025-09-20',
  },
  {
    order_id: '20261101001',
    status: 'delivered',
    paid_amount_cents: 45900,
    currency: 'CNY',
    refundable: true,
    product: 'Coffee machine',
    ordered_at: '2026-11-01T11:00:00Z',
    delivered_at: '2026-11-05T08:15:00Z',
    warranty_until: '2027-11-05',
  },
  {
    order_id: '5678',
    status: 'awaiting_shipment',
    paid_amount_cents: 12900,
    currency: 'CNY',
    refundable: true,
    product: 'Desk lamp',
    ordered_at: '2026-11-28T15:40:00Z',
    delivered_at: null,
    warranty_until: null,
  },
  {
    order_id: '9999',
    status: 'awaiting_payment',
    paid_amount_cents: 0,
    currency: 'CNY',
    refundable: false,
    product: 'Office chair',
    ordered_at: '2026-11-29T10:00:00Z',
    delivered_at: null,
    warranty_until: null,
  },
  {
    order_id: '7777',
    status: 'refunded',
    paid_amount_cents: 5900,
    currency: 'CNY',
    refundable: false,
    product: 'Phone case',
    ordered_at: '2026-10-02T07:00:00Z',
    delivered_at: '2026-10-05T09:00:00Z',
    warranty_until: '2027-10-05',
  },
];

/** A seeded shipment; `promised_date` is what the shop promised at checkout. */
export interface SeedShipment {
  order_id: string;
  carrier: string;
  tracking_number: string;
  promised_date: string;
}

export const SEED_SHIPMENTS: readonly SeedShipment[] = [
  { order_id: '1234', carrier: 'SF Express', tracking_number: 'SF1234567890', promised_date: '2026-11-20' },
  { order_id: '20240917001', carrier: 'YTO', tracking_number: 'YT20240917001', promised_date: '2024-09-21' },
  {
    order_id: '20261101001',
    carrier: 'JD Logistics',
    tracking_number: 'JD0026110101',
    promised_date: '2026-11-06',
  },
  { order_id: '7777', carrier: 'ZTO', tracking_number: 'ZT7777000001', promised_date: '2026-10-06' },
];

export interface SeedTrackingEvent {
  tracking_number: string;
  time: string;
  location: string;
  description: string;
}

export const SEED_TRACKING_EVENTS: readonly SeedTrackingEvent[] = [
  {
    tracking_number: 'SF1234567890',
    time: '2026-11-16T10:05:00Z',
    location: 'Shenzhen',
    description: 'Picked up',
  },
  {
    tracking_number: 'SF1234567890',
    time: '2026-11-17T03:40:00Z',
    location: 'Shenzhen hub',
    description: 'Departed sorting centre',
  },
  {
    tracking_number: 'SF1234567890',
    time: '2026-11-18T21:10:00Z',
    location: 'Wuhan hub',
    description: 'Arrived at sorting centre',
  },
  {
    tracking_number: 'SF1234567890',
    time: '2026-11-19T06:30:00Z',
    location: 'Wuhan hub',
    description: 'Held: sorting backlog',
  },
  {
    tracking_number: 'YT20240917001',
    time: '2024-09-18T08:00:00Z',
    location: 'Hangzhou',
    description: 'Picked up',
  },
  {
    tracking_number: 'YT20240917001',
    time: '2024-09-19T12:00:00Z',
    location: 'Shanghai hub',
    description: 'In transit',
  },
  {
    tracking_number: 'YT20240917001',
    time: '2024-09-20T06:32:00Z',
    location: 'Shanghai',
    description: 'Delivered, signed by customer',
  },
  {
    tracking_number: 'JD0026110101',
    time: '2026-11-02T09:00:00Z',
    location: 'Beijing',
    description: 'Picked up',
  },
  {
    tracking_number: 'JD0026110101',
    time: '2026-11-05T08:15:00Z',
    location: 'Beijing',
    description: 'Delivered',
  },
  {
    tracking_number: 'ZT7777000001',
    time: '2026-10-03T09:00:00Z',
    location: 'Guangzhou',
    description: 'Picked up',
  },
  {
    tracking_number: 'ZT7777000001',
    time: '2026-10-05T09:00:00Z',
    location: 'Guangzhou',
    description: 'Delivered',
  },
];

export interface SeedRefund {
  refund_id: string;
  order_id: string;
  status: string;
  amount_cents: number;
  reason: string;
  created_at: string;
  updated_at: string;
}

export const SEED_REFUNDS: readonly SeedRefund[] = [
  {
    refund_id: 'RF-SEED-7777',
    order_id: '7777',
    status: 'done',
    amount_cents: 5900,
    reason: 'damaged',
    created_at: '2026-10-08T10:00:00Z',
    updated_at: '2026-10-10T16:00:00Z',
  },
];

export interface SeedInvoice {
  invoice_id: string;
  order_id: string;
  invoice_type: string;
  title: string;
  status: string;
}

export const SEED_INVOICES: readonly SeedInvoice[] = [
  {
    invoice_id: 'INV-SEED-0001',
    order_id: '20261101001',
    invoice_type: 'personal',
    title: 'Li Wei',
    status: 'issued',
  },
];

export interface SeedRepair {
  repair_id: string;
  order_id: string;
  issue: string;
  status: string;
  scheduled_date: string;
  expected_return: string;
}

export const SEED_REPAIRS: readonly SeedRepair[] = [
  {
    repair_id: 'RP-SEED-0001',
    order_id: '20261101001',
    issue: 'Milk frother does not heat',
    status: 'in_repair',
    scheduled_date: '2026-11-24',
    expected_return: '2026-12-03',
  },
];

/** A seeded set of meeting minutes. */
export interface SeedMinutes {
  minutes_id: string;
  title: string;
  project: string;
  date: string;
  summary: string;
  decisions: string[];
  action_items: { owner: string; task: string; due: string }[];
  open_questions: string[];
}

export const SEED_MINUTES: readonly SeedMinutes[] = [
  {
    minutes_id: 'MIN-2026-11-23-ATLAS',
    title: 'Atlas weekly sync',
    project: 'Atlas',
    date: '2026-11-23',
    summary: 'Scope for the December release agreed; load tests planned.',
    decisions: ['The December release ships search and export; sharing moves to January.'],
    action_items: [{ owner: 'Zhang Min', task: 'Plan the load tests', due: '2026-11-27' }],
    open_questions: ['Do we need a second staging cluster?'],
  },
  {
    minutes_id: 'MIN-2026-11-25-BEACON',
    title: 'Beacon design review',
    project: 'Beacon',
    date: '2026-11-25',
    summary: 'Onboarding flow reviewed; two screens to redo.',
    decisions: ['Drop the tutorial video from onboarding.'],
    action_items: [{ owner: 'Wang Fang', task: 'Redo the two onboarding screens', due: '2026-12-02' }],
    open_questions: [],
  },
  {
    minutes_id: 'MIN-2026-11-27-ATLAS',
    title: 'Atlas weekly sync',
    project: 'Atlas',
    date: '2026-11-27',
    summary: 'Load tests passed at 2,400 requests/s; release date fixed for 2026-12-10.',
    decisions: [
      'Release Atlas 1.4 on 2026-12-10.',
      'Keep PostgreSQL 16 for this release; evaluate 17 in January.',
      'Freeze features on 2026-12-03.',
    ],
    action_items: [
      { owner: 'Li Wei', task: 'Write the release notes', due: '2026-12-04' },
      { owner: 'Zhang Min', task: 'Fix the export timeout under load', due: '2026-12-02' },
      { owner: 'Chen Jie', task: 'Book the release-day on-call rota', due: '2026-12-01' },
    ],
    open_questions: ['Who signs off the security review?'],
  },
];

/** A seeded person or group in the directory. */
export interface SeedContact {
  contact_id: string;
  name: string;
  kind: 'person' | 'group';
  email: string;
  chat_id: string;
  members: string[];
  /** The name colleagues write in Chinese (the directory of a Chinese office carries both). */
  local_name: string;
}

export const SEED_CONTACTS: readonly SeedContact[] = [
  {
    contact_id: 'p-liwei',
    name: 'Li Wei',
    local_name: '李伟',
    kind: 'person',
    email: 'li.wei@example.com',
    chat_id: 'u_liwei',
    members: [],
  },
  {
    contact_id: 'p-zhangmin',
    name: 'Zhang Min',
    local_name: '张敏',
    kind: 'person',
    email: 'zhang.min@example.com',
    chat_id: 'u_zhangmin',
    members: [],
  },
  {
    contact_id: 'p-chenjie',
    name: 'Chen Jie',
    local_name: '陈杰',
    kind: 'person',
    email: 'chen.jie@example.com',
    chat_id: 'u_chenjie',
    members: [],
  },
  {
    contact_id: 'p-wangfang',
    name: 'Wang Fang',
    local_name: '王芳',
    kind: 'person',
    email: 'wang.fang@example.com',
    chat_id: 'u_wangfang',
    members: [],
  },
  {
    contact_id: 'g-atlas',
    name: 'Atlas project group',
    local_name: 'Atlas项目组',
    kind: 'group',
    email: 'atlas-team@example.com',
    chat_id: 'g_atlas',
    members: ['Li Wei', 'Zhang Min', 'Chen Jie'],
  },
  {
    contact_id: 'g-beacon',
    name: 'Beacon project group',
    local_name: 'Beacon项目组',
    kind: 'group',
    email: 'beacon-team@example.com',
    chat_id: 'g_beacon',
    members: ['Wang Fang', 'Li Wei'],
  },
];

/** The company's mail domain: addresses in it must exist in the directory, others are accepted as external. */
export const COMPANY_MAIL_DOMAIN = 'example.com';
