// The dev server's event log over the PostgreSQL wire protocol, on loopback: PGlite is one process's database, so
// `signalbox trace`, `redecide` and `redrive` — other processes, with their usual `pg` client — reach it here while
// the server runs. PGlite speaks the protocol itself (`execProtocolRawStream`); this module only carries bytes.
//
// Not @electric-sql/pglite-socket: its current release (0.2.17) pins PGlite 0.5.14 exactly (we run 0.5.17) with
// seven extension packages as required peers, and it runs each protocol message under PGlite's query lock alone. The
// dev server's own stages use the same PGlite meanwhile, so a statement of theirs could run between a client's Parse
// and its Sync (taking the unnamed statement) or inside a client's transaction. Here a client's messages up to each
// Sync run as one unit under PGlite's transaction lock, that lock stays with the client while its transaction is
// open, and the names of its prepared statements are its own (one PGlite session serves every connection).
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

/** Options of {@link servePgliteWire}. */
export interface PgliteWireOptions {
  db: PGlite;
  /** @default '127.0.0.1' */
  host?: string;
  /** 0 picks a free port. @default 0 */
  port?: number;
  /**
   * Connections wait for this before their first message (the dev server listens before its migrations ran).
   * @default PGlite's own readiness
   */
  ready?: Promise<unknown>;
}

/** A listening wire server. */
export interface PgliteWire {
  /** `postgres://postgres@<host>:<port>/postgres` (PGlite accepts any user and password). */
  url: string;
  port: number;
  /** Closes every connection (rolling back a transaction one left open) and stops listening. */
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

/** Holds PGlite's transaction lock until released: in-process transactions and other clients wait meanwhile. */
function acquireTransactionLock(db: PGlite): Promise<() => void> {
  return new Promise((resolveAcquired) => {
    void db._runExclusiveTransaction(
      () =>
        new Promise<void>((release) => {
          resolveAcquired(() => {
            release();
          });
        }),
    );
  });
}

/** Reads a NUL-terminated string at `offset`; returns it and the offset after its NUL. */
function cstring(buf: Buffer, offset: number): [string, number] {
  const end = buf.indexOf(0, offset);
  if (end < 0) throw new Error('malformed protocol message: unterminated string');
  return [buf.toString('utf8', offset, end), end + 1];
}

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * Gives a client's named prepared statements and portals a prefix of its own (Parse, Bind, Describe, Close, Execute);
 * the unnamed ones stay unnamed — a client's messages up to Sync run as one unit, so nobody else's can replace them.
 */
function renamed(msg: Buffer, prefix: string, statements: Set<string>): Buffer {
  const type = String.fromCharCode(msg[0] ?? 0);
  const body = msg.subarray(5);
  const name = (n: string) => (n === '' ? '' : `${prefix}${n}`);
  const z = (s: string) => Buffer.from(`${s}\0`, 'utf8');
  switch (type) {
    case 'P': {
      const [statement, rest] = cstring(body, 0);
      if (statement !== '') statements.add(name(statement));
      return message('P', Buffer.concat([z(name(statement)), body.subarray(rest)]));
    }
    case 'B': {
      const [portal, afterPortal] = cstring(body, 0);
      const [statement, rest] = cstring(body, afterPortal);
      return message('B', Buffer.concat([z(name(portal)), z(name(statement)), body.subarray(rest)]));
    }
    case 'D':
    case 'C': {
      const kind = body.subarray(0, 1);
      const [target, rest] = cstring(body, 1);
      if (type === 'C' && kind.toString() === 'S') statements.delete(name(target));
      return message(type, Buffer.concat([kind, z(name(target)), body.subarray(rest)]));
    }
    case 'E': {
      const [portal, rest] = cstring(body, 0);
      return message('E', Buffer.concat([z(name(portal)), body.subarray(rest)]));
    }
    default:
      return msg;
  }
}

/** Serves `db` over the PostgreSQL wire protocol until `close()`. */
export async function servePgliteWire(options: PgliteWireOptions): Promise<PgliteWire> {
  const { db } = options;
  const ready = Promise.all([db.waitReady, options.ready]);
  ready.catch(() => undefined); // a connection that waits on a failed start is closed
  const host = options.host ?? '127.0.0.1';
  const connections = new Map<Socket, () => Promise<void>>();
  let nextId = 1;

  const serve = (socket: Socket) => {
    const prefix = `w${String(nextId++)}_`;
    const statements = new Set<string>();
    let buffered = Buffer.alloc(0);
    let started = false;
    let pending: Buffer[] = [];
    let held: (() => void) | undefined;
    // Data events are handled one after another: a unit waits for the one before it.
    let queue: Promise<void> = Promise.resolve();
    let closed = false;

    const run = async (messages: Buffer[]) => {
      const release = held ?? (await acquireTransactionLock(db));
      held = undefined;
      try {
        await db._runExclusiveQuery(async () => {
          for (const m of messages) {
            await db.execProtocolRawStream(new Uint8Array(m.buffer, m.byteOffset, m.length), {
              onRawData: (data) => {
                if (!closed) socket.write(data);
              },
            });
          }
        });
      } finally {
        // A transaction the client opened keeps the lock until it commits or rolls back (or the client goes).
        if (db.isInTransaction() && !closed) held = release;
        else release();
      }
    };

    const forget = async () => {
      // A transaction left open, and the client's prepared statements, must not outlive it in the shared session.
      if (!started) return; // it never reached the database
      await ready;
      const release = held ?? (await acquireTransactionLock(db));
      held = undefined;
      try {
        await db._runExclusiveQuery(async () => {
          if (db.isInTransaction()) await db.execProtocolRaw(message('Q', Buffer.from('ROLLBACK\0')));
          for (const s of statements)
            await db.execProtocolRaw(message('Q', Buffer.from(`DEALLOCATE "${s.replaceAll('"', '""')}"\0`)));
        });
      } finally {
        statements.clear();
        release();
      }
    };

    const handle = async (chunk: Buffer) => {
      await ready;
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          if (buffered.length < 8) return;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) return;
          const code = buffered.readInt32BE(4);
          const msg = buffered.subarray(0, length);
          buffered = buffered.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N'); // no TLS on loopback; the client goes on in plain text
            continue;
          }
          if (code === CANCEL_REQUEST) {
            socket.end(); // not supported: a query runs to its end
            return;
          }
          if (code !== PROTOCOL_3) {
            socket.destroy();
            return;
          }
          started = true;
          await run([Buffer.from(msg)]);
          continue;
        }
        if (buffered.length < 5) return;
        const length = buffered.readInt32BE(1) + 1;
        if (buffered.length < length) return;
        const msg = Buffer.from(buffered.subarray(0, length));
        buffered = buffered.subarray(length);
        const type = String.fromCharCode(msg[0] ?? 0);
        if (type === 'X') {
          socket.end();
          return;
        }
        pending.push(renamed(msg, prefix, statements));
        // Sync ends an extended-protocol unit, Query is one, Flush asks for what is pending.
        if (type === 'S' || type === 'Q' || type === 'H') {
          const unit = pending;
          pending = [];
          await run(unit);
        }
      }
    };

    let finished: Promise<void> | undefined;
    const finish = () => {
      finished ??= (async () => {
        closed = true;
        connections.delete(socket);
        await queue.catch(() => undefined);
        await forget().catch(() => undefined);
      })();
      return finished;
    };
    connections.set(socket, finish);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => {
      queue = queue
        .then(() => handle(chunk))
        .catch(() => {
          socket.destroy();
        });
    });
    socket.on('error', () => undefined);
    socket.on('close', () => void finish());
  };

  const server: Server = createServer(serve);
  await new Promise<void>((resolveListening, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolveListening();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `postgres://postgres@${shownHost}:${String(port)}/postgres`,
    port,
    async close() {
      const closing = new Promise<void>((resolveClosed) =>
        server.close(() => {
          resolveClosed();
        }),
      );
      await Promise.all(
        [...connections].map(([socket, finish]) => {
          socket.destroy();
          return finish();
        }),
      );
      await closing;
    },
  };
}
