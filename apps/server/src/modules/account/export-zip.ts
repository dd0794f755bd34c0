import { Readable } from 'node:stream';
import { ACCOUNT_EXPORT_ACCOUNT_FILE, ACCOUNT_EXPORT_ACTION_ITEMS_FILE, accountExportSchema, dayKey, UNTITLED_MEETING } from '@mbox/shared';
import type { AppDeps } from '../../deps.js';
import { allActionItems } from '../action-items/service.js';
import type { AuthUser } from '../auth/service.js';
import { safeTitle } from '../export/filename.js';
import { exportTimeZone, meetingJsonAndMarkdown } from '../export/service.js';
import { accountRecord, meetingsToExport, type ExportedMeetingRef } from './service.js';


/** `meetings/<yyyy-mm-dd>-<title>-<id>`: sorted by day, readable, and unique by the id. */
function entryStem(meeting: ExportedMeetingRef, timeZone: string): string {
  return `meetings/${dayKey(meeting.startedAt.getTime(), timeZone)}-${safeTitle(meeting.title || UNTITLED_MEETING)}-${meeting.id}`;
}

/**
 * The account's data as a zip (docs/account-and-plans.md): `account.json` (profile, settings, plans,
 * webhooks), `action-items.json` (the action items of every meeting), then per meeting its JSON export (lines with marks and comments, summaries with their
 * translations, as `GET /v1/meeting/{id}/export?format=json` writes it) and its Markdown export.
 *
 * It streams: the meeting list is only ids, and each meeting is read when the zip reaches it (yazl asks
 * for an entry's data when the previous one is written, and writes no faster than the client reads), so
 * memory holds one meeting at a time whatever the account's size. A failure while it is under way ends
 * the stream with the error, and the client gets a cut download rather than a zip that looks whole.
 */
export async function accountExportZip(deps: AppDeps, user: Pick<AuthUser, 'id' | 'timezone'>): Promise<Readable> {
  // yazl is loaded with the first export rather than at start-up.
  const { ZipFile } = await import('yazl');
  const meetings = await meetingsToExport(deps, user.id);
  const account = accountExportSchema.parse(await accountRecord(deps, user.id, meetings.length));
  const timeZone = exportTimeZone(user);
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on('error', (error: Error) => output.destroy(error));

  zip.addBuffer(Buffer.from(`${JSON.stringify(account, null, 2)}\n`), ACCOUNT_EXPORT_ACCOUNT_FILE, { mtime: new Date(account.exportedAt) });
  zip.addReadStreamLazy(ACCOUNT_EXPORT_ACTION_ITEMS_FILE, { mtime: new Date(account.exportedAt) }, (ready) => {
    allActionItems(deps, user.id).then(
      (items) => ready(null, Readable.from([Buffer.from(`${JSON.stringify(items, null, 2)}\n`)])),
      (error: unknown) => ready(error instanceof Error ? error : new Error(String(error)), undefined as never),
    );
  });
  // The JSON and the Markdown of a meeting come from one read of it.
  let current: { id: string; files: ReturnType<typeof meetingJsonAndMarkdown> } | null = null;
  const filesOf = (id: string) => {
    if (current?.id !== id) current = { id, files: meetingJsonAndMarkdown(deps, user, id) };
    return current.files;
  };
  for (const meeting of meetings) {
    const stem = entryStem(meeting, timeZone);
    for (const [extension, pick] of [['json', 'json'], ['md', 'markdown']] as const) {
      zip.addReadStreamLazy(`${stem}.${extension}`, { mtime: meeting.startedAt }, (ready) => {
        filesOf(meeting.id).then(
          (files) => ready(null, Readable.from([Buffer.from(files[pick])])),
          (error: unknown) => ready(error instanceof Error ? error : new Error(String(error)), undefined as never),
        );
      });
    }
  }
  zip.end();
  return output;
}
