import type { FastifyInstance } from 'fastify';

/** Starts `app` on a free port of 127.0.0.1 and returns its base URL (`http://127.0.0.1:<port>`, no trailing slash). */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the API is not listening on a port');
  return `http://127.0.0.1:${String(address.port)}`;
}
