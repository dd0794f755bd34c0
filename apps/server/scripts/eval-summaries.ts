/**
 * Scores whole-meeting summaries of QMSum meetings against their human reference with ROUGE-1/2/L F1:
 * the offline engine, a lead baseline (the first sentences, same number of words) and the LLM when
 * OPENAI_API_KEY / OPENAI_BASE_URL are set.   npm run eval:summaries [folder]
 */
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { AiEngine } from '../src/ai/engine.js';
import { QMSUM_DIR } from '../src/ai/eval/qmsum.js';
import { EVAL_SETTINGS, evaluateSummaries } from '../src/ai/eval/summaries.js';

async function main() {
  const folder = path.resolve(process.argv[2] ?? QMSUM_DIR);
  const config = loadConfig();
  const offline = new AiEngine({ contextTokens: config.LLM_CONTEXT_TOKENS, concurrency: config.LLM_CONCURRENCY });
  const llm = AiEngine.fromConfig(config);
  const { rows, means } = await evaluateSummaries(folder, { offline, llm: llm.isLlmConfigured ? llm : undefined });

  const pct = (x: number) => (100 * x).toFixed(2).padStart(7);
  console.log(`QMSum whole-meeting summaries in ${folder} (ROUGE F1 %, stemmed; settings ${JSON.stringify(EVAL_SETTINGS)})\n`);
  console.log(`${'meeting'.padEnd(14)}${'system'.padEnd(9)}${'words'.padStart(6)}${'R-1'.padStart(8)}${'R-2'.padStart(8)}${'R-L'.padStart(8)}`);
  for (const r of rows) {
    console.log(`${r.meeting.padEnd(14)}${r.system.padEnd(9)}${String(r.words).padStart(6)} ${pct(r.r1)} ${pct(r.r2)} ${pct(r.rl)}`);
  }
  console.log('\nmean per system');
  for (const [system, m] of Object.entries(means)) {
    console.log(`${''.padEnd(14)}${system.padEnd(9)}${''.padStart(6)} ${pct(m.r1)} ${pct(m.r2)} ${pct(m.rl)}`);
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
