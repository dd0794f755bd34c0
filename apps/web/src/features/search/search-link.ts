/** The search page for a query: `/search?q=…`. */
export function searchPath(q: string): string {
  return `/search?${new URLSearchParams({ q: q.trim() }).toString()}`;
}

/**
 * Where a result opens: a line in its transcript (`/<meetingId>?line=<messageId>`, scrolled to and
 * highlighted), or the meeting itself.
 */
export function resultPath(meetingId: string, messageId: string | null): string {
  const path = `/${encodeURIComponent(meetingId)}`;
  return messageId ? `${path}?${new URLSearchParams({ line: messageId }).toString()}` : path;
}
