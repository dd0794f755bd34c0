/**
 * Benchmark (not a test): how well the evidence check of LLM summaries catches invented facts.
 * Over every QMSum meeting in the folders given, the OpenAI-compatible test server plays an LLM that
 * answers the real request of `AiEngine.generateSummary` (numbered lines) with cited points, and
 * invents an owner, a number or a date in 20 % of them. The engine maps the citations and checks each
 * point; the script prints, per kind, how many invented points were flagged (recall, target ≥ 0.9)
 * and how many faithful ones were (false flags, target ≤ 0.05), and the check's time per summary.
 *   npm run bench:evidence -- <folder with QMSum .json files> [more folders]
 */
import { readdirSync } from 'node:fs';
import { wordsToNumbers } from '@insomnia-dev/words-to-numbers';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AiEngine } from '../../apps/server/src/ai/engine.js';
import { readQmsumFile, toTranscript } from '../../apps/server/src/ai/eval/qmsum.js';
import { evidenceOf } from '../../apps/server/src/ai/evidence.js';
import { OpenAiProvider } from '../../apps/server/src/ai/openai-provider.js';
import type { TranscriptTurn } from '../../apps/server/src/ai/types.js';
import { startOpenAiTestServer, type ChatCompletionBody } from '../../apps/server/src/test/openai-server.js';
import { cleanCaptionText } from '../fixtures/meet/replay.js';

const POINTS_PER_SUMMARY = 10;
/** Invented points per summary: 20 %. */
const INVENTED_PER_SUMMARY = 2;

type Kind = 'owner' | 'number' | 'date';
const KINDS: Kind[] = ['owner', 'number', 'date'];

interface Point {
  html: string;
  invented: Kind | null;
}

/** A small deterministic generator, so every run writes the same answers. */
function random(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return () => {
    h = Math.imul(h ^ (h >>> 15), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return ((h ^= h >>> 16) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;

/** First names of many origins; those said anywhere in a meeting are never used to invent an owner there. */
const NAMES = [
  'Priya', 'Kwame', 'Sofia', 'Mateo', 'Yuki', 'Olga', 'Tomasz', 'Amara', 'Lucas', 'Fatima', 'Jonas', 'Ingrid', 'Rahul',
  'Chloe', 'Diego', 'Hannah', 'Wei', 'Aisha', 'Oliver', 'Nadia', 'Tom', 'Grace', 'Mark', 'Anna', 'Bob', 'Carol', 'Jack',
  'Elena', 'Samuel', 'Leila',
];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

interface Line {
  n: number;
  speaker: string;
  text: string;
}

/** A line's words as an LLM would restate them: at most 22, trailing punctuation dropped, first person kept. */
function clause(text: string): string {
  const words = text.replace(/[.?!,;:]+$/, '').split(/\s+/).slice(0, 22);
  const first = words[0]!;
  if (first !== 'I' && !/^I'/.test(first)) words[0] = first.charAt(0).toLowerCase() + first.slice(1);
  return words.join(' ');
}

const UNITS = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million';
/** Runs of cardinal number words ("twenty five", "a hundred and ten"), the ones models write in digits. */
const NUMBER_WORDS = new RegExp(String.raw`\b(?:${UNITS})(?:(?:\s+|\s+and\s+|-)(?:${UNITS}))*\b`, 'gi');

/** Points whose figures were rewritten (words to digits), as models often do. */
let rewritten = 0;

/**
 * A faithful point: a cited line restated under one of the shapes summaries take, citing it (and maybe
 * the next); in half of them numbers said in words are written in digits ("twenty five" → "25").
 */
function faithfulPoint(rand: () => number, line: Line, next: Line | undefined): string {
  let said = clause(line.text);
  if (rand() < 0.5) {
    const digits = said.replace(NUMBER_WORDS, (run) => String(wordsToNumbers(run)));
    if (digits !== said) rewritten++;
    said = digits;
  }
  const cite = next && rand() < 0.3 ? `[${line.n}, ${next.n}]` : `[${line.n}]`;
  const shapes = [
    () => `${line.speaker} said ${said} ${cite}`,
    () => `<b>${line.speaker}:</b> ${said} ${cite}`,
    () => `${said.charAt(0).toUpperCase()}${said.slice(1)} ${cite}`,
    () => `Decision: ${said} ${cite}`,
    () => `${line.speaker} and the team agreed that ${said} ${cite}`,
    () => `Action: ${line.speaker} to follow up, as ${said} ${cite}`,
  ];
  return pick(rand, shapes)();
}

/** The same point with one fact its lines do not hold: an owner, a number or a date. */
function inventedPoint(rand: () => number, kind: Kind, line: Line, next: Line | undefined, meetingText: string): string | null {
  const point = faithfulPoint(rand, line, next);
  const marker = point.lastIndexOf(' [');
  const body = point.slice(0, marker);
  const cite = point.slice(marker);
  const evidence = evidenceOf([`${line.speaker}: ${line.text}`, ...(next && cite.includes(',') ? [`${next.speaker}: ${next.text}`] : [])]);
  const absent = (word: string) => !evidence.words.has(word.toLowerCase());
  if (kind === 'owner') {
    const names = NAMES.filter((name) => !new RegExp(`\\b${name}\\b`, 'i').test(meetingText));
    const name = pick(rand, names);
    const shapes = [
      () => `${name} will take this on: ${clause(line.text)}${cite}`,
      () => `${body}; ${name} owns the follow-up${cite}`,
      () => `<b>${name}:</b> ${clause(line.text)}${cite}`,
      () => `${body}, assigned to ${name}${cite}`,
    ];
    return pick(rand, shapes)();
  }
  if (kind === 'number') {
    for (let tries = 0; tries < 20; tries++) {
      const value = Math.floor(2 + rand() * 4000);
      if (evidence.values.has(value)) continue;
      const shapes = [
        () => `${body}, at a cost of ${value} euros${cite}`,
        () => `${body} (${value} units)${cite}`,
        () => `${body}, about ${value % 100}% of the budget${cite}`,
        () => `${body}; ${value} people are affected${cite}`,
      ];
      const shape = pick(rand, shapes)();
      if (shape.includes('%') && evidence.values.has(value % 100)) continue;
      return shape;
    }
    return null;
  }
  const weekday = pick(rand, WEEKDAYS.filter(absent));
  const month = pick(rand, MONTHS.filter(absent));
  const day = Math.floor(1 + rand() * 28);
  const shapes = [
    () => `${body}, due by ${weekday}${cite}`,
    () => `${body}, by ${day} ${month}${cite}`,
    () => `${body} before next ${weekday}${cite}`,
    () => `${body}, starting in ${month}${cite}`,
  ];
  const shape = pick(rand, shapes)();
  return evidence.values.has(day) && shape.includes(` ${day} `) ? null : shape;
}

/** Lines worth a point: a sentence or more. */
function candidates(lines: readonly Line[]): Line[] {
  return lines.filter((line) => line.text.split(/\s+/).length >= 8);
}

/** Kinds of invention in turn across all summaries, so each is a third of them. */
let inventions = 0;

/** The answer the fake LLM writes to a summary request, and what it invented. */
function answer(body: ChatCompletionBody, meetingText: string, seed: string): { content: string; points: Point[] } {
  const rand = random(seed);
  const user = body.messages.find((m) => m.role === 'user')!.content;
  const lines: Line[] = [...user.matchAll(/^\[(\d+)\] ([^:\n]+): (.+)$/gm)].map((m) => ({ n: Number(m[1]), speaker: m[2]!, text: m[3]! }));
  const pool = candidates(lines);
  const chosen = new Set<number>();
  while (chosen.size < Math.min(POINTS_PER_SUMMARY, pool.length)) chosen.add(Math.floor(rand() * pool.length));
  const order = [...chosen].sort((a, b) => a - b);
  const invented = new Set<number>();
  while (invented.size < INVENTED_PER_SUMMARY && invented.size < order.length) invented.add(Math.floor(rand() * order.length));
  const points: Point[] = order.map((index, k) => {
    const line = pool[index]!;
    const next = lines[line.n];
    if (invented.has(k)) {
      const kind = KINDS[inventions++ % KINDS.length]!;
      const html = inventedPoint(rand, kind, line, next, meetingText);
      if (html) return { html, invented: kind };
    }
    return { html: faithfulPoint(rand, line, next), invented: null };
  });
  return { content: `<ul>${points.map((p) => `<li>${p.html}</li>`).join('')}</ul>`, points };
}

function meetingFiles(folders: readonly string[]): string[] {
  return folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((file) => file.endsWith('.json'))
      .sort()
      .map((file) => path.join(folder, file)),
  );
}

async function main(): Promise<void> {
  const folders = process.argv.slice(2);
  if (folders.length === 0) {
    console.error('usage: npm run bench:evidence -- <folder with QMSum .json files> [more folders]');
    process.exit(2);
  }
  const files = meetingFiles(folders);
  let current: { text: string; seed: string; points: Point[] } = { text: '', seed: '', points: [] };
  const llm = await startOpenAiTestServer({
    responder: (body) => {
      const written = answer(body, current.text, current.seed);
      current.points = written.points;
      return written.content;
    },
  });
  const engine = new AiEngine({
    provider: new OpenAiProvider({ apiKey: 'bench', baseURL: llm.url, models: { basic: 'bench', advanced: 'bench' }, timeoutMs: 120_000, maxRetries: 0 }),
    // One request per meeting: the check, not the chunking, is measured here.
    contextTokens: 1_000_000,
    concurrency: 1,
  });

  const counts = { faithful: 0, falseFlags: 0, invented: { owner: [0, 0], number: [0, 0], date: [0, 0] } as Record<Kind, [number, number]> };
  const checkMs: number[] = [];
  for (const file of files) {
    const transcript: TranscriptTurn[] = toTranscript(readQmsumFile(file))
      .map((turn, i) => ({ speaker: turn.speaker, text: cleanCaptionText(turn.text), id: `line-${i}`, spokenAt: i * 10_000 }))
      .filter((turn) => turn.text !== '');
    current = { text: transcript.map((t) => `${t.speaker} ${t.text}`).join('\n'), seed: path.basename(file), points: [] };
    const started = performance.now();
    const summary = await engine.generateSummary({ transcript, promptKey: 'action', tier: 'basic' });
    checkMs.push(performance.now() - started);
    const items = [...summary.html.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!);
    if (items.length !== current.points.length) throw new Error(`${file}: ${items.length} points came back of ${current.points.length}`);
    current.points.forEach((point, i) => {
      const flagged = items[i]!.includes('class="unsupported"');
      if (point.invented) {
        counts.invented[point.invented][0]++;
        if (flagged) counts.invented[point.invented][1]++;
        else if (process.env.SHOW_MISSES) console.log(`missed (${path.basename(file)}): ${items[i]}`);
      } else {
        counts.faithful++;
        if (flagged) {
          counts.falseFlags++;
          if (process.env.SHOW_FALSE_FLAGS) console.log(`false flag (${path.basename(file)}): ${items[i]}`);
        }
      }
    });
  }
  await llm.close();

  const inventedTotal = KINDS.reduce((n, k) => n + counts.invented[k][0], 0);
  const caught = KINDS.reduce((n, k) => n + counts.invented[k][1], 0);
  const ratio = (a: number, b: number) => (b === 0 ? '—' : (a / b).toFixed(3));
  const sorted = [...checkMs].sort((a, b) => a - b);
  console.log(`Evidence check of LLM summaries: ${files.length} QMSum meetings, ${counts.faithful + inventedTotal} points`);
  console.log('| points | count | flagged | rate |');
  console.log('|---|---|---|---|');
  for (const kind of KINDS) {
    const [total, flagged] = counts.invented[kind];
    console.log(`| invented ${kind} | ${total} | ${flagged} | ${ratio(flagged, total)} |`);
  }
  console.log(`| invented, all (recall, target ≥ 0.9) | ${inventedTotal} | ${caught} | ${ratio(caught, inventedTotal)} |`);
  console.log(`| faithful (false flags, target ≤ 0.05) | ${counts.faithful} | ${counts.falseFlags} | ${ratio(counts.falseFlags, counts.faithful)} |`);
  console.log(`(${rewritten} restated points, faithful or not, had numbers said in words written in digits)`);
  console.log(
    `one summary end to end (request built, test server answering at once, citations mapped, points checked): ` +
      `median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms (the first loads the NLP model)`,
  );
}

await main();
