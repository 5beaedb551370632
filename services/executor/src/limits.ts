import { randomUUID } from 'node:crypto';
import type { ToolLimits } from '@signalbox/registry';
import { ExecutorConfigError, ExecutorStoreError, ToolCallError } from './errors.js';
import type { LimiterStore } from './executor-store.js';

/** Options of the per-tool circuit breaker (EX-4). */
export interface BreakerOptions {
  /** Consecutive failed attempts (transient or internal) that open the breaker. @default 5 */
  failureThreshold?: number;
  /**
   * The longest cool-down: an open breaker refuses calls for a cool-down that starts at `probeAfterMs` and doubles
   * after each failed probe, up to this. @default 30000
   */
  openMs?: number;
  /** The first cool-down after the breaker opens, before one probe call is let through. @default 1000 */
  probeAfterMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** State of one tool's breaker. */
export type BreakerState = 'closed' | 'open' | 'half_open';

/**
 * One admitted call's ticket: it reports the call's outcome once (later reports are ignored). Only outcomes of calls
 * admitted in the breaker's current period count: a call that started before the breaker opened cannot re-open it
 * or extend its cool-down when it fails late.
 */
export interface BreakerPermit {
  /** True for the single half-open probe. */
  readonly probe: boolean;
  /** The tool answered (whatever the answer): resets the failure count; a successful probe closes the breaker. */
  success(): void;
  /** A transient or internal failure: counts towards opening; a failed probe re-opens with a doubled cool-down. */
  failure(): void;
  /** The call ended without telling anything about the tool (refused before sending): frees the probe slot. */
  release(): void;
}

/**
 * A circuit breaker for one tool: closed → open after N consecutive failures → half-open after a short cool-down,
 * when exactly one probe call is let through: its success closes the breaker, its failure re-opens it with the
 * cool-down doubled (1 s, 2 s, 4 s … up to `openMs`). A recovered tool serves again within one cool-down.
 */
export interface CircuitBreaker {
  readonly state: BreakerState;
  /** Throws a `transient` {@link ToolCallError} (`circuit_open`) while open or while the probe is in flight. */
  admit(tool: string): BreakerPermit;
}

/** Creates one tool's breaker. */
export function createCircuitBreaker(options: BreakerOptions = {}): CircuitBreaker {
  const threshold = options.failureThreshold ?? 5;
  const openMs = options.openMs ?? 30_000;
  const firstCoolDown = Math.min(options.probeAfterMs ?? 1000, openMs);
  const now = options.now ?? Date.now;
  let failures = 0;
  let openedAt: number | undefined;
  let coolDown = firstCoolDown;
  // Every change of state starts a new period; a permit only counts in the period that admitted it.
  let period = 0;
  let probeStartedAt: number | undefined;

  const state = (): BreakerState => {
    if (openedAt === undefined) return 'closed';
    return now() - openedAt >= coolDown ? 'half_open' : 'open';
  };
  const open = (nextCoolDown: number) => {
    openedAt = now();
    coolDown = nextCoolDown;
    probeStartedAt = undefined;
    period++;
  };
  const close = () => {
    openedAt = undefined;
    failures = 0;
    coolDown = firstCoolDown;
    probeStartedAt = undefined;
    period++;
  };

  function permit(probe: boolean): BreakerPermit {
    const admittedIn = period;
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      return admittedIn === period;
    };
    return {
      probe,
      success() {
        if (!settle()) return;
        if (probe) close();
        else failures = 0;
      },
      failure() {
        if (!settle()) return;
        if (probe) open(Math.min(coolDown * 2, openMs));
        else if (++failures >= threshold) open(firstCoolDown);
      },
      release() {
        if (settle() && probe) probeStartedAt = undefined;
      },
    };
  }

  return {
    get state() {
      return state();
    },
    admit(tool) {
      const s = state();
      if (s === 'closed') return permit(false);
      // A probe that never reported back (lost) does not hold the breaker half-open for ever.
      const probeLost = probeStartedAt !== undefined && now() - probeStartedAt >= openMs;
      if (s === 'half_open' && (probeStartedAt === undefined || probeLost)) {
        if (probeLost) period++;
        probeStartedAt = now();
        return permit(true);
      }
      const wait = s === 'open' && openedAt !== undefined ? coolDown - (now() - openedAt) : firstCoolDown;
      // Not sent, so nothing acted: retrying after the pause is safe even for writes.
      throw new ToolCallError(
        'transient',
        `${tool}: circuit breaker open after repeated failures${s === 'half_open' ? ' (a probe call is in flight)' : ''}`,
        tool,
        { retryAfterMs: Math.max(0, wait), code: 'circuit_open' },
      );
    },
  };
}

/** Per-tool concurrency and rate limits (EX-4, `tool.limits`). */
export interface ToolLimiter {
  /** Waits for a concurrency slot and a rate token; throws `rate_limited` when none comes within `maxWaitMs`. */
  acquire(tool: string, maxWaitMs: number): Promise<() => void>;
}

/**
 * Creates the limiter of one tool from its declared limits, within this process only. The executor uses
 * {@link createSharedToolLimiter}, which holds across replicas; this one is its in-process gate.
 */
export function createToolLimiter(limits: ToolLimits, now: () => number = Date.now): ToolLimiter {
  const maxConcurrent = limits.concurrency ?? Infinity;
  const rate = limits.rate_limit;
  let running = 0;
  const waiting: (() => void)[] = [];
  // Token bucket: `requests` tokens per `per_seconds`, refilled continuously.
  let tokens = rate?.requests ?? 0;
  let refilledAt = now();

  function refill(): void {
    if (!rate) return;
    const t = now();
    tokens = Math.min(rate.requests, tokens + ((t - refilledAt) / 1000) * (rate.requests / rate.per_seconds));
    refilledAt = t;
  }

  async function slot(tool: string, deadline: number): Promise<void> {
    if (running < maxConcurrent) {
      running++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        running++;
        resolve();
      };
      const timer = setTimeout(
        () => {
          const i = waiting.indexOf(wake);
          if (i >= 0) waiting.splice(i, 1);
          reject(
            new ToolCallError(
              'rate_limited',
              `${tool}: concurrency limit ${String(maxConcurrent)} reached`,
              tool,
              {
                code: 'concurrency_limit',
              },
            ),
          );
        },
        Math.max(0, deadline - now()),
      );
      waiting.push(wake);
    });
  }

  function release(): void {
    running--;
    const next = waiting.shift();
    if (next) next();
  }

  async function token(tool: string, deadline: number): Promise<void> {
    if (!rate) return;
    for (;;) {
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return;
      }
      const waitMs = Math.ceil(((1 - tokens) * rate.per_seconds * 1000) / rate.requests);
      if (now() + waitMs > deadline) {
        throw new ToolCallError(
          'rate_limited',
          `${tool}: rate limit ${String(rate.requests)}/${String(rate.per_seconds)}s reached`,
          tool,
          { retryAfterMs: waitMs, code: 'rate_limit' },
        );
      }
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }

  return {
    async acquire(tool, maxWaitMs) {
      const deadline = now() + maxWaitMs;
      await token(tool, deadline);
      await slot(tool, deadline);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    },
  };
}

/** Options of {@link createSharedToolLimiter}. */
export interface SharedLimiterOptions {
  store: LimiterStore;
  /**
   * How long a concurrency lease lives without renewal; a running call renews it every third of this, so a replica
   * that died (SIGKILL, lost host) holds its slots at most this long. @default 10000
   */
  leaseMs?: number;
  /** The first pause before asking again for a slot (doubles up to 8×, jittered). @default 50 */
  pollMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** @default Math.random */
  random?: () => number;
}

/** The default lifetime of a concurrency lease (see {@link SharedLimiterOptions.leaseMs}). */
const DEFAULT_LEASE_MS = 10_000;

/**
 * The limiter of one tool whose limits hold across every executor replica (EX-4, issue 21 item 3): the rate is a
 * token bucket row in PostgreSQL (`executor_rate_buckets`), taken atomically; concurrency is `concurrency` lease rows
 * (`executor_leases`) with an expiry, renewed while the call runs. A call first waits for a slot (in this process,
 * then a shared lease), then for a token, so it is sent right after its token was granted. Over the limit for longer
 * than `maxWaitMs` → `rate_limited` (not sent). The store unreachable → `transient` `limiter_unavailable` (not sent,
 * so it is waited out like any outage). A tool without limits never touches the store.
 */
export function createSharedToolLimiter(limits: ToolLimits, options: SharedLimiterOptions): ToolLimiter {
  const { store } = options;
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!Number.isInteger(leaseMs) || leaseMs < 100)
    throw new ExecutorConfigError(`leaseMs must be an integer of at least 100, got ${String(leaseMs)}`);
  const pollMs = options.pollMs ?? 50;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  const slots = limits.concurrency;
  const rate = limits.rate_limit;
  // At most `slots` calls of this process compete for a shared lease; the rest wait here, woken in order.
  const local = slots === undefined ? undefined : createToolLimiter({ concurrency: slots }, now);

  const unavailable = (tool: string, err: unknown) =>
    err instanceof ExecutorStoreError
      ? new ToolCallError(
          'transient',
          `${tool}: the shared limits cannot be read (PostgreSQL unreachable)`,
          tool,
          {
            cause: err,
            code: 'limiter_unavailable',
          },
        )
      : err;

  async function lease(tool: string, n: number, deadline: number): Promise<() => void> {
    let pause = pollMs;
    for (;;) {
      const holder = randomUUID();
      const slot = await store.acquireLease(tool, n, holder, leaseMs);
      if (slot !== undefined) {
        const timer = setInterval(
          () => {
            store.renewLease(tool, slot, holder, leaseMs).catch(() => undefined);
          },
          Math.floor(leaseMs / 3),
        );
        timer.unref();
        return () => {
          clearInterval(timer);
          // Unreachable: the lease expires by itself within leaseMs.
          store.releaseLease(tool, slot, holder).catch(() => undefined);
        };
      }
      const left = deadline - now();
      if (left <= 0)
        throw new ToolCallError(
          'rate_limited',
          `${tool}: concurrency limit ${String(n)} reached (across executor replicas)`,
          tool,
          { code: 'concurrency_limit' },
        );
      await sleep(Math.min(left, Math.ceil(pause / 2 + (random() * pause) / 2)));
      pause = Math.min(pause * 2, pollMs * 8);
    }
  }

  async function token(
    tool: string,
    r: NonNullable<ToolLimits['rate_limit']>,
    deadline: number,
  ): Promise<void> {
    const perSecond = r.requests / r.per_seconds;
    for (;;) {
      const { granted, tokens } = await store.takeToken(tool, r.requests, perSecond);
      if (granted) return;
      const waitMs = Math.max(1, Math.ceil(((1 - tokens) * 1000) / perSecond));
      if (now() + waitMs > deadline)
        throw new ToolCallError(
          'rate_limited',
          `${tool}: rate limit ${String(r.requests)}/${String(r.per_seconds)}s reached (across executor replicas)`,
          tool,
          { retryAfterMs: waitMs, code: 'rate_limit' },
        );
      // Several waiters (of this and other replicas) wake for one token: a little jitter spreads them.
      await sleep(waitMs + Math.floor(random() * pollMs));
    }
  }

  return {
    async acquire(tool, maxWaitMs) {
      if (local === undefined && rate === undefined) return () => undefined;
      const deadline = now() + maxWaitMs;
      const held: (() => void)[] = [];
      const free = () => {
        for (const f of held.splice(0).reverse()) f();
      };
      try {
        if (local !== undefined && slots !== undefined) {
          held.push(await local.acquire(tool, Math.max(0, deadline - now())));
          held.push(await lease(tool, slots, deadline));
        }
        if (rate !== undefined) await token(tool, rate, deadline);
      } catch (err) {
        free();
        throw unavailable(tool, err);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        free();
      };
    },
  };
}
