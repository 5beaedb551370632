import { describe, expect, it } from 'vitest';
import { ToolDefinition } from '@signalbox/registry';
import { oncePerDefinition } from './once-per-definition.js';

function tool(name: string) {
  return ToolDefinition.parse({
    name,
    description: `Does ${name}.`,
    parameters: { type: 'object', properties: {}, required: [] },
    scenarios: ['s'],
    visible_agents: ['*'],
    action: 'read',
    permission: 'read_only',
    side_effects: 'none',
    idempotent: true,
    evidence: 'source',
  });
}

describe('oncePerDefinition', () => {
  it('computes once per definition object and returns the same value to every caller', () => {
    const calls: string[] = [];
    const of = oncePerDefinition((t) => {
      calls.push(t.name);
      return { name: t.name };
    });
    const a = tool('a');
    const first = of(a);
    expect(of(a)).toBe(first);
    expect(calls).toEqual(['a']);
  });

  it('keeps a value that is undefined, and tells equal definitions apart by identity', () => {
    let calls = 0;
    const of = oncePerDefinition(() => {
      calls++;
      return undefined;
    });
    const a = tool('a');
    of(a);
    of(a);
    of(tool('a'));
    expect(calls).toBe(2);
  });
});
