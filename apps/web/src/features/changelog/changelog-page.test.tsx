import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChangelogEntry } from '@mbox/shared/changelog';
import { CHANGELOG_ERROR, ERROR_TOAST } from '@mbox/shared/ui-messages';
import { apiError, createFakeTrpc } from '../../test/fake-trpc';
import { renderRoutes } from '../../test/render';
import { ChangelogPage, releaseDate } from './changelog-page';

const entries: ChangelogEntry[] = [
  {
    version: '0.2.0',
    date: '2026-11-23',
    changes: [
      { type: 'New', description: 'Plans and payments', subChanges: [{ type: 'Improvement', description: 'Checkout in a new tab' }] },
      { type: 'Fix', description: 'Dates on the changelog' },
    ],
  },
  { version: '0.1.0', date: '2026-11-01', changes: [{ type: 'New', description: 'Foundation' }] },
];

describe('/changelog', () => {
  it('shows a spinner, then versions with dates and typed, nested changes', async () => {
    let release: (value: ChangelogEntry[]) => void = () => {};
    const fake = createFakeTrpc({ 'changelog.list': () => new Promise<ChangelogEntry[]>((resolve) => (release = resolve)) });
    renderRoutes([{ path: '/', element: <ChangelogPage /> }], { fake });
    expect(await screen.findByRole('status', { name: 'Loading' })).toBeTruthy();
    release(entries);

    const releases = await screen.findAllByTestId('release');
    expect(releases.map((r) => within(r).getByRole('heading').textContent)).toEqual(['Version 0.2.0', 'Version 0.1.0']);
    expect(within(releases[0]!).getByText('November 23, 2026')).toBeTruthy();
    const [plans] = within(releases[0]!).getAllByTestId('change');
    expect(plans!.textContent).toContain('NewPlans and payments');
    expect(within(plans!).getAllByTestId('change')[0]!.textContent).toBe('ImprovementCheckout in a new tab');
    expect(within(releases[0]!).getByText('Dates on the changelog').previousSibling?.textContent).toBe('Fix');
  });

  it("says 'Error: try again later' when the call fails, without a toast", async () => {
    const fake = createFakeTrpc({
      'changelog.list': () => {
        throw apiError(500, 'INTERNAL_SERVER_ERROR');
      },
    });
    renderRoutes([{ path: '/', element: <ChangelogPage /> }], { fake });
    expect((await screen.findByRole('alert')).textContent).toBe(CHANGELOG_ERROR);
    expect(screen.queryByText(ERROR_TOAST)).toBeNull();
  });

  it('reads a release day the same in every time zone', () => {
    expect(releaseDate('2026-01-01')).toBe('January 1, 2026');
  });
});
