import type { AppDeps } from '../deps.js';
import { deliverWebhook } from '../modules/webhooks/service.js';

/** Registers every module's job worker on deps.jobs (before the queue starts). */
export function registerWorkers(deps: AppDeps): void {
  deps.jobs.work('webhook-deliver', (job) => deliverWebhook(deps, job.data.deliveryId, { lastAttempt: job.lastAttempt }));
}
