/**
 * Screenshots of the transcript with marks, a comment, an optimized line and the filter open, at
 * 1280, 1024 and 390 px (for looking, not a test): npx tsx tests/bench/transcript-shots.ts [outDir]
 */
import { makePremium } from '../../apps/server/src/test/fixtures.js';
import { VIEWPORTS, launchBrowser, openSignedIn, startWebApp } from '../e2e/support/browser.js';

const outDir = process.argv[2] ?? '/tmp/transcript-shots';
const START = Date.UTC(2026, 10, 20, 15, 0);
const TURNS: [string, string][] = [
  ['Ana Lopez', 'Morning everyone, let us go through the release plan for Friday.'],
  ['Ana Lopez', 'um so we we need to to decide on the the migration window today'],
  ['Bo Chen', 'The migration runs at start and takes under a minute on a copy of production.'],
  ['Cleopatra Philopator Seventh', 'Do we have a rollback if the new index slows the list down?'],
  ['Bo Chen', 'Yes, the previous build stays deployable and the index can be dropped online.'],
  ['Dan Ito', 'Support needs the changelog by Thursday noon so they can brief the team.'],
  ['Ana Lopez', 'I will write it tonight. Anything else blocking?'],
  ['Eve Martin', 'The pricing page copy still says 2025, I will fix that.'],
  ['Fay Okafor', 'Marketing is ready; the post goes out at ten.'],
  ['Gus Weber', 'I can be on call Friday evening.'],
  ['Ana Lopez', 'Great. Then Friday it is, thanks all.'],
];

const app = await startWebApp();
const browser = await launchBrowser();
try {
  const email = 'shots@example.com';
  const token = await app.signIn(email);
  await makePremium(app, email);
  const { body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: {
        sessionId: 'shots',
        meetCode: 'abc-defg-hij',
        startedAt: START,
        title: 'Release planning',
        participants: [...new Set(TURNS.map(([s]) => s))],
      },
      lines: TURNS.map(([speaker, text], i) => ({ captionId: `c${i}`, revision: 0, speaker, text, spokenAt: START + i * 41_000, final: true })),
    },
  });
  await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'shots', finishedAt: START + 37 * 60_000 } });
  const { messages } = (await app.rest<{ messages: { key: string }[] }>('GET', `/v1/meeting/${body.meetingKey}`, { token })).body;
  await app.rest('PUT', `/v1/message/mark/${messages[2]!.key}`, { token, body: { marks: ['important'] } });
  await app.rest('PUT', `/v1/message/mark/${messages[3]!.key}`, { token, body: { marks: ['flagged', 'commented'] } });
  await app.rest('PUT', `/v1/message/comment/${messages[3]!.key}`, { token, body: { comment: 'Ask Bo for the rollback runbook link.' } });
  await app.rest('PUT', `/v1/p/message/ai-fix/${messages[1]!.key}`, { token });

  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    const { page, context } = await openSignedIn(browser, app, { email, path: `/${body.meetingKey}`, viewport });
    await page.getByTestId('transcript-message').first().waitFor();
    await page.waitForTimeout(500);
    await page.getByTestId('transcript-message').nth(4).hover();
    await page.screenshot({ path: `${outDir}/transcript-${name}.png` });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.screenshot({ path: `${outDir}/transcript-${name}-filter.png` });
    await context.close();
  }
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await app.close();
}
