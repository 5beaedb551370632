import { resolve } from 'node:path';
import type { ProposedCall } from '@signalbox/contracts';
import { loadRegistryDir, type Registry } from '@signalbox/registry';
import { beforeAll, describe, expect, it } from 'vitest';
import { planProposedCall, proposableTools } from './proposed-call.js';

let registry: Registry;
beforeAll(async () => {
  registry = await loadRegistryDir(resolve(import.meta.dirname, '../../../registry/packs/reach'));
});

const request = (tool: string, args: ProposedCall['arguments'], conversation: string | null = null) => ({
  call: { tool, arguments: args, conversation },
  agent: 'reach_agent',
  tenant: 'default',
  scenario: null,
  context: '',
  history: [],
});

describe('a proposed call as a one-step plan', () => {
  it('offers the union of the visible sets of every scenario', () => {
    // Scenario by scenario, as the registry lists them (support, weather).
    expect(
      proposableTools(registry, { agent: 'reach_agent', tenant: 'default', scenario: null }).map(
        (t) => t.name,
      ),
    ).toEqual(['create_ticket', 'get_weather']);
    expect(
      proposableTools(registry, { agent: 'reach_agent', tenant: 'default', scenario: 'weather' }).map(
        (t) => t.name,
      ),
    ).toEqual(['get_weather']);
  });

  it('plans a read as the one step, its arguments left to the injector', async () => {
    const outcome = await planProposedCall(registry, request('get_weather', { city: 'Beijing' }));
    expect(outcome.status).toBe('planned');
    expect(outcome.plan.steps.map((s) => s.tool)).toEqual(['get_weather']);
    expect(outcome.plan.steps[0]?.fallback_tool).toBeNull();
    expect(outcome.plan.visible_tools).toContain('create_ticket');
  });

  it('resolves a near name (TD-3) and records the resolution', async () => {
    const outcome = await planProposedCall(registry, request('get-weather', { city: 'Beijing' }));
    expect(outcome.status).toBe('planned');
    expect(outcome.plan.steps[0]?.tool).toBe('get_weather');
    expect(outcome.decision_reason).toContain('get-weather resolved to get_weather');
  });

  it('refuses a name no visible tool is close to, with the TD-3 reason', async () => {
    const outcome = await planProposedCall(registry, request('book_flight', { to: 'Paris' }));
    expect(outcome.status).toBe('invalid');
    expect(outcome.violations[0]?.rule).toBe('visibility_permission');
    expect(outcome.violations[0]?.reason).toMatch(
      /book_flight is not a tool agent reach_agent may call \(TD-3: not a visible tool/,
    );
  });

  it('refuses a write the conversation does not ask for (TD-5 intent vs side effect)', async () => {
    const outcome = await planProposedCall(
      registry,
      request('create_ticket', { title: 'Weather complaint' }, "What's the weather in Beijing today?"),
    );
    expect(outcome.status).toBe('invalid');
    expect(outcome.violations.map((v) => v.rule)).toEqual(['intent_side_effect']);
    expect(outcome.plan.steps).toEqual([]);
  });

  it('plans a write the conversation asks for, and one proposed without a conversation', async () => {
    const asked = await planProposedCall(
      registry,
      request(
        'create_ticket',
        { title: 'Screen broken' },
        'Please open a support ticket: my screen is broken.',
      ),
    );
    expect(asked.status).toBe('planned');
    expect(asked.decision_reason).toContain('the conversation asks for the write');
    const bare = await planProposedCall(registry, request('create_ticket', { title: 'Screen broken' }));
    expect(bare.status).toBe('planned');
  });
});
