
export interface ExtractedArticle {
  title: string;
  /** The site's name, or its host name without www. */
  site: string;
  /** The main text, one entry per paragraph, heading or list item, in reading order. */
  paragraphs: string[];
}

/** Blocks of readable text in Readability's output; nested ones are read through their outermost block. */
const BLOCKS = 'p, li, blockquote, pre, h1, h2, h3, h4, h5, h6, dt, dd, figcaption, td';

const clean = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Words of a text, counted as runs of letters or digits between spaces. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

/**
 * The main content of an HTML page, as Firefox Reader View finds it (@mozilla/readability on a
 * linkedom document): navigation, banners, sidebars, comments and footers left out.
 * Returns null when the page has no readable text. Both libraries load with the first page summarised,
 * not at start-up.
 */
export async function extractArticle(html: string, pageUrl: string): Promise<ExtractedArticle | null> {
  const [{ Readability }, { parseHTML }] = await Promise.all([import('@mozilla/readability'), import('linkedom')]);
  const { document } = parseHTML(html);
  const host = new URL(pageUrl).hostname.replace(/^www\./, '');
  const pageTitle = clean(document.querySelector('title')?.textContent ?? '');
  // Readability changes the document it reads; nothing else reads it afterwards.
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  if (!article?.content) return null;

  const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
  const paragraphs: string[] = [];
  for (const block of Array.from(content.querySelectorAll(BLOCKS))) {
    if (block.parentElement?.closest(BLOCKS)) continue;
    const text = clean(block.textContent ?? '');
    if (text) paragraphs.push(text);
  }
  if (paragraphs.length === 0) {
    paragraphs.push(...(article.textContent ?? '').split(/\n\s*\n/).map(clean).filter(Boolean));
  }
  if (paragraphs.length === 0) return null;
  return {
    title: clean(article.title ?? '') || pageTitle || host,
    site: clean(article.siteName ?? '') || host,
    paragraphs,
  };
}
