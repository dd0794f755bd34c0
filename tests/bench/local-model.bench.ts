/**
 * Benchmark (not a test): the built-in local model's speed and memory for a given GGUF: prompt
 * tokens per second (the prompt's evaluation, up to the first token), generation tokens per second,
 * time to first token, and the server process's resident memory with the model loaded.
 *   npm run bench -- local-model                       the tiny test model the suite writes itself
 *   MODEL=/path/to/model.gguf npm run bench -- local-model
 *   MODEL=… RUNS=5 PROMPT_LINES=200 MAX_TOKENS=256 THREADS=2 npm run bench -- local-model
 * The prompt is a summary request of a meeting transcript, as the engine sends it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSummaryMessages, formatNumberedLine } from '../../apps/server/src/ai/prompt-builder.js';
import { LocalModelProvider } from '../../apps/server/src/ai/local/provider.js';
import { countMessageTokens } from '../../apps/server/src/ai/tokens.js';
import { writeTinyGguf } from '../../apps/server/src/test/tiny-gguf.js';
import { parseSettings } from '../../apps/server/src/ai/engine.js';

const RUNS = Number(process.env.RUNS ?? 3);
const PROMPT_LINES = Number(process.env.PROMPT_LINES ?? 60);
const MAX_TOKENS = Number(process.env.MAX_TOKENS ?? 128);
/** As the server's default (LOCAL_MODEL_THREADS unset): one less than the cores. */
const THREADS = Number(process.env.THREADS ?? Math.max(1, availableParallelism() - 1));
const MB = 1024 * 1024;

const scratch = await mkdtemp(join(tmpdir(), 'mbox-bench-local-'));
const modelPath = process.env.MODEL ?? (await writeTinyGguf(join(scratch, 'tiny.gguf')));

const speakers = ['Ana Lopez', 'Bo Chen', 'Cy Dube'];
const topics = ['the launch date', 'the budget review', 'the customer report', 'the hiring plan', 'the release risks'];
const transcriptText = Array.from({ length: PROMPT_LINES }, (_, i) =>
  formatNumberedLine(
    { speaker: speakers[i % 3]!, text: `About ${topics[i % topics.length]}, I think we should agree by Friday and ${i % 2 ? 'send the notes' : 'ask the team'}.` },
    i + 1,
  ),
).join('\n');
const messages = buildSummaryMessages({ promptKey: 'summary', settings: parseSettings(undefined), transcriptText });

const rssBefore = process.memoryUsage.rss();
const loadStarted = performance.now();
const model = await LocalModelProvider.load({
  modelPath,
  parallel: 1,
  threads: THREADS,
  gpu: 'cpu',
  maxContextTokens: 8192,
  memoryLimitBytes: Number.MAX_SAFE_INTEGER,
});
const loadMs = performance.now() - loadStarted;
console.log(`model ${model.model} (${modelPath}), context ${model.contextTokens} tokens, ${model.details.chatWrapper}, loaded in ${loadMs.toFixed(0)} ms`);
console.log(`${THREADS} threads; prompt ≈ ${countMessageTokens(messages)} tokens (o200k count), answer up to ${MAX_TOKENS} tokens, ${RUNS} runs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);

const rows: { ttft: number; promptTps: number; genTps: number }[] = [];
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  let first = 0;
  const result = await model.stream({ messages, tier: 'basic', maxTokens: MAX_TOKENS, temperature: 0.2 }, () => {
    first ||= performance.now();
  });
  const ended = performance.now();
  const ttft = first - started;
  const promptTps = result.usage.promptTokens / (ttft / 1000);
  const genTps = (result.usage.completionTokens - 1) / ((ended - first) / 1000);
  rows.push({ ttft, promptTps, genTps });
  console.log(
    `run ${run + 1}: ${result.usage.promptTokens} prompt tokens, ${result.usage.completionTokens} generated; ` +
      `time to first token ${ttft.toFixed(0)} ms, prompt ${promptTps.toFixed(1)} tokens/s, generation ${genTps.toFixed(1)} tokens/s`,
  );
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rss = process.memoryUsage.rss();
console.log(
  `median: time to first token ${median(rows.map((r) => r.ttft)).toFixed(0)} ms, prompt ${median(rows.map((r) => r.promptTps)).toFixed(1)} tokens/s, ` +
    `generation ${median(rows.map((r) => r.genTps)).toFixed(1)} tokens/s; RSS ${(rss / MB).toFixed(0)} MB ` +
    `(+${((rss - rssBefore) / MB).toFixed(0)} MB with the model), peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
);
await model.close();
await rm(scratch, { recursive: true, force: true });
