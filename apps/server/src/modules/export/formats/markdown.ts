import type { ExportDocument } from '../document.js';
import type { Block, Run } from '../summary-blocks.js';

/** Backslash-escapes what Markdown would read as markup inside a line of text. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, '\\$&');
}

/** Escapes what would start a block (heading, quote, list item, rule) at the start of a line. */
function escapeLineStart(text: string): string {
  return text.replace(/^(\s*)([#>+-]|\d+[.)])/, (_m, space: string, mark: string) =>
    /^\d/.test(mark) ? `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}` : `${space}\\${mark}`,
  );
}

function inline(runs: readonly Run[]): string {
  const text = runs
    .map((run) => {
      if (run.code) return run.text.includes('`') ? `\`\` ${run.text} \`\`` : `\`${run.text}\``;
      // Emphasis marks must hug the text: spaces at the ends stay outside them.
      const [, lead = '', body = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(run.text) ?? [];
      if (!body) return run.text;
      let out = escapeMarkdown(body);
      if (run.italic) out = `*${out}*`;
      if (run.bold) out = `**${out}**`;
      if (run.href) out = `[${out}](<${run.href.replace(/[<>]/g, encodeURIComponent)}>)`;
      return `${lead}${out}${trail}`;
    })
    .join('');
  return escapeLineStart(text);
}

function block(b: Block): string {
  switch (b.kind) {
    case 'heading':
      // The document's headings are #, ## and ### (the summary's title): a summary's own start below.
      return `${'#'.repeat(Math.min(6, Math.max(4, b.level + 2)))} ${inline(b.runs)}`;
    case 'paragraph':
      return inline(b.runs);
    case 'item':
      return `${'   '.repeat(b.depth)}${b.marker} ${inline(b.runs)}`;
    case 'quote':
      return `> ${inline(b.runs)}`;
    case 'code': {
      const fence = b.text.includes('```') ? '~~~~' : '```';
      return `${fence}\n${b.text}\n${fence}`;
    }
    case 'rule':
      return '---';
    case 'table': {
      const width = Math.max(...b.rows.map((row) => row.length));
      const row = (cells: Run[][]) =>
        `| ${Array.from({ length: width }, (_, i) => inline(cells[i] ?? []) || ' ').join(' | ')} |`;
      const [head = [], ...body] = b.rows;
      return [row(head), `|${' --- |'.repeat(width)}`, ...body.map(row)].join('\n');
    }
  }
}

/** Blocks separated by blank lines; consecutive list items stay together as one list. */
export function blocksToMarkdown(blocks: readonly Block[]): string {
  let out = '';
  blocks.forEach((b, i) => {
    if (i) out += b.kind === 'item' && blocks[i - 1]?.kind === 'item' ? '\n' : '\n\n';
    out += block(b);
  });
  return out;
}

/** The transcript line of the Markdown export: `**Speaker** (hh:mm): text`. */
export function markdownLine(line: { speaker: string; clock: string; text: string }): string {
  return `**${escapeMarkdown(line.speaker)}** (${line.clock}): ${escapeMarkdown(line.text)}`;
}

/** The Markdown file, written a page of lines at a time. */
export async function* toMarkdown(doc: ExportDocument): AsyncGenerator<string> {
  const parts = [`# ${escapeMarkdown(doc.title)}`];
  const facts = [
    `- **Date:** ${doc.started}`,
    ...(doc.duration ? [`- **Duration:** ${doc.duration}`] : []),
    `- **Participants:** ${doc.participants.length ? escapeMarkdown(doc.participants.join(', ')) : 'none recorded'}`,
  ];
  parts.push(facts.join('\n'));
  if (doc.summaries.length) {
    parts.push('## Summaries');
    for (const summary of doc.summaries) {
      parts.push(`### ${escapeMarkdown(summary.title)}`);
      if (summary.blocks.length) parts.push(blocksToMarkdown(summary.blocks));
    }
  }
  parts.push('## Transcript');
  yield `${parts.join('\n\n')}\n\n`;
  // One paragraph per line: a blank line between them keeps Markdown from joining them.
  let written = 0;
  for await (const page of doc.lines) {
    yield page.map((line) => `${written++ ? '\n\n' : ''}${markdownLine(line)}`).join('');
  }
  yield written ? '\n' : '_No lines were captured._\n';
}
