/**
 * Entry of the offline engine's worker threads (pool.ts): one summary per task, off the event loop.
 * Bundled on its own as apps/server/dist/offline-worker.js (scripts/build-server.mjs).
 */
import type { CitedHtml } from '../minutes.js';
import { generateOffline, type OfflineRequest } from './engine.js';

export default function summarise(request: OfflineRequest): CitedHtml {
  return generateOffline(request);
}
