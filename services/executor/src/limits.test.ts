// The per-tool circuit breaker (EX-4) on a fake clock: growing cool-downs and a half-open state with one probe.
import { describe, expect, it } from 'vitest';
import { ToolCallError } from './errors.js';
import { createCircuitBreaker, type CircuitBreaker } from './limits.js';

function fakeClock() {
  let t = 1_000_000;
  return {
    now: () => t,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

/** The refusal `admit` throws, or undefined when it admitted the call (the permit is then reported as `outcome`). */
function refusal(breaker: CircuitBreaker): ToolCallError | undefined {
  try {
    breaker.admit('t');
    return undefined;
  } catch (err) {
    if (err instanceof ToolCallError) return err;
    throw err;
  }
}

function failTimes(breaker: CircuitBreaker, n: number): void {
  for (let i = 0; i < n; i++) breaker.admit('t').failure();
}

describe('circuit breaker', () => {
  it('opens after the threshold of consecutive failures and refuses with circuit_open for the first cool-down', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 3, openMs: 30_000, now: clock.now });
    failTimes(breaker, 2);
    breaker.admit('t').success(); // an answer resets the count
    failTimes(breaker, 2);
    expect(breaker.state).toBe('closed');
    failTimes(breaker, 1);
    expect(breaker.state).toBe('open');
    const refused = refusal(breaker);
    expect(refused).toMatchObject({ errorClass: 'transient', code: 'circuit_open', retryAfterMs: 1000 });
    expect(refused?.message).toContain('circuit breaker open');
    clock.advance(999);
    expect(breaker.state).toBe('open');
    clock.advance(1);
    expect(breaker.state).toBe('half_open');
  });

  it('half-open lets exactly one probe through; its success closes the breaker', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 30_000, now: clock.now });
    failTimes(breaker, 1);
    clock.advance(1000);
    const probe = breaker.admit('t');
    expect(probe.probe).toBe(true);
    for (let i = 0; i < 5; i++) {
      const refused = refusal(breaker);
      expect(refused?.code).toBe('circuit_open');
      expect(refused?.message).toContain('probe call is in flight');
    }
    probe.success();
    expect(breaker.state).toBe('closed');
    expect(refusal(breaker)).toBeUndefined();
    expect(refusal(breaker)).toBeUndefined();
  });

  it('a failed probe re-opens with the cool-down doubled, up to openMs; a success starts again at the first', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 5000, now: clock.now });
    failTimes(breaker, 1);
    const coolDowns: number[] = [];
    for (let i = 0; i < 5; i++) {
      const wait = refusal(breaker)?.retryAfterMs ?? 0;
      coolDowns.push(wait);
      clock.advance(wait - 1);
      expect(breaker.state).toBe('open');
      clock.advance(1);
      expect(breaker.state).toBe('half_open');
      breaker.admit('t').failure();
    }
    expect(coolDowns).toEqual([1000, 2000, 4000, 5000, 5000]);
    clock.advance(5000);
    breaker.admit('t').success();
    failTimes(breaker, 1);
    expect(refusal(breaker)?.retryAfterMs).toBe(1000);
  });

  it('a probe that ends without a verdict (refused before sending) frees the slot for the next call', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, now: clock.now });
    failTimes(breaker, 1);
    clock.advance(1000);
    breaker.admit('t').release();
    expect(breaker.state).toBe('half_open');
    const next = breaker.admit('t');
    expect(next.probe).toBe(true);
    next.success();
    next.failure(); // a second report of the same call is ignored
    expect(breaker.state).toBe('closed');
  });

  it('a late failure of a call admitted before the breaker opened neither extends the cool-down nor re-opens it', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 2, now: clock.now });
    const slow = breaker.admit('t');
    failTimes(breaker, 2);
    expect(breaker.state).toBe('open');
    clock.advance(900);
    slow.failure();
    clock.advance(100);
    expect(breaker.state).toBe('half_open');
    const probe = breaker.admit('t');
    probe.success();
    const slower = breaker.admit('t');
    slow.failure();
    slower.success();
    expect(breaker.state).toBe('closed');
  });

  it('a probe that never reports back is replaced after openMs', () => {
    const clock = fakeClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, openMs: 10_000, now: clock.now });
    failTimes(breaker, 1);
    clock.advance(1000);
    const lost = breaker.admit('t');
    clock.advance(9999);
    expect(refusal(breaker)?.code).toBe('circuit_open');
    clock.advance(1);
    const probe = breaker.admit('t');
    expect(probe.probe).toBe(true);
    lost.failure(); // from an earlier probe period: ignored
    probe.success();
    expect(breaker.state).toBe('closed');
  });

  it('the first cool-down is configurable and never above openMs', () => {
    const clock = fakeClock();
    const quick = createCircuitBreaker({ failureThreshold: 1, probeAfterMs: 250, now: clock.now });
    failTimes(quick, 1);
    expect(refusal(quick)?.retryAfterMs).toBe(250);
    const capped = createCircuitBreaker({ failureThreshold: 1, openMs: 500, now: clock.now });
    failTimes(capped, 1);
    expect(refusal(capped)?.retryAfterMs).toBe(500);
  });
});
