import type { AppDeps } from '../deps.js';

/** Registers every module's job worker on deps.jobs (before the queue starts). */
export function registerWorkers(deps: AppDeps): void {
  void deps;
}
