import type SanitizeHtml from 'sanitize-html';
import type { IOptions } from 'sanitize-html';
import {
  CITE_CLASS,
  UNSUPPORTED_CLASS,
  UNSUPPORTED_TEXT,
  citationNumbers,
  citationTimesLabel,
  formatMeetingDuration,
  formatMessageTime,
  isValidTimeZone,
  MIN_SUMMARY_MESSAGES,
  MIN_SUMMARY_SPEAKERS,
  UNTITLED_MEETING,
  uniqueParticipants,
  type SummaryCitation,
} from '@mbox/shared';
import { lazyRequire } from '../../lazy-require.js';

/** sanitize-html loads with the first recap composed, not at start-up. */
const sanitizeHtml = lazyRequire<typeof SanitizeHtml>('sanitize-html');

export interface RecapMeeting {
  id: string;
  title: string;
  meetCode: string;
  startedAt: Date;
  /** When it finished (extension) or its last line (idle end); null when unknown. */
  finishedAt: Date | null;
  users: string[];
}

export interface RecapInput {
  meeting: RecapMeeting;
  /** The meeting's summary (HTML from the summary engine); null for the "no summary" note. */
  summaryHtml: string | null;
  /** The lines the summary cites (shown as their times). */
  summaryCitations?: readonly SummaryCitation[];
  /** Why there is no summary: the meeting was too small to summarise, or generating it failed. */
  noSummaryReason?: NoSummaryReason;
  timeZone: string;
  meetingUrl: string;
  unsubscribeUrl: string;
  settingsUrl: string;
  /** The open items of the last meeting with the same Meet code or participants (docs/action-items.md). */
  fromLastTime?: RecapOpenItems | null;
}

export interface RecapOpenItems {
  meeting: { title: string; startedAt: Date };
  /** The earlier meeting in the web app. */
  meetingUrl: string;
  items: readonly { text: string; owner: string; due: string | null }[];
}

export type NoSummaryReason = 'too-small' | 'failed';

export interface ComposedRecap {
  subject: string;
  html: string;
  text: string;
}

/**
 * What a summary may keep in an e-mail: structure and emphasis, links to the web only. A citation
 * becomes the times of its lines ("[04:01 PM]", `citationLabel`), an unsupported mark its text in brackets.
 */
function summaryPolicy(citationLabel: (numbers: number[]) => string | null): IOptions {
  return {
    allowedTags: ['p', 'br', 'ul', 'ol', 'li', 'strong', 'b', 'em', 'i', 'h2', 'h3', 'h4', 'blockquote', 'code', 'a'],
    allowedAttributes: { a: ['href'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: {
      h1: 'h2',
      // A span is not allowed: the element goes, its (replaced) text stays.
      sup: (tagName, attribs) =>
        attribs.class === CITE_CLASS ? { tagName: 'span', attribs: {}, text: ` ${citationLabel(citationNumbers(attribs['data-cite'])) ?? ''}` } : { tagName, attribs },
      small: (tagName, attribs) =>
        attribs.class === UNSUPPORTED_CLASS ? { tagName: 'em', attribs: {}, text: ` (${UNSUPPORTED_TEXT})` } : { tagName, attribs },
    },
  };
}

export function sanitizeSummaryHtml(html: string, citations: readonly SummaryCitation[] = [], timeZone?: string): string {
  const label = (numbers: number[]) => citationTimesLabel(numbers, citations, (spokenAt) => formatMessageTime(spokenAt, timeZone));
  return sanitizeHtml()(html, summaryPolicy(label));
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Plain-text rendering of the sanitised summary: paragraphs, '- ' bullets, no markup. */
export function summaryToText(html: string): string {
  const marked = html
    .replace(/<li[^>]*>/gi, '\n- ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|h2|h3|h4|ul|ol|blockquote)>/gi, '\n\n');
  const text = sanitizeHtml()(marked, { allowedTags: [], allowedAttributes: {} });
  const decoded = text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);
  return decoded
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function meetingTitle(meeting: Pick<RecapMeeting, 'title' | 'meetCode'>): string {
  return meeting.title.trim() || UNTITLED_MEETING;
}

function formatDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: isValidTimeZone(timeZone) ? timeZone : 'UTC',
  }).format(date);
}

function shortDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: isValidTimeZone(timeZone) ? timeZone : 'UTC',
  }).format(date);
}

/** A due day (yyyy-MM-dd) as "Mar 8". */
function dueLabel(day: string): string {
  return shortDate(new Date(`${day}T12:00:00Z`), 'UTC');
}

function openItemLine(item: RecapOpenItems['items'][number]): string {
  return `${item.owner}: ${item.text}${item.due ? ` (due ${dueLabel(item.due)})` : ''}`;
}

/** "Open from last time" as HTML and text; empty when there is nothing open. */
function openItemsSection(open: RecapOpenItems | null | undefined, timeZone: string): { html: string; text: string[] } {
  if (!open || open.items.length === 0) return { html: '', text: [] };
  const heading = `Open from last time: ${meetingTitle({ title: open.meeting.title, meetCode: '' })} (${shortDate(open.meeting.startedAt, timeZone)})`;
  const items = open.items
    .map((item) => `<li style="margin:0 0 4px"><strong>${escapeHtml(item.owner)}:</strong> ${escapeHtml(item.text)}${item.due ? ` <span style="color:#6b7280">(due ${escapeHtml(dueLabel(item.due))})</span>` : ''}</li>`)
    .join('');
  const html =
    `<tr><td style="padding:8px 28px 8px"><h2 style="margin:0 0 8px;font-size:17px;color:#111827">${escapeHtml(heading)}</h2>` +
    `<ul style="margin:0 0 8px;padding-left:20px;font-size:15px;line-height:1.5;color:#1f2937">${items}</ul>` +
    `<a href="${escapeHtml(open.meetingUrl)}" style="font-size:14px;color:#4f46e5">Open that meeting in Mbox</a></td></tr>`;
  return { html, text: [heading, '-'.repeat(Math.min(heading.length, 60)), ...open.items.map((item) => `- ${openItemLine(item)}`), `That meeting: ${open.meetingUrl}`, ''] };
}

const FONT = "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

/**
 * The recap e-mail: the same facts in HTML (inline styles, one centred column) and plain text. Table
 * attributes (cellpadding, bgcolor, nowrap) keep it laid out where styles are dropped (some mail
 * programs, and the app's Outbox preview, whose page policy blocks inline styles).
 */
export function composeRecap(input: RecapInput): ComposedRecap {
  const { meeting, summaryHtml, timeZone } = input;
  const title = meetingTitle(meeting);
  const when = formatDate(meeting.startedAt, timeZone);
  const duration = meeting.finishedAt ? formatMeetingDuration(meeting.startedAt, meeting.finishedAt)?.replace(/^for /, '') : null;
  const people = uniqueParticipants(meeting.users);
  const summary = summaryHtml === null ? null : sanitizeSummaryHtml(summaryHtml, input.summaryCitations, timeZone);
  const subject =
    summary === null
      ? `No summary for "${title}" (${shortDate(meeting.startedAt, timeZone)})`
      : `Recap: ${title} (${shortDate(meeting.startedAt, timeZone)})`;
  const noSummary =
    input.noSummaryReason === 'failed'
      ? 'The summary of this meeting could not be generated. Its transcript is in Mbox, where you can ask for a summary again.'
      : `This meeting was too short to summarise: a summary needs at least ${MIN_SUMMARY_MESSAGES} lines ` +
        `from ${MIN_SUMMARY_SPEAKERS} different people. Its transcript is still in Mbox.`;

  const facts: [string, string][] = [
    ['When', when],
    ...(duration ? ([['Duration', duration]] as [string, string][]) : []),
    ...(people.length ? ([['Participants', people.join(', ')]] as [string, string][]) : []),
  ];

  const factRows = facts
    .map(
      ([label, value]) =>
        `<tr><td valign="top" nowrap style="padding:2px 12px 2px 0;color:#6b7280;font-size:14px;vertical-align:top;white-space:nowrap">${label}</td>` +
        `<td style="padding:2px 0;color:#111827;font-size:14px">${escapeHtml(value)}</td></tr>`,
    )
    .join('');
  const body =
    summary === null
      ? `<p style="margin:0 0 16px;font-size:15px;line-height:1.6;color:#374151">${escapeHtml(noSummary)}</p>`
      : `<div style="font-size:15px;line-height:1.6;color:#1f2937">${summary}</div>`;
  const openItems = openItemsSection(input.fromLastTime, timeZone);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body bgcolor="#f3f4f6" style="margin:0;padding:0;background:#f3f4f6;font-family:${FONT}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" bgcolor="#f3f4f6" style="background:#f3f4f6;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="16" cellspacing="0" bgcolor="#ffffff" style="max-width:600px;background:#ffffff;border-radius:12px;border:1px solid #e5e7eb">
<tr><td style="padding:28px 28px 8px">
<div style="font-size:13px;font-weight:600;letter-spacing:.04em;text-transform:uppercase;color:#4f46e5">Mbox meeting recap</div>
<h1 style="margin:8px 0 12px;font-size:22px;line-height:1.3;color:#111827">${escapeHtml(title)}</h1>
<table role="presentation" cellpadding="3" cellspacing="0">${factRows}</table>
</td></tr>
<tr><td style="padding:16px 28px 8px">${body}</td></tr>
${openItems.html}<tr><td style="padding:8px 28px 28px">
<a href="${escapeHtml(input.meetingUrl)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px;padding:10px 18px;border-radius:8px">Open the meeting in Mbox</a>
</td></tr>
</table>
<p style="max-width:600px;margin:16px auto 0;font-size:12px;line-height:1.5;color:#6b7280">
You receive this because recap e-mails are on in your Mbox settings.
<a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#6b7280">Unsubscribe</a> ·
<a href="${escapeHtml(input.settingsUrl)}" style="color:#6b7280">E-mail settings</a>
</p>
</td></tr></table>
</body></html>
`;

  const text = [
    title,
    '='.repeat(Math.min(title.length, 60)),
    '',
    ...facts.map(([label, value]) => `${label}: ${value}`),
    '',
    summary === null ? noSummary : summaryToText(summary),
    '',
    ...openItems.text,
    `Open the meeting in Mbox: ${input.meetingUrl}`,
    '',
    '--',
    'You receive this because recap e-mails are on in your Mbox settings.',
    `Unsubscribe: ${input.unsubscribeUrl}`,
    `E-mail settings: ${input.settingsUrl}`,
    '',
  ].join('\n');
  return { subject, html, text };
}
