import type { Message as MessageDto } from '@mbox/shared';
import { DecryptionError, UNREADABLE_TEXT, decryptText, loadDataKey, messageContext, openMessages } from '../../crypto/encryption.js';
import type { AppDeps } from '../../deps.js';
import { LiveFeed, untilAborted } from '../../events/live-feed.js';
import { toMessageDto } from './rows.js';
import { findOwnMeeting, messageOrder } from './service.js';

/**
 * Opens the sealed texts of lines that came in events, loading the user's data key once per
 * subscription (not once per event): an encrypted meeting's lines travel sealed.
 */
function lineOpener(deps: AppDeps, userId: string, meetingId: string): (line: MessageDto) => Promise<MessageDto> {
  let key: Promise<Buffer | null> | null = null;
  const context = messageContext(meetingId);
  return async (line) => {
    if (!line.encrypted) return line;
    key ??= loadDataKey(deps.db, deps.secrets.masterKey, userId).catch((error: unknown) => {
      deps.log.error({ err: error, userId }, 'data key cannot be unwrapped');
      return null;
    });
    const dataKey = await key;
    try {
      if (!dataKey) throw new DecryptionError('No data key');
      return {
        ...line,
        text: decryptText(dataKey, line.text, context),
        aiFixed: line.aiFixed === null ? null : decryptText(dataKey, line.aiFixed, context),
      };
    } catch (error) {
      deps.log.error({ err: error, userId, meetingId }, 'message cannot be decrypted');
      return { ...line, text: UNREADABLE_TEXT, aiFixed: null };
    }
  };
}

/**
 * New and updated lines of one meeting, to its owner, until the client leaves or the server stops.
 * Events carry the changed rows, so nothing is read per event; only one naming its lines (too large to
 * carry them) is read from the database. Lines are handed over as their event is dispatched; those
 * that need work first (a sealed text, a read) and any after them wait their turn, so order holds.
 */
export function feedLines(deps: AppDeps, userId: string, meetingId: string, signal: AbortSignal | undefined): LiveFeed<MessageDto> {
  return new LiveFeed(async (deliver, stop, listening) => {
    await findOwnMeeting(deps, userId, meetingId);
    const open = lineOpener(deps, userId, meetingId);
    let backlog: Promise<void> | null = null;
    let fail: (error: unknown) => void = () => {};
    const failed = new Promise<never>((_resolve, reject) => (fail = reject));
    const unlisten = deps.events.listen('meeting.lines', meetingId, (event) => {
      if (event.userId !== userId) return;
      if (!backlog && 'lines' in event && event.lines.every((line) => !line.encrypted)) {
        for (const line of event.lines) deliver(line);
        return;
      }
      const work = async () => {
        const lines =
          'lines' in event
            ? await Promise.all(event.lines.map(open))
            : (await openMessages(deps, userId, await deps.db.message.findMany({ where: { id: { in: event.messageIds }, meetingId }, orderBy: messageOrder }))).map(toMessageDto);
        if (!stop.aborted) for (const line of lines) deliver(line);
      };
      const queued: Promise<void> = (backlog ?? Promise.resolve()).then(work).then(
        () => {
          if (backlog === queued) backlog = null;
        },
        fail,
      );
      backlog = queued;
    });
    listening();
    try {
      await Promise.race([untilAborted(AbortSignal.any([deps.shutdown, stop])), failed]);
    } finally {
      unlisten();
    }
  }, signal ?? deps.shutdown);
}

/** The user's meeting changes (created, renamed, finished, deleted), until the client leaves or the server stops. */
export function feedMeetingChanges(
  deps: AppDeps,
  userId: string,
  signal: AbortSignal | undefined,
): LiveFeed<{ meetingId: string; kind: 'created' | 'updated' | 'finished' | 'deleted' }> {
  return new LiveFeed(async (deliver, stop, listening) => {
    const unlisten = deps.events.listen('meeting.changed', userId, (event) => deliver({ meetingId: event.meetingId, kind: event.kind }));
    listening();
    try {
      await untilAborted(AbortSignal.any([deps.shutdown, stop]));
    } finally {
      unlisten();
    }
  }, signal ?? deps.shutdown);
}
