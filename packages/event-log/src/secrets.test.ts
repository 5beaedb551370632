import { describe, expect, it } from 'vitest';
import {
  SECRET_REDACTED,
  redactPaths,
  redactSecretValues,
  redactSecrets,
  restoreSecrets,
  secretsAt,
  withEchoedSecrets,
  withFreeTextSecrets,
} from './secrets.js';

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

describe('withEchoedSecrets', () => {
  const phone = '+46 70 123 45 67';
  /** A step_executed-like payload: the call with its sensitive argument, and a tool output that echoes it. */
  const payload = (output: unknown) => ({
    call: { tool: 'sms_send', arguments: { to: phone, pin: 4711, text: 'hi' } },
    result: { status: 'success', output },
    note: 'nothing here',
  });
  const given = (p: unknown) => secretsAt(p, ['call.arguments.pin', 'call.arguments.to']);

  /** The stored (redacted) payload and what restoring its secrets gives back. */
  const roundTrip = (p: unknown) => {
    const secrets = withEchoedSecrets(p, given(p));
    const redacted = redactSecrets(p, secrets);
    if (typeof redacted === 'string') throw new Error(redacted);
    const restored = restoreSecrets(structuredClone(redacted.payload), secrets);
    return { secrets, stored: redacted.payload, restored };
  };

  it('adds a secret for every copy of a value elsewhere: whole, inside text, JSON-escaped, as a number', () => {
    const p = payload({
      sent_to: phone,
      receipt: `Message to ${phone} queued`,
      raw: JSON.stringify({ to: phone }),
      pin_echo: 4711,
      list: ['x', phone],
      count: 2,
    });
    const { secrets, stored, restored } = roundTrip(p);
    expect(secrets.map((x) => x.path).sort()).toEqual([
      'call.arguments.pin',
      'call.arguments.to',
      'result.output.list.1',
      'result.output.pin_echo',
      'result.output.raw',
      'result.output.receipt',
      'result.output.sent_to',
    ]);
    expect(secrets.find((x) => x.path === 'result.output.receipt')?.value).toBe(`Message to ${phone} queued`);
    expect(JSON.stringify(stored)).not.toContain('123 45 67');
    expect(JSON.stringify(stored)).not.toContain('4711');
    // The raw JSON text quotes the phone as JSON does; it is hidden as well.
    expect((stored as { result: { output: { raw: string } } }).result.output.raw).toBe(SECRET_REDACTED);
    expect((stored as { result: { output: { count: number } } }).result.output.count).toBe(2);
    expect(restored).toEqual(p);
    expect(JSON.stringify(restored)).toBe(JSON.stringify(p));
  });

  it('takes the container whole when the echo sits under a key the path grammar cannot name', () => {
    const p = payload({ 'to.number': phone, ok: true });
    const { secrets, stored, restored } = roundTrip(p);
    expect(secrets.map((x) => x.path).sort()).toEqual([
      'call.arguments.pin',
      'call.arguments.to',
      'result.output',
    ]);
    expect((stored as { result: { output: unknown } }).result.output).toBe(SECRET_REDACTED);
    expect(restored).toEqual(p);
  });

  it('drops a given secret that a container taken whole holds', () => {
    const p = { call: { arguments: { to: phone, '': phone } } };
    const secrets = withEchoedSecrets(p, secretsAt(p, ['call.arguments.to']));
    expect(secrets).toEqual([{ path: 'call.arguments', value: p.call.arguments }]);
    const redacted = redactSecrets(p, secrets);
    expect(redacted).toEqual({
      payload: { call: { arguments: SECRET_REDACTED } },
      secrets: [{ path: 'call.arguments', json: JSON.stringify(p.call.arguments) }],
    });
  });

  it('changes nothing when no value is echoed, and matches a very short value only whole', () => {
    const quiet = payload({ status: 'sent' });
    expect(withEchoedSecrets(quiet, given(quiet))).toEqual(given(quiet));
    const short = { code: 'ab', text: 'abc ab', exact: 'ab' };
    expect(withEchoedSecrets(short, secretsAt(short, ['code']))).toEqual([
      { path: 'code', value: 'ab' },
      { path: 'exact', value: 'ab' },
    ]);
    expect(withEchoedSecrets(quiet, [])).toEqual([]);
  });
});

describe('withFreeTextSecrets', () => {
  const payload = {
    request: { text: 'Call me on +46 70 123 45 67', context: ['no number', 'mail ana@example.se'] },
    call: { arguments: { phone: '+46701234567', note: 'ring +46701234567 first' } },
    odd: { 'a.b': 'tel 13812345678' },
  };

  it('makes each string holding a sensitive value a secret shown masked; restoring gives the payload back', () => {
    const secrets = withFreeTextSecrets(payload, secretsAt(payload, ['call.arguments']));
    expect(secrets.map((s) => [s.path, s.shown])).toEqual([
      ['call.arguments', undefined],
      ['request.text', 'Call me on [phone#1]'],
      ['request.context.1', 'mail [email#1]'],
      // A key the dotted grammar cannot name: its container is taken whole.
      ['odd', undefined],
    ]);
    const redacted = redactSecrets(payload, secrets);
    if (typeof redacted === 'string') throw new Error(redacted);
    expect(redacted.payload).toEqual({
      request: { text: 'Call me on [phone#1]', context: ['no number', 'mail [email#1]'] },
      call: { arguments: SECRET_REDACTED },
      odd: SECRET_REDACTED,
    });
    expect(JSON.stringify(redacted.payload)).not.toMatch(/4670|13812345678|ana@/);
    const values = secrets.map((s) => ({ path: s.path, value: s.value }));
    expect(restoreSecrets(structuredClone(redacted.payload), values)).toEqual(payload);
  });

  it('returns the given secrets as they are when no free text holds a value', () => {
    const given = secretsAt({ a: 'x' }, ['a']);
    expect(withFreeTextSecrets({ a: 'x', b: 'plain words 2026-12-02' }, given)).toBe(given);
  });

  it('hides the values of a free-text secret inside model exchanges too', () => {
    const [secret] = withFreeTextSecrets({ text: 'Call me on +46 70 123 45 67' }, []);
    if (!secret) throw new Error('no secret found');
    expect(redactSecretValues({ prompt: 'User: please call +46 70 123 45 67 today' }, [secret])).toEqual({
      prompt: `User: please call ${SECRET_REDACTED} today`,
    });
  });
});
