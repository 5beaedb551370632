import { describe, expect, it } from 'vitest';
import { formatTraceparent, parseTraceparent } from './traceparent.js';

const VALID = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

describe('W3C traceparent codec', () => {
  it('round-trips a valid header', () => {
    const context = parseTraceparent(VALID);
    expect(context).toMatchObject({
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
    });
    expect(formatTraceparent(context!)).toBe(VALID);
  });

  it('keeps an unsampled flag and drops reserved flag bits', () => {
    expect(formatTraceparent(parseTraceparent(VALID.replace(/01$/, '00'))!)).toBe(VALID.replace(/01$/, '00'));
    expect(parseTraceparent(VALID.replace(/01$/, 'ff'))!.traceFlags).toBe(1);
  });

  it.each([
    ['all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['all-zero span id', `00-4bf92f3577b34da6a3ce929d0e0e4736-${'0'.repeat(16)}-01`],
    ['forbidden version ff', VALID.replace(/^00/, 'ff')],
    ['upper-case hex', VALID.toUpperCase()],
    ['short trace id', '00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01'],
    ['version 00 with extra fields', `${VALID}-extra`],
    ['empty', ''],
  ])('rejects %s', (_label, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('reads a future version by its first four fields', () => {
    expect(parseTraceparent(`01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-future`)?.spanId).toBe(
      '00f067aa0ba902b7',
    );
  });

  it('carries tracestate through unchanged', () => {
    const context = parseTraceparent(VALID, 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
    expect(context?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(context?.traceState?.serialize()).toBe('congo=t61rcWkgMzE,rojo=00f067aa0ba902b7');
  });
});
