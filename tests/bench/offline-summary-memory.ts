/**
 * Benchmark (not a test): time and memory of the offline summary engine on long meetings (
 * a 10,000-line meeting used to run the heap out of memory). For 1k/5k/10k/20k lines of two kinds of
 * meeting, each in a fresh process whose heap is capped at HEAP_CAP_MB, it prints the time of the
 * default summary (and of every prompt with ALL=1), the growth of the process's peak resident memory
 * (getrusage maxRSS: a true high-water mark, heap included) and of the heap V8 reserved.
 *   - "varied": QMSum meetings (tests/fixtures/qmsum) repeated, their speakers and wording as spoken;
 *   - "alike": near-identical lines ("Line 17 of the long meeting…"), every pair of sentences similar,
 *     the worst case for a similarity graph (the e2e transcript test's meeting).
 *   npm run bench:offline-summary
 *   SIZES=1000,20000 ALL=1 npm run bench:offline-summary
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PROMPT_KEYS, type PromptKey, type SummaryDepth } from '@mbox/shared';
import { AiEngine } from '../../apps/server/src/ai/engine.js';
import { QMSUM_FIXTURES_DIR, QMSUM_FIXTURE_MEETINGS, loadQmsumMeeting, toTranscript } from '../../apps/server/src/ai/eval/qmsum.js';
import type { TranscriptTurn } from '../../apps/server/src/ai/types.js';

const SIZES = (process.env.SIZES ?? '1000,5000,10000,20000').split(',').map(Number);
const KINDS = ['varied', 'alike'] as const;
type Kind = (typeof KINDS)[number];
/** Old-space limit of each measuring process: a run that needed more would die with "heap out of memory". */
const HEAP_CAP_MB = Number(process.env.HEAP_CAP_MB ?? 384);

function benchTranscript(kind: Kind, lines: number): TranscriptTurn[] {
  if (kind === 'alike') {
    const speakers = ['Ana Lopez', 'Bo Chen', 'Cy Dube'];
    return Array.from({ length: lines }, (_, i) => ({
      speaker: speakers[i % 7 < 3 ? 0 : i % 7 < 5 ? 1 : 2]!,
      text: `Line ${i + 1} of the long meeting, with enough words to wrap on a narrow panel now and then.`,
    }));
  }
  const turns = QMSUM_FIXTURE_MEETINGS.flatMap((name) => toTranscript(loadQmsumMeeting(name)));
  return Array.from({ length: lines }, (_, i) => turns[i % turns.length]!);
}

interface Measurement {
  prompt: string;
  ms: number;
  words: number;
}

/** Runs in the child: generates, measures, prints one JSON line. */
async function measure(kind: Kind, lines: number, all: boolean): Promise<void> {
  const transcript = benchTranscript(kind, lines);
  const engine = new AiEngine({ contextTokens: 16_000, concurrency: 1 });
  const runs: { promptKey: PromptKey; depth: SummaryDepth }[] = all
    ? [
        ...PROMPT_KEYS.map((promptKey) => ({ promptKey, depth: 'standard' as const })),
        { promptKey: 'summary', depth: 'deep' },
        { promptKey: 'summary', depth: 'speaker' },
      ]
    : [{ promptKey: 'summary', depth: 'standard' }];
  const heapBefore = process.memoryUsage().heapTotal;
  const rssBefore = process.resourceUsage().maxRSS;
  const results: Measurement[] = [];
  for (const run of runs) {
    const started = performance.now();
    const { html } = await engine.generateSummary({
      transcript,
      promptKey: run.promptKey,
      customPrompt: run.promptKey === 'custom' ? 'What did they decide about the remote control design?' : undefined,
      settings: { depth: run.depth },
      tier: 'basic',
    });
    const words = html.replace(/<[^>]+>/g, ' ').split(/\s+/).filter(Boolean).length;
    results.push({ prompt: run.depth === 'standard' ? run.promptKey : `${run.promptKey}/${run.depth}`, ms: performance.now() - started, words });
  }
  console.log(
    JSON.stringify({
      results,
      heapGrowthMb: (process.memoryUsage().heapTotal - heapBefore) / 2 ** 20,
      rssPeakGrowthMb: (process.resourceUsage().maxRSS - rssBefore) / 1024,
    }),
  );
}

async function main() {
  const child = process.argv[2];
  if (child === '--measure') {
    await measure(process.argv[3] as Kind, Number(process.argv[4]), process.env.ALL === '1');
    return;
  }
  console.log(`Offline summary engine on long meetings (QMSum from ${QMSUM_FIXTURES_DIR}); each size in a fresh process, heap capped at ${HEAP_CAP_MB} MB\n`);
  console.log(`${'meeting'.padEnd(8)}${'lines'.padStart(7)}  ${'prompt'.padEnd(18)}${'time'.padStart(9)}${'words'.padStart(7)}${'peak RSS +'.padStart(12)}${'heap +'.padStart(9)}`);
  for (const kind of KINDS) {
    for (const lines of SIZES) {
      // Same interpreter flags (tsx's loader), plus the heap cap.
      const out = execFileSync(
        process.execPath,
        [...process.execArgv, `--max-old-space-size=${HEAP_CAP_MB}`, fileURLToPath(import.meta.url), '--measure', kind, String(lines)],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const report = JSON.parse(out.trim().split('\n').at(-1)!) as { results: Measurement[]; heapGrowthMb: number; rssPeakGrowthMb: number };
      report.results.forEach((r, i) => {
        const memory = i === 0 ? `${report.rssPeakGrowthMb.toFixed(0).padStart(9)} MB${report.heapGrowthMb.toFixed(0).padStart(6)} MB` : '';
        console.log(`${kind.padEnd(8)}${String(lines).padStart(7)}  ${r.prompt.padEnd(18)}${`${Math.round(r.ms)} ms`.padStart(9)}${String(r.words).padStart(7)}${memory}`);
      });
    }
  }
  console.log('\nmemory columns: growth over the process before generating (all prompts of the row group together)');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
