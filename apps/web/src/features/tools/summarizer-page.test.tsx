import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SummarizeResult } from '@mbox/shared/tools';
import { createFakeTrpc } from '../../test/fake-trpc';
import { fakeSession, renderRoutes } from '../../test/render';
import { SummarizerPage } from './summarizer-page';

const STREAM = 'tools.summarizeStream';
const ARTICLE = 'The council met on Tuesday to discuss the new park. Residents asked for more trees and benches.';

const result: SummarizeResult = {
  summary: '<ul><li>The council discussed the new park.</li></ul>',
  metadata: '<p><b>Words:</b> 17</p>',
  source: { kind: 'text', title: 'Pasted text', site: '', url: '', words: 17, durationSeconds: null },
};

function renderPage(path: string) {
  const fake = createFakeTrpc({});
  const routes = [
    { path: '/public/summarization', element: <SummarizerPage kind="summary" base="/public" /> },
    { path: '/public/youtube', element: <SummarizerPage kind="youtube" base="/public" /> },
  ];
  const view = renderRoutes(routes, { path, fake, session: fakeSession({ status: 'signed-out', user: null }) });
  return { ...view, fake };
}

const summarizeButton = () => screen.getByRole('button', { name: 'Summarize' });

describe('summarizer page (product.md, Screens / Validation)', () => {
  it('summarises ?text= on load and shows the summary as it is written, then the result', async () => {
    const { fake } = renderPage(`/public/summarization?text=${encodeURIComponent(ARTICLE)}`);
    expect(await screen.findByText('Summarizing...')).toBeTruthy();
    expect(summarizeButton()).toHaveProperty('disabled', true);
    expect(fake.calls.find((call) => call.path === STREAM)?.input).toEqual({
      mode: 'summary',
      request: { text: ARTICLE, params: { summaryKey: 'c_summary' } },
    });

    await act(async () => fake.push(STREAM, { type: 'token', text: 'The council discussed' }));
    expect(screen.getByTestId('summary-stream').textContent).toBe('The council discussed');

    await act(async () => fake.push(STREAM, { type: 'done', result }));
    expect(screen.getByTestId('summary-html').innerHTML).toBe(result.summary);
    expect(screen.getByTestId('summary-metadata').textContent).toBe('Words: 17');
    expect(screen.queryByText('Summarizing...')).toBeNull();
    // The run is over: its subscription is closed, so a reconnect cannot summarise (and count) again.
    expect(fake.subscriberCount(STREAM)).toBe(0);
  });

  it('shows an error event in the error alert, and the daily limit also as a toast', async () => {
    const { fake } = renderPage(`/public/summarization?text=${encodeURIComponent(ARTICLE)}`);
    await screen.findByText('Summarizing...');
    await act(async () => fake.push(STREAM, { type: 'error', error: 'Daily limit reached' }));
    expect(screen.getByTestId('summarizer-error-text').textContent).toBe('Daily limit reached');
    const alerts = screen.getAllByRole('alert').map((alert) => alert.textContent);
    expect(alerts.filter((text) => text?.includes('Daily limit reached'))).toHaveLength(2);
    expect(summarizeButton()).toHaveProperty('disabled', false);
  });

  it('shows only the filled one of text and link, and disables Summarize while empty', async () => {
    renderPage('/public/summarization');
    const text = await screen.findByPlaceholderText('Enter your text here...');
    expect(text.getAttribute('rows')).toBe('12');
    expect(summarizeButton()).toHaveProperty('disabled', true);

    fireEvent.change(text, { target: { value: ARTICLE } });
    expect(screen.queryByLabelText('Link')).toBeNull();
    expect(summarizeButton()).toHaveProperty('disabled', false);

    fireEvent.change(text, { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Link'), { target: { value: 'example.com/story' } });
    expect(screen.queryByPlaceholderText('Enter your text here...')).toBeNull();
    expect(summarizeButton()).toHaveProperty('disabled', false);
  });

  it("marks a bad link red with 'Invalid link' and disables Summarize", async () => {
    renderPage('/public/summarization');
    const link = await screen.findByLabelText('Link');
    fireEvent.change(link, { target: { value: 'not a link' } });
    expect(screen.getByText('Invalid link')).toBeTruthy();
    expect(link.className).toContain('input-error');
    expect(link.getAttribute('aria-invalid')).toBe('true');
    expect(summarizeButton()).toHaveProperty('disabled', true);
  });

  it("takes only YouTube links on the YouTube page ('Invalid YouTube link')", async () => {
    const { fake } = renderPage('/public/youtube');
    expect(screen.queryByPlaceholderText('Enter your text here...')).toBeNull();
    const link = await screen.findByLabelText('YouTube link');
    fireEvent.change(link, { target: { value: 'example.com/video' } });
    expect(screen.getByText('Invalid YouTube link')).toBeTruthy();
    expect(summarizeButton()).toHaveProperty('disabled', true);

    fireEvent.change(link, { target: { value: 'youtu.be/dQw4w9WgXcQ' } });
    expect(screen.queryByText('Invalid YouTube link')).toBeNull();
    fireEvent.click(summarizeButton());
    expect(fake.calls.find((call) => call.path === STREAM)?.input).toEqual({
      mode: 'youtube',
      request: { link: 'https://youtu.be/dQw4w9WgXcQ', params: { summaryKey: 'c_summary' } },
    });
  });
});
