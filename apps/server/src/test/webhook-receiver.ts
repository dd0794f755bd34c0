import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: the raw body bytes as sent, and when. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  at: number;
}

/** Test-only webhook receiver on loopback: answers the queued statuses in turn, then 204. */
export interface WebhookReceiver {
  url: string;
  /** host:port, as WEBHOOK_ALLOWED_HOSTS names it. */
  host: string;
  requests: ReceivedRequest[];
  /** Statuses of the next answers, in order ('drop' closes the connection without answering). */
  answers: (number | 'drop')[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const answers: (number | 'drop')[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody: Buffer.concat(chunks), at: Date.now() });
      const answer = answers.shift() ?? 204;
      if (answer === 'drop') req.socket.destroy();
      else res.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    answers,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
