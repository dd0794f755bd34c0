import { describe, expect, it } from 'vitest';
import { PERSONAL_TOKEN_PREFIX } from '@mbox/shared';
import { openSignedIn, webAppAndBrowser } from './support/browser.js';

describe('Settings › Access tokens', () => {
  const web = webAppAndBrowser();

  it('creates a token shown once with a copy button, lists it with its last use, and revokes it', async () => {
    const { context, page } = await openSignedIn(web.browser, web.app, { email: 'tokens@example.com', path: '/settings?tab=tokens' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: web.app.url });
    await page.getByText('No access tokens yet.').waitFor();

    await page.getByLabel('Token name').fill('Claude Desktop');
    await page.getByRole('radio', { name: /Read and write/ }).check();
    await page.getByRole('button', { name: 'Create token' }).click();

    const secretField = page.getByLabel('New access token');
    await secretField.waitFor();
    const token = await secretField.inputValue();
    expect(token.startsWith(PERSONAL_TOKEN_PREFIX)).toBe(true);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const item = page.getByRole('list', { name: 'Your access tokens' }).getByRole('listitem', { name: 'Claude Desktop' });
    expect(await item.textContent()).toContain('read and write');
    expect(await item.textContent()).toContain('never used');

    // The token works against the REST API.
    const meetings = await fetch(`${web.app.url}/v1/meeting-list`, { headers: { authorization: `Bearer ${token}` } });
    expect(meetings.status).toBe(200);

    // Shown once: after a reload only the name is left, now with its last use.
    await page.reload();
    await item.waitFor();
    expect(await page.getByLabel('New access token').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    expect(await item.textContent()).toContain('last used');

    await item.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog', { name: 'Revoke “Claude Desktop”?' }).getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('No access tokens yet.').waitFor();
    const refused = await fetch(`${web.app.url}/v1/meeting-list`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(401);
    await context.close();
  });
});
