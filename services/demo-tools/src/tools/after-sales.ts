import { z } from 'zod';
import { ToolFailure } from '../errors.js';
import { addDays, daysBetween, defineTool, isoDay, type ToolSpec } from './tool-spec.js';

// SP-1 backends. Amounts are stored in cents and answered in currency units.

const OrderId = z.string().regex(/^[0-9]{4,20}$/);
const RefundStatus = z.enum(['pending', 'approved', 'rejected', 'done']);
const ORDER_NOT_FOUND = { class: 'parameter', status: 404 } as const;

const cents = (amount: number): number => Math.round(amount * 100);
const units = (amountCents: number): number => amountCents / 100;

/** Order states in which money was taken and nothing stops a refund but the `refundable` flag. */
const REFUNDABLE_STATES = new Set(['awaiting_shipment', 'in_transit', 'delivered', 'completed', 'refunding']);

// Chinese unified social credit code (18 characters, GB 32100-2015): the last character is a mod-31 check.
const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character of the first 17 characters of a unified social credit code, or undefined when invalid. */
export function usccCheckCharacter(first17: string): string | undefined {
  if (first17.length !== 17) return undefined;
  let sum = 0;
  for (let i = 0; i < first17.length; i += 1) {
    const value = USCC_ALPHABET.indexOf(first17.charAt(i));
    if (value < 0) return undefined;
    sum += value * (USCC_WEIGHTS[i] ?? 0);
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/** Whether `taxId` is a well-formed unified social credit code with a correct check character. */
export function isValidTaxId(taxId: string): boolean {
  const id = taxId.trim().toUpperCase();
  return id.length === 18 && usccCheckCharacter(id.slice(0, 17)) === id[17];
}

const orderStatusQuery = defineTool({
  name: 'order_status_query',
  pack: 'after-sales',
  path: '/after-sales/order-status',
  description: "Look up one order's state, paid amount, refundability and shipment.",
  action: 'read',
  parameters: z.strictObject({ order_id: OrderId }),
  errors: {
    order_not_found: ORDER_NOT_FOUND,
    order_service_unavailable: { class: 'transient', status: 503 },
  },
  async handle(args, { store }, fail) {
    const order = await store.order(args.order_id);
    if (!order) return fail('order_not_found', `no order has the number ${args.order_id}`);
    return {
      order_id: order.order_id,
      status: order.status,
      paid_amount: units(order.paid_amount_cents),
      currency: order.currency,
      refundable: order.refundable,
      product: order.product,
      ...(order.carrier ? { carrier: order.carrier } : {}),
      ...(order.tracking_number ? { tracking_number: order.tracking_number } : {}),
      ...(order.promised_date ? { promised_date: order.promised_date } : {}),
      ...(order.delivered_at ? { delivered_at: order.delivered_at } : {}),
    };
  },
});

const refundCreate = defineTool({
  name: 'refund_create',
  pack: 'after-sales',
  path: '/after-sales/refunds',
  description: 'Request a refund for an order confirmed refundable.',
  action: 'write',
  parameters: z.strictObject({
    order_id: OrderId,
    reason: z.enum([
      'late_delivery',
      'damaged',
      'wrong_item',
      'not_as_described',
      'no_longer_needed',
      'other',
    ]),
    amount: z.number().gt(0).optional(),
    comment: z.string().max(500).optional(),
  }),
  errors: {
    order_not_found: ORDER_NOT_FOUND,
    order_not_refundable: { class: 'capability_mismatch', status: 422 },
    amount_exceeds_paid: { class: 'parameter', status: 422 },
    payment_gateway_unavailable: { class: 'transient', status: 503 },
  },
  async handle(args, { store, now, idempotencyKey }, fail) {
    const order = await store.order(args.order_id);
    if (!order) return fail('order_not_found', `no order has the number ${args.order_id}`);
    if (!order.refundable || !REFUNDABLE_STATES.has(order.status)) {
      return fail(
        'order_not_refundable',
        `order ${order.order_id} is ${order.status} and cannot be refunded`,
      );
    }
    const remaining = order.paid_amount_cents - (await store.refundedCents(order.order_id));
    if (remaining <= 0)
      return fail('order_not_refundable', `order ${order.order_id} is already fully refunded`);
    const amountCents = args.amount === undefined ? remaining : cents(args.amount);
    if (amountCents > remaining) {
      return fail(
        'amount_exceeds_paid',
        `${String(args.amount)} ${order.currency} is more than the ${String(units(remaining))} still refundable`,
      );
    }
    const refund = await store.createRefund({
      order_id: order.order_id,
      reason: args.reason,
      amount_cents: amountCents,
      comment: args.comment,
      fully_refunded: amountCents === remaining,
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return {
      refund_id: refund.refund_id,
      order_id: refund.order_id,
      status: refund.status,
      amount: units(refund.amount_cents),
      currency: refund.currency,
      created_at: refund.created_at,
    };
  },
});

const refundStatusQuery = defineTool({
  name: 'refund_status_query',
  pack: 'after-sales',
  path: '/after-sales/refund-status',
  description: 'Report the progress of refunds already requested.',
  action: 'read',
  parameters: z
    .strictObject({
      refund_id: z.string().optional(),
      order_id: OrderId.optional(),
      status: RefundStatus.optional(),
    })
    .refine((v) => v.refund_id !== undefined || v.order_id !== undefined, {
      error: 'give refund_id or order_id',
      path: ['refund_id'],
    }),
  errors: { refund_not_found: { class: 'empty', status: 404 } },
  async handle(args, { store }, fail) {
    const refunds = await store.refunds(args);
    if (refunds.length === 0) {
      return fail(
        'refund_not_found',
        `no refund matches ${args.refund_id ?? `order ${args.order_id ?? ''}`}`,
      );
    }
    return {
      refunds: refunds.map((r) => ({
        refund_id: r.refund_id,
        order_id: r.order_id,
        status: r.status,
        amount: units(r.amount_cents),
        updated_at: r.updated_at,
      })),
    };
  },
});

const logisticsTrackQuery = defineTool({
  name: 'logistics_track_query',
  pack: 'after-sales',
  path: '/after-sales/logistics-track',
  description: "Follow an order's parcel: scan events, estimated delivery, days late.",
  action: 'read',
  parameters: z.strictObject({ order_id: OrderId, tracking_number: z.string().optional() }),
  errors: {
    order_not_found: ORDER_NOT_FOUND,
    not_shipped: { class: 'empty', status: 404 },
    carrier_unavailable: { class: 'transient', status: 503 },
  },
  async handle(args, { store, now }, fail) {
    const order = await store.order(args.order_id);
    if (!order) return fail('order_not_found', `no order has the number ${args.order_id}`);
    if (!order.tracking_number || !order.carrier || !order.promised_date) {
      return fail('not_shipped', `order ${order.order_id} has not been handed to a carrier yet`);
    }
    if (args.tracking_number !== undefined && args.tracking_number.toUpperCase() !== order.tracking_number) {
      throw new ToolFailure(
        400,
        'invalid_arguments',
        `tracking number ${args.tracking_number} does not belong to order ${order.order_id}`,
        { retriable: false, details: { issues: [{ path: 'tracking_number', message: 'not this order' }] } },
      );
    }
    const events = await store.trackingEvents(order.tracking_number);
    const arrived = order.delivered_at ?? now();
    return {
      carrier: order.carrier,
      tracking_number: order.tracking_number,
      events,
      estimated_delivery: order.promised_date,
      days_late: Math.max(0, daysBetween(order.promised_date, arrived)),
      delivered: order.delivered_at !== null,
    };
  },
});

const invoiceIssue = defineTool({
  name: 'invoice_issue',
  pack: 'after-sales',
  path: '/after-sales/invoices',
  description: 'Issue a personal or company invoice for a paid order.',
  action: 'write',
  parameters: z
    .strictObject({
      order_id: OrderId,
      invoice_type: z.enum(['personal', 'company']),
      title: z.string(),
      tax_id: z.string().optional(),
      email: z.email().optional(),
    })
    .refine((v) => v.invoice_type !== 'company' || v.tax_id !== undefined, {
      error: 'a company invoice needs tax_id',
      path: ['tax_id'],
    }),
  errors: {
    order_not_found: ORDER_NOT_FOUND,
    order_not_paid: { class: 'capability_mismatch', status: 422 },
    invalid_tax_id: { class: 'parameter', status: 422 },
  },
  async handle(args, { store, now, idempotencyKey }, fail) {
    const order = await store.order(args.order_id);
    if (!order) return fail('order_not_found', `no order has the number ${args.order_id}`);
    if (
      order.status === 'awaiting_payment' ||
      order.status === 'cancelled' ||
      order.paid_amount_cents === 0
    ) {
      return fail(
        'order_not_paid',
        `order ${order.order_id} is ${order.status}; only paid orders are invoiced`,
      );
    }
    if (args.tax_id !== undefined && !isValidTaxId(args.tax_id)) {
      return fail('invalid_tax_id', `${args.tax_id} is not a valid unified social credit code`);
    }
    const invoice = await store.createInvoice({
      order_id: order.order_id,
      invoice_type: args.invoice_type,
      title: args.title,
      tax_id: args.tax_id?.trim().toUpperCase(),
      email: args.email,
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return {
      invoice_id: invoice.invoice_id,
      status: invoice.status,
      download_url: `https://invoices.example.com/${invoice.invoice_id}.pdf`,
    };
  },
});

const invoiceStatusQuery = defineTool({
  name: 'invoice_status_query',
  pack: 'after-sales',
  path: '/after-sales/invoice-status',
  description: 'Report the state of invoices already requested.',
  action: 'read',
  parameters: z
    .strictObject({ invoice_id: z.string().optional(), order_id: OrderId.optional() })
    .refine((v) => v.invoice_id !== undefined || v.order_id !== undefined, {
      error: 'give invoice_id or order_id',
      path: ['invoice_id'],
    }),
  errors: { invoice_not_found: { class: 'empty', status: 404 } },
  async handle(args, { store }, fail) {
    const invoices = await store.invoices(args);
    if (invoices.length === 0) return fail('invoice_not_found', 'no invoice matches');
    return {
      invoices: invoices.map((i) => ({
        invoice_id: i.invoice_id,
        order_id: i.order_id,
        invoice_type: i.invoice_type,
        status: i.status,
        ...(i.status === 'issued'
          ? { download_url: `https://invoices.example.com/${i.invoice_id}.pdf` }
          : {}),
      })),
    };
  },
});

const repairCreate = defineTool({
  name: 'repair_create',
  pack: 'after-sales',
  path: '/after-sales/repairs',
  description: 'Book a repair, with an optional courier pickup.',
  action: 'write',
  parameters: z.strictObject({
    order_id: OrderId,
    issue: z.string().min(3).max(1000),
    preferred_date: z.iso.date().optional(),
    pickup: z.boolean().optional(),
  }),
  errors: {
    order_not_found: ORDER_NOT_FOUND,
    warranty_expired: { class: 'capability_mismatch', status: 422 },
    no_slot: { class: 'parameter', status: 422 },
  },
  async handle(args, { store, now, idempotencyKey }, fail) {
    const order = await store.order(args.order_id);
    if (!order) return fail('order_not_found', `no order has the number ${args.order_id}`);
    const today = isoDay(now());
    if (order.warranty_until === null || order.warranty_until < today) {
      return fail(
        'warranty_expired',
        order.warranty_until === null
          ? `order ${order.order_id} has no warranty on record`
          : `the warranty of order ${order.order_id} ended on ${order.warranty_until}`,
      );
    }
    // Couriers collect from tomorrow on, never on Sundays.
    const isSunday = (day: string): boolean => new Date(`${day}T00:00:00Z`).getUTCDay() === 0;
    let scheduled = args.preferred_date;
    if (scheduled !== undefined && (scheduled <= today || isSunday(scheduled))) {
      return fail(
        'no_slot',
        `no pickup slot on ${scheduled}; pick a day after ${today} that is not a Sunday`,
      );
    }
    if (scheduled === undefined) {
      scheduled = addDays(today, 1);
      if (isSunday(scheduled)) scheduled = addDays(scheduled, 1);
    }
    const repair = await store.createRepair({
      order_id: order.order_id,
      issue: args.issue,
      pickup: args.pickup ?? true,
      scheduled_date: scheduled,
      expected_return: addDays(scheduled, 7),
      idempotency_key: idempotencyKey,
      at: now(),
    });
    return {
      repair_id: repair.repair_id,
      status: repair.status,
      scheduled_date: repair.scheduled_date,
      expected_return: repair.expected_return,
      pickup: args.pickup ?? true,
    };
  },
});

const repairStatusQuery = defineTool({
  name: 'repair_status_query',
  pack: 'after-sales',
  path: '/after-sales/repair-status',
  description: 'Report where booked repairs stand.',
  action: 'read',
  parameters: z
    .strictObject({ repair_id: z.string().optional(), order_id: OrderId.optional() })
    .refine((v) => v.repair_id !== undefined || v.order_id !== undefined, {
      error: 'give repair_id or order_id',
      path: ['repair_id'],
    }),
  errors: { repair_not_found: { class: 'empty', status: 404 } },
  async handle(args, { store }, fail) {
    const repairs = await store.repairs(args);
    if (repairs.length === 0) return fail('repair_not_found', 'no repair matches');
    return {
      repairs: repairs.map((r) => ({
        repair_id: r.repair_id,
        order_id: r.order_id,
        status: r.status,
        scheduled_date: r.scheduled_date,
        expected_return: r.expected_return,
      })),
    };
  },
});

/** The after-sales pack's backends (SP-1). */
export const AFTER_SALES_TOOLS: readonly ToolSpec[] = [
  orderStatusQuery,
  refundCreate,
  refundStatusQuery,
  logisticsTrackQuery,
  invoiceIssue,
  invoiceStatusQuery,
  repairCreate,
  repairStatusQuery,
];
