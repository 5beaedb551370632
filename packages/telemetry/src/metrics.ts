import { Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';

/**
 * Latency buckets in seconds: stages decide in milliseconds when they reuse or route deterministically, and in
 * seconds when a model or a tool is called, so the buckets run from 1 ms to 60 s.
 */
export const LATENCY_BUCKETS_SECONDS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

/** How handling one message ended. */
export type MessageOutcome =
  /** Decided (or executed) and published. */
  | 'ok'
  /** Redelivery: the stored decision was reused (EL-2). */
  | 'reused'
  /** Failed; the message will be retried. */
  | 'failed'
  /** Given up on and sent to the dead-letter topic (RS-2). */
  | 'dead_lettered';

/**
 * The metric names and their fixed label names (OB-3). Every metric also carries `stage`. Label values must come
 * from closed sets (event types, error classes, model profile names, cache names) — never ids or user text, which
 * would explode the series count.
 */
export const STAGE_METRICS = {
  /** Counter `{stage, event_type, outcome}`: messages handled. */
  processed: { name: 'signalbox_messages_processed_total', labels: ['stage', 'event_type', 'outcome'] },
  /** Histogram `{stage, event_type}`: seconds from receipt to publish/commit. */
  duration: { name: 'signalbox_message_duration_seconds', labels: ['stage', 'event_type'] },
  /** Gauge `{stage}`: messages being handled now. */
  inFlight: { name: 'signalbox_messages_in_flight', labels: ['stage'] },
  /** Counter `{stage, error_class}`: errors by class (EX-5 classes, or `internal`). */
  errors: { name: 'signalbox_errors_total', labels: ['stage', 'error_class'] },
  /** Counter `{stage}`: tool names proposed by a model or router. */
  routeProposed: { name: 'signalbox_route_proposed_total', labels: ['stage'] },
  /** Counter `{stage}`: proposed tool names that resolved exactly; hit rate = this / proposed. */
  routeResolvedExact: { name: 'signalbox_route_resolved_exact_total', labels: ['stage'] },
  /** Counter `{stage, kind}`: revisions sent or taken (`reinject`, `replan`, …). */
  revisions: { name: 'signalbox_revisions_total', labels: ['stage', 'kind'] },
  /** Counter `{stage}`: degradations to a simpler model profile. */
  degradations: { name: 'signalbox_degradations_total', labels: ['stage'] },
  /** Counter `{stage, model, direction}`: LLM tokens, `direction` is `input` or `output`. */
  tokens: { name: 'signalbox_llm_tokens_total', labels: ['stage', 'model', 'direction'] },
  /** Counter `{stage, model}`: LLM cost in US dollars. */
  cost: { name: 'signalbox_llm_cost_usd_total', labels: ['stage', 'model'] },
  /** Counter `{stage, cache, result}`: cache lookups, `result` is `hit` or `miss`. */
  cacheLookups: { name: 'signalbox_cache_lookups_total', labels: ['stage', 'cache', 'result'] },
  /** Counter `{stage, error_class}`: retries of a handler, tool or model call. */
  retries: { name: 'signalbox_retries_total', labels: ['stage', 'error_class'] },
  /** Counter `{stage, reason}`: messages sent to the dead-letter topic. */
  deadLettered: { name: 'signalbox_dead_lettered_total', labels: ['stage', 'reason'] },
} as const;

/** Options of {@link createStageMetrics}. */
export interface StageMetricsOptions {
  /** The stage (or service) name, the `stage` label of every series. */
  stage: string;
  /**
   * Where the metrics are registered. Several stages may share one registry (the embedded runner does): the
   * metrics are created once and each stage writes its own `stage` label. @default a new, private `Registry`
   */
  registry?: Registry;
}

/** The OB-3 metrics of one stage. */
export interface StageMetrics {
  readonly stage: string;
  readonly registry: Registry;
  /**
   * Marks the start of handling one message: raises the in-flight gauge and returns `end`, which lowers it,
   * observes the duration and counts the message with its outcome. Returns the elapsed seconds.
   */
  startMessage(eventType: string): (outcome: MessageOutcome) => number;
  /** Counts one message handled in `seconds` (for callers that time a whole batch themselves). */
  recordMessage(eventType: string, outcome: MessageOutcome, seconds: number): void;
  /** Sets the in-flight gauge (for callers that track in-flight work themselves). */
  setInFlight(count: number): void;
  recordError(errorClass: string): void;
  /** Route hit rate: how many tool names were proposed and how many of them resolved exactly. */
  recordRoute(counts: { proposed: number; resolvedExactly: number }): void;
  recordRevision(kind: string): void;
  recordDegradation(): void;
  recordTokens(usage: { model: string; inputTokens: number; outputTokens: number; costUsd: number }): void;
  recordCacheLookup(cache: string, hit: boolean): void;
  recordRetry(errorClass: string): void;
  recordDeadLetter(reason: string): void;
  /** The registry in the Prometheus text format, for a `/metrics` endpoint. */
  metricsText(): Promise<string>;
  /** The `Content-Type` of {@link StageMetrics.metricsText}. */
  readonly contentType: string;
}

/**
 * OB-3: the metrics every stage reports. Throws `RangeError` for an empty stage, or `TypeError` when the
 * registry already holds a metric of the same name with other labels (it was registered by something else).
 */
export function createStageMetrics(options: StageMetricsOptions): StageMetrics {
  const stage = options.stage.trim();
  if (!stage) throw new RangeError('createStageMetrics: stage must not be empty');
  const registry = options.registry ?? new Registry();

  const counter = (spec: { name: string; labels: readonly string[] }, help: string) =>
    reuse(
      registry,
      spec,
      () => new Counter({ name: spec.name, help, labelNames: spec.labels, registers: [registry] }),
    );
  const m = STAGE_METRICS;
  const processed = counter(m.processed, 'Messages handled, by event type and outcome.');
  const duration = reuse(
    registry,
    m.duration,
    () =>
      new Histogram({
        name: m.duration.name,
        help: 'Seconds from receiving a message to finishing it.',
        labelNames: m.duration.labels,
        buckets: [...LATENCY_BUCKETS_SECONDS],
        registers: [registry],
      }),
  );
  const inFlight = reuse(
    registry,
    m.inFlight,
    () =>
      new Gauge({
        name: m.inFlight.name,
        help: 'Messages being handled now.',
        labelNames: m.inFlight.labels,
        registers: [registry],
      }),
  );
  const errors = counter(m.errors, 'Errors, by error class.');
  const routeProposed = counter(m.routeProposed, 'Tool names proposed by a model or router.');
  const routeResolvedExact = counter(m.routeResolvedExact, 'Proposed tool names that resolved exactly.');
  const revisions = counter(m.revisions, 'Revisions (re-inject, re-plan), by kind.');
  const degradations = counter(m.degradations, 'Degradations to a simpler model profile.');
  const tokens = counter(m.tokens, 'LLM tokens, by model and direction.');
  const cost = counter(m.cost, 'LLM cost in US dollars, by model.');
  const cacheLookups = counter(m.cacheLookups, 'Cache lookups, by cache and result.');
  const retries = counter(m.retries, 'Retries, by error class.');
  const deadLettered = counter(m.deadLettered, 'Messages sent to the dead-letter topic, by reason.');

  // Counters only go up: a negative or non-finite count is a caller bug, and prom-client would throw mid-handler.
  const count = (value: number): number => (Number.isFinite(value) && value > 0 ? value : 0);

  return {
    stage,
    registry,
    contentType: registry.contentType,
    startMessage(eventType) {
      const started = process.hrtime.bigint();
      inFlight.inc({ stage });
      let ended = false;
      return (outcome) => {
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        if (ended) return seconds;
        ended = true;
        inFlight.dec({ stage });
        duration.observe({ stage, event_type: eventType }, seconds);
        processed.inc({ stage, event_type: eventType, outcome });
        return seconds;
      };
    },
    recordMessage(eventType, outcome, seconds) {
      if (Number.isFinite(seconds) && seconds >= 0)
        duration.observe({ stage, event_type: eventType }, seconds);
      processed.inc({ stage, event_type: eventType, outcome });
    },
    setInFlight(value) {
      inFlight.set({ stage }, count(value));
    },
    recordError(errorClass) {
      errors.inc({ stage, error_class: errorClass });
    },
    recordRoute({ proposed, resolvedExactly }) {
      routeProposed.inc({ stage }, count(proposed));
      routeResolvedExact.inc({ stage }, count(Math.min(resolvedExactly, proposed)));
    },
    recordRevision(kind) {
      revisions.inc({ stage, kind });
    },
    recordDegradation() {
      degradations.inc({ stage });
    },
    recordTokens({ model, inputTokens, outputTokens, costUsd }) {
      tokens.inc({ stage, model, direction: 'input' }, count(inputTokens));
      tokens.inc({ stage, model, direction: 'output' }, count(outputTokens));
      cost.inc({ stage, model }, count(costUsd));
    },
    recordCacheLookup(cache, hit) {
      cacheLookups.inc({ stage, cache, result: hit ? 'hit' : 'miss' });
    },
    recordRetry(errorClass) {
      retries.inc({ stage, error_class: errorClass });
    },
    recordDeadLetter(reason) {
      deadLettered.inc({ stage, reason });
    },
    metricsText: () => registry.metrics(),
  };
}

/** The metric already in `registry` under this name (another stage created it), else a new one. */
function reuse<M extends Metric>(
  registry: Registry,
  spec: { name: string; labels: readonly string[] },
  create: () => M,
): M {
  const existing = registry.getSingleMetric(spec.name);
  if (!existing) return create();
  const labels = (existing as unknown as { labelNames?: readonly string[] }).labelNames ?? [];
  if (labels.join(',') !== spec.labels.join(',')) {
    throw new TypeError(`metric ${spec.name} is already registered with labels [${labels.join(', ')}]`);
  }
  return existing as M;
}
