import { meetingExportPath, type ExportFormat } from '@mbox/shared/export';
import { AUTH_RETRY_LIMIT } from '@mbox/shared/ui-messages';
import { refreshSession } from '../../lib/auth';
import { HttpStatusError } from '../../lib/errors';


/** The file name a `Content-Disposition` header gives: `filename*` (UTF-8) first, else `filename`. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed encoding: the plain name below.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null;
}

/**
 * Reads a file the server answers for the signed-in user (a meeting's export, the account's data) with
 * the session cookie and hands it to the browser as a download, without leaving the page. A 401 is
 * retried after the session is refreshed, as tRPC calls are (the access cookie may have expired while
 * the page sat open); other failures throw HttpStatusError for the one error mapping.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  for (let retriesLeft = AUTH_RETRY_LIMIT; ; retriesLeft--) {
    response = await fetch(path, { credentials: 'same-origin' });
    if (response.status !== 401 || retriesLeft === 0 || !(await refreshSession())) break;
  }
  if (!response.ok) throw new HttpStatusError(response.status);
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; the URL is released a moment later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A meeting's export in one format (the Export menu). */
export function downloadExport(meetingId: string, format: ExportFormat): Promise<void> {
  return downloadFile(meetingExportPath(meetingId, format), `meeting.${format}`);
}
