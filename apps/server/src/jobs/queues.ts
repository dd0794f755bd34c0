import type { Config } from '../config.js';

/**
 * Every durable queue, with the data its jobs carry. A module adds its queue here (name, payload,
 * retry policy) and its worker in workers.ts.
 */
export interface QueuePayloads {
  /** Generates and e-mails the recap of an ended meeting (modules/recap). */
  'recap-send': { recapId: string };
  /** E-mails a recap recipient the link to confirm (modules/recap/recipients.ts). */
  'recipient-confirm': { recipientId: string };
  /** Ends meetings quiet for MEETING_IDLE_MINUTES; each run schedules the next (modules/transcript). */
  'meeting-idle-sweep': Record<string, never>;
  /** One attempt at a webhook delivery; a failure is retried with backoff (modules/webhooks). */
  'webhook-deliver': { deliveryId: string };
  /** Reads an ended meeting's action items into the ledger (modules/action-items). */
  'action-items-extract': { meetingId: string };
}

export type QueueName = keyof QueuePayloads;

export interface QueuePolicy {
  /** `short`: at most one waiting job per singletonKey (a second send is dropped). */
  policy: 'standard' | 'short';
  /** Retries after the first attempt; a job whose process died uses one too. */
  retryLimit: number;
  /** Seconds before the first retry; with backoff each next wait doubles (pg-boss adds up to 100% jitter). */
  retryDelay: number;
  retryBackoff: boolean;
}

/**
 * Retry policy of each queue. Recaps: 6 retries from RECAP_RETRY_DELAY_SECONDS (15 s) doubling give
 * at least 15 × (2⁶ − 1) = 945 s ≈ 16 minutes of retries before a temporary SMTP failure is final.
 * Webhooks: 8 retries from WEBHOOK_RETRY_DELAY_SECONDS (30 s) doubling, about 2 hours (docs/webhooks.md).
 */
export function queuePolicies(config: Config): Record<QueueName, QueuePolicy> {
  return {
    'recap-send': { policy: 'standard', retryLimit: 6, retryDelay: config.RECAP_RETRY_DELAY_SECONDS, retryBackoff: true },
    'recipient-confirm': { policy: 'standard', retryLimit: 6, retryDelay: config.RECAP_RETRY_DELAY_SECONDS, retryBackoff: true },
    'meeting-idle-sweep': { policy: 'short', retryLimit: 2, retryDelay: 5, retryBackoff: false },
    'webhook-deliver': { policy: 'standard', retryLimit: 8, retryDelay: config.WEBHOOK_RETRY_DELAY_SECONDS, retryBackoff: true },
    // An LLM outage: the same retries as a recap's summary.
    'action-items-extract': { policy: 'standard', retryLimit: 3, retryDelay: config.RECAP_RETRY_DELAY_SECONDS, retryBackoff: true },
  };
}

/** Shortest total time a job of `policy` keeps being retried (no jitter): Σ delay × 2^i. */
export function minimumRetrySpanSeconds(policy: QueuePolicy): number {
  if (!policy.retryBackoff) return policy.retryDelay * policy.retryLimit;
  return policy.retryDelay * (2 ** policy.retryLimit - 1);
}
