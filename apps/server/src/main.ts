import pino from 'pino';
import { AiEngine } from './ai/index.js';
import { buildApp } from './app.js';
import { loadConfig, type Config } from './config.js';
import { openDatabase } from './db/database.js';
import type { AppDeps } from './deps.js';
import { EventBus } from './events.js';
import { Jobs } from './jobs/jobs.js';
import { closeFirebase } from './modules/auth/service.js';
import { loadSecrets } from './secrets.js';

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Local accounts have no password: serving them beyond this machine must be an explicit choice. */
function checkExposure(config: Config, log: pino.Logger): void {
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
  const config = loadConfig();
  const log = pino({ level: config.LOG_LEVEL });
  checkExposure(config, log);

  const started = Date.now();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  if (database.appliedMigrations.length) log.info({ migrations: database.appliedMigrations }, 'migrations applied');
  const shutdown = new AbortController();
  const deps: AppDeps = {
    ai: AiEngine.fromConfig(config),
    config,
    database,
    db: database.prisma,
    events: new EventBus(),
    jobs: new Jobs(config, database, config.DATABASE_URL, log),
    log,
    secrets: await loadSecrets(config),
    shutdown: shutdown.signal,
  };
  const app = await buildApp(deps);
  await app.listen({ port: config.PORT, host: config.HOST });
  log.info(
    { url: `http://${config.HOST === '127.0.0.1' ? 'localhost' : config.HOST}:${config.PORT}`, database: database.kind, ms: Date.now() - started },
    'Mbox is ready',
  );

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
