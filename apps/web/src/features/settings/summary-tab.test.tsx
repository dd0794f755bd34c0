import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { USER_SETTINGS_DEFAULTS, type UserSettings, type UserSettingsUpdate } from '@mbox/shared/user-settings';
import { TRANSLATION_NEEDS_MODEL } from '@mbox/shared/generation';
import { SETTINGS_UPDATED } from '@mbox/shared/ui-messages';
import { createFakeTrpc } from '../../test/fake-trpc';
import { fakeSession, renderRoutes } from '../../test/render';
import { formFromSettings, toSettingsUpdate } from './summary-defaults-form';
import SummaryTab from './summary-tab';

describe('summary defaults form (product.md, Validation)', () => {
  it('reads the stored defaults; a depth the picker does not offer shows as Standard', () => {
    expect(formFromSettings({ ...USER_SETTINGS_DEFAULTS, defaultSummaryDepth: 'abstract', defaultTranslateTo: 'ua' })).toEqual({
      depth: 'standard',
      translateTo: 'ua',
      minLength: '200',
      maxLength: '0',
    });
  });

  it('applies the length rules before saving: min ≥ 50 in steps of 50, max 0 or ≥ min', () => {
    expect(toSettingsUpdate({ depth: 'deep', translateTo: 'fr', minLength: '12.5', maxLength: 'x' })).toEqual({
      defaultSummaryDepth: 'deep',
      defaultTranslateTo: 'fr',
      defaultMinSummaryLength: 50,
      defaultMaxSummaryLength: 0,
    });
    expect(toSettingsUpdate({ depth: 'speaker', translateTo: '', minLength: '320', maxLength: '100' })).toMatchObject({
      defaultMinSummaryLength: 300,
      defaultMaxSummaryLength: 300,
    });
  });
});

function setup(premium: boolean, llmConfigured = true) {
  let stored: UserSettings = { ...USER_SETTINGS_DEFAULTS, isPremium: premium, premiumActive: premium, onboardingComplete: true };
  const updates: UserSettingsUpdate[] = [];
  const fake = createFakeTrpc({
    'settings.get': () => stored,
    'summary.capabilities': () => ({ llmConfigured, engine: llmConfigured ? 'local' : 'offline' }),
    'settings.update': (input) => {
      updates.push(input as UserSettingsUpdate);
      stored = { ...stored, ...(input as UserSettingsUpdate) };
      return stored;
    },
  });
  renderRoutes([{ path: '/', element: <SummaryTab /> }], { fake, session: fakeSession({ premium }) });
  return { updates };
}

describe('Settings › Summary tab', () => {
  it('is disabled with the premium-feature notice for a Basic user', async () => {
    setup(false);
    expect(await screen.findByText('Premium Feature')).toBeTruthy();
    expect((screen.getByLabelText('How deep to analyze meetings?') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByLabelText('Translate to') as HTMLSelectElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves only the changed fields for a premium user, settling the lengths, and says so', async () => {
    const { updates } = setup(true);
    const depth = await screen.findByLabelText('How deep to analyze meetings?');
    const save = screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(depth, { target: { value: 'speaker' } });
    fireEvent.change(screen.getByLabelText('Translate to'), { target: { value: 'pl' } });
    const min = screen.getByLabelText('Min summary length (words)') as HTMLInputElement;
    fireEvent.change(min, { target: { value: '260' } });
    fireEvent.blur(min);
    expect(min.value).toBe('250');
    const max = screen.getByLabelText('Max summary length (words)') as HTMLInputElement;
    expect(max.min).toBe('250');
    fireEvent.change(max, { target: { value: '100' } });
    fireEvent.click(save);

    expect(await screen.findByText(SETTINGS_UPDATED)).toBeTruthy();
    expect(updates).toEqual([
      { defaultSummaryDepth: 'speaker', defaultTranslateTo: 'pl', defaultMinSummaryLength: 250, defaultMaxSummaryLength: 250 },
    ]);
    await waitFor(() => expect((screen.getByLabelText('Max summary length (words)') as HTMLInputElement).value).toBe('250'));
    expect((screen.getByRole('button', { name: 'Save settings' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says 'Translate to' needs an AI model, and where to set one up, on a server without one", async () => {
    const { updates } = setup(true, false);
    const note = await screen.findByTestId('translation-needs-model');
    expect(note.textContent).toBe(TRANSLATION_NEEDS_MODEL);
    expect(note.textContent).toContain('OPENAI_API_KEY');
    expect((screen.getByLabelText('Translate to') as HTMLSelectElement).disabled).toBe(true);
    // The other defaults still save.
    fireEvent.change(screen.getByLabelText('How deep to analyze meetings?'), { target: { value: 'deep' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(SETTINGS_UPDATED)).toBeTruthy();
    expect(updates).toEqual([{ defaultSummaryDepth: 'deep' }]);
  });
});
