import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { STAGE_METRICS, createStageMetrics } from './metrics.js';

describe('createStageMetrics', () => {
  it('exposes every OB-3 metric in the Prometheus text after increments', async () => {
    const metrics = createStageMetrics({ stage: 'tool_decider' });
    const end = metrics.startMessage('model_selected');
    end('ok');
    metrics.startMessage('replan_requested')('dead_lettered');
    metrics.recordError('transient');
    metrics.recordRoute({ proposed: 4, resolvedExactly: 3 });
    metrics.recordRevision('replan');
    metrics.recordDegradation();
    metrics.recordTokens({ model: 'gpt-4o-mini', inputTokens: 1200, outputTokens: 300, costUsd: 0.0021 });
    metrics.recordCacheLookup('tool_result', true);
    metrics.recordCacheLookup('tool_result', false);
    metrics.recordRetry('rate_limited');
    metrics.recordDeadLetter('handler_failed');
    const text = await metrics.metricsText();

    for (const line of [
      'signalbox_messages_processed_total{stage="tool_decider",event_type="model_selected",outcome="ok"} 1',
      'signalbox_messages_processed_total{stage="tool_decider",event_type="replan_requested",outcome="dead_lettered"} 1',
      'signalbox_message_duration_seconds_count{stage="tool_decider",event_type="model_selected"} 1',
      'signalbox_message_duration_seconds_bucket{le="0.001",stage="tool_decider",event_type="model_selected"}',
      'signalbox_messages_in_flight{stage="tool_decider"} 0',
      'signalbox_errors_total{stage="tool_decider",error_class="transient"} 1',
      'signalbox_route_proposed_total{stage="tool_decider"} 4',
      'signalbox_route_resolved_exact_total{stage="tool_decider"} 3',
      'signalbox_revisions_total{stage="tool_decider",kind="replan"} 1',
      'signalbox_degradations_total{stage="tool_decider"} 1',
      'signalbox_llm_tokens_total{stage="tool_decider",model="gpt-4o-mini",direction="input"} 1200',
      'signalbox_llm_tokens_total{stage="tool_decider",model="gpt-4o-mini",direction="output"} 300',
      'signalbox_llm_cost_usd_total{stage="tool_decider",model="gpt-4o-mini"} 0.0021',
      'signalbox_cache_lookups_total{stage="tool_decider",cache="tool_result",result="hit"} 1',
      'signalbox_cache_lookups_total{stage="tool_decider",cache="tool_result",result="miss"} 1',
      'signalbox_retries_total{stage="tool_decider",error_class="rate_limited"} 1',
      'signalbox_dead_lettered_total{stage="tool_decider",reason="handler_failed"} 1',
    ]) {
      expect(text).toContain(line);
    }
    expect(metrics.contentType).toContain('text/plain');
  });

  it('names exactly the documented metrics', async () => {
    const metrics = createStageMetrics({ stage: 'executor' });
    const names = (await metrics.registry.getMetricsAsJSON()).map((m) => m.name).sort();
    expect(names).toEqual(
      Object.values(STAGE_METRICS)
        .map((m) => m.name)
        .sort(),
    );
  });

  it('tracks in-flight messages and counts a message once even if ended twice', async () => {
    const metrics = createStageMetrics({ stage: 'executor' });
    const endA = metrics.startMessage('step_prepared');
    metrics.startMessage('step_prepared');
    expect(await metrics.metricsText()).toContain('signalbox_messages_in_flight{stage="executor"} 2');
    endA('failed');
    endA('ok');
    const text = await metrics.metricsText();
    expect(text).toContain('signalbox_messages_in_flight{stage="executor"} 1');
    expect(text).toContain(
      'signalbox_messages_processed_total{stage="executor",event_type="step_prepared",outcome="failed"} 1',
    );
    expect(text).not.toContain('outcome="ok"');
  });

  it('observes the duration in seconds', async () => {
    const metrics = createStageMetrics({ stage: 'executor' });
    const end = metrics.startMessage('step_prepared');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const seconds = end('ok');
    expect(seconds).toBeGreaterThanOrEqual(0.015);
    expect(seconds).toBeLessThan(5);
    const text = await metrics.metricsText();
    expect(text).toContain(
      'signalbox_message_duration_seconds_bucket{le="0.01",stage="executor",event_type="step_prepared"} 0',
    );
    expect(text).toContain(
      'signalbox_message_duration_seconds_bucket{le="5",stage="executor",event_type="step_prepared"} 1',
    );
  });

  it('lets stages share one registry, each with its own stage label', async () => {
    const registry = new Registry();
    const a = createStageMetrics({ stage: 'model_selector', registry });
    const b = createStageMetrics({ stage: 'executor', registry });
    a.recordDegradation();
    b.recordDegradation();
    b.recordDegradation();
    const text = await registry.metrics();
    expect(text).toContain('signalbox_degradations_total{stage="model_selector"} 1');
    expect(text).toContain('signalbox_degradations_total{stage="executor"} 2');
  });

  it('ignores negative counts instead of throwing mid-handler', async () => {
    const metrics = createStageMetrics({ stage: 'tool_decider' });
    metrics.recordTokens({ model: 'm', inputTokens: -5, outputTokens: Number.NaN, costUsd: 0.5 });
    metrics.recordRoute({ proposed: 2, resolvedExactly: 9 });
    const text = await metrics.metricsText();
    expect(text).toContain('signalbox_llm_tokens_total{stage="tool_decider",model="m",direction="input"} 0');
    expect(text).toContain('signalbox_route_resolved_exact_total{stage="tool_decider"} 2');
  });

  it('refuses an empty stage and a clashing metric already in the registry', () => {
    expect(() => createStageMetrics({ stage: '' })).toThrow(RangeError);
    const registry = new Registry();
    new Counter({ name: STAGE_METRICS.errors.name, help: 'x', labelNames: ['other'], registers: [registry] });
    expect(() => createStageMetrics({ stage: 'executor', registry })).toThrow(TypeError);
  });
});

describe('recordMessage and setInFlight', () => {
  it('count a message timed by the caller and set the in-flight gauge', async () => {
    const metrics = createStageMetrics({ stage: 'executor' });
    metrics.recordMessage('step_prepared', 'reused', 0.004);
    metrics.recordMessage('step_prepared', 'reused', Number.NaN);
    metrics.setInFlight(7);
    const text = await metrics.metricsText();
    expect(text).toContain(
      'signalbox_messages_processed_total{stage="executor",event_type="step_prepared",outcome="reused"} 2',
    );
    // A non-finite duration is counted but not observed.
    expect(text).toContain(
      'signalbox_message_duration_seconds_count{stage="executor",event_type="step_prepared"} 1',
    );
    expect(text).toContain(
      'signalbox_message_duration_seconds_bucket{le="0.005",stage="executor",event_type="step_prepared"} 1',
    );
    expect(text).toContain('signalbox_messages_in_flight{stage="executor"} 7');
  });
});
