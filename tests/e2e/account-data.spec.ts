import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { accountExportSchema, meetingExportSchema } from '@mbox/shared';
import { seedMeeting } from '../../apps/server/src/test/fixtures.js';
import { unzip } from '../../apps/server/src/test/zip.js';
import { openSignedIn, VIEWPORTS, webAppAndBrowser } from './support/browser.js';

describe('Settings › Account: Download my data, Delete my account', () => {
  const web = webAppAndBrowser();

  it('Download my data saves a zip whose account.json and meeting JSON parse', async () => {
    const email = 'downloader@example.com';
    const token = await web.app.signIn(email);
    const { meetingKey } = await seedMeeting(web.app, token, 'data', [
      { speaker: 'Ana', text: 'Our launch moves to Tuesday.' },
      { speaker: 'Ben', text: 'I will tell the customers on Monday.' },
    ]);
    const { context, page } = await openSignedIn(web.browser, web.app, { email, path: '/settings?tab=account' });
    try {
      const button = page.getByRole('button', { name: 'Download my data' });
      await button.waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toMatch(/^mbox-data-\d{4}-\d{2}-\d{2}\.zip$/);
      const entries = await unzip(await readFile((await download.path())!));
      const account = accountExportSchema.parse(JSON.parse(entries.get('account.json')!));
      expect(account.user.email).toBe(email);
      expect(account.meetings).toBe(1);
      const [, json] = [...entries].find(([name]) => name.startsWith('meetings/') && name.endsWith('.json'))!;
      const meeting = meetingExportSchema.parse(JSON.parse(json));
      expect(meeting.meeting.meet.key).toBe(meetingKey);
      expect(meeting.meeting.messages.map((m) => m.text)).toEqual(['Our launch moves to Tuesday.', 'I will tell the customers on Monday.']);
      expect([...entries.keys()].some((name) => name.endsWith('.md'))).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('Delete my account asks for the e-mail address, then signs out and the account is gone', async () => {
    const email = 'leaving@example.com';
    const { context, page, token } = await openSignedIn(web.browser, web.app, { email, path: '/settings?tab=account', viewport: VIEWPORTS.phone });
    try {
      await seedMeeting(web.app, token, 'leaving', [{ speaker: 'Ana', text: 'Goodbye.' }]);
      await page.getByRole('button', { name: 'Delete my account' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: 'Delete my account' });
      expect(await confirm.isDisabled()).toBe(true);
      const field = dialog.getByLabel(`Type your e-mail address ${email} to confirm`);
      await field.fill('someone@example.com');
      expect(await confirm.isDisabled()).toBe(true);
      // Keeping the account closes the dialog and deletes nothing.
      await dialog.getByRole('button', { name: 'Keep my account' }).click();
      await dialog.waitFor({ state: 'hidden' });
      expect(await web.app.deps.db.user.count({ where: { email } })).toBe(1);

      await page.getByRole('button', { name: 'Delete my account' }).click();
      await field.fill(email.toUpperCase());
      await confirm.click();
      await page.waitForURL(/\/login/);
      await page.getByTestId('toast').filter({ hasText: 'Your account and all its data were deleted' }).waitFor();
      expect(await web.app.deps.db.user.count({ where: { email } })).toBe(0);
      expect(await web.app.deps.db.meeting.count()).toBe(await web.app.deps.db.meeting.count({ where: { user: { email: { not: email } } } }));
      expect((await web.app.rest('GET', '/v1/user-settings', { token })).status).toBe(401);
      // The browser's own session is gone too: the app stays on the login screen after a reload.
      await page.goto(`${web.app.url}/settings?tab=account`);
      await page.waitForURL(/\/login/);
    } finally {
      await context.close();
    }
  });
});
