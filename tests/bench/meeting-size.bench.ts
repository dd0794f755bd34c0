/**
 * Benchmark (not a test): memory of whole-meeting reads of the largest meeting the bounds let in
 * (MAX_LINES_PER_MEETING lines, about MAX_MEETING_TEXT_BYTES of text), on PostgreSQL and on embedded
 * PGlite. The real server (startTestApp: buildApp with every hook and plugin, the offline engine's worker
 * threads) runs in this process; a meeting of LINES lines of about LINE_BYTES bytes each is stored straight
 * in the database, then read over HTTP one way after another: the meeting JSON, a page of it, the JSON,
 * Markdown and PDF exports, an offline summary and an offline Ask answer. For each it prints the time, the
 * process's resident memory before, its peak during (sampled every 20 ms; worker threads and PGlite's
 * WASM memory are in it) and the rise. A client reads each answer as it comes and keeps only its size.
 * Each database is measured in a process of its own.
 *   npm run bench:meeting-size
 *   DATABASES=pglite LINES=10000 npm run bench:meeting-size
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from '../../apps/server/src/test/app.js';

const LINES = Number(process.env.LINES ?? 50_000);
const LINE_BYTES = Number(process.env.LINE_BYTES ?? 400);
const DATABASES = (process.env.DATABASES ?? 'postgresql,pglite').split(',');
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;

/** Sentences a line is made of, rotated so the offline engine reads varied words. */
const SENTENCES = [
  'We went through the invoice export again and the totals still differ from the ledger by a few cents.',
  'Marketing wants the launch plan by Friday, so the landing page copy has to be final on Wednesday.',
  'Can somebody check with the customer whether the new pricing applies to the renewals in March?',
  'The migration ran overnight without errors, but the search index took twice as long as last time.',
  'I will send the summary to the board and ask legal to review the data processing agreement.',
  'Support tickets about the login page dropped after the fix, about forty percent fewer this week.',
  'We agreed to postpone the mobile release until the crash on older Android phones is understood.',
  'Budget for the offsite is approved, Ben books the venue and Ana sends the invitations tomorrow.',
];

async function seed(app: TestApp, email: string): Promise<{ token: string; meetingId: string; textBytes: number }> {
  const token = await app.signIn(email);
  const user = await app.deps.db.user.findUniqueOrThrow({ where: { email } });
  const meetingId = `${user.id}-big`;
  const startedAt = new Date(Date.UTC(2026, 10, 2, 9));
  await app.deps.db.$executeRaw`
    INSERT INTO "Meeting" (id, "userId", "sessionId", "meetCode", title, "startedAt", "finishedAt", "endedAt", "updatedAt", users)
    VALUES (${meetingId}, ${user.id}, 'big', 'abc-defg-hij', 'All-day planning', ${startedAt}::timestamp,
            ${startedAt}::timestamp + ${LINES} * interval '2 seconds', now(), now(), ARRAY['Ana', 'Ben', 'Cy'])`;
  await app.deps.db.$executeRaw`
    INSERT INTO "Message" (id, "meetingId", "captionId", revision, final, "user", text, "spokenAt", "lastUpdated")
    SELECT ${meetingId} || '-' || l, ${meetingId}, 'c' || l, 0, true, (ARRAY['Ana', 'Ben', 'Cy'])[1 + l % 3],
           left(l || '. ' || s.a || ' ' || s.b || ' ' || s.c || ' ' || s.a, ${LINE_BYTES}),
           ${startedAt}::timestamp + l * interval '2 seconds', now()
    FROM generate_series(1, ${LINES}) AS l,
         LATERAL (SELECT (${SENTENCES}::text[])[1 + l % 8] AS a, (${SENTENCES}::text[])[1 + (l / 8) % 8] AS b,
                         (${SENTENCES}::text[])[1 + (l / 64) % 8] AS c) AS s`;
  const [size] = await app.deps.db.$queryRaw<{ lines: number; bytes: number }[]>`
    UPDATE "Meeting" SET "storedLines" = s.lines, "storedTextBytes" = s.bytes, "lineCount" = s.lines
    FROM (SELECT count(*)::int AS lines, sum(octet_length(text))::int AS bytes FROM "Message" WHERE "meetingId" = ${meetingId}) AS s
    WHERE id = ${meetingId} RETURNING s.lines, s.bytes`;
  return { token, meetingId, textBytes: size!.bytes };
}

/** Runs `work`, sampling the process's resident memory; prints one row. */
async function measure(label: string, work: () => Promise<string>): Promise<void> {
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
  const started = performance.now();
  const what = await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  console.log(
    `${label.padEnd(24)} ${what.padStart(12)} ${seconds.toFixed(1).padStart(7)} s ${mb(before).padStart(8)} ${mb(peak).padStart(8)} ${mb(peak - before).padStart(8)}`,
  );
}

/** GETs a path and reads the answer as it comes, keeping only its size. */
async function download(app: TestApp, token: string, path: string): Promise<string> {
  const response = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' } });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  let bytes = 0;
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) bytes += read.value.byteLength;
  return mb(bytes);
}

function ask(app: TestApp, token: string, meetingId: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sub = app.trpc(token).ask.stream.subscribe(
      { meetingId, question: 'Who books the venue for the offsite?', history: [] },
      {
        onData: (event) => {
          if (event.type === 'done' || event.type === 'error') {
            sub.unsubscribe();
            if (event.type === 'error') reject(new Error(event.message));
            else resolve(`${event.citations.length} cited`);
          }
        },
        onError: (error) => {
          sub.unsubscribe();
          reject(error);
        },
      },
    );
  });
}

if (DATABASES.length > 1) {
  // One process per database: memory a first run leaves behind (V8 keeps what it grew) must not count
  // against the second.
  console.log(`meeting-size: a meeting of ${LINES.toLocaleString('en-US')} lines of up to ${LINE_BYTES} bytes, each read as a client would; node ${process.version}`);
  for (const database of DATABASES) {
    const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
      stdio: 'inherit',
      env: { ...process.env, DATABASES: database },
    });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
  process.exit(0);
}
for (const database of DATABASES) {
  const app = await startTestApp({}, { embeddedDatabase: database === 'pglite' });
  try {
    const { token, meetingId, textBytes } = await seed(app, `size-bench-${database}@example.com`);
    console.log(`\n${database}: ${mb(textBytes)} of text stored`);
    console.log(`${'read'.padEnd(24)} ${'answer'.padStart(12)} ${'time'.padStart(9)} ${'rss'.padStart(8)} ${'peak'.padStart(8)} ${'rise'.padStart(8)}`);
    await measure('GET meeting (whole)', () => download(app, token, `/v1/meeting/${meetingId}`));
    await measure('GET messages (1 page)', () => download(app, token, `/v1/meeting/${meetingId}/messages?limit=1000`));
    for (const format of ['json', 'md', 'pdf']) {
      await measure(`export ${format}`, () => download(app, token, `/v1/meeting/${meetingId}/export?format=${format}`));
    }
    await measure('summary (offline)', async () => {
      const answer = await app.rest<{ text?: string; message?: string }>('POST', '/v1/prompts', { token, body: { meetKey: meetingId, promptKey: 'summary' } });
      if (answer.status !== 200) throw new Error(`summary answered ${answer.status}: ${answer.body.message}`);
      return `${answer.body.text?.length ?? 0} chars`;
    });
    await measure('ask (offline)', () => ask(app, token, meetingId));
  } finally {
    await app.close();
  }
}
