/**
 * Scores the offline engine's answers on QMSum meetings against the human references with ROUGE-1/2/L
 * F1, beside a lead and a TextRank baseline of the same length and the LLM when OPENAI_API_KEY /
 * OPENAI_BASE_URL are set: the whole-meeting summary against the general summary, decisions and
 * action items against the answers to the meeting's questions about them.
 *
 *   npm run eval:summaries -- <folder of QMSum meetings> [--markdown]
 *
 * QMSum: https://github.com/Yale-LILY/QMSum (data/ALL/{train,val,test}); docs/ai.md, "Quality".
 */
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { AiEngine } from '../src/ai/engine.js';
import { EVAL_SETTINGS, evaluateSummaries, type EvalRow, type EvalTask } from '../src/ai/eval/summaries.js';

const pct = (x: number) => (100 * x).toFixed(2);

function printPlain(rows: EvalRow[]): void {
  console.log(`${'meeting'.padEnd(14)}${'task'.padEnd(10)}${'system'.padEnd(10)}${'words'.padStart(6)}${'R-1'.padStart(8)}${'R-2'.padStart(8)}${'R-L'.padStart(8)}`);
  for (const r of rows) {
    console.log(
      `${r.meeting.padEnd(14)}${r.task.padEnd(10)}${r.system.padEnd(10)}${String(r.words).padStart(6)}${pct(r.r1).padStart(8)}${pct(r.r2).padStart(8)}${pct(r.rl).padStart(8)}`,
    );
  }
}

/** One row per meeting and task: R-1 / R-L of each system side by side. */
function printMarkdown(rows: EvalRow[], systems: string[]): void {
  console.log(`| meeting | task | ${systems.map((s) => `${s} R-1 / R-L`).join(' | ')} |`);
  console.log(`|---|---|${systems.map(() => '---|').join('')}`);
  const keys = [...new Set(rows.map((r) => `${r.meeting}\t${r.task}`))];
  for (const key of keys) {
    const [meeting, task] = key.split('\t');
    const cells = systems.map((s) => {
      const r = rows.find((x) => x.meeting === meeting && x.task === task && x.system === s);
      return r ? `${pct(r.r1)} / ${pct(r.rl)}` : '–';
    });
    console.log(`| ${meeting} | ${task} | ${cells.join(' | ')} |`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const folderArg = args.find((a) => !a.startsWith('--'));
  if (!folderArg) {
    console.error('usage: npm run eval:summaries -- <folder of QMSum meetings (*.json)> [--markdown]');
    process.exit(2);
  }
  const folder = path.resolve(folderArg);
  const config = loadConfig();
  const offline = new AiEngine({ contextTokens: config.LLM_CONTEXT_TOKENS, concurrency: config.LLM_CONCURRENCY });
  const llm = AiEngine.fromConfig(config);
  const { rows, means } = await evaluateSummaries(folder, { offline, llm: llm.isLlmConfigured ? llm : undefined });
  const systems = [...new Set(rows.map((r) => r.system))];

  console.log(`QMSum meetings in ${folder} (ROUGE F1 %, stemmed; settings ${JSON.stringify(EVAL_SETTINGS)})\n`);
  if (args.includes('--markdown')) printMarkdown(rows, systems);
  else printPlain(rows);
  for (const task of Object.keys(means) as EvalTask[]) {
    const m = means[task];
    const n = m.offline?.meetings ?? 0;
    console.log(`\n${task}: mean over ${n} meeting${n === 1 ? '' : 's'}   R-1 / R-2 / R-L`);
    for (const [system, s] of Object.entries(m)) console.log(`  ${system.padEnd(10)}${pct(s.r1).padStart(7)} ${pct(s.r2).padStart(7)} ${pct(s.rl).padStart(7)}`);
    const belowLead = [...new Set(rows.filter((r) => r.task === task).map((r) => r.meeting))].filter((meeting) => {
      const own = rows.find((r) => r.meeting === meeting && r.task === task && r.system === 'offline');
      const lead = rows.find((r) => r.meeting === meeting && r.task === task && r.system === 'lead');
      return own && lead && own.r1 < lead.r1;
    });
    console.log(`  offline below lead (R-1): ${belowLead.length === 0 ? 'none' : belowLead.join(', ')}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
