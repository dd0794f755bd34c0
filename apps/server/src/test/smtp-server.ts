import { createServer, type Server } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  raw: Buffer;
  parsed: ParsedMail;
  /** RCPT TO addresses of the envelope. */
  recipients: string[];
}

/** How the server answers the next messages' DATA: 4xx try later, 5xx refused. */
export type SmtpFailure = '4xx' | '5xx';

export interface TestSmtpServer {
  url: string;
  received: ReceivedMail[];
  /** The next DATA commands are answered with these failures, in order; later ones are accepted. */
  failNext(...failures: SmtpFailure[]): void;
  close(): Promise<void>;
}

function replyError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

/** A real SMTP server (smtp-server) on a random loopback port that keeps every accepted message. */
export async function startSmtpServer(): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const failures: SmtpFailure[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const failure = failures.shift();
        if (failure === '4xx') return callback(replyError('Mailbox busy, try again later', 451));
        if (failure === '5xx') return callback(replyError('No such user here', 550));
        const raw = Buffer.concat(chunks);
        // Recorded before the 250 reply leaves: what the server accepted is what the test counts.
        void simpleParser(raw).then((parsed) => {
          received.push({ raw, parsed, recipients: session.envelope.rcptTo.map((r) => r.address) });
          callback(null);
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    failNext: (...next) => failures.push(...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A server that greets like SMTP, then drops the connection as soon as the client speaks. */
export async function startDroppingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((socket) => {
    socket.write('220 drop.test ESMTP\r\n');
    socket.once('data', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
