import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { lazyRequire } from '../lazy-require.js';

/** The part of fs-native-extensions (a native addon with prebuilt binaries, no types) the lock uses. */
interface NativeLocks {
  /** Takes an exclusive advisory lock on the open file `fd` without waiting: false when another open file holds it. */
  tryLock(fd: number): boolean;
}
const nativeLocks = lazyRequire<NativeLocks>('fs-native-extensions');

/**
 * PGlite takes no lock on its directory (its postmaster.pid holds a fake PID), so two servers on one
 * DATA_DIR both start, both write, and acknowledged lines are lost. This file plays postmaster.pid's part.
 */
export const LOCK_FILE = 'mbox-server.lock';

/**
 * Takes the directory for this process, or throws naming the server that holds it. The lock is an
 * advisory lock the operating system holds on the open file (an open-file-description lock on Linux,
 * flock on macOS, LockFileEx on Windows, through fs-native-extensions) for as long as the file stays
 * open: it goes away with the process, however that ends (a crash, kill -9, a reboot, a container
 * restart), so a stale lock never blocks a start. What the file says (PID, host) only names the holder
 * in the refusal; it is never trusted, so a PID reused after a reboot, or equal to this process's own
 * (PID 1 in a container), changes nothing. Returns the release, which closes the file.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  // Never truncated before it is locked: the holder's details stay readable for the refusal.
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o644);
  let locked: boolean;
  try {
    locked = nativeLocks().tryLock(fd);
  } catch (error) {
    closeSync(fd);
    throw new Error(`Cannot lock ${path} (${(error as Error).message}): DATA_DIR must be on a file system that supports file locks`, {
      cause: error,
    });
  }
  if (!locked) {
    closeSync(fd);
    throw new Error(
      `Another Mbox server (${describeHolder(path)}) is using the database in ${dir}. Stop it first or give this server ` +
        'its own DATA_DIR; two servers on one embedded database lose data.',
    );
  }
  ftruncateSync(fd, 0);
  writeSync(fd, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }), 0);

  let open = true;
  return async () => {
    if (!open) return;
    open = false;
    // Emptied while still held, so the file never names a server that has stopped.
    ftruncateSync(fd, 0);
    closeSync(fd);
  };
}

/** "PID 4242", or "PID 4242 on host-b" for a holder on another machine (a shared disk); the file is only informative. */
function describeHolder(path: string): string {
  try {
    const { pid, host } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; host?: unknown };
    if (!Number.isInteger(pid)) return 'PID unknown';
    return typeof host === 'string' && host !== hostname() ? `PID ${String(pid)} on ${host}` : `PID ${String(pid)}`;
  } catch {
    return 'PID unknown';
  }
}
