import { monitorEventLoopDelay, performance, type EventLoopUtilization } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import type { BatchObservableResult, Meter } from '@opentelemetry/api';

// Process and Node runtime metrics as a few observable instruments, named by the OpenTelemetry semantic conventions
// (process.*, v8js.*, nodejs.* — still "development" there, so the names are written out here rather than imported
// from the package's unstable entry point, as the package itself advises). Read when a reader collects (every
// OTEL_METRIC_EXPORT_INTERVAL), not on a timer of their own.

/** The runtime metrics {@link registerRuntimeMetrics} reports: name → unit, kind and attributes. */
export const RUNTIME_METRICS = {
  /** Resident set size (physical memory in use), bytes. UpDownCounter. */
  memoryUsage: 'process.memory.usage',
  /** CPU seconds since the process started, by `cpu.mode` (`user`, `system`). Counter. */
  cpuTime: 'process.cpu.time',
  /** V8 heap used, bytes, by `v8js.heap.space.name`. UpDownCounter. */
  heapUsed: 'v8js.memory.heap.used',
  /** V8 heap size (reserved), bytes, by `v8js.heap.space.name`. UpDownCounter. */
  heapLimit: 'v8js.memory.heap.limit',
  /** Event-loop delay over the last interval, seconds. Gauges. */
  eventLoopDelayP99: 'nodejs.eventloop.delay.p99',
  eventLoopDelayMax: 'nodejs.eventloop.delay.max',
  eventLoopDelayMean: 'nodejs.eventloop.delay.mean',
  /** Fraction of the last interval the event loop was busy, 0–1. Gauge. */
  eventLoopUtilization: 'nodejs.eventloop.utilization',
} as const;

/** Resolution of the event-loop delay sampler, ms (what Node's own docs and the runtime instrumentation use). */
const DELAY_RESOLUTION_MS = 20;

/**
 * Registers the runtime metrics on `meter` and starts the event-loop delay sampler. Returns `stop`, which removes the
 * callbacks and stops the sampler (idempotent).
 */
export function registerRuntimeMetrics(meter: Meter): () => void {
  const memory = meter.createObservableUpDownCounter(RUNTIME_METRICS.memoryUsage, {
    unit: 'By',
    description: 'The amount of physical memory in use (resident set size).',
  });
  const cpu = meter.createObservableCounter(RUNTIME_METRICS.cpuTime, {
    unit: 's',
    description: 'Total CPU seconds broken down by different CPU modes.',
  });
  const heapUsed = meter.createObservableUpDownCounter(RUNTIME_METRICS.heapUsed, {
    unit: 'By',
    description: 'Heap memory used, by V8 heap space.',
  });
  const heapLimit = meter.createObservableUpDownCounter(RUNTIME_METRICS.heapLimit, {
    unit: 'By',
    description: 'Heap size reserved, by V8 heap space.',
  });
  const delayP99 = meter.createObservableGauge(RUNTIME_METRICS.eventLoopDelayP99, {
    unit: 's',
    description: 'Event loop delay, 99th percentile over the last interval.',
  });
  const delayMax = meter.createObservableGauge(RUNTIME_METRICS.eventLoopDelayMax, {
    unit: 's',
    description: 'Event loop delay, maximum over the last interval.',
  });
  const delayMean = meter.createObservableGauge(RUNTIME_METRICS.eventLoopDelayMean, {
    unit: 's',
    description: 'Event loop delay, mean over the last interval.',
  });
  const utilization = meter.createObservableGauge(RUNTIME_METRICS.eventLoopUtilization, {
    unit: '1',
    description: 'Fraction of the last interval the event loop was busy.',
  });

  const delay = monitorEventLoopDelay({ resolution: DELAY_RESOLUTION_MS });
  delay.enable();
  let lastUtilization: EventLoopUtilization = performance.eventLoopUtilization();

  const processCallback = (observe: BatchObservableResult): void => {
    observe.observe(memory, process.memoryUsage.rss());
    const usage = process.cpuUsage();
    observe.observe(cpu, usage.user / 1e6, { 'cpu.mode': 'user' });
    observe.observe(cpu, usage.system / 1e6, { 'cpu.mode': 'system' });
    for (const space of getHeapSpaceStatistics()) {
      const attributes = { 'v8js.heap.space.name': space.space_name };
      observe.observe(heapUsed, space.space_used_size, attributes);
      observe.observe(heapLimit, space.space_size, attributes);
    }
    // Per interval: the histogram is reset after each read, so a stall shows in the export that follows it.
    if (delay.count > 0) {
      observe.observe(delayP99, delay.percentile(99) / 1e9);
      observe.observe(delayMax, delay.max / 1e9);
      observe.observe(delayMean, delay.mean / 1e9);
    }
    delay.reset();
    const now = performance.eventLoopUtilization();
    observe.observe(utilization, performance.eventLoopUtilization(now, lastUtilization).utilization);
    lastUtilization = now;
  };
  const observables = [memory, cpu, heapUsed, heapLimit, delayP99, delayMax, delayMean, utilization];
  meter.addBatchObservableCallback(processCallback, observables);

  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    meter.removeBatchObservableCallback(processCallback, observables);
    delay.disable();
  };
}
