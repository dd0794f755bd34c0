import { marked } from 'marked';
import type SanitizeHtml from 'sanitize-html';
import type { IOptions } from 'sanitize-html';
import { CITE_CLASS, UNSUPPORTED_CLASS, formatSummaryAnswer, looksLikeHtml } from '@mbox/shared';
import { lazyRequire } from '../lazy-require.js';
import { CITE_ATTRIBUTE } from './minutes.js';

/** sanitize-html (with postcss and htmlparser2) loads with the first summary, not at start-up. */
const sanitizeHtml = lazyRequire<typeof SanitizeHtml>('sanitize-html');

let summaryPolicy: IOptions | undefined;

/** Longest `data-missing` of an unsupported marker: a few names and figures, not a text. */
const MAX_MISSING_LENGTH = 300;

type Attributes = Record<string, string>;

/**
 * `<sup class="cite" data-cite="1,3">` keeps its class and numbers only when both are exactly the
 * citation's; any other sup is a plain superscript.
 */
function citationAttributes(attribs: Attributes): Attributes {
  const cite = attribs['data-cite'];
  return attribs.class === CITE_CLASS && cite !== undefined && CITE_ATTRIBUTE.test(cite) ? { class: CITE_CLASS, 'data-cite': cite } : {};
}

/** `<small class="unsupported" data-missing="…">` keeps its class and (bounded) list only together; any other small is plain. */
function unsupportedAttributes(attribs: Attributes): Attributes {
  if (attribs.class !== UNSUPPORTED_CLASS) return {};
  const missing = (attribs['data-missing'] ?? '').slice(0, MAX_MISSING_LENGTH);
  return { class: UNSUPPORTED_CLASS, 'data-missing': missing };
}

/**
 * Allow-list for stored summary HTML: text formatting, headings, lists, tables and plain links, and
 * the two marks of the citation contract (`sup.cite[data-cite]`, `small.unsupported[data-missing]`;
 * docs/ai.md, "Citations"). Anything else (script, style, iframe, on* handlers, javascript: or data:
 * links, other classes or data attributes) is dropped. Built on first use: its link transform comes
 * from sanitize-html itself.
 */
function policy(): IOptions {
  return (summaryPolicy ??= {
    allowedTags: [
      'p', 'br', 'b', 'strong', 'i', 'em', 'u', 's', 'mark', 'small', 'sub', 'sup',
      'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'li', 'blockquote', 'code', 'pre', 'hr',
      'a', 'span', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
    ],
    // transformTags adds rel/target after filtering, so they need to be allowed as well.
    allowedAttributes: {
      a: ['href', 'title', 'rel', 'target'],
      ol: ['start'],
      th: ['colspan', 'rowspan'],
      td: ['colspan', 'rowspan'],
      sup: ['class', 'data-cite'],
      small: ['class', 'data-missing'],
    },
    allowedClasses: { sup: [CITE_CLASS], small: [UNSUPPORTED_CLASS] },
    allowedSchemes: ['http', 'https', 'mailto'],
    allowedSchemesAppliedToAttributes: ['href'],
    allowProtocolRelative: false,
    disallowedTagsMode: 'discard',
    // Transforms run before the attribute filter: they decide which attribute pairs may stay.
    transformTags: {
      a: sanitizeHtml().simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }),
      sup: (tagName, attribs) => ({ tagName, attribs: citationAttributes(attribs) }),
      small: (tagName, attribs) => ({ tagName, attribs: unsupportedAttributes(attribs) }),
    },
  });
}

export function sanitizeSummaryHtml(html: string): string {
  // sanitize-html writes XHTML-style "<br />"; the stored form (and the shared rules) use "<br>".
  return sanitizeHtml()(html, policy()).replace(/<br \/>/g, '<br>').trim();
}

/** Removes a Markdown code fence some models wrap their HTML in. */
function unfence(answer: string): string {
  const fenced = answer.trim().match(/^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```\s*$/);
  return fenced ? fenced[1]! : answer;
}

/** Headings, bullet or numbered lists, bold or italics: marks of Markdown rather than plain prose. */
const MARKDOWN = /^\s{0,3}(#{1,6}\s|[-*+]\s+\S|\d+[.)]\s+\S)|\*\*[^*\n]+\*\*|__[^_\n]+__/m;

/**
 * Models are asked for HTML, but smaller local ones often answer in Markdown anyway: such answers are
 * rendered as HTML instead of showing their `**` and `-` marks. Other plain text keeps the documented rule.
 */
function markdownToHtml(answer: string): string {
  if (looksLikeHtml(answer) || !MARKDOWN.test(answer)) return answer;
  return marked.parse(answer, { async: false, gfm: true, breaks: true });
}

/** An LLM answer as stored: the output rules of product.md, Data, then the allow-list. */
export function answerToSafeHtml(answer: string): string {
  return sanitizeSummaryHtml(formatSummaryAnswer(markdownToHtml(unfence(answer))));
}

/** Sanitised HTML cut after each closing block tag: the pieces a stream hands over, in order. */
export function htmlBlocks(html: string): string[] {
  return html.split(/(?<=<\/(?:p|li|ul|ol|h[1-6]|blockquote)>)/i).filter(Boolean);
}
