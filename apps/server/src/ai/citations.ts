import { CITE_CLASS, UNSUPPORTED_CLASS, UNSUPPORTED_TEXT, citationNumbers } from '@mbox/shared';
import { addEvidence, evidenceOf, unsupportedFacts, type Evidence } from './evidence.js';
import type { CitedHtml } from './minutes.js';
import { readTokens } from './nlp.js';
import { sanitizeSummaryHtml } from './sanitize.js';

/**
 * Citations of LLM answers (docs/ai.md, "Citations"). The model reads numbered transcript lines and
 * cites them as `[n]`; here those markers become the contract's `<sup class="cite">` elements,
 * numbered in order of first use, and each point is checked against the lines it cites.
 */

/** A summary's HTML as a document body (linkedom; it loads with the first answer, not at start-up). */
async function parseBody(html: string): Promise<HTMLElement> {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  return (document as unknown as Document).body;
}

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

function isElement(node: Node): node is Element {
  return node.nodeType === ELEMENT_NODE;
}

function hasClass(node: Node, className: string): boolean {
  return isElement(node) && node.getAttribute('class') === className;
}

const isCitation = (node: Node) => isElement(node) && node.nodeName.toLowerCase() === 'sup' && hasClass(node, CITE_CLASS);
const isUnsupportedMark = (node: Node) => isElement(node) && node.nodeName.toLowerCase() === 'small' && hasClass(node, UNSUPPORTED_CLASS);

function descendants(root: Node, keep: (node: Node) => boolean): Node[] {
  const found: Node[] = [];
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (keep(child)) found.push(child);
      walk(child);
    }
  };
  walk(root);
  return found;
}

/**
 * Marks written by the model are not ours: a citation element becomes its text (then read as a
 * marker and validated like any other), an unsupported mark is dropped (only the check writes it).
 */
function disarmMarks(body: HTMLElement): void {
  for (const node of descendants(body, (n) => isCitation(n) || isUnsupportedMark(n))) {
    if (isCitation(node)) node.parentNode?.replaceChild(body.ownerDocument.createTextNode(node.textContent ?? ''), node);
    else node.parentNode?.removeChild(node);
  }
}

/** One bracket of line numbers: [3], [3, 5], [3-5]. */
const BRACKET = String.raw`\[\s*\d{1,5}(?:\s*(?:,|-|–)\s*\d{1,5})*\s*\]`;
/** A run of brackets as models write them ("[3][5]", "[3], [5]"), with the space before it. */
const MARKER_RUN = new RegExp(String.raw`\s*${BRACKET}(?:\s*,?\s*${BRACKET})*`, 'g');
const HAS_MARKER = new RegExp(MARKER_RUN.source);
/** A range wider than this is read as its two ends, not every line between. */
const MAX_RANGE = 10;

/** The line numbers of a marker run, in order, ranges expanded. */
export function markerNumbers(marker: string): number[] {
  const numbers: number[] = [];
  for (const [, first, last] of marker.matchAll(/(\d{1,5})(?:\s*[-–]\s*(\d{1,5}))?/g)) {
    const from = Number(first);
    const to = last === undefined ? from : Number(last);
    if (to > from && to - from <= MAX_RANGE) for (let n = from; n <= to; n++) numbers.push(n);
    else numbers.push(from, ...(to !== from ? [to] : []));
  }
  return numbers;
}

/** The line numbers the markers of a plain-text answer cite, in order of first use, ranges expanded. */
export function citedNumbers(text: string): number[] {
  return [...new Set([...text.matchAll(MARKER_RUN)].flatMap((run) => markerNumbers(run[0])))];
}

/**
 * A plain-text answer with each marker run kept to the numbers `known` accepts, written `[3, 5]`; a
 * run citing none of them goes (with the space before it): the model cited a line it was never given.
 */
export function keepKnownMarkers(text: string, known: (n: number) => boolean): string {
  return text.replace(MARKER_RUN, (run) => {
    const numbers = [...new Set(markerNumbers(run).filter(known))];
    return numbers.length === 0 ? '' : `${/^\s*/.exec(run)![0]}[${numbers.join(', ')}]`;
  });
}

/**
 * Turns the model's `[n]` markers into citation elements. `sent[p - 1]` is the transcript index of
 * the line the model read as number p; a number outside the lines sent is dropped (a marker left with
 * none disappears). Citations are numbered in order of first use; returns their transcript indices.
 */
function linkMarkers(body: HTMLElement, sent: readonly number[]): number[] {
  const document = body.ownerDocument;
  const lines: number[] = [];
  const numberOf = new Map<number, number>();
  const cite = (p: number): number | undefined => {
    const line = sent[p - 1];
    if (line === undefined) return undefined;
    let n = numberOf.get(line);
    if (n === undefined) {
      lines.push(line);
      n = lines.length;
      numberOf.set(line, n);
    }
    return n;
  };
  const texts = descendants(body, (node) => node.nodeType === TEXT_NODE && HAS_MARKER.test(node.textContent ?? ''));
  for (const node of texts) {
    const text = node.textContent ?? '';
    const pieces: Node[] = [];
    let from = 0;
    for (const match of text.matchAll(MARKER_RUN)) {
      pieces.push(document.createTextNode(text.slice(from, match.index)));
      from = match.index + match[0].length;
      const numbers = [...new Set(markerNumbers(match[0]).flatMap((p) => cite(p) ?? []))].sort((a, b) => a - b);
      if (numbers.length === 0) continue;
      const sup = document.createElement('sup');
      sup.setAttribute('class', CITE_CLASS);
      sup.setAttribute('data-cite', numbers.join(','));
      sup.textContent = `[${numbers.join(', ')}]`;
      pieces.push(sup);
    }
    pieces.push(document.createTextNode(text.slice(from)));
    const parent = node.parentNode!;
    for (const piece of pieces) if (piece.nodeType !== TEXT_NODE || piece.textContent) parent.insertBefore(piece, node);
    parent.removeChild(node);
  }
  return lines;
}

/** A point of an answer: its nodes, and where a mark at its end goes. */
interface Item {
  nodes: Node[];
  parent: Node;
  before: Node | null;
}

const BLOCKS = new Set(['p', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'table', 'div', 'hr', 'br']);
const isBlock = (node: Node) => isElement(node) && BLOCKS.has(node.nodeName.toLowerCase());
const isList = (node: Node) => isElement(node) && /^(ul|ol)$/i.test(node.nodeName);

/**
 * The points of an answer: each list item (without its nested list), each paragraph, and each line of
 * loose text (between breaks or blocks). Headings, code and tables are not points.
 */
function itemsOf(container: Node): Item[] {
  const items: Item[] = [];
  let run: Node[] = [];
  const endRun = (before: Node | null) => {
    if (run.some((n) => (n.textContent ?? '').trim() !== '')) items.push({ nodes: run, parent: container, before });
    run = [];
  };
  for (const child of Array.from(container.childNodes)) {
    if (!isBlock(child)) {
      run.push(child);
      continue;
    }
    endRun(child);
    const name = child.nodeName.toLowerCase();
    if (name === 'p') items.push({ nodes: Array.from(child.childNodes), parent: child, before: null });
    else if (name === 'li') {
      const own = Array.from(child.childNodes);
      const nested = own.findIndex(isList);
      items.push({ nodes: nested < 0 ? own : own.slice(0, nested), parent: child, before: nested < 0 ? null : own[nested]! });
      for (const list of own.filter(isList)) items.push(...itemsOf(list));
    } else if (name === 'ul' || name === 'ol' || name === 'blockquote' || name === 'div') items.push(...itemsOf(child));
  }
  endRun(null);
  return items;
}

/** A point's own text, without its citations and marks. */
function itemText(item: Item): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (isCitation(node) || isUnsupportedMark(node)) return;
    if (node.nodeType === TEXT_NODE) parts.push(node.textContent ?? '');
    else for (const child of Array.from(node.childNodes)) walk(child);
  };
  item.nodes.forEach(walk);
  return parts.join('').replace(/\s+/g, ' ').trim();
}

function itemCitations(item: Item): number[] {
  const numbers = item.nodes.flatMap((node) => [
    ...(isCitation(node) ? [node] : []),
    ...descendants(node, isCitation),
  ]);
  return numbers.flatMap((sup) => citationNumbers((sup as Element).getAttribute('data-cite')));
}

/** A transcript line as the model read it (and as its evidence): "Speaker: text". */
export interface EvidenceLine {
  speaker: string;
  text: string;
}

/**
 * Adds the unsupported mark to each point stating a name, number or date that neither its cited
 * lines nor the participants' names hold. A point citing nothing is checked against every line sent.
 */
function markUnsupported(
  body: HTMLElement,
  citedLines: readonly number[],
  transcript: readonly EvidenceLine[],
  sent: readonly number[],
): void {
  const lineText = (i: number) => `${transcript[i]!.speaker}: ${transcript[i]!.text}`;
  const participants = evidenceOf([...new Set(transcript.map((t) => t.speaker))]);
  const lineTokens = new Map<number, ReturnType<typeof readTokens>>();
  const tokensOf = (i: number) => {
    let tokens = lineTokens.get(i);
    if (!tokens) lineTokens.set(i, (tokens = readTokens(lineText(i))));
    return tokens;
  };
  let everyLine: Evidence | undefined;
  for (const item of itemsOf(body)) {
    const text = itemText(item);
    if (!text) continue;
    const lines = itemCitations(item).flatMap((n) => citedLines[n - 1] ?? []);
    let evidence: Evidence;
    if (lines.length > 0) {
      evidence = { words: new Set(), stems: new Set(), values: new Set() };
      for (const line of lines) addEvidence(evidence, tokensOf(line));
    } else {
      everyLine ??= evidenceOf(sent.map(lineText));
      evidence = everyLine;
    }
    const missing = unsupportedFacts(text, evidence, participants);
    if (missing.length === 0) continue;
    const mark = body.ownerDocument.createElement('small');
    mark.setAttribute('class', UNSUPPORTED_CLASS);
    mark.setAttribute('data-missing', missing.join('; '));
    mark.textContent = UNSUPPORTED_TEXT;
    item.parent.insertBefore(mark, item.before);
  }
}

/**
 * An LLM answer (already sanitised HTML) with its citations: for a meeting, `sent` are the transcript
 * indices of the numbered lines the model read; its markers become citation elements and each point is
 * checked against its lines. Without `meeting` (documents have no lines to open) the answer cites nothing.
 */
export async function citeLlmAnswer(
  html: string,
  meeting?: { transcript: readonly EvidenceLine[]; sent: readonly number[] },
): Promise<CitedHtml> {
  const body = await parseBody(html);
  disarmMarks(body);
  let lines: number[] = [];
  if (meeting) {
    lines = linkMarkers(body, meeting.sent);
    markUnsupported(body, lines, meeting.transcript, meeting.sent);
  }
  return { html: sanitizeSummaryHtml(body.innerHTML), lines };
}

/** Placeholder of a protected mark in text sent for translation. */
const PLACEHOLDER = /\[\[m(\d{1,4})\]\]/g;

/**
 * Translation keeps the marks: each citation and unsupported mark is sent as a placeholder (`[[m1]]`)
 * and put back into the translated HTML by `restore`; placeholders the model dropped lose their mark,
 * ones it invented are removed.
 */
export async function protectMarks(html: string): Promise<{ html: string; restore: (translated: string) => string }> {
  const body = await parseBody(html);
  const marks: string[] = [];
  for (const node of descendants(body, (n) => isCitation(n) || isUnsupportedMark(n))) {
    marks.push((node as Element).outerHTML);
    node.parentNode?.replaceChild(body.ownerDocument.createTextNode(`[[m${marks.length}]]`), node);
  }
  return {
    html: marks.length > 0 ? body.innerHTML : html,
    restore: (translated) => sanitizeSummaryHtml(translated.replace(PLACEHOLDER, (_, k: string) => marks[Number(k) - 1] ?? '')),
  };
}
