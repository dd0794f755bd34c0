/**
 * Scores whole-meeting summaries of QMSum meetings against their human reference with ROUGE-1/2/L F1:
 * the offline engine, a lead baseline (the first sentences, same number of words) and the LLM when
 * OPENAI_API_KEY / OPENAI_BASE_URL are set.   npm run eval:summaries [folder]
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { SummarySettingsInput } from '@mbox/shared';
import { loadConfig } from '../src/config.js';
import { AiEngine } from '../src/ai/engine.js';
import { QMSUM_DIR, readQmsumFile, toTranscript } from '../src/ai/eval/qmsum.js';
import { rougeAll } from '../src/ai/eval/rouge.js';
import { prepareTranscript, wordCount } from '../src/ai/offline/text.js';
import type { TranscriptTurn } from '../src/ai/types.js';

/** The budget every system gets: the product's standard depth, 100 to 150 words. */
const SETTINGS: SummarySettingsInput = { depth: 'standard', minLength: 100, maxLength: 150 };

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

async function main() {
  const folder = path.resolve(process.argv[2] ?? QMSUM_DIR);
  const files = readdirSync(folder).filter((f) => f.endsWith('.json')).sort();
  if (files.length === 0) throw new Error(`No QMSum meeting (*.json) in ${folder}`);
  const config = loadConfig();
  const offline = new AiEngine({ contextTokens: config.LLM_CONTEXT_TOKENS, concurrency: config.LLM_CONCURRENCY });
  const llm = AiEngine.fromConfig(config);
  const systems = ['offline', 'lead', ...(llm.isLlmConfigured ? ['llm'] : [])];
  const rows: { meeting: string; system: string; words: number; r1: number; r2: number; rl: number }[] = [];

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
    const own = await offline.generateSummary({ transcript, promptKey: 'summary', settings: SETTINGS, tier: 'basic' });
    const ownText = htmlToText(own.html);
    score('offline', ownText);
    score('lead', leadBaseline(transcript, wordCount(ownText)));
    if (llm.isLlmConfigured) {
      const answer = await llm.generateSummary({ transcript, promptKey: 'summary', settings: SETTINGS, tier: 'basic' });
      score('llm', htmlToText(answer.html));
    }
  }

  const pct = (x: number) => (100 * x).toFixed(2).padStart(7);
  console.log(`QMSum whole-meeting summaries in ${folder} (ROUGE F1 %, stemmed; settings ${JSON.stringify(SETTINGS)})\n`);
  console.log(`${'meeting'.padEnd(14)}${'system'.padEnd(9)}${'words'.padStart(6)}${'R-1'.padStart(8)}${'R-2'.padStart(8)}${'R-L'.padStart(8)}`);
  for (const r of rows) {
    console.log(`${r.meeting.padEnd(14)}${r.system.padEnd(9)}${String(r.words).padStart(6)} ${pct(r.r1)} ${pct(r.r2)} ${pct(r.rl)}`);
  }
  console.log('\nmean per system');
  const means: Record<string, { r1: number; r2: number; rl: number }> = {};
  for (const system of systems) {
    const mine = rows.filter((r) => r.system === system);
    const mean = (k: 'r1' | 'r2' | 'rl') => mine.reduce((s, r) => s + r[k], 0) / Math.max(1, mine.length);
    means[system] = { r1: mean('r1'), r2: mean('r2'), rl: mean('rl') };
    console.log(`${''.padEnd(14)}${system.padEnd(9)}${''.padStart(6)} ${pct(mean('r1'))} ${pct(mean('r2'))} ${pct(mean('rl'))}`);
  }
  const o = means.offline!;
  const l = means.lead!;
  const beats = o.r1 > l.r1 && o.rl > l.rl;
  console.log(`\noffline vs lead: R-1 ${pct(o.r1 - l.r1)}  R-L ${pct(o.rl - l.rl)}  → ${beats ? 'offline beats the lead baseline' : 'offline does NOT beat the lead baseline'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
