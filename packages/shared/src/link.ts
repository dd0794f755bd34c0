import { z } from 'zod';

export const INVALID_LINK = 'Invalid link';
export const INVALID_YOUTUBE_LINK = 'Invalid YouTube link';

export type LinkCheck = { valid: true; url: string } | { valid: false; error: typeof INVALID_LINK | typeof INVALID_YOUTUBE_LINK };

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** True when the text names YouTube (product.md, Validation: contains youtube.com or youtu.be). */
export function isYouTubeLink(link: string): boolean {
  const lower = link.toLowerCase();
  return lower.includes('youtube.com') || lower.includes('youtu.be');
}

/**
 * Link input rule (product.md, Validation): https:// is assumed when no scheme is given, then the text must parse
 * as a URL. Only web links are accepted: the server fetches them, so file: or other schemes are refused.
 */
export function checkLink(input: string, options: { youtubeOnly?: boolean } = {}): LinkCheck {
  const text = input.trim();
  if (!text || /\s/.test(text)) return { valid: false, error: INVALID_LINK };
  const candidate = SCHEME.test(text) && !/^[^:/]+:\d/.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return { valid: false, error: INVALID_LINK };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !url.hostname) {
    return { valid: false, error: INVALID_LINK };
  }
  if (options.youtubeOnly && !isYouTubeLink(url.href)) return { valid: false, error: INVALID_YOUTUBE_LINK };
  return { valid: true, url: url.href };
}

function linkSchemaFor(youtubeOnly: boolean) {
  return z
    .string()
    .max(4096, { message: 'Link is too long' })
    .transform((text, ctx) => {
      const result = checkLink(text, { youtubeOnly });
      if (result.valid) return result.url;
      ctx.addIssue({ code: 'custom', message: result.error });
      return z.NEVER;
    });
}

/** A web link, normalised to its full URL. */
export const linkSchema = linkSchemaFor(false);
/** A YouTube link, normalised to its full URL. */
export const youTubeLinkSchema = linkSchemaFor(true);
