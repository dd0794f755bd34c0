import { checkLink, isYouTubeLink } from '@mbox/shared/link';
import { SUMMARIZER_MAX_TEXT_CHARS, type SummarizerMode } from '@mbox/shared/tools';

/** Which page: the Summarizer takes text or any link; the YouTube page takes only YouTube links. */
export type SummarizerKind = 'summary' | 'youtube';

/** A request the server can take: exactly one of text and link, and the call it goes to. */
export interface SummarizerRequest {
  mode: SummarizerMode;
  text?: string;
  link?: string;
}

export type SummarizerInputState =
  /** Nothing typed: Summarize disabled (product.md, Validation). */
  | { status: 'empty' }
  /** A link that fails product.md, Validation: its message is shown and the field turns red. */
  | { status: 'invalid-link'; error: string }
  /** Pasted text longer than the server takes: it could never be sent. */
  | { status: 'too-long'; length: number }
  | { status: 'ready'; request: SummarizerRequest };

/**
 * product.md, Validation link inputs and product.md, API routing, as one pure rule: https:// is assumed without a scheme;
 * an unparsable link is 'Invalid link'; on the YouTube page a non-YouTube link is 'Invalid YouTube
 * link'; on the Summarizer page a YouTube link goes to the YouTube summarizer. A filled link wins over
 * text (only one of them is shown once one is filled).
 *
 * product.md, API picks YouTube when the link "contains youtube or youtu.be"; the rule is applied to the host
 * only, so an article whose path merely mentions YouTube is still summarised as a web page.
 */
export function readSummarizerInput(kind: SummarizerKind, input: { text: string; link: string }): SummarizerInputState {
  const link = input.link.trim();
  if (link || kind === 'youtube') {
    if (!link) return { status: 'empty' };
    const checked = checkLink(link, { youtubeOnly: kind === 'youtube' });
    if (!checked.valid) return { status: 'invalid-link', error: checked.error };
    const mode: SummarizerMode = kind === 'youtube' || isYouTubeLink(new URL(checked.url).hostname) ? 'youtube' : 'summary';
    return { status: 'ready', request: { mode, link: checked.url } };
  }
  const text = input.text.trim();
  if (!text) return { status: 'empty' };
  if (text.length > SUMMARIZER_MAX_TEXT_CHARS) return { status: 'too-long', length: text.length };
  return { status: 'ready', request: { mode: 'summary', text } };
}
