import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../db/paths.js';
import type { TranscriptTurn } from '../types.js';

/** Three QMSum meetings kept as test fixtures (tests/fixtures/qmsum/README.md); never used for tuning. */
export const QMSUM_FIXTURES_DIR = path.join(repoRoot, 'tests', 'fixtures', 'qmsum');
export const QMSUM_FIXTURE_MEETINGS = ['ES2004a', 'IS1003b', 'education_4'] as const;

export interface QmsumMeeting {
  meeting_transcripts: { speaker: string; content: string }[];
  general_query_list: { query: string; answer: string }[];
  specific_query_list: { query: string; answer: string; relevant_text_span: [string, string][] }[];
  topic_list: { topic: string; relevant_text_span: [string, string][] }[];
}

export function readQmsumFile(file: string): QmsumMeeting {
  return JSON.parse(readFileSync(file, 'utf8')) as QmsumMeeting;
}

export function loadQmsumMeeting(name: string, dir = QMSUM_FIXTURES_DIR): QmsumMeeting {
  return readQmsumFile(path.join(dir, `${name}.json`));
}

export function toTranscript(meeting: QmsumMeeting): TranscriptTurn[] {
  return meeting.meeting_transcripts.map((t) => ({ speaker: t.speaker, text: t.content }));
}
