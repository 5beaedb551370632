import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, withTask, type LoggerOptions } from './logger.js';
import { REDACTED } from './redaction.js';

/** A logger writing into memory; returns the parsed lines. */
function capture(options: Omit<LoggerOptions, 'destination'> = { service: 'tool-decider' }) {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const logger = createLogger({ ...options, destination });
  const lines = (): Record<string, unknown>[] =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const raw = (): string => chunks.join('');
  return { logger, lines, raw };
}

const SECRETS = [
  'sk-live-1234',
  'Bearer eyJhbGciOi',
  'hunter2',
  'sess=abc',
  'rt-9876',
  'postgres://u:pw@db/x',
];

describe('createLogger', () => {
  it('writes JSON lines with service, ISO time and the level name', () => {
    const { logger, lines } = capture();
    logger.info({ task_id: 'tsk_1' }, 'decided');
    const [line] = lines();
    expect(line).toMatchObject({ service: 'tool-decider', level: 'info', msg: 'decided', task_id: 'tsk_1' });
    expect(new Date(String(line!.time)).toISOString()).toBe(line!.time);
  });

  it('redacts secrets at the top level and nested, and they appear nowhere in the output', () => {
    const { logger, raw, lines } = capture();
    logger.warn(
      {
        authorization: SECRETS[1],
        config: { api_key: SECRETS[0], database_url: SECRETS[5] },
        req: { headers: { 'x-api-key': SECRETS[0], cookie: SECRETS[3] } },
        user: { profile: { credentials: { password: SECRETS[2] } } },
        oauth: [{ refresh_token: SECRETS[4] }],
        tool: 'refund_create',
      },
      'call failed',
    );
    for (const secret of SECRETS) expect(raw()).not.toContain(secret);
    const [line] = lines();
    expect(line).toMatchObject({
      authorization: REDACTED,
      config: { api_key: REDACTED, database_url: REDACTED },
      req: { headers: { 'x-api-key': REDACTED, cookie: REDACTED } },
      user: { profile: { credentials: REDACTED } },
      oauth: [{ refresh_token: REDACTED }],
      // Identifiers stay: they are how an operator finds the full record.
      tool: 'refund_create',
    });
  });

  it('does not log payloads by default (OB-1), nested either', () => {
    const { logger, raw, lines } = capture();
    logger.info({
      event_id: 'ev_1',
      message: { payload: { task: { request: 'my card is 4111 1111 1111 1111' } } },
      call: { tool: 'refund_create', arguments: { iban: 'DE89370400440532013000' } },
      result: { output: { address: '221B Baker Street' } },
    });
    expect(raw()).not.toMatch(/4111|DE8937|Baker/);
    expect(lines()[0]).toMatchObject({
      event_id: 'ev_1',
      message: { payload: REDACTED },
      call: { tool: 'refund_create', arguments: REDACTED },
      result: { output: REDACTED },
    });
  });

  it('logs payloads when asked, but still redacts secrets inside them', () => {
    const { logger, lines } = capture({ service: 'executor', logPayloads: true });
    logger.info({ call: { arguments: { order_id: '20241127-8841', token: 'tok-1' } } });
    expect(lines()[0]).toMatchObject({ call: { arguments: { order_id: '20241127-8841', token: REDACTED } } });
  });

  it('masks sensitive values in free text wherever they are in a line (RS-6)', () => {
    const { logger, raw, lines } = capture({ service: 'api', logPayloads: true });
    logger.warn(
      { reason: 'user wrote ana@example.se', nested: { note: '手机号 13812345678' } },
      'call +46 70 123 45 67',
    );
    expect(raw()).not.toContain('ana@example.se');
    expect(raw()).not.toContain('13812345678');
    expect(raw()).not.toContain('+46 70 123 45 67');
    expect(lines()[0]).toMatchObject({
      msg: 'call [phone#1]',
      reason: 'user wrote [email#1]',
      nested: { note: '手机号 [phone#1]' },
    });
  });

  it('adds extra redaction paths to the central list', () => {
    const { logger, raw } = capture({ service: 'api', redact: ['customer.email'] });
    logger.info({ customer: { email: 'ann@example.com', tier: 'gold' }, password: 'p4ss' });
    expect(raw()).not.toContain('ann@example.com');
    expect(raw()).not.toContain('p4ss');
    expect(raw()).toContain('gold');
  });

  it('respects the level', () => {
    const { logger, lines } = capture({ service: 'api', level: 'warn' });
    logger.info('hidden');
    logger.error('shown');
    expect(lines().map((l) => l.msg)).toEqual(['shown']);
  });

  it('refuses an empty service or an unknown level', () => {
    expect(() => createLogger({ service: ' ' })).toThrow(RangeError);
    expect(() => createLogger({ service: 'api', level: 'loud' as never })).toThrow(RangeError);
  });
});

describe('withTask', () => {
  it('binds task_id and the trace and span ids of the traceparent to every line', () => {
    const { logger, lines } = capture();
    const child = withTask(logger, {
      task_id: 'tsk_1',
      event_id: 'ev_2',
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    });
    child.info('one');
    child.info({ password: 'x' }, 'two');
    for (const line of lines()) {
      expect(line).toMatchObject({
        service: 'tool-decider',
        task_id: 'tsk_1',
        event_id: 'ev_2',
        trace_id: '4bf92f3577b34da6a3ce929d0e0e4736',
        span_id: '00f067aa0ba902b7',
      });
    }
    expect(lines()[1]!.password).toBe(REDACTED);
  });

  it('omits trace_id rather than inventing one when there is no trace context', () => {
    const { logger, lines } = capture();
    withTask(logger, { task_id: 'tsk_1', traceparent: 'garbage' }).info('x');
    expect(lines()[0]).toMatchObject({ task_id: 'tsk_1' });
    expect(lines()[0]).not.toHaveProperty('trace_id');
  });
});
