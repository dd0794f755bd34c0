/**
 * Benchmark (not a test): memory and speed of Download my data (`GET /v1/account/export`) as the account
 * grows. For accounts of MEETINGS meetings of LINES lines each (stored straight in PostgreSQL), the real
 * server streams the zip to a client that reads it over HTTP; the figures are the zip's size and time,
 * and how far the process's resident memory and V8 heap rose above where they stood before the download
 * (sampled every 20 ms). A streamed export holds one meeting at a time, so the rise stays about the same
 * while the data grows; a buffered one would grow with it.
 *   npm run bench -- account-export
 *   MEETINGS=20,100 LINES=2000 npm run bench -- account-export
 */
import { startTestApp } from '../../apps/server/src/test/app.js';

const SIZES = (process.env.MEETINGS ?? '10,40,160').split(',').map(Number);
const LINES = Number(process.env.LINES ?? 1000);
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

const app = await startTestApp();
try {
  console.log(`account export: meetings of ${LINES} lines each, streamed to an HTTP client`);
  console.log('meetings   lines      text      zip      time   rss rise  heap rise');
  let email = 0;
  for (const meetings of SIZES) {
    const address = `export-bench-${email++}@example.com`;
    const token = await app.signIn(address);
    const user = await app.deps.db.user.findUniqueOrThrow({ where: { email: address } });
    await app.deps.db.$executeRaw`
      INSERT INTO "Meeting" (id, "userId", "sessionId", "meetCode", title, "startedAt", "finishedAt", "updatedAt", users)
      SELECT ${user.id} || '-m' || m, ${user.id}, 's' || m, 'abc-defg-hij', 'Weekly sync ' || m,
             timestamp '2026-11-01 09:00' + m * interval '1 day', timestamp '2026-11-01 10:00' + m * interval '1 day', now(), ARRAY['Ana', 'Ben']
      FROM generate_series(1, ${meetings}) AS m`;
    await app.deps.db.$executeRaw`
      INSERT INTO "Message" (id, "meetingId", "captionId", revision, final, "user", text, "spokenAt", "lastUpdated")
      SELECT ${user.id} || '-m' || m || '-l' || l, ${user.id} || '-m' || m, 'c' || l, 0, true,
             CASE WHEN l % 2 = 0 THEN 'Ana' ELSE 'Ben' END,
             'Line ' || l || ' of meeting ' || m || ': we went through the invoice export, the launch plan and who tells the customers.',
             timestamp '2026-11-01 09:00' + m * interval '1 day' + l * interval '2 seconds', now()
      FROM generate_series(1, ${meetings}) AS m, generate_series(1, ${LINES}) AS l`;
    const [text] = await app.deps.db.$queryRaw<{ bytes: number }[]>`
      SELECT coalesce(sum(length(text)), 0)::int AS bytes FROM "Message" WHERE "meetingId" LIKE ${`${user.id}-m%`}`;

    global.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 20);
    const started = performance.now();
    const response = await fetch(`${app.url}/v1/account/export`, { headers: { authorization: `Bearer ${token}` } });
    if (response.status !== 200) throw new Error(`export answered ${response.status}: ${await response.text()}`);
    let zipBytes = 0;
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) zipBytes += read.value.byteLength;
    const ms = performance.now() - started;
    clearInterval(sampler);
    console.log(
      `${String(meetings).padStart(8)} ${String(meetings * LINES).padStart(7)} ${mb(text!.bytes).padStart(9)} ${mb(zipBytes).padStart(8)} ` +
        `${(ms / 1000).toFixed(1).padStart(7)} s ${mb(peakRss - base.rss).padStart(10)} ${mb(peakHeap - base.heapUsed).padStart(10)}`,
    );
  }
} finally {
  await app.close();
}
