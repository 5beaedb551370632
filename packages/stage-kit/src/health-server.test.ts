import { afterEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer, type HealthServerOptions } from './health-server.js';

const servers: HealthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(
  overrides: Partial<HealthServerOptions> = {},
): Promise<{ url: (path: string) => string; state: { live: boolean; ready: boolean } }> {
  const state = { live: true, ready: false };
  const server = await startHealthServer({
    port: 0,
    host: '127.0.0.1',
    live: () => state.live,
    ready: () => state.ready,
    metrics: () => Promise.resolve('# TYPE signalbox_processed_total counter\nsignalbox_processed_total 3\n'),
    status: () => ({ stage: 'executor', state: 'running' }),
    ...overrides,
  });
  servers.push(server);
  expect(server.port).toBeGreaterThan(0);
  return { url: (path) => `http://127.0.0.1:${String(server.port)}${path}`, state };
}

describe('health server (OB-4)', () => {
  it('answers /livez and /readyz with 200 or 503 as the checks change', async () => {
    const { url, state } = await start();
    const live = await fetch(url('/livez'));
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ live: true });

    const notReady = await fetch(url('/readyz'));
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toEqual({ ready: false });

    state.ready = true;
    state.live = false;
    const ready = await fetch(url('/readyz?verbose=1'));
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });
    expect((await fetch(url('/livez'))).status).toBe(503);
  });

  it('serves the Prometheus text on /metrics, and 500 when collecting fails', async () => {
    const { url } = await start();
    const res = await fetch(url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4');
    expect(await res.text()).toContain('signalbox_processed_total 3');

    const broken = await start({ metrics: () => Promise.reject(new Error('registry broke')) });
    expect((await fetch(broken.url('/metrics'))).status).toBe(500);
  });

  it('serves /status, 404 for unknown paths and 405 for other methods', async () => {
    const { url } = await start();
    const status = await fetch(url('/status'));
    expect(await status.json()).toEqual({ stage: 'executor', state: 'running' });

    const missing = await fetch(url('/healthz'));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'no route /healthz' });

    const post = await fetch(url('/readyz'), { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await fetch(url('/livez'), { method: 'HEAD' })).status).toBe(200);
  });

  it('stops answering once closed', async () => {
    const server = await startHealthServer({
      port: 0,
      host: '127.0.0.1',
      live: () => true,
      ready: () => true,
      metrics: () => Promise.resolve(''),
    });
    const url = `http://127.0.0.1:${String(server.port)}/livez`;
    expect((await fetch(url)).status).toBe(200);
    await server.close();
    await expect(fetch(url)).rejects.toThrow();
  });
});
