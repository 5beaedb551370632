import { describe, expect, it } from 'vitest';
import { SECRET_REDACTED, redactPaths, redactSecretValues } from './secrets.js';

describe('redactSecretValues', () => {
  const phone = '+46 70 123 45 67';
  const exchange = {
    request: {
      messages: [{ role: 'user', content: `call me on ${phone}, about order 20240917001` }],
      temperature: 0,
    },
    response: {
      toolCalls: [
        {
          name: 'ticket_create',
          arguments: { contact: phone, note: 'say "hi"', count: 1234, priority: 1 },
          rawArguments: JSON.stringify({ contact: phone, note: 'say "hi"', count: 1234, priority: 1 }),
        },
      ],
      usage: { inputTokens: 1, outputTokens: 12 },
    },
  };

  it('hides each value where it is a whole value and inside longer text, JSON-escaped forms included', () => {
    const shown = redactSecretValues(exchange, [
      { path: 'call.arguments.contact', value: phone },
      { path: 'call.arguments.extra', value: { note: 'say "hi"', count: 1234 } },
    ]);
    expect(shown.request.messages[0]?.content).toBe(`call me on ${SECRET_REDACTED}, about order 20240917001`);
    expect(shown.response.toolCalls[0]?.arguments).toEqual({
      contact: SECRET_REDACTED,
      note: SECRET_REDACTED,
      count: SECRET_REDACTED,
      priority: 1,
    });
    expect(shown.response.toolCalls[0]?.rawArguments).toBe(
      `{"contact":"${SECRET_REDACTED}","note":"${SECRET_REDACTED}","count":${SECRET_REDACTED},"priority":1}`,
    );
    expect(JSON.stringify(shown)).not.toContain(phone);
    // The input is left as it was.
    expect(exchange.response.toolCalls[0]?.arguments.contact).toBe(phone);
  });

  it('hides a very short value only where it is a whole value, not inside other text', () => {
    const shown = redactSecretValues(exchange, [{ path: 'call.arguments.priority', value: 1 }]);
    expect(shown.response.toolCalls[0]?.arguments.priority).toBe(SECRET_REDACTED);
    expect(shown.response.usage.inputTokens).toBe(SECRET_REDACTED);
    expect(shown.request.messages[0]?.content).toBe(exchange.request.messages[0]?.content);
    expect(shown.response.usage.outputTokens).toBe(12);
  });

  it('returns the value unchanged without secrets', () => {
    expect(redactSecretValues(exchange, [])).toBe(exchange);
    expect(redactSecretValues(exchange, [{ path: 'a', value: true }])).toBe(exchange);
  });
});

describe('redactPaths', () => {
  it('redacts the values at the paths in a copy, array elements by index, and skips paths the payload lacks', () => {
    const payload = { history: [{ call: { arguments: { phone: '+46 70', city: 'Lund' } } }], note: 'x' };
    const shown = redactPaths(payload, ['history.0.call.arguments.phone', 'history.3.call', 'nope', '']);
    expect(shown).toEqual({
      history: [{ call: { arguments: { phone: SECRET_REDACTED, city: 'Lund' } } }],
      note: 'x',
    });
    expect(payload.history[0]?.call.arguments.phone).toBe('+46 70');
    expect(redactPaths(payload, [])).toBe(payload);
  });
});
