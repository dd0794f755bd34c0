/**
 * Benchmark (not a test): how fast a 10,000-line meeting opens in Chromium.
 * Starts the real server on a test database, ingests the meeting in batches of 500, opens it and
 * prints: navigation → first line painted, → every page loaded, transcript DOM size, frames over a
 * scripted scroll to the end, and JS heap. Target: first lines painted ≤ 1 s.
 *   npm run bench:open-meeting            (uses apps/web/dist; E2E_WEB_DIST=<dir> for another build)
 *   RUNS=5 LINES=10000 npm run bench:open-meeting
 */
import { MAX_LINES_PER_BATCH } from '@mbox/shared';
import { launchBrowser, openSignedIn, startWebApp } from '../e2e/support/browser.js';

const LINES = Number(process.env.LINES ?? 10_000);
const RUNS = Number(process.env.RUNS ?? 3);
const START = Date.UTC(2026, 10, 20, 15, 0);
const SPEAKERS = ['Ana Lopez', 'Bo Chen', 'Cy Dube', 'Dana Ito'];

const ms = (n: number) => `${Math.round(n)} ms`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const app = await startWebApp();
  const browser = await launchBrowser();
  try {
    const email = 'bench@example.com';
    const token = await app.signIn(email);
    const seedStart = performance.now();
    let meetingKey = '';
    for (let from = 0; from < LINES; from += MAX_LINES_PER_BATCH) {
      const { status, body } = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
        token,
        body: {
          meeting: { sessionId: 'bench', meetCode: 'abc-defg-hij', startedAt: START, title: 'Bench: 10,000 lines' },
          lines: Array.from({ length: Math.min(MAX_LINES_PER_BATCH, LINES - from) }, (_, i) => ({
            captionId: `c${from + i}`,
            revision: 0,
            speaker: SPEAKERS[(from + i) % 7 % SPEAKERS.length]!,
            text: `Line ${from + i + 1}: we went through the plan, the numbers and the open questions for next week${(from + i) % 5 ? '.' : ', and then a longer remark that wraps onto a second line in a narrow panel.'}`,
            spokenAt: START + (from + i) * 2000,
            final: true,
          })),
        },
      });
      if (status !== 200) throw new Error(`ingest failed: ${status}`);
      meetingKey = body.meetingKey;
    }
    await app.rest('POST', '/v1/transcript/end', { token, body: { sessionId: 'bench', finishedAt: START + LINES * 2000 } });
    console.log(`seeded ${LINES} lines in ${ms(performance.now() - seedStart)}`);

    const rows: Record<'firstPaint' | 'allLoaded' | 'frameP95' | 'heapMb', number>[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const { page, context } = await openSignedIn(browser, app, { email, path: '/login' });
      await page.waitForLoadState('load');
      await page.goto(`${app.url}/${meetingKey}`);
      // performance.now() counts from the navigation's start; polled each animation frame, so the
      // figure is when a frame with the first line was produced.
      const firstPaint = Number(await (
        await page.waitForFunction(() => document.querySelector('[data-testid=transcript-message]') && performance.now(), null, {
          polling: 'raf',
        })
      ).jsonValue());
      const allLoaded = Number(await (
        await page.waitForFunction(
          (total) =>
            document.querySelector('[data-testid=transcript-status]')?.textContent === `${total.toLocaleString('en-US')} lines` &&
            performance.now(),
          LINES,
          { polling: 'raf', timeout: 120_000 },
        )
      ).jsonValue());
      const dom = await page.evaluate(() => ({
        nodes: document.querySelector('[data-testid=transcript-scroller]')?.querySelectorAll('*').length ?? 0,
        messages: document.querySelectorAll('[data-testid=transcript-message]').length,
        page: document.querySelectorAll('*').length,
      }));
      // tsx compiles this file keeping function names (an `__name` helper) inside evaluated code too.
      await page.evaluate('window.__name = (fn) => fn');
      // Scripted scroll: 3,000 px per frame to the end; frame times say how smooth it stays.
      const scroll = await page.evaluate(
        () =>
          new Promise<{ frames: number; avg: number; p95: number; worst: number; long: number }>((resolve) => {
            const el = document.querySelector<HTMLElement>('[data-testid=transcript-scroller]')!;
            const times: number[] = [];
            let last = performance.now();
            const step = () => {
              const now = performance.now();
              times.push(now - last);
              last = now;
              if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2 || times.length > 2000) {
                const sorted = [...times].sort((a, b) => a - b);
                resolve({
                  frames: times.length,
                  avg: times.reduce((a, b) => a + b, 0) / times.length,
                  p95: sorted[Math.floor(sorted.length * 0.95)]!,
                  worst: sorted.at(-1)!,
                  long: times.filter((t) => t > 50).length,
                });
                return;
              }
              el.scrollTop += 3000;
              requestAnimationFrame(step);
            };
            requestAnimationFrame(step);
          }),
      );
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      await cdp.send('Performance.enable');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      const row = {
        firstPaint,
        allLoaded,
        domNodes: dom.nodes,
        messageNodes: dom.messages,
        pageNodes: dom.page,
        frames: scroll.frames,
        frameAvg: scroll.avg,
        frameP95: scroll.p95,
        frameWorst: scroll.worst,
        longFrames: scroll.long,
        heapMb: heap / 1024 / 1024,
      };
      rows.push(row);
      console.log(
        `run ${run}: first line painted ${ms(firstPaint)}, all ${LINES} lines loaded ${ms(allLoaded)}, ` +
          `transcript DOM ${dom.nodes} nodes (${dom.messages} message rows; page ${dom.page}), ` +
          `scroll to end: ${scroll.frames} frames, avg ${scroll.avg.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, ` +
          `worst ${scroll.worst.toFixed(1)} ms, ${scroll.long} over 50 ms, JS heap ${(heap / 1024 / 1024).toFixed(1)} MB`,
      );
      await context.close();
    }
    const first = median(rows.map((r) => r.firstPaint));
    console.log(
      `median of ${RUNS}: first line painted ${ms(first)} (target ≤ 1000 ms: ${first <= 1000 ? 'met' : 'NOT met'}), ` +
        `all loaded ${ms(median(rows.map((r) => r.allLoaded)))}, scroll p95 frame ${median(rows.map((r) => r.frameP95)).toFixed(1)} ms, ` +
        `heap ${median(rows.map((r) => r.heapMb)).toFixed(1)} MB`,
    );
  } finally {
    await browser.close();
    await app.close();
  }
}

await main();
