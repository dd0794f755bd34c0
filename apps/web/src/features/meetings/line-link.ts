/** The transcript address of a line: the transcript scrolls to it and highlights it (a cited line, an answer's source). */
export function lineLink(meetingId: string, messageId: string): string {
  return `/${encodeURIComponent(meetingId)}?line=${encodeURIComponent(messageId)}`;
}
