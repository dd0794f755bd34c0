import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { repoRoot } from '../db/paths.js';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Runs the real entry point the way `npm start` does, on embedded PGlite in `dataDir` unless `extraEnv` names a DATABASE_URL. */
export function spawnServer(dataDir: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): ServerProcess {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  Object.assign(env, { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }, extraEnv);
  // As `npm start` runs it: one node process (tsx as a loader), so signals reach the server itself.
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], { cwd: repoRoot, env });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Starts the server and waits until it serves. */
export async function startServer(dataDir: string, port: number, extraEnv: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const running = spawnServer(dataDir, port, extraEnv);
  const deadline = Date.now() + 90_000;
  while (!running.output().includes('Mbox is ready')) {
    if (running.child.exitCode !== null) throw new Error(`server exited early:\n${running.output()}`);
    if (Date.now() > deadline) throw new Error(`server not ready in 90 s:\n${running.output()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return running;
}
