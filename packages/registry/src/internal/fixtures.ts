// Test fixtures: a small registry that passes every lint rule, as plain objects to mutate and serialise.
import { stringify } from 'yaml';
import type { RegistrySource } from '../load.js';

/** A fresh copy of a tiny valid registry: two read tools, one write tool, one agent, one scene. */
export function validRegistryObject(): Record<string, unknown[] | Record<string, unknown>> & {
  tools: Record<string, unknown>[];
  agents: Record<string, unknown>[];
  scenes: Record<string, unknown>[];
  tenants: Record<string, unknown>[];
  profiles: Record<string, unknown>[];
  policies: Record<string, unknown>[];
} {
  return {
    tools: [
      {
        name: 'order_status_query',
        description: {
          purpose: 'Look up the state of one order and whether it can be refunded.',
          returns: 'The order state, paid amount and refundability.',
          not_for: 'Refund progress; use refund_status_query.',
        },
        parameters: {
          type: 'object',
          properties: { order_id: { type: 'string', description: 'The order number.' } },
          required: ['order_id'],
        },
        returns: { type: 'object', properties: { order_id: { type: 'string' }, status: { type: 'string' } } },
        action: 'read',
        permission: 'read_only',
        idempotent: true,
        owner_agent: 'refund_agent',
        scenarios: ['refund'],
        core: true,
      },
      {
        name: 'refund_create',
        description: {
          purpose: 'Request a refund for a paid order after checking it is refundable.',
          returns: 'A receipt with the refund id.',
          not_for: 'Checking a refund already requested; use refund_status_query.',
        },
        parameters: {
          type: 'object',
          properties: {
            order_id: { type: 'string', description: 'The order to refund.' },
            reason: {
              type: 'string',
              description: 'Why.',
              enum: ['late_delivery', 'damaged', 'other'],
              synonyms: { late: 'late_delivery', broken: 'damaged' },
            },
          },
          required: ['order_id', 'reason'],
        },
        returns: { type: 'object', properties: { refund_id: { type: 'string' } } },
        action: 'write',
        permission: 'write',
        side_effects: 'Creates a refund request.',
        evidence: 'action_receipt',
        idempotent: true,
        owner_agent: 'refund_agent',
        scenarios: ['refund'],
        depends_on: [
          { tool: 'order_status_query', output: 'order_id', parameter: 'order_id', required: true },
        ],
      },
      {
        name: 'refund_status_query',
        description: {
          purpose: 'Report how an existing refund is progressing toward payout.',
          returns: 'The refund state and amount.',
          not_for: 'Starting a refund; use refund_create.',
        },
        parameters: {
          type: 'object',
          properties: { refund_id: { type: 'string', description: 'The refund id.' } },
          required: ['refund_id'],
        },
        returns: { type: 'object', properties: { state: { type: 'string' } } },
        action: 'read',
        permission: 'read_only',
        owner_agent: 'refund_agent',
        visible_agents: ['logistics_agent'],
        scenarios: ['refund'],
        priority: 40,
        depends_on: [{ tool: 'refund_create', output: 'refund_id', parameter: 'refund_id', required: false }],
      },
    ],
    agents: [
      { id: 'refund_agent', description: 'Refunds.' },
      { id: 'logistics_agent', description: 'Deliveries.', max_permission: 'read_only' },
    ],
    scenes: [
      {
        id: 'refund_scene',
        scenario: 'refund',
        description: 'Money back.',
        tools: ['order_status_query', 'refund_create', 'refund_status_query'],
        agents: ['refund_agent'],
      },
    ],
    tenants: [{ id: 'default' }],
    profiles: [
      {
        id: 'light_model',
        provider: { kind: 'openai_compatible', model: 'small' },
        capabilities: ['text_generation', 'function_calling'],
        max_context: 32000,
        cost_per_1k_tokens: { input: 0.1, output: 0.2 },
        latency_class: 'low',
        recommended_for: ['extraction'],
        not_recommended_for: ['multi_step_reasoning'],
      },
    ],
    policies: [
      {
        id: 'p',
        rules: [{ labels: ['extraction'], prefer: ['light_model'], reason: 'cheap' }],
        default: ['light_model'],
        degrade_order: ['light_model'],
      },
    ],
  };
}

/** Serialises a registry object into one YAML source. */
export function sourcesOf(registry: object, file = 'registry.yaml'): RegistrySource[] {
  return [{ file, text: stringify(registry) }];
}
