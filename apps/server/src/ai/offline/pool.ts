import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pLimit from 'p-limit';
import type { Piscina } from 'piscina';
import { repoRoot } from '../../db/paths.js';
import { transferablesOf } from '../transcript-pages.js';
import runOfflineTask, { type OfflineAnswer, type OfflineTask } from './worker.js';

/** Runs offline summaries: in worker threads in the server, in the calling thread in tests and scripts. */
export interface OfflineRunner {
  run(task: OfflineTask, signal?: AbortSignal): Promise<OfflineAnswer>;
  /**
   * Runs `work` (read a whole meeting, then summarise it) when a thread is free for it: at most one such
   * work per thread at once, the others waiting before they read (docs/performance.md, "Offline summaries").
   */
  turn<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** In the calling thread: for scripts and tests that summarise one meeting at a time. */
export const inlineRunner: OfflineRunner = {
  run: (task, signal) => {
    signal?.throwIfAborted();
    return Promise.resolve(runOfflineTask(task));
  },
  turn: (work) => work(),
  close: () => Promise.resolve(),
};

/** Worker threads by default: one core left to the event loop, at most four. */
export function defaultOfflineThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism() - 1));
}

/**
 * The worker's entry: the bundled file beside the server's bundle in production, the TypeScript
 * source (loaded through tsx) when the server runs from its sources (development, tests).
 */
function workerEntry(): { filename: string; execArgv?: string[] } {
  // Threads inherit the process's Node options by default. They are not given explicitly: V8 flags such
  // as the start script's --max-semi-space-size are refused in a worker's execArgv.
  if (import.meta.url.endsWith('.ts')) {
    const withTsx = process.execArgv.some((a) => /\btsx\b/.test(a));
    return { filename: new URL('./worker.ts', import.meta.url).href, execArgv: withTsx ? undefined : ['--import', 'tsx'] };
  }
  return { filename: pathToFileURL(join(repoRoot, 'apps', 'server', 'dist', 'offline-worker.js')).href };
}

/**
 * A piscina pool of worker threads for the offline engine: a 3-hour meeting (20,000 lines) takes
 * seconds of CPU, which must not hold the event loop (docs/performance.md, "Offline summaries").
 * Threads start on first use and leave after a minute idle, so a server that never summarises offline
 * never holds the engine's model in memory.
 */
export function workerPoolRunner(threads: number): OfflineRunner {
  let pool: Promise<Piscina> | undefined;
  const turns = pLimit(threads);
  const start = async () => {
    const { Piscina } = await import('piscina');
    const entry = workerEntry();
    return new Piscina({ ...entry, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  };
  return {
    run: async (task, signal) => {
      signal?.throwIfAborted();
      const p = await (pool ??= start());
      // A paged transcript moves to the worker: copying 20,000 turns would hold the event loop.
      return (await p.run(task, { signal, transferList: transferablesOf(task.transcript) })) as OfflineAnswer;
    },
    turn: (work) => turns(work),
    close: async () => {
      if (pool) await (await pool).destroy();
    },
  };
}
