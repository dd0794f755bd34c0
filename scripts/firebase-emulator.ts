// The Firebase Auth emulator for tests, installed on demand: firebase-tools is ~250 MB, so it stays out of
// the project's dependencies and is installed into .tmp/firebase-tools/<version> (git-ignored) the first
// time something needs it.
//
//   npx tsx scripts/firebase-emulator.ts install   # install (or check) the pinned firebase-tools
//   npx tsx scripts/firebase-emulator.ts start     # run an auth emulator until Ctrl-C
//
// Tests import ensureFirebaseTools() and startAuthEmulator().
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const FIREBASE_TOOLS_VERSION = '15.34.2';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheRoot = join(repoRoot, '.tmp', 'firebase-tools');
const installDir = join(cacheRoot, FIREBASE_TOOLS_VERSION);
const packageDir = join(installDir, 'node_modules', 'firebase-tools');

type Log = (message: string) => void;

export interface AuthEmulator {
  projectId: string;
  /** host:port, the value of FIREBASE_AUTH_EMULATOR_HOST */
  host: string;
  /** http://host:port */
  url: string;
  /** Output of the CLI so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** Keeps the last lines of a child's output: enough to explain a failure without holding megabytes. */
class OutputTail {
  private text = '';
  constructor(private readonly limit = 20_000) {}
  push(chunk: Buffer | string): void {
    this.text = (this.text + chunk.toString()).slice(-this.limit);
  }
  toString(): string {
    return this.text;
  }
}

async function installedVersion(): Promise<string | null> {
  try {
    const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? null;
  } catch {
    return null;
  }
}

/** Path of the firebase CLI entry point, read from the package's bin field. */
async function cliPath(): Promise<string> {
  const pkg = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bin = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin?.firebase;
  if (!bin) throw new Error(`firebase-tools in ${packageDir} has no firebase bin entry`);
  return join(packageDir, bin);
}

function run(command: string, args: string[], options: { cwd: string; timeoutMs: number }): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const output = new OutputTail(8_000);
    const child = spawn(command, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} timed out after ${options.timeoutMs} ms:\n${output.toString()}`));
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}:\n${output.toString()}`));
    });
  });
}

/**
 * Installs the pinned firebase-tools into .tmp/firebase-tools/<version> unless it is already there, and
 * returns the path of its CLI. Installs into a private folder first and renames it into place, so a
 * half-finished or concurrent install never looks complete.
 */
export async function ensureFirebaseTools(options: { timeoutMs?: number; log?: Log } = {}): Promise<string> {
  if ((await installedVersion()) === FIREBASE_TOOLS_VERSION) return cliPath();
  const { timeoutMs = 300_000, log = () => {} } = options;
  await mkdir(cacheRoot, { recursive: true });
  const staging = await mkdtemp(join(cacheRoot, `.install-${FIREBASE_TOOLS_VERSION}-`));
  const started = Date.now();
  log(`installing firebase-tools@${FIREBASE_TOOLS_VERSION} into ${installDir} (once; ~250 MB)…`);
  try {
    // --ignore-scripts: the only install script compiles re2 (hosting rewrites) from C++ source with
    // node-gyp, which takes minutes; the auth emulator does not use it.
    await run(
      'npm',
      [
        'install',
        '--prefix',
        staging,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--no-package-lock',
        '--loglevel=error',
        `firebase-tools@${FIREBASE_TOOLS_VERSION}`,
      ],
      { cwd: staging, timeoutMs },
    );
    await rename(staging, installDir).catch((error: NodeJS.ErrnoException) => {
      // Another process finished first: keep its copy.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } catch (error) {
    throw new Error(
      `could not install firebase-tools@${FIREBASE_TOOLS_VERSION} (needed for the Firebase Auth emulator): ${
        error instanceof Error ? error.message : String(error)
      }`,
      { cause: error },
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  if ((await installedVersion()) !== FIREBASE_TOOLS_VERSION) {
    throw new Error(`firebase-tools@${FIREBASE_TOOLS_VERSION} install finished but ${packageDir} is missing`);
  }
  log(`installed firebase-tools in ${Math.round((Date.now() - started) / 1000)} s`);
  return cliPath();
}

function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => child.once('exit', () => resolvePromise()));
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { authEmulator?: { ready?: boolean } };
    return body.authEmulator?.ready === true;
  } catch {
    return false;
  }
}

/**
 * Starts `firebase emulators:start --only auth` on free loopback ports and resolves once it answers.
 * The auth emulator is pure Node (no Java). It needs no network either: with CI=true the CLI skips its
 * MOTD fetch, and analytics stay off because the CLI gets its own, empty config store. Startup is
 * CPU-bound — the emulator compiles its OpenAPI spec, ~14 s of CPU — so on a busy 2-core machine it
 * can take 40 s or more before the port opens; that is the "stall" an earlier attempt here mistook for a hang.
 */
export async function startAuthEmulator(
  options: { projectId?: string; timeoutMs?: number; installTimeoutMs?: number; log?: Log } = {},
): Promise<AuthEmulator> {
  const { timeoutMs = 180_000, log = () => {} } = options;
  const cli = await ensureFirebaseTools({ timeoutMs: options.installTimeoutMs, log });
  // A fresh demo-* project per run: demo projects need no credentials, and a unique id keeps this run
  // apart from the hub locator file (os.tmpdir()/hub-<project>.json) of any other or earlier run.
  const projectId = options.projectId ?? `demo-mbox-${randomBytes(4).toString('hex')}`;
  const [authPort, hubPort, loggingPort] = [await freePort(), await freePort(), await freePort()];
  const runsDir = join(cacheRoot, 'runs');
  await mkdir(runsDir, { recursive: true });
  const runDir = await mkdtemp(join(runsDir, `${projectId}-`));
  const configPath = join(runDir, 'firebase.json');
  await writeFile(
    configPath,
    JSON.stringify(
      {
        emulators: {
          auth: { host: '127.0.0.1', port: authPort },
          hub: { host: '127.0.0.1', port: hubPort },
          logging: { host: '127.0.0.1', port: loggingPort },
          ui: { enabled: false },
        },
      },
      null,
      2,
    ),
  );

  const output = new OutputTail();
  const child = spawn(
    process.execPath,
    [cli, 'emulators:start', '--only', 'auth', '--project', projectId, '--config', configPath, '--non-interactive'],
    {
      cwd: runDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        CI: 'true',
        // The CLI's own config store: no analytics opt-in or cached login leaks in from the user's home,
        // and nothing is written there.
        XDG_CONFIG_HOME: join(cacheRoot, 'config'),
      },
    },
  );
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const host = `127.0.0.1:${authPort}`;
  const url = `http://${host}`;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', killOnExit);
    // SIGTERM lets the CLI shut down cleanly (it removes its hub locator); SIGKILL if it does not.
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited(child);
    clearTimeout(timer);
    await rm(runDir, { recursive: true, force: true });
    await rm(join(tmpdir(), `hub-${projectId}.json`), { force: true });
  };

  const started = Date.now();
  log(`starting the Firebase Auth emulator for ${projectId} on ${host}…`);
  let exitedEarly = false;
  void exited(child).then(() => (exitedEarly = true));
  while (!(await answers(url))) {
    if (exitedEarly) {
      await stop();
      throw new Error(`the Firebase Auth emulator exited before answering (code ${child.exitCode}):\n${output.toString()}`);
    }
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`the Firebase Auth emulator did not answer on ${url} within ${timeoutMs} ms:\n${output.toString()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`Firebase Auth emulator ready in ${Math.round((Date.now() - started) / 1000)} s`);
  return { projectId, host, url, output: () => output.toString(), stop };
}

/** A Firebase user signed in through the emulator: its ID token and uid. */
export interface EmulatorSignIn {
  idToken: string;
  localId: string;
  email: string;
}

async function identityToolkit(emulator: AuthEmulator, call: string, body: unknown): Promise<EmulatorSignIn> {
  const response = await fetch(`${emulator.url}/identitytoolkit.googleapis.com/v1/accounts:${call}?key=demo-key`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as EmulatorSignIn;
  if (!response.ok) throw new Error(`accounts:${call} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

/**
 * Signs in with Google as the web app's popup would: the emulator takes an unsigned Google ID token
 * (the JSON of its claims). A Google account's address is verified unless `emailVerified` says not.
 */
export function signInWithGoogle(
  emulator: AuthEmulator,
  account: { email: string; sub?: string; emailVerified?: boolean; name?: string },
): Promise<EmulatorSignIn> {
  const claims = {
    sub: account.sub ?? `google-${account.email}`,
    email: account.email,
    email_verified: account.emailVerified ?? true,
    ...(account.name ? { name: account.name } : {}),
  };
  return identityToolkit(emulator, 'signInWithIdp', {
    postBody: `providerId=google.com&id_token=${encodeURIComponent(JSON.stringify(claims))}`,
    requestUri: 'http://localhost',
    returnSecureToken: true,
  });
}

/** Creates an e-mail/password account, whose address nobody has verified: anyone can sign up with any address. */
export function signUpWithPassword(emulator: AuthEmulator, email: string, password = 'correct horse battery'): Promise<EmulatorSignIn> {
  return identityToolkit(emulator, 'signUp', { email, password, returnSecureToken: true });
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) {
  const log: Log = (message) => console.error(message);
  const command = process.argv[2] ?? 'start';
  if (command === 'install') {
    console.log(await ensureFirebaseTools({ log }));
  } else if (command === 'start') {
    const emulator = await startAuthEmulator({ log });
    console.log(`FIREBASE_AUTH_EMULATOR_HOST=${emulator.host} (project ${emulator.projectId}); Ctrl-C stops it`);
    const shutdown = () => void emulator.stop().then(() => process.exit(0));
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  } else {
    console.error('usage: tsx scripts/firebase-emulator.ts [install|start]');
    process.exitCode = 2;
  }
}
