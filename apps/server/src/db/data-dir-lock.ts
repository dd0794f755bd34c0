import { readFile, unlink, writeFile } from 'node:fs/promises';
import { unlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * PGlite takes no lock on its directory (its postmaster.pid holds a fake PID), so two servers on one
 * DATA_DIR both start, both write, and acknowledged lines are lost. This file plays postmaster.pid's part.
 */
export const LOCK_FILE = 'mbox-server.lock';

interface LockHolder {
  pid: number;
  host: string;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<{ text: string; holder: LockHolder | null } | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    const valid = Number.isInteger(parsed.pid) && typeof parsed.host === 'string';
    return { text, holder: valid ? { pid: parsed.pid!, host: parsed.host! } : null };
  } catch {
    return { text, holder: null };
  }
}

/**
 * Takes the directory for this process, or throws naming the server that holds it. A lock left by a
 * process that is gone (a crash, a kill -9) is taken over; one from another machine (a shared disk)
 * cannot be checked and is respected. Returns the release, also run when the process exits.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const path = join(dir, LOCK_FILE);
  const own = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  for (let attempt = 1; ; attempt++) {
    try {
      await writeFile(path, own, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 3) throw error;
    }
    const found = await readHolder(path);
    if (!found) continue;
    const { holder } = found;
    if (holder && (holder.host !== hostname() || isAlive(holder.pid))) {
      const who = holder.host === hostname() ? `PID ${holder.pid}` : `PID ${holder.pid} on ${holder.host}`;
      throw new Error(
        `Another Mbox server (${who}) is using the database in ${dir}. Stop it first or give this server its own DATA_DIR; ` +
          `two servers on one embedded database lose data. If that server is gone, delete ${path}.`,
      );
    }
    // Stale (its process is gone) or unreadable: remove it unless another starter replaced it meanwhile.
    const again = await readHolder(path);
    if (again?.text === found.text) await unlink(path).catch(() => {});
  }

  const releaseOnExit = () => {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', releaseOnExit);
  return async () => {
    process.off('exit', releaseOnExit);
    const found = await readHolder(path);
    if (found?.text === own) await unlink(path).catch(() => {});
  };
}
