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
 * next keeps its reading time (the cues overlap, as players allow).
 */
export function cues(lines: readonly ExportLine[]): Cue[] {
  return lines.map((line, i) => {
    const reading = Math.min(MAX_CUE_MS, Math.max(MIN_CUE_MS, LEAD_MS + line.text.length * MS_PER_CHAR));
    const next = lines[i + 1]?.offsetMs;
    const endMs = next !== undefined && next > line.offsetMs ? Math.min(next, line.offsetMs + reading) : line.offsetMs + reading;
    return { startMs: line.offsetMs, endMs, speaker: line.speaker, text: line.text };
  });
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
export function toSrt(doc: ExportDocument): string {
  return cues(doc.lines)
    .map((cue, i) => `${i + 1}\n${timestamp(cue.startMs, ',')} --> ${timestamp(cue.endMs, ',')}\n${noArrow(`${cue.speaker}: ${cue.text}`)}\n`)
    .join('\n');
}

/** Cue text may not hold `-->` and reads `&` and `<` as markup. */
const escapeVtt = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A voice tag's annotation ends at `>`; it may not hold line breaks, `&` or `>` unescaped. */
const escapeVoice = (name: string) => name.replace(/&/g, '&amp;').replace(/>/g, '&gt;');

/** WebVTT: the header, then numbered cues `HH:MM:SS.mmm --> HH:MM:SS.mmm` with a voice tag per speaker. */
export function toVtt(doc: ExportDocument): string {
  const header = `WEBVTT - ${noArrow(doc.title).replace(/\s+/g, ' ')}\n\n`;
  return (
    header +
    cues(doc.lines)
      .map((cue, i) => `${i + 1}\n${timestamp(cue.startMs, '.')} --> ${timestamp(cue.endMs, '.')}\n<v ${escapeVoice(cue.speaker)}>${escapeVtt(cue.text)}\n`)
      .join('\n')
  );
}
