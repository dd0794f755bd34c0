import type { ExportDocument } from '../document.js';
import { runsText, type Block } from '../summary-blocks.js';

/** A summary's blocks as plain lines: headings underlined, '- ' and '1. ' items indented by depth. */
export function blocksToText(blocks: readonly Block[]): string[] {
  return blocks.map((b) => {
    switch (b.kind) {
      case 'heading': {
        const text = runsText(b.runs);
        return `${text}\n${'-'.repeat(Math.min(text.length, 60))}`;
      }
      case 'paragraph':
        return runsText(b.runs);
      case 'item':
        return `${'  '.repeat(b.depth)}${b.marker} ${runsText(b.runs)}`;
      case 'quote':
        return `  "${runsText(b.runs)}"`;
      case 'code':
        return b.text.replace(/^/gm, '    ');
      case 'rule':
        return '----';
      case 'table':
        return b.rows.map((row) => row.map(runsText).join(' | ')).join('\n');
    }
  });
}

/**
 * The meeting's facts, each summary's text and one `[hh:mm] Speaker: text` line per line spoken, written
 * a page of lines at a time.
 */
export async function* toText(doc: ExportDocument): AsyncGenerator<string> {
  const out = [doc.title, '='.repeat(Math.min(doc.title.length, 60)), ''];
  out.push(`Date: ${doc.started}`);
  if (doc.duration) out.push(`Duration: ${doc.duration}`);
  out.push(`Participants: ${doc.participants.join(', ') || 'none recorded'}`, '');
  for (const summary of doc.summaries) {
    out.push(summary.title.toUpperCase(), '');
    for (const [i, text] of blocksToText(summary.blocks).entries()) {
      const previous = summary.blocks[i - 1];
      // List items stay together; other blocks are separated by a blank line.
      if (i && !(summary.blocks[i]?.kind === 'item' && previous?.kind === 'item')) out.push('');
      out.push(text);
    }
    out.push('');
  }
  out.push('TRANSCRIPT', '');
  yield `${out.join('\n')}\n`;
  let written = 0;
  for await (const page of doc.lines) {
    written += page.length;
    yield page.map((line) => `[${line.clock}] ${line.speaker}: ${line.text}\n`).join('');
  }
  if (!written) yield 'No lines were captured.\n';
}
