/** Characters no file name may hold on common systems, control characters, and what headers read as syntax. */
const UNSAFE = /[\p{Cc}"\\/:*?<>|;%]/gu;
const MAX_TITLE_CHARS = 100;

/** The title as a file name's stem: unsafe characters replaced, spaces collapsed, no leading dots. */
export function safeTitle(title: string): string {
  const safe = title.normalize('NFC').replace(UNSAFE, '_').replace(/\s+/g, ' ').trim().replace(/^\.+/, '');
  return [...safe].slice(0, MAX_TITLE_CHARS).join('').trim() || 'meeting';
}

/** The same in printable ASCII: accents dropped (é → e), other letters replaced by '_'. */
function asciiTitle(title: string): string {
  const ascii = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/_{2,}/g, '_')
    .trim();
  return /[a-z0-9]/i.test(ascii) ? ascii : 'meeting';
}

/** RFC 5987 ext-value characters: percent-encode all but attr-chars. */
const encodeExtValue = (value: string) =>
  encodeURIComponent(value).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` of an export: `attachment; filename="<title>-<yyyy-mm-dd>.<ext>"`, plus the
 * UTF-8 name in `filename*` (RFC 6266 / 5987) when the title is not plain ASCII.
 */
export function attachmentDisposition(title: string, day: string, extension: string): string {
  const stem = safeTitle(title);
  const ascii = `${asciiTitle(stem)}-${day}.${extension}`;
  const full = `${stem}-${day}.${extension}`;
  return ascii === full ? `attachment; filename="${ascii}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeExtValue(full)}`;
}
