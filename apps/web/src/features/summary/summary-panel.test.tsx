import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { AiUsage } from '@mbox/shared/ai-usage';
import type { Summary, SummaryList } from '@mbox/shared/summary';
import { SUMMARY_UNAVAILABLE_MESSAGE } from '@mbox/shared/summary-availability';
import { formatMessageTime } from '@mbox/shared/format';
import { TRANSLATION_NEEDS_MODEL } from '@mbox/shared/generation';
import { EMPTY_RESULT_ERROR } from '@mbox/shared/ui-messages';
import { apiError, createFakeTrpc } from '../../test/fake-trpc';
import { fakeSession, renderRoutes } from '../../test/render';
import { SummaryPanel } from './summary-panel';

const stored: Summary = {
  docId: 'd1',
  type: 'summary',
  title: 'Summary',
  text: '<p>We ship Friday.</p>',
  translations: { fr: { text: '<p>Livraison vendredi.</p>' } },
  encrypted: false,
  promptKey: 'summary',
  customPrompt: '',
  citations: [],
  model: 'local:qwen2.5-1.5b-instruct-q4_k_m',
};

/** A free account's day with 3 of its 10 generations used. */
function freeUsage(used = 3): AiUsage {
  return {
    day: '2026-11-20',
    resetsAt: Date.UTC(2026, 10, 21),
    generations: { used, limit: 10, left: 10 - used },
    tokens: { used: 0, limit: 200_000, left: 200_000 },
  };
}

function setup(list: SummaryList, { premium = false, handlers = {} }: { premium?: boolean; handlers?: Record<string, (input: unknown) => unknown> } = {}) {
  const fake = createFakeTrpc({ 'summary.list': () => list, 'aiUsage.today': () => freeUsage(), ...handlers });
  const view = renderRoutes([{ path: '/', element: <SummaryPanel meetingId="m1" /> }], { fake, session: fakeSession({ premium }) });
  return { fake, view };
}

describe('summary panel', () => {
  it('streams a generation when a type without summary is chosen, then shows the stored HTML', async () => {
    const { fake } = setup({ summaries: [stored], summariesDisabled: false, promptList: 'default' });
    const picker = await screen.findByRole('combobox', { name: 'Prompt type' });
    await waitFor(() => expect((picker as HTMLSelectElement).disabled).toBe(false));
    fireEvent.change(picker, { target: { value: 'goal' } });
    await waitFor(() => expect(fake.subscriberCount('summary.generateStream')).toBe(1));
    expect(fake.calls.at(-1)).toEqual({ path: 'summary.generateStream', input: { meetKey: 'm1', promptKey: 'goal' } });

    act(() => fake.push('summary.generateStream', { type: 'token', text: '<ul><li>Agree on the ' }));
    expect((await screen.findByTestId('summary-stream-text')).textContent).toContain('• Agree on the');
    expect(screen.getByText('Generating…')).toBeTruthy();
    act(() => fake.push('summary.generateStream', { type: 'token', text: 'launch date</li></ul>' }));
    expect(screen.getByTestId('summary-stream-text').textContent).toContain('• Agree on the launch date');

    const goals = { ...stored, docId: 'd2', promptKey: 'goal' as const, title: 'Meeting goals', text: '<ul><li>Agree on the launch date</li></ul>', translations: {} };
    act(() => fake.push('summary.generateStream', { type: 'done', summary: goals }));
    expect((await screen.findByTestId('summary-title')).textContent).toContain('Meeting goals');
    expect(screen.getByTestId('summary-text').querySelector('li')?.textContent).toContain('Agree on the launch date');
    expect(fake.subscriberCount('summary.generateStream')).toBe(0);
  });

  it('toasts a failed stream through the one error mapping (429: Daily limit reached)', async () => {
    const { fake } = setup({ summaries: [], summariesDisabled: false, promptList: 'default' });
    fireEvent.click(await screen.findByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fake.subscriberCount('summary.generateStream')).toBe(1));
    const error = apiError(429, 'TOO_MANY_REQUESTS', 'Daily limit reached');
    act(() => fake.fail('summary.generateStream', error));
    expect(await screen.findByText('Daily limit reached')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Generate' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('reports an answer without text as an empty result and stores nothing', async () => {
    const { fake } = setup({ summaries: [], summariesDisabled: false, promptList: 'default' });
    fireEvent.click(await screen.findByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fake.subscriberCount('summary.generateStream')).toBe(1));
    act(() => fake.push('summary.generateStream', { type: 'done', summary: { ...stored, text: '<p> </p>' } }));
    expect(await screen.findByText(EMPTY_RESULT_ERROR)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Generate' })).toBeTruthy();
  });

  it('says which engine wrote the summary', async () => {
    setup({ summaries: [stored], summariesDisabled: false, promptList: 'default' });
    expect((await screen.findByTestId('summary-engine')).textContent).toBe('Written by the local model qwen2.5-1.5b-instruct-q4_k_m');
  });

  it('reuses a stored translation without a call, translates otherwise, and resets to English on prompt change', async () => {
    const { fake } = setup(
      { summaries: [stored], summariesDisabled: false, promptList: 'default' },
      { handlers: { 'summary.translate': () => ({ text: '<p>Wysyłamy w piątek.</p>' }) } },
    );
    const language = await screen.findByRole('combobox', { name: 'Language' });
    await waitFor(() => expect((language as HTMLSelectElement).disabled).toBe(false));
    expect(within(language).getAllByRole('option').slice(0, 4).map((o) => o.textContent)).toEqual([
      '🇬🇧 English',
      '🇺🇦 Ukrainian',
      '🇫🇷 French',
      '🇵🇱 Polish',
    ]);
    fireEvent.change(language, { target: { value: 'fr' } });
    expect(screen.getByTestId('summary-text').textContent).toContain('Livraison vendredi.');
    expect(fake.calls.some((c) => c.path === 'summary.translate')).toBe(false);

    fireEvent.change(language, { target: { value: 'pl' } });
    expect(await screen.findByText('Wysyłamy w piątek.')).toBeTruthy();
    expect(fake.calls.filter((c) => c.path === 'summary.translate')).toHaveLength(1);

    fireEvent.change(screen.getByRole('combobox', { name: 'Prompt type' }), { target: { value: 'summary' } });
    expect((language as HTMLSelectElement).value).toBe('en');
  });

  it('shows the unavailable alert of product.md, Errors and the upgrade card for Basic users', async () => {
    setup({ summaries: [], summariesDisabled: true, promptList: 'default' });
    expect(await screen.findByText(SUMMARY_UNAVAILABLE_MESSAGE)).toBeTruthy();
    expect(screen.getByText('Premium Feature')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Ask assistant?' })).toBeNull();
  });

  it('keeps Ask disabled below 6 characters for premium users', async () => {
    setup({ summaries: [stored], summariesDisabled: false, promptList: 'default' }, { premium: true });
    const box = await screen.findByRole('textbox', { name: 'Ask assistant?' });
    await waitFor(() => expect((box as HTMLInputElement).disabled).toBe(false));
    fireEvent.change(box, { target: { value: 'Why ' } });
    expect((screen.getByRole('button', { name: 'Ask' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(box, { target: { value: 'Why so?' } });
    expect((screen.getByRole('button', { name: 'Ask' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByText('Premium Feature')).toBeNull();
  });

  it('shows a free user what is left next to Generate, reads it again after each generation, and never generates a stored type again', async () => {
    let used = 3;
    // What the server holds: the summary once its stream is done.
    const summaries: Summary[] = [];
    const { fake } = setup(
      { summaries: [], summariesDisabled: false, promptList: 'default' },
      {
        handlers: {
          'aiUsage.today': () => freeUsage(used),
          'summary.list': () => ({ summaries: [...summaries], summariesDisabled: false, promptList: 'default' }),
        },
      },
    );
    expect((await screen.findByTestId('ai-usage-left')).textContent).toBe('7 of 10 AI summaries left today');
    fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
    await waitFor(() => expect(fake.subscriberCount('summary.generateStream')).toBe(1));
    used = 4;
    summaries.push(stored);
    act(() => fake.push('summary.generateStream', { type: 'done', summary: stored }));
    expect((await screen.findByTestId('summary-title')).textContent).toBe('Summary');

    const picker = screen.getByRole('combobox', { name: 'Prompt type' });
    fireEvent.change(picker, { target: { value: 'goal' } });
    await waitFor(() => expect(fake.subscriberCount('summary.generateStream')).toBe(1));
    act(() => fake.fail('summary.generateStream', apiError(429, 'TOO_MANY_REQUESTS', 'Daily limit reached')));
    await waitFor(() => expect(screen.getByTestId('ai-usage-left').textContent).toBe('6 of 10 AI summaries left today'));
    expect(screen.getByRole('button', { name: 'Generate' })).toBeTruthy();

    // Back to the type that has a summary: it is shown, not generated again.
    fireEvent.change(picker, { target: { value: 'summary' } });
    expect((await screen.findByTestId('summary-title')).textContent).toBe('Summary');
    expect(fake.calls.filter((c) => c.path === 'summary.generateStream')).toHaveLength(2);
  });

  it('shows premium users no count', async () => {
    const { fake } = setup({ summaries: [], summariesDisabled: false, promptList: 'default' }, { premium: true });
    await screen.findByRole('button', { name: 'Generate' });
    expect(screen.queryByTestId('ai-usage-left')).toBeNull();
    expect(fake.calls.some((c) => c.path === 'aiUsage.today')).toBe(false);
  });

  it('shows a chip per cited line that opens it in the transcript, and marks unsupported points', async () => {
    const spokenAt = Date.UTC(2026, 10, 20, 15, 42);
    const cited: Summary = {
      ...stored,
      text:
        '<ul><li>Ship on Friday<sup class="cite" data-cite="1,2">[1, 2]</sup></li>' +
        '<li>Bob pays 40 euros<sup class="cite" data-cite="9">[9]</sup><small class="unsupported" data-missing="Bob; 40 euros">not found in the transcript</small></li></ul>',
      citations: [
        { n: 1, messageId: 'msg-1', spokenAt, speaker: 'Ana' },
        { n: 2, messageId: 'msg-2', spokenAt: spokenAt + 60_000, speaker: 'Bo' },
      ],
    };
    const { view } = setup({ summaries: [cited], summariesDisabled: false, promptList: 'default' });
    const chips = await screen.findAllByTestId('summary-citation');
    // A number without an entry in the table (9) draws nothing.
    expect(chips.map((c) => c.textContent)).toEqual([formatMessageTime(spokenAt), formatMessageTime(spokenAt + 60_000)]);
    expect(chips[0]!.tagName).toBe('BUTTON');
    expect(chips[0]!.getAttribute('aria-label')).toBe(`Open the line: Ana · ${formatMessageTime(spokenAt)}`);
    const mark = screen.getByTestId('unsupported-mark');
    expect(mark.textContent).toBe('not found in the transcript: Bob; 40 euros');
    expect(mark.closest('li')?.textContent).toContain('Bob pays 40 euros');
    fireEvent.click(chips[1]!);
    await waitFor(() => expect(view.router.state.location.search).toBe('?line=msg-2'));
  });

  it('says translation needs an AI model, and offers none, when the server has no LLM', async () => {
    setup(
      { summaries: [stored], summariesDisabled: false, promptList: 'default' },
      { handlers: { 'summary.capabilities': () => ({ llmConfigured: false, engine: 'offline' }) } },
    );
    expect((await screen.findByTestId('translation-needs-model')).textContent).toBe(TRANSLATION_NEEDS_MODEL);
    expect((screen.getByRole('combobox', { name: 'Language' }) as HTMLSelectElement).disabled).toBe(true);
    expect(((await screen.findByRole('combobox', { name: 'Prompt type' })) as HTMLSelectElement).disabled).toBe(false);
  });
});
