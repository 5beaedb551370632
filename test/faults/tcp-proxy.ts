// A TCP proxy that can be cut and restored: how the fault suite takes a dependency away (the shared PostgreSQL server,
// the demo tools) without stopping it for everyone else. Cut = every open connection is reset and the port stops
// listening, so new connections are refused — what clients see when the server process is down. Restore = the same
// port listens again and forwards.
import net from 'node:net';

export interface TcpProxy {
  /** The port clients connect to (fixed for the proxy's life, so a restored proxy is the same address). */
  port: number;
  /** 'up' while forwarding, 'cut' while the dependency is away. */
  state(): 'up' | 'cut';
  /** Resets every open connection and stops listening. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /** Connections accepted since the start. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  let state: 'up' | 'cut' = 'up';
  let server: net.Server;

  const onConnection = (client: net.Socket) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  };

  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server = net.createServer(onConnection);
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });

  const boundPort = await listen(port);
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });

  return {
    port: boundPort,
    state: () => state,
    async cut() {
      if (state === 'cut') return;
      state = 'cut';
      const closed = closeServer();
      // resetAndDestroy: the peer sees ECONNRESET, as when the server's process dies.
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
      await closed;
    },
    async restore() {
      if (state === 'up') return;
      // The port was ours a moment ago; another process could take it in between, so retry a little.
      for (let attempt = 0; ; attempt++) {
        try {
          await listen(boundPort);
          break;
        } catch (error) {
          if (attempt >= 50) throw error;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      state = 'up';
    },
    accepted: () => accepted,
    async close() {
      for (const s of sockets) s.destroy();
      sockets.clear();
      if (state === 'up') await closeServer();
      state = 'cut';
    },
  };
}

/** A free TCP port on 127.0.0.1 (bound and released at once). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}
