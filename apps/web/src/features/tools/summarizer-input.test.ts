import { describe, expect, it } from 'vitest';
import { SUMMARIZER_MAX_TEXT_CHARS } from '@mbox/shared/tools';
import { readSummarizerInput } from './summarizer-input';

describe('summarizer input (product.md, Validation link inputs, product.md, API routing)', () => {
  it('is empty until something is typed', () => {
    expect(readSummarizerInput('summary', { text: '  ', link: ' ' })).toEqual({ status: 'empty' });
    expect(readSummarizerInput('youtube', { text: '', link: '' })).toEqual({ status: 'empty' });
  });

  it('sends trimmed text to the summary call', () => {
    expect(readSummarizerInput('summary', { text: '  Some notes.  ', link: '' })).toEqual({
      status: 'ready',
      request: { mode: 'summary', text: 'Some notes.' },
    });
  });

  it('refuses text the server could never take', () => {
    const text = 'a'.repeat(SUMMARIZER_MAX_TEXT_CHARS + 1);
    expect(readSummarizerInput('summary', { text, link: '' })).toEqual({
      status: 'too-long',
      length: SUMMARIZER_MAX_TEXT_CHARS + 1,
    });
  });

  it('assumes https:// when the link has no scheme', () => {
    expect(readSummarizerInput('summary', { text: '', link: 'example.com/news/story' })).toEqual({
      status: 'ready',
      request: { mode: 'summary', link: 'https://example.com/news/story' },
    });
  });

  it("says 'Invalid link' for a link that does not parse", () => {
    for (const link of ['not a link', 'http://', 'ftp://example.com/file', 'https://exa mple.com']) {
      expect(readSummarizerInput('summary', { text: '', link })).toEqual({ status: 'invalid-link', error: 'Invalid link' });
    }
  });

  it("says 'Invalid YouTube link' on the YouTube page for any other site", () => {
    expect(readSummarizerInput('youtube', { text: '', link: 'example.com/watch?v=abc' })).toEqual({
      status: 'invalid-link',
      error: 'Invalid YouTube link',
    });
    expect(readSummarizerInput('youtube', { text: '', link: 'youtu.be/dQw4w9WgXcQ' })).toEqual({
      status: 'ready',
      request: { mode: 'youtube', link: 'https://youtu.be/dQw4w9WgXcQ' },
    });
  });

  it('sends a YouTube link typed on the Summarizer page to the YouTube summarizer', () => {
    expect(readSummarizerInput('summary', { text: '', link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' })).toEqual({
      status: 'ready',
      request: { mode: 'youtube', link: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    });
  });

  it('keeps an article that only mentions YouTube in its path a web page', () => {
    expect(readSummarizerInput('summary', { text: '', link: 'news.example.com/youtube.com-changes' })).toEqual({
      status: 'ready',
      request: { mode: 'summary', link: 'https://news.example.com/youtube.com-changes' },
    });
  });

  it('lets a filled link win over text, and ignores text on the YouTube page', () => {
    expect(readSummarizerInput('summary', { text: 'some text', link: 'example.com' })).toMatchObject({
      request: { mode: 'summary', link: 'https://example.com/' },
    });
    expect(readSummarizerInput('youtube', { text: 'some text', link: '' })).toEqual({ status: 'empty' });
  });
});
