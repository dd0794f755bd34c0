import type { AppDeps } from '../../deps.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { queueActionItemExtraction } from '../action-items/service.js';
import { queueRecap } from '../recap/service.js';
import { enqueueWebhookEvent } from '../webhooks/events.js';
import { webhookMeetingRef } from '../webhooks/service.js';

interface EndingMeeting {
  id: string;
  userId: string;
  title: string;
  startedAt: Date;
  users: string[];
}

/** Webhook `meeting.finished`, delivered through the queue; enqueued in the transaction that ends the meeting. */
async function notifyMeetingFinished(deps: AppDeps, tx: Prisma.TransactionClient, meeting: EndingMeeting, endedAt: Date): Promise<void> {
  await enqueueWebhookEvent(
    deps,
    meeting.userId,
    'meeting.finished',
    {
      meeting: {
        ...webhookMeetingRef(deps, meeting),
        startedAt: meeting.startedAt.toISOString(),
        endedAt: endedAt.toISOString(),
        participants: meeting.users,
      },
    },
    { tx },
  );
}

/**
 * Ends an open meeting (extension end call or idle sweep) inside `tx`, which already holds the meeting's
 * row lock: sets endedAt and the line count and, in the same transaction, queues its recap, the
 * extraction of its action items and the meeting.finished webhook. False when it had already ended.
 */
export async function markMeetingEnded(deps: AppDeps, tx: Prisma.TransactionClient, meeting: EndingMeeting): Promise<boolean> {
  const endedAt = new Date();
  // The lock keeps lines out until the transaction ends (an ingest locks the row too, and clears both
  // columns when it writes), and this statement's snapshot, taken after the lock, sees every line stored.
  const count = await tx.$executeRaw`
    UPDATE "Meeting" SET "endedAt" = ${endedAt},
      "lineCount" = (SELECT count(*) FROM "Message" WHERE "meetingId" = ${meeting.id})
    WHERE id = ${meeting.id} AND "endedAt" IS NULL`;
  if (!count) return false;
  await queueRecap(deps, tx, meeting);
  await queueActionItemExtraction(deps, tx, meeting.id);
  await notifyMeetingFinished(deps, tx, meeting, endedAt);
  return true;
}
