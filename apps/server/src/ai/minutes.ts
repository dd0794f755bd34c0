/**
 * Minutes: the structured form of an answer before it becomes HTML, and the citation element every
 * engine writes. A citation says which transcript lines a point came from; inside the engine a line
 * is its index in the transcript it was given, numbered from 1 in the order the answer first cites it.
 */

/** One point of an answer: optional bold lead ("Lynne", "Pricing (10:02–10:15)"), text, the lines it came from. */
export interface MinutesItem {
  lead?: string;
  text: string;
  /** Indices into the transcript given to the engine; empty when the point rests on no single line. */
  lines: readonly number[];
}

export type MinutesBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; item: MinutesItem }
  | { kind: 'list'; ordered?: boolean; items: readonly MinutesItem[] };

export interface Minutes {
  blocks: readonly MinutesBlock[];
}

/**
 * HTML whose citation elements (see `citationElement`) number into `lines`: citation n is the
 * transcript line `lines[n - 1]`.
 */
export interface CitedHtml {
  html: string;
  lines: number[];
}

/** Value of a `data-cite` attribute: citation numbers joined by commas. */
export const CITE_ATTRIBUTE = /^\d{1,4}(?:,\d{1,4})*$/;

/**
 * The citation element of stored summary HTML: `<sup class="cite" data-cite="1,3">[1, 3]</sup>`.
 * Its text keeps the numbers readable where the element is not turned into links.
 */
export function citationElement(numbers: readonly number[]): string {
  return `<sup class="cite" data-cite="${numbers.join(',')}">[${numbers.join(', ')}]</sup>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Assigns citation numbers in order of first use; `cite: false` leaves citations out (documents have no lines to open). */
class CitationNumbers {
  readonly lines: number[] = [];
  private readonly numberOf = new Map<number, number>();

  constructor(private readonly cite: boolean) {}

  element(lines: readonly number[]): string {
    if (!this.cite || lines.length === 0) return '';
    const numbers = [...new Set(lines)]
      .sort((a, b) => a - b)
      .map((line) => {
        let n = this.numberOf.get(line);
        if (n === undefined) {
          this.lines.push(line);
          n = this.lines.length;
          this.numberOf.set(line, n);
        }
        return n;
      });
    return citationElement(numbers);
  }
}

function itemHtml(item: MinutesItem, numbers: CitationNumbers): string {
  const lead = item.lead ? `<b>${escapeHtml(item.lead)}:</b> ` : '';
  return `${lead}${escapeHtml(item.text)}${numbers.element(item.lines)}`;
}

/** Minutes as HTML with numbered citations. */
export function renderMinutes(minutes: Minutes, options: { cite?: boolean } = {}): CitedHtml {
  const numbers = new CitationNumbers(options.cite ?? true);
  const html = minutes.blocks
    .map((block) => {
      switch (block.kind) {
        case 'heading':
          return `<h3>${escapeHtml(block.text)}</h3>`;
        case 'paragraph':
          return `<p>${itemHtml(block.item, numbers)}</p>`;
        case 'list': {
          const tag = block.ordered ? 'ol' : 'ul';
          return `<${tag}>${block.items.map((item) => `<li>${itemHtml(item, numbers)}</li>`).join('')}</${tag}>`;
        }
      }
    })
    .join('');
  return { html, lines: numbers.lines };
}
