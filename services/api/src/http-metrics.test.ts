// OB-3 over OTLP: the API's onResponse hook records `http.server.request.duration` with the route template and the
// status code (OpenTelemetry HTTP semantic conventions), read here from the SDK's own MeterProvider.
import type { Bus } from '@signalbox/bus';
import type { EventStore } from '@signalbox/event-log';
import { captureMetrics, type MetricsCapture } from '@signalbox/telemetry/testing';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createApiApp } from './app.js';
import { hashApiKey } from './auth.js';

const KEY = 'sk-metrics-test-0123456789';

/** A dependency whose every method throws: these requests must not reach it, except the one that fails on purpose. */
function strict(what: string): unknown {
  return new Proxy(
    {},
    {
      get: (_target, property) => {
        if (property === 'then') return undefined;
        return () => {
          throw new Error(`${what}.${String(property)} is not available in this test`);
        };
      },
    },
  );
}

let capture: MetricsCapture;
let app: FastifyInstance;
beforeEach(() => {
  capture = captureMetrics();
  app = createApiApp({
    bus: strict('bus') as Bus,
    store: strict('store') as EventStore,
    apiKeys: { [hashApiKey(KEY)]: 'tenant-metrics' },
  });
});
afterEach(async () => {
  await app.close();
  await capture.stop();
});

it('records each answer by route template, method and status code; 5xx with error.type; none for no route', async () => {
  expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  expect((await app.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
  // Unauthenticated: 401 on the route's template, never the URL with its id.
  expect((await app.inject({ method: 'GET', url: '/v1/tasks/task_abc' })).statusCode).toBe(401);
  // Authenticated, and the event log fails: 500.
  const failed = await app.inject({
    method: 'GET',
    url: '/v1/tasks/task_def',
    headers: { authorization: `Bearer ${KEY}` },
  });
  expect(failed.statusCode).toBe(500);
  // Invalid body: 400 on POST /v1/tasks.
  const invalid = await app.inject({
    method: 'POST',
    url: '/v1/tasks',
    headers: { authorization: `Bearer ${KEY}` },
    payload: { request: '' },
  });
  expect(invalid.statusCode).toBe(400);
  expect((await app.inject({ method: 'GET', url: '/no/such/route/42' })).statusCode).toBe(404);

  const points = await capture.points('http.server.request.duration');
  const text = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' ? String(value) : '-';
  const byKey = new Map(
    points.map((p) => {
      const {
        'http.request.method': method,
        'http.route': route,
        'http.response.status_code': status,
      } = p.attributes;
      return [`${text(method)} ${text(route)} ${text(status)}`, p];
    }),
  );
  expect([...byKey.keys()].sort()).toEqual([
    'GET - 404',
    'GET /livez 200',
    'GET /v1/tasks/:id 401',
    'GET /v1/tasks/:id 500',
    'POST /v1/tasks 400',
  ]);
  expect(byKey.get('GET /livez 200')).toMatchObject({ unit: 's', type: 'histogram', count: 2 });
  expect(byKey.get('GET /v1/tasks/:id 500')?.attributes).toEqual({
    'http.request.method': 'GET',
    'http.route': '/v1/tasks/:id',
    'http.response.status_code': 500,
    'url.scheme': 'http',
    'error.type': '500',
  });
  expect(byKey.get('GET - 404')?.attributes).not.toHaveProperty('http.route');
  expect(byKey.get('GET /v1/tasks/:id 401')?.attributes).not.toHaveProperty('error.type');
  for (const point of points) expect(point.sum).toBeGreaterThanOrEqual(0);
});
