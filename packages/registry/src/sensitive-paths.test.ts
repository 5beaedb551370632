import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourcesOf, validRegistryObject } from './internal/fixtures.js';
import { loadRegistryDir, loadRegistrySources } from './load.js';
import { sensitiveArgumentPaths, sensitiveParameterPaths } from './sensitive-paths.js';

const packsDir = resolve(import.meta.dirname, '../../../registry/packs');

const call = (tool: string, args: Record<string, unknown>) => ({
  step_index: 0,
  tool,
  arguments: args,
  provenance: {},
  validation_log: [],
});

describe('sensitiveArgumentPaths (PI-5, RS-6)', () => {
  it('finds the reach pack’s create_ticket contact in the call, the history, the steps and the previous call', async () => {
    const registry = await loadRegistryDir(join(packsDir, 'reach'));
    const ticket = call('create_ticket', { title: 'Parcel lost', contact: '+46 70 123 45 67' });
    const other = call('get_weather', { city: 'Oslo' });
    const payload = {
      call: ticket,
      previous_call: ticket,
      history: [{ call: other }, { call: ticket }],
      steps: [{ call: ticket, result: {} }],
      plan: { steps: [{ tool: 'create_ticket' }] },
    };
    expect(sensitiveArgumentPaths(registry, payload)).toEqual([
      'call.arguments.contact',
      'history.1.call.arguments.contact',
      'previous_call.arguments.contact',
      'steps.0.call.arguments.contact',
    ]);
  });

  it('lists only fields the arguments hold, and nothing for unknown tools or other shapes', async () => {
    const registry = await loadRegistryDir(join(packsDir, 'reach'));
    expect(
      sensitiveArgumentPaths(registry, { call: call('create_ticket', { title: 'No contact' }) }),
    ).toEqual([]);
    expect(sensitiveArgumentPaths(registry, { call: call('no_such_tool', { contact: 'x' }) })).toEqual([]);
    expect(sensitiveArgumentPaths(registry, { task: { request: 'hi' }, history: [] })).toEqual([]);
    expect(sensitiveArgumentPaths(registry, null)).toEqual([]);
    expect(sensitiveArgumentPaths(registry, [call('create_ticket', { contact: 'x' })])).toEqual([]);
  });

  it('covers x-sensitive parameters and nested fields, keeps an array whole, and ignores returns.… paths', () => {
    const r = validRegistryObject();
    const refund = r.tools[1] as {
      parameters: { properties: Record<string, unknown> };
      sensitive_fields?: string[];
    };
    refund.parameters.properties.payer = {
      type: 'object',
      properties: { iban: { type: 'string', 'x-sensitive': true }, name: { type: 'string' } },
    };
    refund.parameters.properties.cards = {
      type: 'array',
      items: { type: 'object', properties: { number: { type: 'string' } } },
    };
    refund.sensitive_fields = ['cards.number', 'returns.refund_id', 'reason', 'reason.code'];
    const registry = loadRegistrySources(sourcesOf(r));
    const tool = registry.tool('refund_create');
    if (!tool) throw new Error('fixture lost refund_create');

    expect(sensitiveParameterPaths(tool)).toEqual(['cards.number', 'payer.iban', 'reason', 'reason.code']);
    const args = {
      order_id: '20240917001',
      reason: 'damaged',
      payer: { iban: 'SE35 5000 0000 0549 1000 0003', name: 'Ann' },
      cards: [{ number: '4111 1111 1111 1111' }],
    };
    expect(sensitiveArgumentPaths(registry, { call: call('refund_create', args) })).toEqual([
      'call.arguments.cards',
      'call.arguments.payer.iban',
      'call.arguments.reason',
    ]);
  });
});
