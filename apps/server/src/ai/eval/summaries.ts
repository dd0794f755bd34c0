import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SummarySettingsInput } from '@mbox/shared';
import type { AiEngine } from '../engine.js';
import { prepareTranscript, wordCount } from '../offline/text.js';
import type { TranscriptTurn } from '../types.js';
import { readQmsumFile, toTranscript } from './qmsum.js';
import { rougeAll } from './rouge.js';

/** The budget every system gets: the product's standard depth, 100 to 150 words. */
export const EVAL_SETTINGS: SummarySettingsInput = { depth: 'standard', minLength: 100, maxLength: 150 };

export interface EvalRow {
  meeting: string;
  system: string;
  words: number;
  r1: number;
  r2: number;
  rl: number;
}
export type EvalMeans = Record<string, { r1: number; r2: number; rl: number }>;

function htmlToText(html: string): string {
  return html
    .replace(/<(?:br|\/p|\/li|\/h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** The first cleaned sentences of the meeting, up to the given number of words. */
export function leadBaseline(transcript: readonly TranscriptTurn[], words: number): string {
  const out: string[] = [];
  let total = 0;
  for (const s of prepareTranscript(transcript).sentences) {
    if (total >= words) break;
    // The last sentence is cut so that both systems get exactly the same number of words.
    const taken = s.text.split(/\s+/).slice(0, words - total);
    out.push(taken.join(' '));
    total += wordCount(taken.join(' '));
  }
  return out.join(' ');
}

/**
 * Scores the whole-meeting summary of every QMSum meeting in `folder` against its human reference
 * (ROUGE-1/2/L F1): the offline engine, the lead baseline at the same length, and the LLM when given.
 */
export async function evaluateSummaries(
  folder: string,
  engines: { offline: AiEngine; llm?: AiEngine },
): Promise<{ rows: EvalRow[]; means: EvalMeans }> {
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`No QMSum meeting (*.json) in ${folder}`);
  const rows: EvalRow[] = [];
  for (const file of files) {
    const meeting = readQmsumFile(path.join(folder, file));
    const reference = meeting.general_query_list[0]?.answer;
    if (!reference) continue;
    const transcript = toTranscript(meeting);
    const name = file.replace(/\.json$/, '');
    const score = (system: string, text: string) => {
      const r = rougeAll(text, reference);
      rows.push({ meeting: name, system, words: wordCount(text), r1: r.rouge1.f1, r2: r.rouge2.f1, rl: r.rougeL.f1 });
    };
    const request = { transcript, promptKey: 'summary' as const, settings: EVAL_SETTINGS, tier: 'basic' as const };
    const own = htmlToText((await engines.offline.generateSummary(request)).html);
    score('offline', own);
    score('lead', leadBaseline(transcript, wordCount(own)));
    if (engines.llm) score('llm', htmlToText((await engines.llm.generateSummary(request)).html));
  }
  const means: EvalMeans = {};
  for (const system of new Set(rows.map((r) => r.system))) {
    const mine = rows.filter((r) => r.system === system);
    const mean = (k: 'r1' | 'r2' | 'rl') => mine.reduce((s, r) => s + r[k], 0) / mine.length;
    means[system] = { r1: mean('r1'), r2: mean('r2'), rl: mean('rl') };
  }
  return { rows, means };
}
