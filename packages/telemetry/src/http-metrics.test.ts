import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HTTP_SERVER_DURATION_BUCKETS, createHttpServerMetrics } from './http-metrics.js';
import { captureMetrics, type MetricsCapture } from './testing.js';

const NAME = 'http.server.request.duration';

describe('createHttpServerMetrics', () => {
  let capture: MetricsCapture | undefined;
  beforeEach(() => {
    capture = undefined;
  });
  afterEach(async () => {
    await capture?.stop();
  });

  it('is a no-op without a meter provider, and records into one registered later', async () => {
    const http = createHttpServerMetrics();
    http.record({ method: 'GET', route: '/livez', statusCode: 200, seconds: 0.01 });
    capture = captureMetrics();
    http.record({ method: 'GET', route: '/livez', statusCode: 200, seconds: 0.02 });
    const [point, ...rest] = await capture.points(NAME);
    expect(rest).toEqual([]);
    expect(point).toMatchObject({ unit: 's', type: 'histogram', count: 1, sum: 0.02 });
    expect(point?.explicitBounds).toEqual([...HTTP_SERVER_DURATION_BUCKETS]);
  });

  it('records route, method, status code and scheme; error.type for 5xx; no route for an unmatched URL', async () => {
    capture = captureMetrics();
    const http = createHttpServerMetrics({ meterName: 'signalbox.api' });
    http.record({ method: 'post', route: '/v1/tasks', statusCode: 202, seconds: 0.05 });
    http.record({ method: 'POST', route: '/v1/tasks', statusCode: 202, seconds: 0.07 });
    http.record({ method: 'GET', route: '/v1/tasks/:task_id', statusCode: 503, seconds: 2, scheme: 'https' });
    http.record({ method: 'GET', route: undefined, statusCode: 404, seconds: 0.001 });
    http.record({ method: 'BREW', route: undefined, statusCode: 404, seconds: 0.001 });
    http.record({ method: 'GET', route: '/livez', statusCode: 200, seconds: Number.NaN });
    const points = await capture.points(NAME);
    expect(points.map((p) => [p.attributes, p.count])).toEqual(
      expect.arrayContaining([
        [
          {
            'http.request.method': 'POST',
            'http.route': '/v1/tasks',
            'http.response.status_code': 202,
            'url.scheme': 'http',
          },
          2,
        ],
        [
          {
            'http.request.method': 'GET',
            'http.route': '/v1/tasks/:task_id',
            'http.response.status_code': 503,
            'url.scheme': 'https',
            'error.type': '503',
          },
          1,
        ],
        [{ 'http.request.method': 'GET', 'http.response.status_code': 404, 'url.scheme': 'http' }, 1],
        [{ 'http.request.method': '_OTHER', 'http.response.status_code': 404, 'url.scheme': 'http' }, 1],
      ]),
    );
    expect(points).toHaveLength(4);
    expect(points.every((p) => p.scope === 'signalbox.api')).toBe(true);
  });
});
