import { createServer, isIP, type AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from '../config.js';

/** Whether the port can be bound on the host now: false only when another program holds it. */
async function portIsFree(host: string, port: number): Promise<boolean> {
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
    return true;
  } catch (error) {
    // Any other failure (a host that does not resolve, no permission) is left to the real listen to report.
    return (error as NodeJS.ErrnoException).code !== 'EADDRINUSE';
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

async function anyFreePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The port to serve on. A PORT someone chose is kept (taken, the server stops and says so). The default
 * port, when another program holds it, gives way to a free one, so `npm start` still serves; the ready
 * line names the port. Chosen before the app is built, so links it writes (PUBLIC_URL's default) name it.
 */
export async function choosePort(config: Pick<Config, 'HOST' | 'PORT'>, chosen: boolean, log: Logger): Promise<number> {
  if (chosen || config.PORT === 0 || (await portIsFree(config.HOST, config.PORT))) return config.PORT;
  const port = await anyFreePort(config.HOST);
  log.warn({ taken: config.PORT, port }, `port ${config.PORT} is in use by another program: serving on port ${port} instead (set PORT to choose one)`);
  return port;
}

/** What the server says when a chosen port is taken, instead of Node's `listen EADDRINUSE`. */
export function portTakenMessage(host: string, port: number): string {
  return `Port ${port} on ${host} is in use by another program: stop it, or set PORT to a free port (PORT unset picks one)`;
}

function isLoopbackOrAny(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1' || address === '0.0.0.0' || address === '::';
}

/**
 * The address a person opens for a server bound at `bound` (what listen bound, not what was asked):
 * loopback and all-interfaces binds read `localhost` (the name local sign-in and cookies expect), a
 * HOST given as a name keeps that name, any other address is itself (IPv6 in brackets).
 */
export function servedUrl(bound: AddressInfo, host: string): string {
  const name = isLoopbackOrAny(bound.address)
    ? 'localhost'
    : isIP(host) === 0
      ? host
      : bound.family === 'IPv6'
        ? `[${bound.address}]`
        : bound.address;
  return `http://${name}:${bound.port}`;
}
