import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { PromptKey, SummarySettingsInput } from '@mbox/shared';
import type { AiEngine } from '../engine.js';
import { analyse, isInformative } from '../offline/analysis.js';
import { prepareTranscript, wordCount } from '../offline/text.js';
import type { TranscriptTurn } from '../types.js';
import { readQmsumFile, type QmsumMeeting } from './qmsum.js';
import { rougeAll } from './rouge.js';

/** The budget every system gets: the product's standard depth, 100 to 150 words. */
export const EVAL_SETTINGS: SummarySettingsInput = { depth: 'standard', minLength: 100, maxLength: 150 };

/**
 * What is scored: the whole-meeting summary against QMSum's general summary, and the decision and
 * action item answers against its specific questions about decisions / actions, where a meeting has some.
 */
export type EvalTask = 'summary' | 'decision' | 'action';
const TASK_PROMPT: Record<EvalTask, PromptKey> = { summary: 'summary', decision: 'decision', action: 'action' };
const TASK_QUERY: Record<Exclude<EvalTask, 'summary'>, RegExp> = {
  decision: /\b(?:decid\w*|decision\w*|agree\w*|conclu\w*)\b/i,
  action: /\b(?:action\w*|next steps?|to do|tasks?|assign\w*)\b/i,
};

export interface EvalRow {
  meeting: string;
  task: EvalTask;
  system: string;
  words: number;
  r1: number;
  r2: number;
  rl: number;
}
export type EvalMeans = Record<string, { meetings: number; r1: number; r2: number; rl: number }>;

export function htmlToText(html: string): string {
  return html
    .replace(/<sup class="cite"[^>]*>.*?<\/sup>/g, '')
    .replace(/<(?:br|\/p|\/li|\/h\d)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** Takes sentences in the given order up to `words` words, the last one cut so every system gets the same length. */
function upTo(sentences: readonly string[], words: number): string {
  const out: string[] = [];
  let total = 0;
  for (const text of sentences) {
    if (total >= words) break;
    const taken = text.split(/\s+/).slice(0, words - total).join(' ');
    out.push(taken);
    total += wordCount(taken);
  }
  return out.join(' ');
}

/** The first cleaned sentences of the meeting, up to the given number of words. */
export function leadBaseline(transcript: readonly TranscriptTurn[], words: number): string {
  return upTo(
    prepareTranscript(transcript).sentences.map((s) => s.text),
    words,
  );
}

/**
 * Classic TextRank (Mihalcea and Tarau, 2004): the informative sentences ranked by PageRank over
 * their TF-IDF similarity graph, the best up to the given number of words, in spoken order.
 */
export function textRankBaseline(transcript: readonly TranscriptTurn[], words: number): string {
  const a = analyse(transcript);
  const ranked = a.sentences
    .filter(isInformative)
    .sort((x, y) => a.textRank[y.id]! - a.textRank[x.id]!);
  const chosen: typeof ranked = [];
  let total = 0;
  for (const s of ranked) {
    if (total >= words) break;
    chosen.push(s);
    total += s.words;
  }
  return upTo(
    chosen.sort((x, y) => x.id - y.id).map((s) => s.text),
    words,
  );
}

/** The references of a task in a meeting: the general summary, or the answers to its questions about the task. */
export function references(meeting: QmsumMeeting, task: EvalTask): string[] {
  if (task === 'summary') return meeting.general_query_list.slice(0, 1).map((q) => q.answer);
  return meeting.specific_query_list.filter((q) => TASK_QUERY[task].test(q.query)).map((q) => q.answer);
}

function mean(rows: readonly EvalRow[], k: 'r1' | 'r2' | 'rl'): number {
  return rows.reduce((s, r) => s + r[k], 0) / Math.max(1, rows.length);
}

/**
 * Scores every QMSum meeting in `folder` (ROUGE-1/2/L F1): per task, the offline engine's answer,
 * the lead and TextRank baselines at the same number of words, and the LLM's answer when given.
 * Several reference answers of a task (two questions about decisions) are scored as one text.
 */
export async function evaluateSummaries(
  folder: string,
  engines: { offline: AiEngine; llm?: AiEngine },
  tasks: readonly EvalTask[] = ['summary', 'decision', 'action'],
): Promise<{ rows: EvalRow[]; means: Record<EvalTask, EvalMeans> }> {
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`No QMSum meeting (*.json) in ${folder}`);
  const rows: EvalRow[] = [];
  for (const file of files) {
    const meeting = readQmsumFile(path.join(folder, file));
    const transcript = toEvalTranscript(meeting);
    const name = file.replace(/\.json$/, '');
    for (const task of tasks) {
      const refs = references(meeting, task);
      if (refs.length === 0) continue;
      const reference = refs.join('\n');
      const score = (system: string, text: string) => {
        const r = rougeAll(text, reference);
        rows.push({ meeting: name, task, system, words: wordCount(text), r1: r.rouge1.f1, r2: r.rouge2.f1, rl: r.rougeL.f1 });
      };
      const request = { transcript, promptKey: TASK_PROMPT[task], settings: EVAL_SETTINGS, tier: 'basic' as const };
      const own = htmlToText((await engines.offline.generateSummary(request)).html);
      score('offline', own);
      const words = Math.max(1, wordCount(own));
      score('lead', leadBaseline(transcript, words));
      score('textrank', textRankBaseline(transcript, words));
      if (engines.llm) score('llm', htmlToText((await engines.llm.generateSummary(request)).html));
    }
  }
  const means = {} as Record<EvalTask, EvalMeans>;
  for (const task of tasks) {
    means[task] = {};
    const ofTask = rows.filter((r) => r.task === task);
    for (const system of new Set(ofTask.map((r) => r.system))) {
      const mine = ofTask.filter((r) => r.system === system);
      means[task][system] = { meetings: mine.length, r1: mean(mine, 'r1'), r2: mean(mine, 'r2'), rl: mean(mine, 'rl') };
    }
  }
  return { rows, means };
}

/** A QMSum meeting as the engine receives a meeting: its turns, spoken one every 10 seconds from a fixed date. */
export function toEvalTranscript(meeting: QmsumMeeting): TranscriptTurn[] {
  const start = Date.UTC(2024, 2, 4, 9, 0, 0);
  return meeting.meeting_transcripts.map((t, i) => ({ speaker: t.speaker, text: t.content, spokenAt: start + i * 10_000 }));
}
