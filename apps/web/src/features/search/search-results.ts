import type { SearchResult } from '@mbox/shared/search';

export interface MeetingResults {
  meetingId: string;
  title: string;
  date: number;
  results: SearchResult[];
}

/** Results grouped by meeting, meetings in the order of their best result (the answer is best first). */
export function groupByMeeting(results: readonly SearchResult[]): MeetingResults[] {
  const groups = new Map<string, MeetingResults>();
  for (const result of results) {
    let group = groups.get(result.meetingId);
    if (!group) {
      group = { meetingId: result.meetingId, title: result.meetingTitle, date: result.meetingDate, results: [] };
      groups.set(result.meetingId, group);
    }
    group.results.push(result);
  }
  return [...groups.values()];
}

/** What a result found, as a short label. */
export const KIND_LABEL: Record<SearchResult['kind'], string> = {
  line: 'Transcript',
  cleanup: 'Cleaned-up line',
  comment: 'Comment',
  title: 'Title',
  participant: 'Participant',
  summary: 'Summary',
};
