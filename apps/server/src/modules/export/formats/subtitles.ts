import type { ExportDocument, ExportLine } from '../document.js';

/** Shortest and longest time a cue stays up when the next line leaves room. */
const MIN_CUE_MS = 1_000;
const MAX_CUE_MS = 7_000;
/** Reading pace for the cue's length: about 15 characters a second, plus a moment to notice the cue. */
const MS_PER_CHAR = 65;
const LEAD_MS = 500;

export interface Cue {
  startMs: number;
  endMs: number;
  speaker: string;
  text: string;
}

/**
 * One cue per line: it starts when the line was spoken (from the meeting's start) and ends when the next
 * line starts, but never later than the time needed to read it; a line said at the same moment as the
 * next keeps its reading time (the cues overlap, as players allow). A page of cues per page of lines,
 * each line's cue given once the next line is known.
 */
export async function* cues(pages: AsyncIterable<readonly ExportLine[]>): AsyncGenerator<Cue[]> {
  const cue = (line: ExportLine, next: number | undefined): Cue => {
    const reading = Math.min(MAX_CUE_MS, Math.max(MIN_CUE_MS, LEAD_MS + line.text.length * MS_PER_CHAR));
    const endMs = next !== undefined && next > line.offsetMs ? Math.min(next, line.offsetMs + reading) : line.offsetMs + reading;
    return { startMs: line.offsetMs, endMs, speaker: line.speaker, text: line.text };
  };
  let held: ExportLine | undefined;
  for await (const page of pages) {
    const lines = held ? [held, ...page] : [...page];
    held = lines.pop();
    yield lines.map((line, i) => cue(line, (lines[i + 1] ?? held)?.offsetMs));
  }
  if (held) yield [cue(held, undefined)];
}

/** Numbered cues, a blank line between two, written a page at a time. */
async function* numbered(doc: ExportDocument, write: (cue: Cue, n: number) => string): AsyncGenerator<string> {
  let n = 0;
  for await (const page of cues(doc.lines)) yield page.map((cue) => `${n++ ? '\n' : ''}${write(cue, n)}`).join('');
}

/** HH:MM:SS followed by the separator and milliseconds; hours grow past 99 if a meeting ever does. */
function timestamp(ms: number, separator: ',' | '.'): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}${separator}${pad(ms % 1000, 3)}`;
}

/** An arrow inside a cue's text would read as a timing line to some SubRip parsers. */
const noArrow = (text: string) => text.replace(/-->/g, '→');

/** SubRip: numbered cues from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, `Speaker: text`, a blank line after each. */
export function toSrt(doc: ExportDocument): AsyncGenerator<string> {
  return numbered(doc, (cue, n) => `${n}\n${timestamp(cue.startMs, ',')} --> ${timestamp(cue.endMs, ',')}\n${noArrow(`${cue.speaker}: ${cue.text}`)}\n`);
}

/** Cue text may not hold `-->` and reads `&` and `<` as markup. */
const escapeVtt = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A voice tag's annotation ends at `>`; it may not hold line breaks, `&` or `>` unescaped. */
const escapeVoice = (name: string) => name.replace(/&/g, '&amp;').replace(/>/g, '&gt;');

/** WebVTT: the header, then numbered cues `HH:MM:SS.mmm --> HH:MM:SS.mmm` with a voice tag per speaker. */
export async function* toVtt(doc: ExportDocument): AsyncGenerator<string> {
  yield `WEBVTT - ${noArrow(doc.title).replace(/\s+/g, ' ')}\n\n`;
  yield* numbered(doc, (cue, n) => `${n}\n${timestamp(cue.startMs, '.')} --> ${timestamp(cue.endMs, '.')}\n<v ${escapeVoice(cue.speaker)}>${escapeVtt(cue.text)}\n`);
}
