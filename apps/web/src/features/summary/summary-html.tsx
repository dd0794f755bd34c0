import { createElement, useMemo, type ReactNode } from 'react';
import { CITE_CLASS, UNSUPPORTED_CLASS, UNSUPPORTED_TEXT, citationNumbers } from '@mbox/shared/citations';
import { SUMMARY_PROSE } from './prose';

/** Elements the server's sanitiser lets through (apps/server/src/ai/sanitize.ts); anything else keeps only its text. */
const ELEMENTS = new Set([
  'p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'mark', 'small', 'sub', 'sup',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr',
  'a', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
]);
const VOID = new Set(['br', 'hr']);

/** The attributes kept, as React props. */
function props(element: Element): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  const name = element.nodeName.toLowerCase();
  const attribute = (key: string) => element.getAttribute(key);
  if (name === 'a') {
    for (const key of ['href', 'title', 'rel', 'target']) {
      const value = attribute(key);
      if (value !== null) out[key] = value;
    }
  }
  if (name === 'ol' && attribute('start')) out.start = Number(attribute('start'));
  if (name === 'th' || name === 'td') {
    if (attribute('colspan')) out.colSpan = Number(attribute('colspan'));
    if (attribute('rowspan')) out.rowSpan = Number(attribute('rowspan'));
  }
  return out;
}

/** Draws a citation (its numbers into the summary's citations table). */
export type CitationRenderer = (numbers: number[], key: string) => ReactNode;

function toReact(node: Node, key: string, renderCitation: CitationRenderer): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const name = element.nodeName.toLowerCase();
  const className = element.getAttribute('class');
  if (name === 'sup' && className === CITE_CLASS) return renderCitation(citationNumbers(element.getAttribute('data-cite')), key);
  if (name === 'small' && className === UNSUPPORTED_CLASS) {
    return <UnsupportedMark key={key} missing={element.getAttribute('data-missing') ?? ''} />;
  }
  const children = Array.from(element.childNodes).map((child, i) => toReact(child, `${key}.${i}`, renderCitation));
  if (!ELEMENTS.has(name)) return <span key={key}>{children}</span>;
  return VOID.has(name) ? createElement(name, { key }) : createElement(name, { key, ...props(element) }, ...children);
}

/**
 * A summary's HTML (sanitised by the server) drawn as React elements, so its citations can be buttons:
 * `renderCitation` draws each `sup.cite`, and points the server could not find support for carry the
 * "not found in the transcript" mark.
 */
export function SummaryHtml({
  html,
  renderCitation,
  lang,
  testId,
}: {
  html: string;
  renderCitation: CitationRenderer;
  lang?: string;
  testId?: string;
}) {
  const nodes = useMemo(() => {
    const body = new DOMParser().parseFromString(`<!doctype html><body>${html}</body>`, 'text/html').body;
    return Array.from(body.childNodes).map((child, i) => toReact(child, String(i), renderCitation));
  }, [html, renderCitation]);
  return (
    <div className={SUMMARY_PROSE} data-testid={testId} lang={lang}>
      {nodes}
    </div>
  );
}

/** A point whose names, numbers or dates its lines do not hold: says so, and what was not found. */
function UnsupportedMark({ missing }: { missing: string }) {
  return (
    <span
      className="badge badge-warning badge-soft badge-xs ml-1 h-auto align-middle whitespace-normal"
      title={missing ? `Not found in the transcript: ${missing}` : undefined}
      data-testid="unsupported-mark"
    >
      {UNSUPPORTED_TEXT}
      {missing && <span className="sr-only">: {missing}</span>}
    </span>
  );
}
