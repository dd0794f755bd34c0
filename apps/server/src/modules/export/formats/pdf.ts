import { createRequire } from 'node:module';
import type { Readable } from 'node:stream';
import type { ExportDocument } from '../document.js';
import { runsText, type Block, type Run } from '../summary-blocks.js';

const require = createRequire(import.meta.url);
/** DejaVu (dejavu-fonts-ttf) covers Latin, Greek, Cyrillic and more; not CJK (docs/export.md). */
const font = (file: string) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`);
const FONTS = {
  regular: font('DejaVuSans.ttf'),
  bold: font('DejaVuSans-Bold.ttf'),
  italic: font('DejaVuSans-Oblique.ttf'),
  boldItalic: font('DejaVuSans-BoldOblique.ttf'),
  mono: font('DejaVuSansMono.ttf'),
} as const;
type FontName = keyof typeof FONTS;

const INK = '#1f2328';
const MUTED = '#6a737d';
const ACCENT = '#4f46e5';
const MARGIN = 56;
const FOOTER_GAP = 36;

/** Transcript lines written between two pauses that let other requests run and the reader catch up. */
const LINES_PER_SLICE = 40;
/** Written but unread PDF above which writing waits for the client (PDFKit itself never waits). */
const MAX_BUFFERED_BYTES = 512 * 1024;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type Pdf = PDFKit.PDFDocument;

function runFont(run: Run): FontName {
  if (run.code) return 'mono';
  if (run.bold && run.italic) return 'boldItalic';
  if (run.bold) return 'bold';
  return run.italic ? 'italic' : 'regular';
}

class PdfWriter {
  private current: { font: FontName; size: number; color: string } = { font: 'regular', size: 10, color: INK };
  private page = 1;
  private readonly width: number;

  constructor(
    private readonly pdf: Pdf,
    private readonly doc: ExportDocument,
  ) {
    this.width = pdf.page.width - 2 * MARGIN;
    pdf.on('pageAdded', () => {
      this.page++;
      this.footer();
    });
    this.footer();
  }

  style(fontName: FontName, size: number, color = INK): Pdf {
    this.current = { font: fontName, size, color };
    // By path: PDFKit caches a font under the name it is asked by, except a registered name whose font
    // it already holds under another, which it would read and parse again on every switch.
    return this.pdf.font(FONTS[fontName]).fontSize(size).fillColor(color);
  }

  /**
   * Page number and title at the foot of the page, written as the page opens (pages are not kept to
   * number them at the end). A page opens in the middle of a paragraph, whose line wrapper PDFKit would
   * hand this text too: it is set aside meanwhile.
   */
  private footer(): void {
    const { pdf } = this;
    const paragraph = pdf as unknown as { _wrapper: unknown; _textOptions: unknown };
    const { _wrapper: wrapper, _textOptions: textOptions } = paragraph;
    paragraph._wrapper = null;
    paragraph._textOptions = null;
    const { x, y } = pdf;
    const saved = this.current;
    const margins = pdf.page.margins;
    const bottom = margins.bottom;
    // Below the bottom margin: without lifting it, the text would open another page.
    margins.bottom = 0;
    const title = this.doc.title.length > 60 ? `${this.doc.title.slice(0, 59)}…` : this.doc.title;
    this.style('regular', 8, MUTED).text(`${title} · page ${this.page}`, MARGIN, pdf.page.height - FOOTER_GAP, {
      width: this.width,
      align: 'center',
      lineBreak: false,
    });
    margins.bottom = bottom;
    this.style(saved.font, saved.size, saved.color);
    pdf.x = x;
    pdf.y = y;
    paragraph._wrapper = wrapper;
    paragraph._textOptions = textOptions;
  }

  /** Styled runs as one paragraph; each run keeps its font, links stay clickable. */
  runs(runs: readonly Run[], size: number, options: PDFKit.Mixins.TextOptions = {}, color = INK): void {
    const kept = runs.filter((run) => run.text);
    kept.forEach((run, i) => {
      this.style(runFont(run), size, run.href ? ACCENT : color).text(run.text, {
        ...options,
        width: this.width - (options.indent ?? 0),
        continued: i < kept.length - 1,
        link: run.href ?? null,
        underline: Boolean(run.href),
      });
    });
  }

  heading(text: string, size: number, gapBefore = 10): void {
    this.pdf.moveDown(gapBefore / 12);
    this.style('bold', size).text(text, MARGIN, undefined, { width: this.width });
    this.pdf.moveDown(0.3);
  }

  rule(): void {
    const { pdf } = this;
    pdf.moveDown(0.4);
    pdf.moveTo(MARGIN, pdf.y).lineTo(MARGIN + this.width, pdf.y).lineWidth(0.5).strokeColor('#d0d7de').stroke();
    pdf.moveDown(0.6);
  }

  titleBlock(): void {
    const { doc } = this;
    this.style('bold', 22).text(doc.title, MARGIN, MARGIN, { width: this.width });
    this.pdf.moveDown(0.2);
    this.style('regular', 9, MUTED).text('Meeting transcript exported from Mbox', { width: this.width });
    this.pdf.moveDown(0.8);
    const facts: [string, string][] = [
      ['Date', doc.started],
      ...(doc.duration ? [['Duration', doc.duration] as [string, string]] : []),
      ['Participants', doc.participants.join(', ') || 'none recorded'],
      ['Lines', doc.lineCount.toLocaleString('en-US')],
    ];
    for (const [label, value] of facts) {
      this.runs([{ text: `${label}: `, bold: true }, { text: value }], 10.5);
      this.pdf.moveDown(0.15);
    }
    this.rule();
  }

  block(block: Block): void {
    const { pdf } = this;
    switch (block.kind) {
      case 'heading':
        pdf.moveDown(0.2);
        this.runs(block.runs.map((run) => ({ ...run, bold: true })), block.level <= 2 ? 11.5 : 10.5);
        break;
      case 'paragraph':
        this.runs(block.runs, 10);
        break;
      case 'item':
        this.runs([{ text: `${block.marker === '-' ? '•' : block.marker} ` }, ...block.runs], 10, { indent: 12 + block.depth * 14 });
        break;
      case 'quote':
        this.runs(block.runs.map((run) => ({ ...run, italic: true })), 10, { indent: 14 }, MUTED);
        break;
      case 'code':
        this.style('mono', 9).text(block.text, MARGIN, undefined, { width: this.width, indent: 12 });
        break;
      case 'rule':
        this.rule();
        return;
      case 'table':
        for (const row of block.rows) this.runs([{ text: row.map(runsText).join('  |  ') }], 9.5);
        break;
    }
    pdf.moveDown(0.3);
  }

  async transcript(signal: AbortSignal): Promise<void> {
    const { pdf, doc } = this;
    this.heading('Transcript', 15, 14);
    let i = 0;
    for await (const page of doc.lines) {
      for (const line of page) {
        if (i % LINES_PER_SLICE === 0 && i) await this.breathe(signal);
        i += 1;
        this.style('bold', 9.5).text(`${line.speaker} `, MARGIN, undefined, { width: this.width, continued: true });
        this.style('regular', 8.5, MUTED).text(`${line.clock}  `, { continued: true });
        this.style('regular', 9.5).text(line.text || ' ');
        pdf.moveDown(0.25);
      }
    }
    if (!i) this.style('italic', 10, MUTED).text('No lines were captured.', { width: this.width });
  }

  /** Lets other requests run, and waits while the client has not read what was written. */
  private async breathe(signal: AbortSignal): Promise<void> {
    do {
      signal.throwIfAborted();
      await pause(this.pdf.readableLength > MAX_BUFFERED_BYTES ? 10 : 0);
    } while (this.pdf.readableLength > MAX_BUFFERED_BYTES);
  }
}

/**
 * The meeting as a PDF, streamed: pages go out as they are finished (PDFKit keeps none), the transcript
 * is written a slice at a time, and writing stops when `signal` aborts (the client left).
 */
export async function toPdf(doc: ExportDocument, signal: AbortSignal): Promise<Readable> {
  // PDFKit loads with the first PDF, not at start-up.
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + 8 },
    font: FONTS.regular,
    info: { Title: doc.title, Creator: 'Mbox', Producer: 'Mbox (PDFKit)' },
    displayTitle: true,
    lang: 'en',
  });
  const writer = new PdfWriter(pdf, doc);

  void (async () => {
    writer.titleBlock();
    if (doc.summaries.length) {
      writer.heading('Summaries', 15, 4);
      for (const summary of doc.summaries) {
        writer.heading(summary.title, 12.5, 6);
        for (const block of summary.blocks) writer.block(block);
      }
    }
    await writer.transcript(signal);
    pdf.end();
  })().catch((error: unknown) => pdf.destroy(error instanceof Error ? error : new Error(String(error))));
  return pdf;
}
