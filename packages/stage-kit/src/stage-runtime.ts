import { setTimeout as sleep } from 'node:timers/promises';
import {
  CONTRACT_VERSION,
  topicByName,
  type Envelope,
  type PipelineStage,
  type StageMessage,
} from '@signalbox/contracts';
import {
  InvalidMessageError,
  REPUBLISHED_HEADER,
  forEachByKey,
  validateValue,
  validatedPayloadJson,
  type BatchOutcome,
  type Bus,
  type DeadLetter,
  type IncomingMessage,
  type OutgoingMessage,
  type PoisonMessage,
  type Subscription,
} from '@signalbox/bus';
import {
  classifyError,
  compareJsonbKeys,
  secretsAt,
  type EventStore,
  type ModelExchange,
  type NewEvent,
  type StoredEvent,
} from '@signalbox/event-log';
import {
  RetriesExhaustedError,
  isRetriable,
  retriableFlag,
  retry,
  type RetryOptions,
} from '@signalbox/retry';
import { injectTraceHeaders, withConsumerSpan } from '@signalbox/telemetry';
import {
  decisionEnvelope,
  decisionEventId,
  type Decision,
  type DecisionContext,
  type StageDefinition,
  type StageInput,
} from './decision.js';
import {
  DecisionDeferredError,
  EventLogUnavailableError,
  InvalidDecisionError,
  StageConfigError,
} from './errors.js';
import { limitModelCalls, recordExchanges } from './model-exchanges.js';

/** Lifecycle of a stage worker. */
export type StageState = 'starting' | 'running' | 'draining' | 'stopped' | 'failed';

/** The logging surface the runtime needs (pino's shape). */
export interface RuntimeLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Observations the runtime reports; wire them to metrics (OB-3). All optional. */
export interface RuntimeObserver {
  /** One input handled: decided anew (`decided`), reused from the event log (`reused`) or dead-lettered. */
  onMessage?(outcome: 'decided' | 'reused' | 'dead_lettered', seconds: number, decision?: Envelope): void;
  onRetry?(what: 'decide' | 'event_log'): void;
  onInFlight?(count: number): void;
}

export interface StageRuntimeOptions {
  definition: StageDefinition;
  bus: Bus;
  store: EventStore;
  /** One consumer group per stage (OP-3). @default `signalbox.<stage>` */
  groupId?: string;
  /** Inputs decided concurrently within a batch (different keys only; one key stays in order). @default 16 */
  concurrency?: number;
  /**
   * Partitions handled at once. The topics have 6 (room for 6 replicas): a worker that owns them all handles them in
   * one round, not in sequential rounds of append + publish each (measured: hop p50/p99 28/71 ms with 6, 56/135 with
   * 2). @default 6
   */
  partitionsConcurrently?: number;
  /**
   * Model calls in flight at once across this worker's decisions (`limitModelCalls`); beyond it calls wait. @default 32
   */
  modelConcurrency?: number;
  /** Attempts of `decide` on a retriable error before the input is dead-lettered. @default 3 */
  decideAttempts?: number;
  /** First backoff between decide attempts; doubles up to `retryMaxMs`, with full jitter. @default 50 */
  retryBaseMs?: number;
  /** @default 2000 */
  retryMaxMs?: number;
  /** While the event log is unreachable, how often it is probed before consumption resumes. @default 1000 */
  storeProbeIntervalMs?: number;
  logger?: RuntimeLogger;
  observer?: RuntimeObserver;
  /** Clock for `occurred_at`. @default () => new Date() */
  now?: () => Date;
}

export interface StageRuntime {
  readonly stage: PipelineStage;
  readonly state: StageState;
  /** Ready = running and the event log answers (OB-4 readiness). */
  isReady(): boolean;
  start(): Promise<void>;
  /** Drains: stops fetching, finishes the in-flight batch, commits, leaves the group. */
  stop(): Promise<void>;
}

const silentLogger: RuntimeLogger = { debug() {}, info() {}, warn() {}, error() {} };

interface ResolvedOptions extends Required<Omit<StageRuntimeOptions, 'logger' | 'observer'>> {
  logger: RuntimeLogger;
  observer: RuntimeObserver;
}

function resolveOptions(options: StageRuntimeOptions): ResolvedOptions {
  const { definition } = options;
  if (definition.input.consumer !== definition.stage) {
    throw new StageConfigError(
      `stage ${definition.stage} cannot consume ${definition.input.name}: that topic is the input of ${String(definition.input.consumer)}`,
    );
  }
  const resolved: ResolvedOptions = {
    definition,
    bus: options.bus,
    store: options.store,
    groupId: options.groupId ?? `signalbox.${definition.stage}`,
    concurrency: options.concurrency ?? 16,
    partitionsConcurrently: options.partitionsConcurrently ?? 6,
    modelConcurrency: options.modelConcurrency ?? 32,
    decideAttempts: options.decideAttempts ?? 3,
    retryBaseMs: options.retryBaseMs ?? 50,
    retryMaxMs: options.retryMaxMs ?? 2000,
    storeProbeIntervalMs: options.storeProbeIntervalMs ?? 1000,
    logger: options.logger ?? silentLogger,
    observer: options.observer ?? {},
    now: options.now ?? (() => new Date()),
  };
  for (const key of [
    'concurrency',
    'partitionsConcurrently',
    'modelConcurrency',
    'decideAttempts',
  ] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) {
      throw new StageConfigError(`${key} must be a positive integer, got ${String(resolved[key])}`);
    }
  }
  return resolved;
}

/** One input's fate inside a batch. */
type Fate =
  | { kind: 'stored'; event: StoredEvent }
  /** `published`: the message as validated for the decision's topic, in the log's key order (republish identity). */
  | { kind: 'new'; event: NewEvent; published: unknown }
  | { kind: 'failed'; event: NewEvent; detail: string };

/**
 * The runtime every stage worker shares (EL-2, RS-1): for each batch, decode → reuse the stored decision if one
 * exists, else call the pure `decide` → append the batch's decisions in one transaction → publish them → let the
 * runner commit the offsets. A crash at any point re-delivers inputs whose decisions are then found and
 * re-published unchanged; downstream dedupes by `event_id`.
 */
export function createStageRuntime(options: StageRuntimeOptions): StageRuntime {
  const o = resolveOptions(options);
  const { definition, bus, store, logger, observer } = o;
  const stage = definition.stage;
  // One limit for the worker's model calls, whatever decision makes them.
  const models = definition.models && limitModelCalls(definition.models, o.modelConcurrency);
  let state: StageState = 'starting';
  let subscription: Subscription | undefined;
  let storeHealthy = true;
  let probing: Promise<void> | undefined;
  let inFlight = 0;
  // Aborted as the stage drains: decisions waiting on something outside give up (DecisionDeferredError).
  const draining = new AbortController();

  // How a decision is retried: the same for every input, so made once rather than for each message decided.
  const decideRetry: RetryOptions = {
    attempts: o.decideAttempts,
    initialMs: o.retryBaseMs,
    maxMs: o.retryMaxMs,
    jitter: 1,
    // A decision is pure: an error that does not say a retry may help would fail the same way again (and ask its
    // models again), so only an explicit `retriable: true` is tried again. A deferral is not a failure.
    retriable: (err) =>
      !(err instanceof DecisionDeferredError) && isRetriable(err) && retriableFlag(err) === true,
    onRetry: () => observer.onRetry?.('decide'),
  };

  /** One attempt of a decision: the decision and the model exchanges this attempt made. */
  async function decideOnce(
    input: StageMessage,
    ctx: DecisionContext,
    lastAttempt: { exchanges: () => readonly ModelExchange[] },
  ): Promise<{ decision: Decision; exchanges: readonly ModelExchange[] }> {
    // A stage without models (most of them) decides with the plain context: nothing to record, nothing to add.
    if (!models) return { decision: await definition.decide(input, ctx), exchanges: NO_EXCHANGES };
    const recorder = recordExchanges(models);
    lastAttempt.exchanges = () => recorder.exchanges();
    const decision = await definition.decide(input, { ...ctx, models: recorder.models });
    return { decision, exchanges: recorder.exchanges() };
  }

  /**
   * The decision and the model exchanges it used. Each attempt records its own exchanges: those of an attempt that
   * failed are not what the decision rests on.
   */
  async function decideWithRetry(
    input: StageMessage,
    ctx: DecisionContext,
    /** Set to each attempt's exchanges as it starts: what the last one asked, should it throw. */
    lastAttempt: { exchanges: () => readonly ModelExchange[] },
  ): Promise<{ decision: Decision; exchanges: readonly ModelExchange[] }> {
    try {
      return await retry(() => decideOnce(input, ctx, lastAttempt), decideRetry);
    } catch (err) {
      // What the decision failed with, not that it was given up on: that is what its failed event records.
      throw err instanceof RetriesExhaustedError ? err.cause : err;
    }
  }

  function markStoreDown(err: unknown): void {
    if (!storeHealthy) return;
    storeHealthy = false;
    logger.warn({ stage, err: describe(err) }, 'event log unreachable; pausing consumption');
    subscription?.pause();
    probing = (async () => {
      while (!storeHealthy && state === 'running') {
        await sleep(o.storeProbeIntervalMs);
        try {
          await store.ping();
          storeHealthy = true;
          logger.info({ stage }, 'event log reachable again; resuming consumption');
          subscription?.resume();
        } catch {
          observer.onRetry?.('event_log');
        }
      }
    })();
  }

  async function guardStore<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      // The event log's own classification of database errors (event-log's classifyError) says whether it is away.
      if (retriableFlag(err) === true || classifyError(err, 'reaching the event log').retriable) {
        markStoreDown(err);
        throw new EventLogUnavailableError('the event log is unreachable', { cause: err });
      }
      throw err;
    }
  }

  function failedEvent(
    input: StageInput,
    fullDetail: string,
    source: IncomingMessage,
    exchanges: readonly ModelExchange[] = NO_EXCHANGES,
  ): NewEvent {
    const detail = capDetail(fullDetail);
    const envelope: Envelope = {
      ...decisionEnvelope(
        stage,
        input,
        {
          topic: definition.input,
          event_type: 'failed',
          payload: null,
          decision_reason: `dead-lettered: ${detail}`,
          revision_count: input.revision_count,
          degraded_flag: input.degraded_flag,
        },
        definition.versions(),
        o.now(),
        input.traceparent,
      ),
    };
    const event: NewEvent = {
      envelope,
      topic: null,
      payload: {
        reason: 'handler_failed',
        detail,
        source: { topic: source.topic, partition: source.partition, offset: source.offset },
      },
    };
    if (exchanges.length > 0) event.exchanges = exchanges;
    return event;
  }

  async function decideOne(
    message: IncomingMessage,
    stored: Map<string, StoredEvent>,
    decidedInBatch: Map<string, Fate>,
  ): Promise<Fate> {
    // The bus checked the value against the input topic's schema (FL-3): it is one of the stage's message kinds.
    const input = message.value as StageMessage;
    const id = decisionEventId(stage, input);
    const existing = stored.get(id);
    if (existing) return { kind: 'stored', event: existing };
    // A redelivered copy in the same batch (same key, so handled after the first): EL-2 forbids deciding again.
    const earlier = decidedInBatch.get(id);
    if (earlier) return earlier;
    // OB-2: one CONSUMER span per decided message, child of the trace context the message carries; the decision
    // carries the span's context on (the header, else the envelope's traceparent when no propagator is set up).
    const headers =
      input.traceparent && !message.headers.traceparent
        ? { ...message.headers, traceparent: input.traceparent }
        : message.headers;
    const fate = await withConsumerSpan(
      'signalbox.stage-kit',
      `${stage} process`,
      headers,
      {
        'messaging.system': 'kafka',
        'messaging.destination.name': message.topic,
        'signalbox.stage': stage,
        'signalbox.task_id': input.task_id,
        'signalbox.event_type': input.event_type,
      },
      (_span, ctx) =>
        decideFresh(message, input, injectTraceHeaders({}, ctx).traceparent ?? input.traceparent),
    );
    decidedInBatch.set(id, fate);
    return fate;
  }

  async function decideFresh(
    message: IncomingMessage,
    input: StageMessage,
    traceparent: string | null,
  ): Promise<Fate> {
    const versions = definition.versions();
    const lastAttempt = { exchanges: noExchanges };
    // EL-6: the stage's own time on the decision (retries included), recorded with it for the trace view.
    const started = performance.now();
    try {
      const { decision, exchanges } = await decideWithRetry(
        input,
        { stage, versions, signal: draining.signal },
        lastAttempt,
      );
      const workMs = Math.round(performance.now() - started);
      const envelope = decisionEnvelope(stage, input, decision, versions, o.now(), traceparent);
      // Checked as the consumer will see it after JSON encoding, so the append and the publish cannot refuse it later.
      // Checked in the shape the log will give back, so the first publish sends these very bytes (the
      // republish-identity rule, EL-2: @signalbox/event-log's republish-identity.ts).
      const published = validateDecision(decision, { ...envelope, payload: decision.payload });
      // The log keeps the payload as published (as checked: what the topic's schema does not know is not in it), and
      // is given its text, which the check wrote already.
      const payload = (published as { payload: unknown }).payload;
      const event: NewEvent = {
        envelope,
        topic: decision.topic.name,
        payload,
        payloadJson: validatedPayloadJson(published),
        work_ms: workMs,
      };
      const sensitive = definition.sensitivePaths?.(payload) ?? [];
      // PI-5 / RS-6: the values are published but stored apart from the payload, which the log keeps redacted.
      if (sensitive.length > 0) event.secrets = secretsAt(payload, sensitive);
      // EL-7 / EL-9: the model answers the decision rests on, appended with it in the same statement; a
      // redelivery reuses the stored decision and never asks the model again (EL-2).
      if (exchanges.length > 0) event.exchanges = exchanges;
      return { kind: 'new', event, published };
    } catch (err) {
      // Given up as the stage drains: not decided at all. The batch fails (retriable) and, the subscription
      // stopping, is abandoned uncommitted: the input comes again to the next owner.
      if (err instanceof DecisionDeferredError) {
        logger.info(
          { stage, task_id: input.task_id, event_id: input.event_id, err: describe(err) },
          'decision deferred: the stage is stopping; the input is left for redelivery',
        );
        throw err;
      }
      const detail = describe(err);
      logger.error(
        { stage, task_id: input.task_id, event_id: input.event_id, err: detail },
        'decision failed; dead-lettering the input',
      );
      // EL-7: the model calls the failed decision made (answered or not) stay with its failed event, for the audit.
      const event = failedEvent(input, detail, message, lastAttempt.exchanges());
      return { kind: 'failed', event, detail: capDetail(detail) };
    }
  }

  /** Checks the message of a decision as `publish` will (`validateValue`), before it is appended. */
  function validateDecision(decision: Decision, message: Envelope & { payload: unknown }): unknown {
    try {
      return validateValue(decision.topic, message, { keyOrder: compareJsonbKeys });
    } catch (err) {
      if (!(err instanceof InvalidMessageError)) throw err;
      throw new InvalidDecisionError(
        `${stage} decided a ${decision.event_type} that ${decision.topic.name} refuses: ${err.path || '(root)'}: ${err.detail}`,
        decision.topic.name,
        { cause: err },
      );
    }
  }

  async function handleBatch(batch: IncomingMessage[]): Promise<BatchOutcome> {
    const started = performance.now();
    inFlight += batch.length;
    observer.onInFlight?.(inFlight);
    try {
      // EL-2: look for a stored decision of every input the bus cannot vouch is new to the group. A first delivery
      // (the steady state) skips the lookup, one round trip per batch; should its decision exist after all (a
      // previous owner still finishing a batch), the append keeps the stored one and returns it, and that is what
      // is published.
      const ids = [
        ...new Set(
          batch.flatMap((m) => (m.firstDelivery ? [] : [decisionEventId(stage, m.value as StageInput)])),
        ),
      ];
      // With secrets: a reused decision is re-published exactly as it was first (EL-2), real values included.
      const stored =
        ids.length > 0
          ? await guardStore(() => store.findByEventIds(ids, { withSecrets: true }))
          : new Map<string, StoredEvent>();
      const fates: Fate[] = new Array<Fate>(batch.length);
      const indexed = batch.map((message, index) => ({ ...message, index }));
      const decidedInBatch = new Map<string, Fate>();
      await forEachByKey(indexed, o.concurrency, async (message) => {
        fates[message.index] = await decideOne(message, stored, decidedInBatch);
      });

      const toAppend = [
        ...new Map(
          fates.flatMap((f) => (f.kind === 'stored' ? [] : [[f.event.envelope.event_id, f.event] as const])),
        ).values(),
      ];
      const appended =
        toAppend.length > 0 ? await guardStore(() => store.append(toAppend, { withSecrets: true })) : [];
      const byId = new Map<string, StoredEvent>(stored);
      // EL-4: a redelivery older than retention — its decision was archived and pruned, so the one just taken again
      // is not what downstream saw. It is not published; the original already went on (side effects stay
      // once-only through the executor's own idempotency store).
      const pruned = new Set<string>();
      // Decided here but already stored (the lookup was skipped, or a concurrent owner appended first): the stored
      // decision stands and goes out again, marked as a re-publication.
      const foundStored = new Set<string>();
      for (const result of appended) {
        byId.set(result.event.envelope.event_id, result.event);
        if (result.pruned) pruned.add(result.event.envelope.event_id);
        else if (!result.inserted) foundStored.add(result.event.envelope.event_id);
      }

      const outgoing: OutgoingMessage[] = [];
      const deadLetters: DeadLetter[] = [];
      const published = new Set<string>();
      batch.forEach((message, index) => {
        const fate = fates[index];
        if (!fate) throw new Error(`no decision for batch index ${String(index)}`);
        const event = byId.get(fate.event.envelope.event_id);
        if (!event)
          throw new Error(`decision ${fate.event.envelope.event_id} was neither stored nor appended`);
        const seconds = (performance.now() - started) / 1000;
        if (event.envelope.event_type === 'failed') {
          const detail = fate.kind === 'failed' ? fate.detail : event.envelope.decision_reason;
          deadLetters.push({ message, reason: 'handler_failed', detail });
          observer.onMessage?.('dead_lettered', seconds);
          return;
        }
        if (pruned.has(event.envelope.event_id)) {
          logger.warn(
            { stage, task_id: event.envelope.task_id, event_id: event.envelope.event_id },
            'input redelivered after its decision was pruned (EL-4); not published again',
          );
          observer.onMessage?.('reused', seconds, event.envelope);
          return;
        }
        const reused = fate.kind === 'stored' || foundStored.has(event.envelope.event_id);
        observer.onMessage?.(reused ? 'reused' : 'decided', seconds, event.envelope);
        if (published.has(event.envelope.event_id) || !event.topic) return;
        const topic = topicByName(event.topic);
        if (!topic)
          throw new Error(`stored decision ${event.envelope.event_id} names unknown topic ${event.topic}`);
        published.add(event.envelope.event_id);
        const headers: Record<string, string> = {};
        if (event.envelope.traceparent) headers.traceparent = event.envelope.traceparent;
        // It may have gone out before: the next stage must look its input up rather than take it for new.
        if (reused) headers[REPUBLISHED_HEADER] = 'true';
        outgoing.push({
          topic,
          key: event.envelope.task_id,
          // Always the decision as the log holds it (the republish-identity rule, EL-2). Just appended, that is the
          // message checked before the append, once its envelope is seen to match the stored row.
          value:
            fate.kind === 'new' && !reused && sameEnvelope(fate.published, event.envelope)
              ? fate.published
              : { ...event.envelope, payload: event.payload },
          headers,
        });
      });
      if (outgoing.length > 0) await bus.publish(outgoing);
      return { deadLetters };
    } finally {
      inFlight -= batch.length;
      observer.onInFlight?.(inFlight);
    }
  }

  async function onDeadLetter(poison: PoisonMessage): Promise<void> {
    // Inputs the handler gave up on already have their failed event (appended with the batch).
    if (poison.reason === 'handler_failed') return;
    // The key should be the task id, but poison may carry none, an empty one or one the envelope cannot hold; its
    // failed event must still be appendable, or one bad message would stop the whole stage.
    const taskId = poison.key && poison.key.length <= MAX_ID_LENGTH ? poison.key : 'unknown';
    const causation = `${poison.topic}/${String(poison.partition)}/${poison.offset}`;
    const pseudoInput = { task_id: taskId, event_id: causation };
    const envelope: Envelope = {
      event_id: decisionEventId(stage, pseudoInput),
      task_id: taskId,
      tenant_id: 'unknown',
      agent_id: 'unknown',
      stage,
      event_type: 'failed',
      causation_id: causation,
      revision_count: 0,
      degraded_flag: false,
      decision_reason: `dead-lettered ${poison.reason}: ${capDetail(poison.detail)}`,
      input_source: 'pipeline',
      ...definition.versions(),
      occurred_at: o.now().toISOString(),
      schema_version: CONTRACT_VERSION,
      traceparent: null,
    };
    await guardStore(() =>
      store.append([
        {
          envelope,
          topic: null,
          payload: {
            reason: poison.reason,
            detail: capDetail(poison.detail),
            source: { topic: poison.topic, partition: poison.partition, offset: poison.offset },
          },
        },
      ]),
    );
    observer.onMessage?.('dead_lettered', 0);
  }

  return {
    stage,
    get state() {
      return state;
    },
    isReady: () => state === 'running' && storeHealthy,
    async start() {
      if (state !== 'starting') throw new StageConfigError(`cannot start a stage runtime in state ${state}`);
      try {
        await store.ping();
        subscription = await bus.consume({
          groupId: o.groupId,
          topic: definition.input,
          handler: handleBatch,
          onDeadLetter,
          partitionsConcurrently: o.partitionsConcurrently,
          // The bus gave up on the subscription (an error retrying cannot fix): nothing is consumed any more, so the
          // worker must stop reporting itself ready and let its supervisor restart it.
          onError: (err) => {
            logger.error({ stage, err: describe(err) }, 'subscription failed; the stage stopped consuming');
            if (state === 'starting' || state === 'running') state = 'failed';
          },
        });
        // onError may already have fired while consume() was resolving; a failed stage stays failed.
        if ((state as StageState) === 'failed') return;
        state = 'running';
        logger.info({ stage, group: o.groupId, topic: definition.input.name }, 'stage running');
      } catch (err) {
        state = 'failed';
        throw err;
      }
    },
    async stop() {
      if (state === 'stopped' || state === 'draining') return;
      state = 'draining';
      logger.info({ stage }, 'draining');
      // Decisions waiting on something outside stop waiting: the drain is not held up by an outage.
      draining.abort();
      try {
        await subscription?.stop();
        await probing;
        state = 'stopped';
      } catch (err) {
        state = 'failed';
        throw err;
      }
    },
  };
}

/** True when every envelope field of the validated message equals the stored envelope's. */
function sameEnvelope(message: unknown, envelope: Envelope): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (Object.keys(envelope) as (keyof Envelope)[]).every((key) => m[key] === envelope[key]);
}

const NO_EXCHANGES: readonly ModelExchange[] = Object.freeze([]);
const noExchanges = (): readonly ModelExchange[] => NO_EXCHANGES;

// The envelope caps `decision_reason` at 4000 characters and ids at 128; an error message can be any length.
const MAX_DETAIL_LENGTH = 1000;
const MAX_ID_LENGTH = 128;

function capDetail(detail: string): string {
  return detail.length <= MAX_DETAIL_LENGTH ? detail : `${detail.slice(0, MAX_DETAIL_LENGTH - 1)}…`;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
