import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthServerOptions {
  /** @default 8080 */
  port?: number;
  /** @default '0.0.0.0' */
  host?: string;
  /** Liveness (OB-4): false only when the process should be restarted. */
  live: () => boolean;
  /** Readiness (OB-4): the worker can take work now (running, event log reachable). */
  ready: () => boolean;
  /** Prometheus text exposition for `/metrics` (OB-3). */
  metrics: () => Promise<string>;
  /** A short JSON status for humans (`/status`). */
  status?: () => Record<string, unknown>;
}

export interface HealthServer {
  /** The bound port (useful with port 0). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The liveness/readiness/metrics endpoints every service exposes: `GET /livez`, `GET /readyz` (200 or 503),
 * `GET /metrics`, `GET /status`. A plain node:http server: four fixed routes need no framework.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const json = (code: number, body: unknown) => {
      res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    switch (path) {
      case '/livez':
        json(options.live() ? 200 : 503, { live: options.live() });
        return;
      case '/readyz':
        json(options.ready() ? 200 : 503, { ready: options.ready() });
        return;
      case '/status':
        json(200, options.status?.() ?? {});
        return;
      case '/metrics':
        options.metrics().then(
          (text) => res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4' }).end(text),
          () => res.writeHead(500).end(),
        );
        return;
      default:
        json(404, { error: `no route ${String(path)}` });
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8080, options.host ?? '0.0.0.0', () => {
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => {
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      }),
  };
}
