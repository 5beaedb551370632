import type { ErrorClass, StepResult } from '@signalbox/contracts';
import { canonicalJson, type FreshnessClass, type ToolDefinition } from '@signalbox/registry';
import { eventErrorMessage } from './error-classes.js';
import { ExecutionAbortedError, ExecutorConfigError, ToolCallError } from './errors.js';
import type { ExecutorStore } from './executor-store.js';
import { argumentHash, cacheKey, idempotencyKey, outputRef } from './keys.js';
import {
  createCircuitBreaker,
  createSharedToolLimiter,
  type BreakerOptions,
  type CircuitBreaker,
  type ToolLimiter,
} from './limits.js';
import { realClock, withRetry, type RetryClock } from './retry.js';
import type { TransportAdapter, Transports } from './transport.js';

/** EX-6 default TTL per freshness class, in seconds; `realtime` is never cached. */
export const FRESHNESS_TTL_SECONDS: Readonly<Record<FreshnessClass, number>> = {
  realtime: 0,
  minutes: 300,
  hours: 3600,
  daily: 86_400,
  static: 7 * 86_400,
};

/** Options of {@link createExecutor}; resolved once. */
export interface ExecutorOptions {
  store: ExecutorStore;
  transports: Transports;
  /** Outputs whose JSON is longer than this travel by reference (EL-3). @default 65536 */
  inlineOutputBytes?: number;
  /** Per-tool circuit breaker settings. */
  breaker?: BreakerOptions;
  /**
   * Issue 21 item 3: a tool's `limits` hold across every executor replica — shared rate buckets and concurrency
   * leases in the store. `leaseMs`: how long a dead replica's slot stays taken at most. @default { leaseMs: 10000 }
   */
  limits?: { leaseMs?: number };
  /**
   * How long a `started` key of another worker is waited for before it counts as abandoned (crash), on top of
   * the tool's own worst case (timeout × attempts + backoff; for a tool that is not idempotent, plus the outage
   * budget and one more timeout). @default 5000
   */
  abandonGraceMs?: number;
  /**
   * Issue 21, "a brief outage delays, it does not fail": how long a call goes on being tried, after its retry
   * policy's attempts, while it fails in a way that certainly did not reach the tool or asks to be retried later —
   * connection refused (or reset before the request was sent), the host not resolving, the tool's circuit breaker
   * open (its half-open probe is honoured: one call tries while the others wait), HTTP 503, or 429 with Retry-After
   * — for a failure class in the tool's `retry.retry_on`. For a read or an `idempotent` tool (it dedupes by the
   * `Idempotency-Key` it is sent), a connection reset, socket hang up or refusal after the request was sent counts
   * too: the tool was killed mid-call, and sending it again with the same key is safe. Only after it is such a failure
   * reported. 0 reports it at once, as before. A write that may have acted is never sent again to a tool that is not
   * idempotent, wait or not: its result says the outcome is unknown.
   * @default 30000
   */
  outageBudgetMs?: number;
  /** Backoff timers and jitter (unit tests only). @default real timers */
  clock?: RetryClock;
  /** @default () => new Date() */
  now?: () => Date;
}

/** One call to run. */
export interface ExecutionRequest {
  tenant_id: string;
  task_id: string;
  step_index: number;
  tool: ToolDefinition;
  arguments: Record<string, unknown>;
  /** Bypasses the read cache (EX-6). */
  needs_fresh_data: boolean;
}

/** What the caller of one `execute` may add. */
export interface ExecuteOptions {
  /**
   * Aborted when the caller stops (the stage drains): a call waiting for a tool — an outage, a backoff — gives up
   * at once and `execute` rejects with {@link ExecutionAbortedError} instead of reporting a failure; the request can
   * be run again later (by this stage's next owner) with the same outcome for the tool.
   */
  signal?: AbortSignal | undefined;
}

/**
 * The tool gateway (EX-1, EX-3..EX-7): one call in, one StepResult out; never throws for a tool's failure (only
 * {@link ExecutionAbortedError} when the caller's signal stopped it, and store errors).
 */
export interface Executor {
  execute(request: ExecutionRequest, options?: ExecuteOptions): Promise<StepResult>;
  /** Reads a claim-checked output back (EL-3). */
  readOutput(tenantId: string, ref: string): Promise<unknown>;
  /** The circuit breaker state of a tool. */
  breakerState(tool: string): 'closed' | 'open' | 'half_open';
}

/** True for output that carries nothing: null, empty text, an empty object or array. */
export function isEmptyOutput(output: unknown): boolean {
  if (output === null || output === undefined) return true;
  if (typeof output === 'string') return output.trim() === '';
  if (Array.isArray(output)) return output.length === 0;
  if (typeof output === 'object') return Object.keys(output).length === 0;
  return false;
}

function sideEffecting(tool: ToolDefinition): boolean {
  return tool.action !== 'read';
}

/**
 * What a write's result says when it failed after the request may have reached the tool, and the tool does not
 * dedupe by key: a sentence naming what happened (`refund: outcome unknown, connection failed (ECONNRESET) after
 * the request may have reached the tool; …`), never a promise to retry.
 */
function unknownOutcomeMessage(toolName: string, failure: string): string {
  const prefix = `${toolName}: `;
  const what = failure.startsWith(prefix) ? failure.slice(prefix.length) : failure;
  return (
    `${toolName}: outcome unknown, ${what} after the request may have reached the tool; it is not idempotent by key, ` +
    'so it was not sent again'
  );
}

function cacheTtl(tool: ToolDefinition): number {
  if (!tool.cache?.enabled || sideEffecting(tool) || tool.permission !== 'read_only') return 0;
  return tool.cache.ttl_seconds ?? FRESHNESS_TTL_SECONDS[tool.cache.freshness];
}

/**
 * Creates the gateway. Policy for a side-effecting call (EX-3, RS-1):
 * - its key is claimed as `started` in PostgreSQL before the tool is called, and the result recorded after;
 * - a key already `succeeded` returns the recorded result — the tool is not called again;
 * - a key `started` but never finished (the worker died mid-call), or `failed` after the tool may have acted, is
 *   re-sent with the same `Idempotency-Key` only when the tool is `idempotent` (it dedupes by key); otherwise the
 *   step fails as `internal` ("outcome in doubt") for an operator, and the tool is never called twice;
 * - a failure that certainly did not reach the tool (refused by the limiter, breaker, SSRF guard, a 429/503) releases
 *   the key, so a later re-injection may run it.
 * Retries inside one execution follow the same rule: a transient failure that may have acted is retried only for
 * idempotent tools. A failure that certainly did not reach the tool goes on being tried for `outageBudgetMs` (issue
 * 21), which needs no exception to that rule: nothing of it was sent; so does a connection that broke after sending
 * to a read or an idempotent tool (safe to repeat with the same key).
 */
export function createExecutor(options: ExecutorOptions): Executor {
  const inlineBytes = options.inlineOutputBytes ?? 64 * 1024;
  if (!Number.isInteger(inlineBytes) || inlineBytes < 1)
    throw new ExecutorConfigError(`inlineOutputBytes must be a positive integer, got ${String(inlineBytes)}`);
  const graceMs = options.abandonGraceMs ?? 5000;
  const outageBudgetMs = options.outageBudgetMs ?? 30_000;
  if (!Number.isInteger(outageBudgetMs) || outageBudgetMs < 0)
    throw new ExecutorConfigError(
      `outageBudgetMs must be a non-negative integer, got ${String(outageBudgetMs)}`,
    );
  const clock = options.clock ?? realClock;
  const now = options.now ?? (() => new Date());
  const { store, transports } = options;
  const breakers = new Map<string, CircuitBreaker>();
  const limiters = new Map<string, ToolLimiter>();
  const inflightReads = new Map<string, Promise<StepResult>>();

  const breakerOf = (tool: string) => {
    let b = breakers.get(tool);
    if (!b) breakers.set(tool, (b = createCircuitBreaker(options.breaker)));
    return b;
  };
  const limiterOf = (tool: ToolDefinition) => {
    let l = limiters.get(tool.name);
    if (!l)
      limiters.set(
        tool.name,
        (l = createSharedToolLimiter(tool.limits, {
          store,
          ...(options.limits?.leaseMs === undefined ? {} : { leaseMs: options.limits.leaseMs }),
        })),
      );
    return l;
  };

  function adapterFor(tool: ToolDefinition): TransportAdapter | undefined {
    const binding = tool.transport;
    if (!binding) return undefined;
    switch (binding.kind) {
      case 'http':
        return transports.http;
      case 'mcp':
        return transports.mcp;
      case 'builtin':
        return transports.builtin?.[binding.handler];
    }
  }

  function failure(
    request: ExecutionRequest,
    key: string,
    errorClass: ErrorClass,
    message: string,
    attempts: number,
    started: number,
    /** Whether the error was one to try again (see eventErrorMessage); its class's flag when not given. */
    retriable?: boolean,
  ): StepResult {
    return {
      step_index: request.step_index,
      tool: request.tool.name,
      ok: false,
      output: null,
      output_ref: null,
      output_kind: 'failure',
      error_class: errorClass,
      error_message: eventErrorMessage(errorClass, message, retriable),
      duration_ms: Math.max(0, performance.now() - started),
      attempts,
      cache_hit: false,
      fetched_at: null,
      idempotency_key: key,
    };
  }

  async function success(
    request: ExecutionRequest,
    key: string,
    output: unknown,
    attempts: number,
    started: number,
    fetchedAt: Date,
    cacheHit: boolean,
  ): Promise<StepResult> {
    const text = canonicalJson(output ?? null);
    const size = Buffer.byteLength(text);
    let inline: unknown = output ?? null;
    let ref: string | null = null;
    if (size > inlineBytes) {
      ref = outputRef(text);
      await store.putOutput(request.tenant_id, ref, output, size);
      inline = null;
    }
    return {
      step_index: request.step_index,
      tool: request.tool.name,
      ok: true,
      output: inline as StepResult['output'],
      output_ref: ref,
      output_kind: request.tool.evidence,
      error_class: null,
      error_message: null,
      duration_ms: Math.max(0, performance.now() - started),
      attempts,
      cache_hit: cacheHit,
      fetched_at: fetchedAt.toISOString(),
      idempotency_key: key,
    };
  }

  /**
   * Calls the tool with limits, breaker, retries and the outage wait; returns the result, whether a failure may have
   * acted, and whether the caller's signal abandoned the call while it waited (the result is then its last failure).
   */
  async function invoke(
    request: ExecutionRequest,
    adapter: TransportAdapter,
    key: string,
    started: number,
    signal: AbortSignal | undefined,
  ): Promise<{ result: StepResult; mayHaveActed: boolean; aborted: boolean }> {
    const { tool } = request;
    const breaker = breakerOf(tool.name);
    let mayHaveActed = false;
    // The limiter's own refusals: this executor's limits, not the tool's state — not an outage to wait out.
    const refusedHere = new WeakSet<object>();
    const outcome = await withRetry(
      tool.retry,
      async () => {
        const permit = breaker.admit(tool.name);
        let release: () => void;
        try {
          release = await limiterOf(tool).acquire(tool.name, tool.timeout_ms);
        } catch (err) {
          // Refused by the limiter: never sent, so it says nothing about the tool (a probe slot is freed). Its limits
          // are not an outage to wait out; its store being unreachable (`limiter_unavailable`, transient) is.
          permit.release();
          if (err instanceof ToolCallError && err.errorClass === 'rate_limited') refusedHere.add(err);
          throw err;
        }
        try {
          const output = await adapter.call({
            tool,
            arguments: request.arguments,
            idempotencyKey: key,
            timeoutMs: tool.timeout_ms,
            tenantId: request.tenant_id,
          });
          if (!sideEffecting(tool) && isEmptyOutput(output))
            throw new ToolCallError('empty', `${tool.name}: the tool returned nothing`, tool.name, {
              mayHaveActed: true,
            });
          permit.success();
          return output;
        } catch (err) {
          const callError =
            err instanceof ToolCallError
              ? err
              : new ToolCallError('internal', `${tool.name}: unexpected adapter failure`, tool.name, {
                  cause: err,
                  mayHaveActed: true,
                });
          if (callError.mayHaveActed) mayHaveActed = true;
          if (callError.errorClass === 'transient' || callError.errorClass === 'internal') permit.failure();
          else if (callError.errorClass !== 'rate_limited') permit.success();
          // A write that may have acted is sent again only to a tool that dedupes by idempotency key; otherwise its
          // outcome is unknown, and the result says so.
          if (callError.retriable && sideEffecting(tool) && !tool.idempotent && callError.mayHaveActed)
            throw new ToolCallError(
              callError.errorClass,
              unknownOutcomeMessage(tool.name, callError.message),
              tool.name,
              {
                cause: callError,
                retriable: false,
                mayHaveActed: true,
                connectionFailed: callError.connectionFailed,
              },
            );
          throw callError;
        } finally {
          release();
          // Whatever did not report (rate_limited) frees the probe slot; a report already made stands.
          permit.release();
        }
      },
      clock,
      {
        budgetMs: outageBudgetMs,
        signal,
        // Certainly not reached (refused or reset before sending, breaker open, no such host, 503, 429): the tool
        // is down or asked for time, and trying again cannot make it act twice. A connection that broke after the
        // request was sent (reset, socket hang up: the tool was killed mid-call) is an outage too, not the tool's
        // answer, when sending it again is safe — a read, or a tool that dedupes by the Idempotency-Key it gets
        // (issue 21). A write to a tool that is not idempotent and may have acted is not waited for (the retry rule
        // above already made it non-retriable).
        waitable: (err) =>
          (!err.mayHaveActed || (err.connectionFailed && (!sideEffecting(tool) || tool.idempotent))) &&
          !refusedHere.has(err) &&
          (err.errorClass === 'transient' || err.retryAfterMs !== undefined),
      },
    );
    if (outcome.ok)
      return {
        result: await success(request, key, outcome.value, outcome.attempts, started, now(), false),
        mayHaveActed: true,
        aborted: false,
      };
    const err = outcome.error;
    const result =
      err instanceof ToolCallError
        ? failure(request, key, err.errorClass, err.message, outcome.attempts, started, err.retriable)
        : failure(request, key, 'internal', `${tool.name}: internal error`, outcome.attempts, started);
    return { result, mayHaveActed, aborted: outcome.aborted };
  }

  /** A read's result, or {@link ExecutionAbortedError} when the signal abandoned it (nothing to record: it is a read). */
  async function read(
    request: ExecutionRequest,
    adapter: TransportAdapter,
    key: string,
    started: number,
    signal: AbortSignal | undefined,
  ): Promise<StepResult> {
    const { result, aborted } = await invoke(request, adapter, key, started, signal);
    if (aborted) throw new ExecutionAbortedError(request.tool.name, { cause: result.error_message });
    return result;
  }

  async function executeRead(
    request: ExecutionRequest,
    adapter: TransportAdapter,
    key: string,
    started: number,
    signal: AbortSignal | undefined,
  ) {
    const { tool } = request;
    const ttl = cacheTtl(tool);
    if (ttl <= 0 || request.needs_fresh_data) return read(request, adapter, key, started, signal);
    const scope = tool.cache?.tenant_scoped === false ? '*' : request.tenant_id;
    const ck = cacheKey(tool.name, request.arguments, scope === '*' ? null : scope);
    const hit = await store.cacheGet(scope, ck);
    if (hit) return success(request, key, hit.output, 0, started, hit.fetched_at, true);
    // Concurrent misses of one key share one call (and its abandonment: a stage's calls share one signal).
    const shared = inflightReads.get(`${scope}/${ck}`);
    if (shared) return shared;
    const pending = (async () => {
      const result = await read(request, adapter, key, started, signal);
      if (result.ok) {
        const output = result.output_ref
          ? await store.getOutput(request.tenant_id, result.output_ref)
          : result.output;
        await store.cachePut(
          scope,
          ck,
          tool.name,
          output,
          new Date(result.fetched_at ?? now().toISOString()),
          ttl,
        );
      }
      return result;
    })();
    inflightReads.set(`${scope}/${ck}`, pending);
    try {
      return await pending;
    } finally {
      inflightReads.delete(`${scope}/${ck}`);
    }
  }

  async function executeWrite(
    request: ExecutionRequest,
    adapter: TransportAdapter,
    key: string,
    started: number,
    signal: AbortSignal | undefined,
  ) {
    const { tool, tenant_id } = request;
    const entry = {
      tenant_id,
      key,
      task_id: request.task_id,
      step_index: request.step_index,
      tool: tool.name,
      arguments_hash: argumentHash(request.arguments),
    };
    // Another worker may be running this very call (a rebalance): wait out its worst case before judging it dead.
    // That includes waiting out an outage when judging wrong would fail the step (a tool that is not idempotent);
    // an idempotent tool's call is re-sent with the same key sooner, which it dedupes.
    const worstCaseMs =
      tool.timeout_ms * tool.retry.max_attempts +
      tool.retry.max_backoff_ms * (tool.retry.max_attempts - 1) +
      (tool.idempotent ? 0 : outageBudgetMs + tool.timeout_ms) +
      graceMs;
    for (;;) {
      const claim = await store.claim(entry);
      if (claim.state === 'finished') return claim.result;
      if (claim.state === 'in_doubt') {
        const age = now().getTime() - claim.startedAt.getTime();
        if (claim.recorded === null && age < worstCaseMs) {
          await clock.sleep(Math.min(1000, worstCaseMs - age));
          continue;
        }
        if (!tool.idempotent) {
          return (
            claim.recorded ??
            failure(
              request,
              key,
              'internal',
              `${tool.name}: a call with this idempotency key started earlier and never finished; the tool is not ` +
                'idempotent by key, so it is not sent again (outcome in doubt, needs an operator)',
              0,
              started,
            )
          );
        }
        await store.markResent(tenant_id, key);
      }
      break;
    }
    const { result, mayHaveActed, aborted } = await invoke(request, adapter, key, started, signal);
    // Abandoned or not, the key is left as a failure would leave it, so running the request again is safe: released
    // when nothing was sent; recorded as failed when something may have been (only an idempotent tool then waits,
    // and it is re-sent with the same key).
    if (result.ok || mayHaveActed) await store.finish(tenant_id, key, result);
    else await store.release(tenant_id, key);
    if (aborted) throw new ExecutionAbortedError(tool.name, { cause: result.error_message });
    return result;
  }

  return {
    async execute(request, executeOptions = {}) {
      const { signal } = executeOptions;
      const started = performance.now();
      const { tool } = request;
      const key = idempotencyKey({
        tenant_id: request.tenant_id,
        task_id: request.task_id,
        step_index: request.step_index,
        tool: tool.name,
        arguments: request.arguments,
      });
      const adapter = adapterFor(tool);
      if (!adapter) {
        const what = tool.transport
          ? `no ${tool.transport.kind === 'builtin' ? `built-in handler "${tool.transport.handler}"` : `${tool.transport.kind} adapter`} is configured`
          : 'it has no transport binding';
        return failure(request, key, 'unknown_tool', `${tool.name} cannot be called: ${what}`, 0, started);
      }
      return sideEffecting(tool)
        ? executeWrite(request, adapter, key, started, signal)
        : executeRead(request, adapter, key, started, signal);
    },
    readOutput: (tenantId, ref) => store.getOutput(tenantId, ref),
    breakerState: (tool) => breakerOf(tool).state,
  };
}
