import { describe, expect, it } from 'vitest';
import { checkLink, INVALID_LINK, INVALID_YOUTUBE_LINK, isYouTubeLink, linkSchema, youTubeLinkSchema } from './link.js';

describe('checkLink', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com/'],
    ['https://example.com/x', 'https://example.com/x'],
    ['localhost:3000/page', 'https://localhost:3000/page'],
    ['  example.com  ', 'https://example.com/'],
  ])('accepts %j as %s', (input, url) => {
    expect(checkLink(input)).toEqual({ valid: true, url });
  });

  it.each(['', '   ', 'not a link', 'https://', 'http://exa mple.com', 'ftp://example.com', 'file:///etc/passwd', 'mailto:a@b.co', 'javascript:alert(1)'])(
    'refuses %j with Invalid link',
    (input) => {
      expect(checkLink(input)).toEqual({ valid: false, error: INVALID_LINK });
    },
  );

  it('in YouTube-only mode requires youtube.com or youtu.be', () => {
    expect(checkLink('youtu.be/abc', { youtubeOnly: true })).toEqual({ valid: true, url: 'https://youtu.be/abc' });
    expect(checkLink('https://www.youtube.com/watch?v=x', { youtubeOnly: true }).valid).toBe(true);
    expect(checkLink('vimeo.com/1', { youtubeOnly: true })).toEqual({ valid: false, error: INVALID_YOUTUBE_LINK });
    expect(checkLink('bad link', { youtubeOnly: true })).toEqual({ valid: false, error: INVALID_LINK });
  });
});

describe('isYouTubeLink', () => {
  it('looks for youtube.com or youtu.be, any case', () => {
    expect(isYouTubeLink('https://m.YouTube.com/watch?v=1')).toBe(true);
    expect(isYouTubeLink('youtu.be/1')).toBe(true);
    expect(isYouTubeLink('https://example.com/youtube')).toBe(false);
  });
});

describe('link schemas', () => {
  it('normalise and carry the rule message', () => {
    expect(linkSchema.parse('example.com')).toBe('https://example.com/');
    expect(linkSchema.safeParse('no way').error?.issues[0]?.message).toBe(INVALID_LINK);
    expect(youTubeLinkSchema.safeParse('example.com').error?.issues[0]?.message).toBe(INVALID_YOUTUBE_LINK);
    expect(linkSchema.safeParse(`example.com/${'a'.repeat(5000)}`).success).toBe(false);
  });
});
