import { CITE_CLASS, UNSUPPORTED_CLASS, UNSUPPORTED_TEXT, citationNumbers } from '@mbox/shared';

/**
 * A stored summary (HTML sanitised by ai/sanitize.ts: headings, paragraphs, lists, quotes, code, tables,
 * emphasis, links) read into blocks of styled text, which each file format writes its own way.
 * Citations become the times of their lines ("[10:42]"), unsupported marks "(not found in the transcript)".
 */

/** The text of a citation's numbers ("[10:42]"), or null to leave it out. */
export type CitationLabel = (numbers: number[]) => string | null;

export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  href?: string;
}

export type Block =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  /** `marker` is '-' or the item's number with a dot; depth 0 is a top-level list. */
  | { kind: 'item'; depth: number; marker: string; runs: Run[] }
  | { kind: 'quote'; runs: Run[] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' }
  | { kind: 'table'; rows: Run[][][] };

/** The parts of a DOM node the walk reads (linkedom's nodes have them). */
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

interface Style {
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  href?: string;
}

interface ListLevel {
  ordered: boolean;
  next: number;
}

const children = (node: DomNode): DomNode[] => Array.from(node.childNodes);

/** Collapses HTML whitespace inside a run of text, as a browser shows it. */
const collapse = (text: string) => text.replace(/[\t\n\r\f ]+/g, ' ');

/** Trims the runs of a block at both ends and drops empty ones; null when nothing is left. */
function tidy(runs: Run[]): Run[] | null {
  const kept = runs.filter((run) => run.text !== '');
  if (!kept.length) return null;
  kept[0] = { ...kept[0]!, text: kept[0]!.text.replace(/^ +/, '') };
  const last = kept.length - 1;
  kept[last] = { ...kept[last]!, text: kept[last]!.text.replace(/ +$/, '') };
  const trimmed = kept.filter((run) => run.text !== '');
  return trimmed.length ? trimmed : null;
}

class BlockWriter {
  readonly blocks: Block[] = [];
  private runs: Run[] = [];
  /** What the runs being collected become when the block ends. */
  private pending: (runs: Run[]) => Block = (runs) => ({ kind: 'paragraph', runs });
  private readonly lists: ListLevel[] = [];

  constructor(private readonly citationLabel: CitationLabel) {}

  /** Ends the block being collected (if it has text) and starts collecting a paragraph. */
  flush(): void {
    const runs = tidy(this.runs);
    if (runs) this.blocks.push(this.pending(runs));
    this.runs = [];
    this.pending = (r) => ({ kind: 'paragraph', runs: r });
  }

  private collect(make: (runs: Run[]) => Block, node: DomNode, style: Style): void {
    this.flush();
    this.pending = make;
    this.inline(node, style);
    this.flush();
  }

  private inline(node: DomNode, style: Style): void {
    for (const child of children(node)) this.node(child, style);
  }

  private list(node: DomNode, ordered: boolean): void {
    this.flush();
    const start = Number.parseInt(node.getAttribute?.('start') ?? '', 10);
    this.lists.push({ ordered, next: Number.isFinite(start) ? start : 1 });
    for (const child of children(node)) {
      if (child.nodeType === ELEMENT_NODE && child.nodeName.toLowerCase() === 'li') this.item(child);
      else this.node(child, {});
    }
    this.flush();
    this.lists.pop();
  }

  private item(node: DomNode): void {
    const level = this.lists.at(-1);
    const depth = this.lists.length - 1;
    const marker = level?.ordered ? `${level.next++}.` : '-';
    this.flush();
    this.pending = (runs) => ({ kind: 'item', depth, marker, runs });
    // A nested list inside the item ends the item's own text first (list() flushes).
    this.inline(node, {});
    this.flush();
  }

  private table(node: DomNode): void {
    this.flush();
    const rows: Run[][][] = [];
    const walk = (n: DomNode) => {
      for (const child of children(n)) {
        if (child.nodeType !== ELEMENT_NODE) continue;
        const name = child.nodeName.toLowerCase();
        if (name === 'tr') {
          rows.push(
            children(child)
              .filter((cell) => cell.nodeType === ELEMENT_NODE && /^t[hd]$/i.test(cell.nodeName))
              .map((cell) => tidy(cellRuns(cell, this.citationLabel)) ?? []),
          );
        } else walk(child);
      }
    };
    walk(node);
    if (rows.some((row) => row.length)) this.blocks.push({ kind: 'table', rows });
  }

  /** A citation as its lines' times, an unsupported mark as its text in brackets; other sup and small as text. */
  private mark(node: DomNode, name: string, style: Style): void {
    const className = node.getAttribute?.('class');
    if (name === 'sup' && className === CITE_CLASS) {
      const label = this.citationLabel(citationNumbers(node.getAttribute?.('data-cite')));
      if (label) this.runs.push({ text: ` ${label}`, ...style });
      return;
    }
    if (name === 'small' && className === UNSUPPORTED_CLASS) {
      this.runs.push({ text: ` (${UNSUPPORTED_TEXT})`, ...style, italic: true });
      return;
    }
    this.inline(node, style);
  }

  node(node: DomNode, style: Style): void {
    if (node.nodeType === TEXT_NODE) {
      const text = collapse(node.textContent ?? '');
      if (text) this.runs.push({ text, ...style });
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const name = node.nodeName.toLowerCase();
    const heading = /^h([1-6])$/.exec(name);
    if (heading) return this.collect((runs) => ({ kind: 'heading', level: Number(heading[1]), runs }), node, style);
    switch (name) {
      case 'p':
      case 'div':
        return this.collect((runs) => ({ kind: 'paragraph', runs }), node, style);
      case 'blockquote':
        return this.collect((runs) => ({ kind: 'quote', runs }), node, style);
      case 'ul':
      case 'ol':
        return this.list(node, name === 'ol');
      case 'li':
        // An item outside any list (the sanitiser keeps it) reads as a bullet.
        return this.item(node);
      case 'table':
        return this.table(node);
      case 'pre': {
        this.flush();
        const text = (node.textContent ?? '').replace(/\n+$/, '');
        if (text.trim()) this.blocks.push({ kind: 'code', text });
        return;
      }
      case 'hr':
        this.flush();
        this.blocks.push({ kind: 'rule' });
        return;
      case 'br':
        // Breaks separate lines of plain-text answers (summaryTextToHtml); inside an item, words.
        if (this.lists.length) this.runs.push({ text: ' ', ...style });
        else this.flush();
        return;
      case 'b':
      case 'strong':
        return this.inline(node, { ...style, bold: true });
      case 'i':
      case 'em':
        return this.inline(node, { ...style, italic: true });
      case 'code':
        return this.inline(node, { ...style, code: true });
      case 'sup':
      case 'small':
        return this.mark(node, name, style);
      case 'a': {
        const href = node.getAttribute?.('href') ?? '';
        return this.inline(node, /^(https?:|mailto:)/i.test(href) ? { ...style, href } : style);
      }
      default:
        return this.inline(node, style);
    }
  }
}

function cellRuns(cell: DomNode, citationLabel: CitationLabel): Run[] {
  const writer = new BlockWriter(citationLabel);
  writer.node(cell, {});
  writer.flush();
  // A cell is one line: its blocks joined by spaces.
  return writer.blocks.flatMap((block, i) =>
    'runs' in block ? [...(i ? [{ text: ' ' }] : []), ...block.runs] : [],
  );
}

/** The blocks of a stored summary's HTML (linkedom parses it; it loads with the first export). */
export async function summaryBlocks(html: string, citationLabel: CitationLabel = () => null): Promise<Block[]> {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const writer = new BlockWriter(citationLabel);
  for (const child of Array.from(document.body.childNodes) as unknown as DomNode[]) writer.node(child, {});
  writer.flush();
  return writer.blocks;
}

/** The plain text of some runs. */
export function runsText(runs: readonly Run[]): string {
  return runs.map((run) => run.text).join('');
}
