import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyApp } from './fastify-app.js';

/**
 * Closing must not wait on connections that have no response to finish: Node's close() leaves
 * keep-alive connections open that were idle when it began (forceCloseConnections: 'idle' runs once),
 * and those opened without a request yet (which a client's pool may open and hold for its keep-alive
 * timeout, 70 s after Fastify's hint). So when closing begins, each connection without a response in
 * progress is closed, as Node closes idle ones, and the others end as their response finishes.
 */
export function closeIdleConnectionsOnClose(app: FastifyApp): void {
  const connections = new Set<Socket>();
  const responding = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    responding.add(socket);
    response.once('close', () => {
      responding.delete(socket);
      if (closing) socket.end();
    });
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of connections) if (!responding.has(socket)) socket.destroy();
  });
}
