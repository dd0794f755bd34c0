import { computeMeetingStats, computeTalkTime, type MeetingStats, type TalkTime } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { findOwnMeeting } from '../meeting/service.js';

/** Dashboard figures over all the user's meetings, with days and months in the user's zone. */
export async function getMeetingStats(
  deps: AppDeps,
  user: { id: string; timezone: string },
  now = new Date(),
): Promise<MeetingStats> {
  const meetings = await deps.db.meeting.findMany({
    where: { userId: user.id },
    select: { startedAt: true, finishedAt: true, isAnalyzed: true },
  });
  return computeMeetingStats(meetings, now, user.timezone);
}

/** Talk time per speaker in one of the user's meetings (404 for anyone else's). */
export async function getTalkTime(deps: AppDeps, userId: string, meetingId: string): Promise<TalkTime> {
  const meeting = await findOwnMeeting(deps, userId, meetingId);
  const messages = await deps.db.message.findMany({
    where: { meetingId: meeting.id },
    select: { user: true, spokenAt: true },
  });
  return computeTalkTime(messages, meeting.finishedAt);
}
