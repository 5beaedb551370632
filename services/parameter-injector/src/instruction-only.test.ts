import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '@signalbox/registry';
import { instructionOnly } from './instruction-only.js';

const write = (name: string) => ({ name, action: 'write' }) as ToolDefinition;

describe('instructionOnly (a write asked for with nothing to put in it)', () => {
  it('is true when every word frames the ask, names the write or its recipient (EN and ZH)', () => {
    expect(instructionOnly('I need to open a ticket.', write('create_ticket'), undefined)).toBe(true);
    expect(instructionOnly('Send an email to Chen Jie.', write('email_send'), 'Chen Jie')).toBe(true);
    expect(instructionOnly('帮我开个工单', write('create_ticket'), undefined)).toBe(true);
  });

  it('is false when the request says something about the matter, and for a read', () => {
    expect(
      instructionOnly('Please open a ticket, my printer is broken.', write('create_ticket'), undefined),
    ).toBe(false);
    expect(instructionOnly('帮我提个工单，网页打不开', write('create_ticket'), undefined)).toBe(false);
    expect(instructionOnly('给张敏发条消息说会议取消', write('message_send'), '张敏')).toBe(false);
    expect(
      instructionOnly(
        'open a ticket',
        { name: 'ticket_search', action: 'read' } as ToolDefinition,
        undefined,
      ),
    ).toBe(false);
  });

  it('reads an id with the record it names as a parameter of its own, not as content', () => {
    const repair = write('repair_create');
    expect(instructionOnly("I'd like to book a repair for order 20261101001.", repair, undefined)).toBe(true);
    expect(instructionOnly('订单20261101001帮我报个修', repair, undefined)).toBe(true);
    expect(
      instructionOnly(
        'my kettle stopped heating (order 20240917001), please book a repair',
        repair,
        undefined,
      ),
    ).toBe(false);
    expect(instructionOnly('订单1234的咖啡机漏水，帮我报修', repair, undefined)).toBe(false);
  });
});

describe('instructionOnly with the words other parameters take', () => {
  it('reads enum values and synonyms of other parameters as those values, not as content', () => {
    const ticket = write('create_ticket');
    expect(instructionOnly('帮我开个保修工单，尽快', ticket, undefined, ['保修', '尽快', 'high'])).toBe(true);
    expect(instructionOnly('open an urgent ticket', ticket, undefined, ['urgent', 'high'])).toBe(true);
    expect(instructionOnly('open a low priority ticket', ticket, undefined, ['priority', 'low'])).toBe(true);
    expect(instructionOnly('open an urgent ticket, the lift is stuck', ticket, undefined, ['urgent'])).toBe(
      false,
    );
  });
});
