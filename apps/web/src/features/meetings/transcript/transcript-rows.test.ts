import { describe, expect, it } from 'vitest';
import type { MeetingEvent } from '@mbox/shared/capture-events';
import type { Message } from '@mbox/shared/meeting';
import { transcriptRows } from './transcript-rows';

const at = (minute: number) => Date.UTC(2026, 10, 20, 10, minute);
const line = (key: string, user: string, minute: number): Message => ({
  key,
  captionId: key,
  user,
  userAvatar: '',
  text: `${user} at ${minute}`,
  aiFixed: null,
  marks: [],
  comment: '',
  encrypted: false,
  final: true,
  spokenAt: at(minute),
  lastUpdated: at(minute),
});
const gap = (key: string, from: number, to: number | null): MeetingEvent => ({
  key,
  kind: 'captions-off',
  startedAt: at(from),
  endedAt: to === null ? null : at(to),
});

const shape = (rows: ReturnType<typeof transcriptRows>) =>
  rows.map((row) => (row.type === 'gap' ? `gap ${row.gap.key}` : `${row.message.key}${row.startsRun ? '*' : ''}`));

describe('transcriptRows', () => {
  it('places each gap by time and restarts the speaker run after it', () => {
    const lines = [line('a', 'Ana', 0), line('b', 'Ana', 1), line('c', 'Ana', 8), line('d', 'Bo', 9)];
    expect(shape(transcriptRows(lines, [gap('g1', 2, 7)]))).toEqual(['a*', 'b', 'gap g1', 'c*', 'd*']);
  });

  it('puts gaps before any line and after the last line, in time order', () => {
    const lines = [line('a', 'Ana', 5)];
    expect(shape(transcriptRows(lines, [gap('late', 6, null), gap('early', 1, 3)]))).toEqual(['gap early', 'a*', 'gap late']);
  });

  it('shows gaps alone when no line was captured, and lines alone without gaps', () => {
    expect(shape(transcriptRows([], [gap('g', 1, null)]))).toEqual(['gap g']);
    expect(shape(transcriptRows([line('a', 'Ana', 1), line('b', 'Bo', 2)], []))).toEqual(['a*', 'b*']);
  });
});
