import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { signInWithGoogle, startAuthEmulator, type AuthEmulator } from '../../scripts/firebase-emulator.js';
import { repoRoot } from '../../apps/server/src/db/paths.js';
import { webDist } from './support/browser.js';

// No Docker engine exists on these machines, so the image is never built here. What the image runs is
// run instead: the Dockerfile's final stage (its ENV, WORKDIR, CMD and HEALTHCHECK) and the compose
// file's app environment, as a plain process in a folder holding only what the final stage copies from
// the build stage, taken from the repository's build output (`npm run test:e2e` builds first). So a file
// the server needs but the image leaves out fails here. The one liberty: node_modules are linked, not
// pruned to production dependencies. Only what the container's surroundings provide is replaced: the
// database (a fresh one on the local PostgreSQL instead of the `postgres` service), the /data volume (a
// temporary folder), the port, and Firebase (the Auth emulator).

interface FinalStage {
  workdir: string;
  env: Record<string, string>;
  copies: { from: string; to: string }[];
  cmd: string[];
  healthcheck: string[];
  user: string;
}

/** The last stage of the Dockerfile: instructions joined across `\` line ends, comments dropped. */
function finalStage(dockerfile: string): FinalStage {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const last = lines.map((line, i) => (/^FROM\s/i.test(line) ? i : -1)).filter((i) => i >= 0).pop()!;
  const stage: FinalStage = { workdir: '/', env: {}, copies: [], cmd: [], healthcheck: [], user: 'root' };
  for (const line of lines.slice(last + 1)) {
    const [, instruction, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    switch (instruction!.toUpperCase()) {
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, rest!);
        break;
      case 'ENV':
        for (const [, key, value] of rest!.matchAll(/(\w+)=("[^"]*"|\S+)/g)) stage.env[key!] = value!.replace(/^"|"$/g, '');
        break;
      case 'COPY': {
        const parts = rest!.split(/\s+/).filter((part) => !part.startsWith('--'));
        if (/--from=/.test(rest!)) stage.copies.push({ from: parts[0]!, to: path.posix.resolve(stage.workdir, parts[1]!) });
        break;
      }
      case 'CMD':
        stage.cmd = JSON.parse(rest!) as string[];
        break;
      case 'HEALTHCHECK':
        stage.healthcheck = JSON.parse(rest!.replace(/^.*?CMD\s+/, '')) as string[];
        break;
      case 'USER':
        stage.user = rest!;
        break;
    }
  }
  return stage;
}

/** Where the build output behind a path of the build stage is in this checkout. */
function builtPath(stage: FinalStage, from: string): string {
  const relative = path.posix.relative(stage.workdir, from);
  // E2E_WEB_DIST: this run's web build lives elsewhere (tests/e2e/support/browser.ts).
  return relative === 'apps/web/dist' ? webDist : path.join(repoRoot, relative);
}

/** The final stage's file system below `root`: its COPY --from=build sources, node_modules linked. */
async function assembleImage(stage: FinalStage, root: string): Promise<string> {
  for (const { from, to } of stage.copies) {
    const target = path.join(root, to);
    await mkdir(path.dirname(target), { recursive: true });
    if (path.basename(from) === 'node_modules') await symlink(builtPath(stage, from), target, 'dir');
    else await cp(builtPath(stage, from), target, { recursive: true });
  }
  return path.join(root, stage.workdir);
}

/** `${NAME:-default}` and `${NAME}` of the compose file, resolved from `vars` as `docker compose` does. */
function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\{(\w+)(?::-([^}]*))?\}/g, (_m, name: string, fallback?: string) => vars[name] || fallback || '');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * The server is a bundle (scripts/build-server.mjs) and every other suite runs its sources, so this is
 * where the bundle's seams are tried: files found from its own location (the web app, the changelog,
 * the Swagger UI's assets), libraries loaded on first use (pdfkit and its fonts) and libraries required
 * at run time (the offline summary's tokenizer and sentiment lexicon).
 */
async function usePartsLoadedLater(base: string, token: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const get = async (path: string, type: string) => {
    const response = await fetch(`${base}${path}`, { headers: auth });
    expect(response.status, `${path}: ${await response.clone().text()}`).toBe(200);
    expect(response.headers.get('content-type'), path).toContain(type);
    return response;
  };
  expect(await (await get('/', 'text/html')).text()).toContain('<div id="root">');
  expect(await (await get('/docs/', 'text/html')).text()).toContain('swagger');
  await get('/docs/static/swagger-ui.css', 'text/css');
  expect(((await (await get('/v1/changelog', 'application/json')).json()) as unknown[]).length).toBeGreaterThan(0);

  const startedAt = Date.now();
  // A summary needs five lines from two speakers.
  const lines = [
    'We will ship the release on Friday.',
    'Then I write the release notes by Thursday.',
    'The budget review moves to next week.',
    'I will send the new budget figures on Monday.',
    'Support needs the notes before the release.',
    'I will share them with support on Thursday.',
  ].map(
    (text, i) => ({ captionId: `c${i}`, revision: 0, speaker: i % 2 ? 'Ana' : 'Bo', text, spokenAt: startedAt + i * 1000, final: true }),
  );
  const posted = await fetch(`${base}/v1/transcript/lines`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ meeting: { sessionId: 'docker-start', meetCode: 'abc-defg-hij', title: 'Release plan', startedAt }, lines }),
  });
  expect(posted.status, await posted.clone().text()).toBe(200);
  const { meetingKey } = (await posted.json()) as { meetingKey: string };
  const pdf = Buffer.from(await (await get(`/v1/meeting/${meetingKey}/export?format=pdf`, 'application/pdf')).arrayBuffer());
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const summary = await fetch(`${base}/v1/prompts`, { method: 'POST', headers: auth, body: JSON.stringify({ meetKey: meetingKey, promptKey: 'c_summary' }) });
  expect(summary.status, await summary.clone().text()).toBe(200);
  expect(((await summary.json()) as { text: string }).text).toMatch(/release|budget/i);
}

describe('the Docker image start command, run as a process on PostgreSQL', () => {
  const dockerfile = readFile(path.join(repoRoot, 'Dockerfile'), 'utf8').then(finalStage);
  const postgres = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const database = `mbox_docker_start_${process.pid}`;
  let admin: pg.Client;
  let emulator: AuthEmulator;
  let dataDir = '';
  let imageRoot = '';
  let server: ChildProcess | undefined;
  let output = '';
  let base = '';
  let env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: postgres });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'mbox-docker-data-'));
    imageRoot = await mkdtemp(path.join(os.tmpdir(), 'mbox-docker-image-'));
    emulator = await startAuthEmulator({ log: (message) => console.log(`[firebase-emulator] ${message}`) });
  }, 300_000);

  afterAll(async () => {
    server?.kill('SIGTERM');
    await emulator?.stop();
    await admin?.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin?.end();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (imageRoot) await rm(imageRoot, { recursive: true, force: true });
  });

  it('the final stage runs the server bundle as an unprivileged user, from files the build leaves', async () => {
    const stage = await dockerfile;
    expect(stage.user).toBe('node');
    expect(stage.cmd[0]).toBe('node');
    expect(stage.env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', DATA_DIR: '/data' });
    // Every file the runtime stage copies from the build stage exists in the built repository, at the
    // same path below WORKDIR; the start command's script is among them.
    for (const { from, to } of stage.copies) {
      expect(from.startsWith(`${stage.workdir}/`), from).toBe(true);
      expect(existsSync(builtPath(stage, from)), `${from} is built`).toBe(true);
      expect(to).toBe(from);
    }
    expect(stage.copies.some(({ to }) => path.posix.resolve(stage.workdir, stage.cmd.at(-1)!).startsWith(`${to}/`)), stage.cmd.at(-1)).toBe(true);
  });

  it('starts with the image and compose environment, answers /healthz and its HEALTHCHECK, and signs a user in', async () => {
    const stage = await dockerfile;
    const compose = parse(await readFile(path.join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
      services: { app: { environment: Record<string, string> } };
    };
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const url = new URL(postgres);
    url.pathname = `/${database}`;
    const webConfig = { apiKey: 'demo-key', authDomain: `${emulator.projectId}.firebaseapp.com`, projectId: emulator.projectId };
    // The settings a user puts in .env beside docker-compose.yml.
    const dotEnv = { FIREBASE_PROJECT_ID: emulator.projectId, FIREBASE_WEB_CONFIG: JSON.stringify(webConfig), PUBLIC_URL: base };
    const composeEnv = Object.fromEntries(
      Object.entries(compose.services.app.environment).map(([name, value]) => [name, interpolate(value, dotEnv)]),
    );
    env = {
      PATH: process.env.PATH,
      ...stage.env,
      ...composeEnv,
      // What the container's surroundings provide: the postgres service, the /data volume, the port.
      DATABASE_URL: url.toString(),
      DATA_DIR: dataDir,
      PORT: String(port),
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    };
    expect(env.AUTH_MODE).toBe('firebase');

    const workdir = await assembleImage(stage, imageRoot);
    server = spawn(stage.cmd[0] === 'node' ? process.execPath : stage.cmd[0]!, stage.cmd.slice(1), { cwd: workdir, env });
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`server exited (${server.exitCode}):\n${output}`);
      const health = await fetch(`${base}/healthz`).then((r) => (r.ok ? r.json() : null), () => null);
      if (health) {
        expect(health).toEqual({ ok: true, database: 'postgres' });
        break;
      }
      if (Date.now() > deadline) throw new Error(`no /healthz in 60 s:\n${output}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toContain('migrations applied');

    // The image's HEALTHCHECK command, run with the container's environment.
    const [program, ...args] = stage.healthcheck;
    const check = spawnSync(program === 'node' ? process.execPath : program!, args, { cwd: workdir, env, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);

    // A Google account signs in: its Firebase ID token is accepted and the account is created.
    const { idToken } = await signInWithGoogle(emulator, { email: 'docker@example.com' });
    const me = await fetch(`${base}/v1/auth/me`, { headers: { authorization: `Bearer ${idToken}` } });
    expect(me.status, await me.clone().text()).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('docker@example.com');
    // The web app gets the Firebase sign-in configuration from the same environment.
    const config = (await (await fetch(`${base}/v1/auth/config`)).json()) as { mode: string };
    expect(config.mode).toBe('firebase');
    await usePartsLoadedLater(base, idToken);
    server.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => server!.on('exit', resolve));
    expect(code, output).toBe(0);
    server = undefined;
  });
});
