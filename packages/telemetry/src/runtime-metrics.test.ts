import { metrics } from '@opentelemetry/api';
import { afterEach, expect, it } from 'vitest';
import { RUNTIME_METRICS, registerRuntimeMetrics } from './runtime-metrics.js';
import { captureMetrics, type MetricsCapture } from './testing.js';

let capture: MetricsCapture;
afterEach(async () => {
  await capture.stop();
});

it('reports memory, CPU time, heap spaces, event-loop delay and utilization; stop removes them', async () => {
  capture = captureMetrics();
  const stop = registerRuntimeMetrics(metrics.getMeter('signalbox.runtime'));
  // Keep the loop busy past the delay sampler's resolution (20 ms) so it has samples to report.
  const until = Date.now() + 60;
  while (Date.now() < until) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 50));

  const points = await capture.points();
  const one = (name: string) => points.find((p) => p.metric === name);
  expect(one(RUNTIME_METRICS.memoryUsage)).toMatchObject({ unit: 'By', type: 'sum' });
  expect(one(RUNTIME_METRICS.memoryUsage)?.value).toBeGreaterThan(process.memoryUsage.rss() / 4);
  const cpu = points.filter((p) => p.metric === RUNTIME_METRICS.cpuTime);
  expect(cpu.map((p) => p.attributes['cpu.mode']).sort()).toEqual(['system', 'user']);
  expect(cpu.every((p) => (p.value ?? -1) >= 0)).toBe(true);
  const spaces = points.filter((p) => p.metric === RUNTIME_METRICS.heapUsed);
  expect(spaces.map((p) => p.attributes['v8js.heap.space.name'])).toEqual(
    expect.arrayContaining(['new_space', 'old_space', 'code_space']),
  );
  expect(points.filter((p) => p.metric === RUNTIME_METRICS.heapLimit)).toHaveLength(spaces.length);
  for (const name of [RUNTIME_METRICS.eventLoopDelayP99, RUNTIME_METRICS.eventLoopDelayMax]) {
    expect(one(name), name).toMatchObject({ unit: 's', type: 'gauge' });
    expect(one(name)?.value).toBeGreaterThan(0);
    expect(one(name)?.value).toBeLessThan(10);
  }
  const utilization = one(RUNTIME_METRICS.eventLoopUtilization)?.value ?? -1;
  expect(utilization).toBeGreaterThanOrEqual(0);
  expect(utilization).toBeLessThanOrEqual(1);

  stop();
  stop();
  // No callback runs any more: the SDK keeps reporting the last observations, unchanged.
  const last = (await capture.points()).find((p) => p.metric === RUNTIME_METRICS.eventLoopUtilization);
  await new Promise((resolve) => setTimeout(resolve, 30));
  const later = (await capture.points()).find((p) => p.metric === RUNTIME_METRICS.eventLoopUtilization);
  expect(later?.value).toBe(last?.value);
});
