/**
 * Output rules of summaries (product.md, Data): plain-text answers get their line breaks turned into <br>;
 * in HTML answers consecutive duplicate <br> and <br> inside bullet lists are removed.
 * Pure string rules shared by the server (before storing) and the web app (before showing).
 * Sanitising is not done here: the server sanitises with an allow-list before it stores.
 */

const TAG = /<\/?[a-zA-Z][^<>]*>/;

/** True when the answer carries HTML markup rather than plain text. */
export function looksLikeHtml(text: string): boolean {
  return TAG.test(text);
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text → HTML: escaped, each line break becomes <br>. */
export function summaryTextToHtml(text: string): string {
  return escapeText(text.replace(/\r\n?/g, '\n').trim()).replace(/\n/g, '<br>');
}

const BR = /^<br\s*\/?>$/i;
const LIST_OPEN = /^<(ul|ol)\b/i;
const LIST_CLOSE = /^<\/(ul|ol)\s*>$/i;

/** HTML answer → consecutive duplicate breaks collapsed, breaks inside <ul>/<ol> removed. */
export function normalizeSummaryHtml(html: string): string {
  const parts = html.split(/(<\/?[a-zA-Z][^<>]*>)/g).filter((p) => p !== '');
  const out: string[] = [];
  let listDepth = 0;
  let lastBreak = -1; // index in out of the last kept <br>, while only whitespace follows it
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (LIST_OPEN.test(part)) listDepth++;
    else if (LIST_CLOSE.test(part)) listDepth = Math.max(0, listDepth - 1);
    if (BR.test(part)) {
      if (listDepth > 0) {
        // A break between two words of a list item still separates them.
        const before = out[out.length - 1];
        const after = parts[i + 1];
        if (before && after && /\S$/.test(before) && /^\S/.test(after) && !before.startsWith('<') && !after.startsWith('<')) {
          out.push(' ');
        }
        continue;
      }
      if (lastBreak >= 0) continue; // duplicate of the previous break
      out.push('<br>');
      lastBreak = out.length - 1;
      continue;
    }
    if (lastBreak >= 0 && /^\s*$/.test(part)) {
      continue; // whitespace between breaks would hide the duplicate
    }
    lastBreak = -1;
    out.push(part);
  }
  return out.join('').trim();
}

/** Applies the rule that fits: HTML answers are normalised, plain-text answers converted. */
export function formatSummaryAnswer(answer: string): string {
  const trimmed = answer.trim();
  return looksLikeHtml(trimmed) ? normalizeSummaryHtml(trimmed) : summaryTextToHtml(trimmed);
}
