import type { AppDeps } from '../deps.js';
import { extractActionItems } from '../modules/action-items/service.js';
import { runRecapJob } from '../modules/recap/job.js';
import { sendConfirmation } from '../modules/recap/recipients.js';
import { runIdleSweep, scheduleIdleSweep } from '../modules/transcript/idle-sweep.js';
import { deliverWebhook } from '../modules/webhooks/service.js';

/** Registers every module's job worker on deps.jobs (before the queue starts). */
export function registerWorkers(deps: AppDeps): void {
  deps.jobs.work('recap-send', (job) => runRecapJob(deps, job));
  deps.jobs.work('recipient-confirm', (job) => sendConfirmation(deps, job));
  deps.jobs.work('meeting-idle-sweep', async () => {
    await runIdleSweep(deps);
  });
  deps.jobs.onStart(() => scheduleIdleSweep(deps, 0));
  deps.jobs.work('action-items-extract', async (job) => {
    await extractActionItems(deps, job.data.meetingId);
  });
  deps.jobs.work('webhook-deliver', (job) => deliverWebhook(deps, job.data.deliveryId, { lastAttempt: job.lastAttempt }));
}
