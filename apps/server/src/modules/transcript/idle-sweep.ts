import type { AppDeps } from '../../deps.js';
import { markMeetingEnded } from './meeting-end.js';

/** One waiting sweep at a time across every server on the database (the queue's `short` policy). */
const SWEEP_KEY = 'idle-sweep';
/** Meetings ended per run; more wait for the next run. */
const BATCH = 200;

export function scheduleIdleSweep(deps: AppDeps, afterSeconds: number): Promise<string | null> {
  return deps.jobs.send('meeting-idle-sweep', {}, { singletonKey: SWEEP_KEY, startAfterSeconds: afterSeconds });
}

/**
 * Ends meetings with no new line for MEETING_IDLE_MINUTES (a laptop closed mid-call sends no end).
 * Meetings without lastLineAt (from before lines were timed, or with captions off throughout) are
 * left to the extension's end call: a first start must not mail recaps of old meetings.
 */
export async function runIdleSweep(deps: AppDeps): Promise<number> {
  // The next run first, so a failing run never breaks the chain.
  await scheduleIdleSweep(deps, deps.config.MEETING_SWEEP_SECONDS);
  const cutoff = new Date(Date.now() - deps.config.MEETING_IDLE_MINUTES * 60_000);
  const idle = await deps.db.meeting.findMany({
    where: { endedAt: null, lastLineAt: { lt: cutoff } },
    select: { id: true },
    orderBy: { lastLineAt: 'asc' },
    take: BATCH,
  });
  let ended = 0;
  for (const { id } of idle) {
    const meeting = await deps.db.$transaction(async (tx) => {
      // Re-read under the row lock: a line that arrived since the query reopened it.
      await tx.$queryRaw`SELECT 1 FROM "Meeting" WHERE id = ${id} FOR UPDATE`;
      const current = await tx.meeting.findUnique({ where: { id } });
      if (!current || current.endedAt || !current.lastLineAt || current.lastLineAt >= cutoff) return null;
      // No end call came: the meeting finished with its last line, and so did a gap still open.
      const finishedAt = current.finishedAt ?? current.lastLineAt;
      if (!current.finishedAt) await tx.meeting.update({ where: { id }, data: { finishedAt } });
      await tx.meetingEvent.updateMany({ where: { meetingId: id, endedAt: null }, data: { endedAt: finishedAt } });
      return (await markMeetingEnded(deps, tx, current)) ? current : null;
    });
    if (meeting) {
      ended++;
      deps.events.emit('meeting.changed', { userId: meeting.userId, meetingId: meeting.id, kind: 'finished' });
    }
  }
  if (ended) deps.log.info({ ended }, 'idle meetings ended');
  return ended;
}
