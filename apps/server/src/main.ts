import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { loadConfig, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import type { AppDeps } from './deps.js';
import { choosePort, portTakenMessage, servedUrl } from './http/listen.js';
import { createLogger, logDestination } from './http/logger.js';
import { loadSecrets } from './secrets.js';

/**
 * The rest of the server, loaded while the database opens: PGlite compiles its WebAssembly off the main
 * thread and PostgreSQL answers over the network, so start-up overlaps the two instead of adding them.
 */
async function loadServer() {
  const [{ AiEngine }, { buildApp }, { EventBus }, { createEventTransport }, { Jobs }, { closeFirebase }] = await Promise.all([
    import('./ai/index.js'),
    import('./app.js'),
    import('./events.js'),
    import('./events/create-transport.js'),
    import('./jobs/jobs.js'),
    import('./modules/auth/service.js'),
  ]);
  return { AiEngine, buildApp, EventBus, createEventTransport, Jobs, closeFirebase };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Local accounts have no password: serving them beyond this machine must be an explicit choice. */
function checkExposure(config: Config, log: Logger): void {
  if (config.AUTH_MODE !== 'local' || isLoopback(config.HOST)) return;
  if (!config.ALLOW_LOCAL_AUTH_ON_NETWORK) {
    throw new Error(
      `Refusing to serve local (passwordless) sign-in on ${config.HOST}: anyone who reaches it could sign in. ` +
        'Configure Firebase sign-in (AUTH_MODE=firebase), bind HOST=127.0.0.1, or set ALLOW_LOCAL_AUTH_ON_NETWORK=true.',
    );
  }
  log.warn({ host: config.HOST }, 'local passwordless sign-in is reachable from the network (ALLOW_LOCAL_AUTH_ON_NETWORK)');
}

async function main(): Promise<void> {
  const loaded = loadConfig();
  const log = createLogger(loaded, await logDestination(loaded));
  checkExposure(loaded, log);

  const started = Date.now();
  const [database, { AiEngine, buildApp, EventBus, createEventTransport, Jobs, closeFirebase }] = await Promise.all([
    openDatabase({ url: loaded.DATABASE_URL, dataDir: loaded.DATA_DIR }),
    loadServer(),
  ]);
  // After the database: a second server on the same DATA_DIR stops on its lock, not on the port.
  const config: Config = { ...loaded, PORT: await choosePort(loaded, Boolean(process.env.PORT), log) };
  if (database.appliedMigrations.length) log.info({ migrations: database.appliedMigrations }, 'migrations applied');
  const shutdown = new AbortController();
  const deps: AppDeps = {
    ai: AiEngine.fromConfig(config, log),
    config,
    database,
    db: database.prisma,
    events: new EventBus(await createEventTransport(config, config.DATABASE_URL, log)),
    jobs: new Jobs(config, database, config.DATABASE_URL, log),
    log,
    secrets: await loadSecrets(config),
    shutdown: shutdown.signal,
  };
  const app = await buildApp(deps);
  // Fastify writes a "Server listening at" line per bound address; the ready line below says it once.
  const fastifyLog = app.log;
  app.log = fastifyLog.child({}, { level: 'warn' });
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new Error(portTakenMessage(config.HOST, config.PORT));
    throw error;
  } finally {
    app.log = fastifyLog;
  }
  // The address listen bound (PORT=0, a port chosen because the default was taken, a HOST name), not the one asked.
  const url = servedUrl(app.server.address() as AddressInfo, config.HOST);
  const publicUrl = config.PUBLIC_URL && config.PUBLIC_URL.replace(/\/+$/, '') !== url ? { publicUrl: config.PUBLIC_URL } : {};
  log.info({ url, ...publicUrl, database: database.kind, ms: Date.now() - started }, `Mbox is ready at ${url}`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    shutdown.abort();
    try {
      await app.close();
      await database.close();
      await closeFirebase();
      log.info('stopped cleanly');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
