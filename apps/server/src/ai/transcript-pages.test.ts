import { describe, expect, it } from 'vitest';
import { DEFAULT_SUMMARY_SETTINGS } from '@mbox/shared';
import { QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from './eval/qmsum.js';
import runOfflineTask from './offline/worker.js';
import { transcriptPage, transcriptTurns, transferablesOf } from './transcript-pages.js';
import type { TranscriptTurn } from './types.js';

const START = Date.UTC(2024, 2, 5, 9);
const meeting: TranscriptTurn[] = QMSUM_FIXTURE_MEETINGS.flatMap((name) => toTranscript(loadQmsumMeeting(name)))
  .filter((t) => t.text.trim())
  .map((t, i) => ({ ...t, id: `m${i}`, spokenAt: START + i * 1000 }));
const inPages = (turns: readonly TranscriptTurn[], size: number) => ({
  pages: Array.from({ length: Math.ceil(turns.length / size) }, (_, k) => transcriptPage(turns.slice(k * size, (k + 1) * size))),
});

describe('transcript pages', () => {
  it('give back the turns they were made of, each page in its own buffer', () => {
    const paged = inPages(meeting, 300);
    expect(paged.pages).toHaveLength(Math.ceil(meeting.length / 300));
    expect(transcriptTurns(paged)).toEqual(meeting);
    const buffers = transferablesOf(paged);
    expect(new Set(buffers).size).toBe(paged.pages.length);
    paged.pages.forEach((page, k) => expect(page.byteLength).toBe(buffers[k]!.byteLength));
    // An array of turns is passed as it is and has nothing to transfer.
    expect(transcriptTurns(meeting)).toBe(meeting);
    expect(transferablesOf(meeting)).toEqual([]);
  });

  it("read the rows the database writes ([speaker, text, id, spokenAt, encrypted]) and leave blank lines out", () => {
    const rows = JSON.stringify([
      ['Ann Lee', 'We ship on Friday.', 'a1', START, false],
      ['Ben Ode', '   ', 'a2', START + 1000, false],
      ['Ben Ode', 'Agreed, Friday it is.', 'a3', START + 2000, false],
    ]);
    expect(transcriptTurns({ pages: [transcriptPage(rows)] })).toEqual([
      { speaker: 'Ann Lee', text: 'We ship on Friday.', id: 'a1', spokenAt: START },
      { speaker: 'Ben Ode', text: 'Agreed, Friday it is.', id: 'a3', spokenAt: START + 2000 },
    ]);
    // Document paragraphs have neither id nor time.
    expect(transcriptTurns({ pages: [transcriptPage([{ speaker: 'Text', text: 'A paragraph.' }])] })).toEqual([{ speaker: 'Text', text: 'A paragraph.' }]);
  });

  it("the offline worker's task writes the same notes and cites the same lines from pages as from turns", () => {
    for (const promptKey of ['summary', 'topic'] as const) {
      const task = { promptKey, settings: DEFAULT_SUMMARY_SETTINGS, timeZone: 'Europe/Berlin' };
      const fromTurns = runOfflineTask({ ...task, transcript: meeting });
      const fromPages = runOfflineTask({ ...task, transcript: inPages(meeting, 250) });
      expect(fromPages, promptKey).toEqual(fromTurns);
      expect(fromTurns.lines.length, promptKey).toBeGreaterThan(0);
      expect(fromTurns.cited).toEqual(fromTurns.lines.map((line) => ({ speaker: meeting[line]!.speaker, id: meeting[line]!.id, spokenAt: meeting[line]!.spokenAt })));
    }
  }, 60_000);
});
