import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUMMARIZER_MAX_TEXT_CHARS, SUMMARIZER_MIN_TEXT_CHARS, type SummarizeResult } from '@mbox/shared';
import { startTestApp, type TestApp } from '../../test/app.js';
import { countWords } from './extract.js';
import { LINK_REFUSED_ADDRESS, LINK_REFUSED_PORT, NOT_HTML, PAGE_TIMEOUT, TOO_MANY_REDIRECTS, fetchPage } from './fetch-page.js';
import { ARTICLE_FIXTURES, readArticleFixture, startPageServer, type LocalServer } from '../../test/page-servers.js';

interface ErrorBody {
  message: string;
  error: string;
  code: string;
}

/** Visible text of a fixture's article body, to compare the extracted word count with. */
const FIXTURE_FACTS = {
  'lighthouse-keepers': { title: 'The Last Keepers: How Automation Changed Life on the Lighthouse', site: 'The Coastal Review', sentence: 'keeper' },
  'sourdough-starter': { title: 'How to Keep a Sourdough Starter Alive (Even If You Forget About It)', site: 'Crumb & Crust', sentence: 'starter' },
  'council-bike-lanes': { title: 'Council approves $4.2 million protected bike lane network after long debate', site: 'Riverton Daily', sentence: 'bike' },
} as const;

/** Text of page furniture around the articles: none of it may reach a summary. */
const FURNITURE = ['cookie', 'privacy', 'Subscribe', 'harbourwatcher', 'Anna K.', 'RivertonRider', 'Advertisement', 'Most read', 'Trending', 'All rights reserved'];

describe('link summaries', () => {
  let app: TestApp;
  let pages: LocalServer;
  let token: string;
  beforeAll(async () => {
    pages = await startPageServer();
    app = await startTestApp({ SUMMARIZER_ALLOWED_HOSTS: [pages.host], SUMMARIZER_FETCH_TIMEOUT_MS: 1500 });
    token = await app.signIn('reader@example.com');
  });
  afterAll(async () => {
    await app.close();
    await pages.close();
  });

  const summarizeLink = <T = { result: SummarizeResult }>(link: string, path = '/v1/utils/summary') =>
    app.rest<T>('POST', path, { token, body: { link } });

  it.each(ARTICLE_FIXTURES)('summarises the article of a real-world page (%s), leaving out its furniture', async (name) => {
    const { status, body } = await summarizeLink(`${pages.url}/articles/${name}`);
    expect(status).toBe(200);
    const { summary, metadata, source } = body.result;
    const facts = FIXTURE_FACTS[name];
    expect(source).toMatchObject({ kind: 'link', title: facts.title, site: facts.site, url: `${pages.url}/articles/${name}`, durationSeconds: null });
    // The article is a few hundred words; the whole page with comments, menus and sidebars is more.
    const pageWords = countWords(readArticleFixture(name).replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' '));
    expect(source.words).toBeGreaterThan(250);
    expect(source.words).toBeLessThan(pageWords - 60);
    expect(summary).toMatch(/^<(p|h3|ul)>/);
    expect(summary.toLowerCase()).toContain(facts.sentence);
    for (const text of FURNITURE) expect(summary, text).not.toContain(text);
    expect(summary).not.toContain('<b>The article:</b>');
    expect(metadata).toContain(`<b>Site:</b> ${facts.site.replace('&', '&amp;')}`);
    expect(metadata).toContain(`<b>Words:</b> ${source.words.toLocaleString('en-US')}`);
    expect(metadata).toContain(`<a href="${pages.url}/articles/${name}"`);
  });

  it('follows a redirect within the allowed host and reports the final address', async () => {
    const { status, body } = await summarizeLink(`${pages.url}/moved`);
    expect(status).toBe(200);
    expect(body.result.source.url).toBe(`${pages.url}/articles/lighthouse-keepers`);
  });

  it('summarises the same way without signing in', async () => {
    const { status, body } = await app.rest<{ result: SummarizeResult }>('POST', '/v1/public/utils/summary', {
      body: { link: `${pages.url}/articles/council-bike-lanes`, params: { summaryKey: 'summary' } },
    });
    expect(status).toBe(200);
    expect(body.result.source.site).toBe('Riverton Daily');
    expect((await app.rest('POST', '/v1/utils/summary', { body: { link: `${pages.url}/articles/council-bike-lanes` } })).status).toBe(401);
  });

  it('refuses every loopback, private, link-local, metadata, mapped and encoded address with a 400', async () => {
    const links = [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://0.0.0.0/',
      'http://10.0.0.1/',
      'http://172.16.5.4/',
      'http://192.168.1.1/',
      'http://100.64.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://[fc00::1]/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      // A name that resolves to 127.0.0.1: refused on the resolved address, at connect time.
      'http://localhost/',
      'https://localhost/',
    ];
    for (const link of links) {
      const { status, body } = await summarizeLink<ErrorBody>(link);
      expect(status, link).toBe(400);
      expect(body.error, link).toBe(LINK_REFUSED_ADDRESS);
      expect(body.message, link).toBe(LINK_REFUSED_ADDRESS);
    }
  });

  it('refuses other schemes, credentials and ports other than 80 and 443 unless the host:port is allowed', async () => {
    for (const link of ['ftp://example.com/file.html', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.com/']) {
      const { status, body } = await summarizeLink<ErrorBody>(link);
      expect(status, link).toBe(400);
      expect(body.error, link).toBe('Invalid link');
    }
    const port = await summarizeLink<ErrorBody>('http://example.com:8080/');
    expect(port.status).toBe(400);
    expect(port.body.error).toBe(LINK_REFUSED_PORT);
    // The allowed entry is one host:port; its neighbour port on the same address is not exempt.
    const other = await summarizeLink<ErrorBody>(`http://127.0.0.1:${Number(pages.host.split(':')[1]) + 1}/`);
    expect(other.status).toBe(400);
    expect(other.body.error).toBe(LINK_REFUSED_PORT);
    const credentials = await summarizeLink<ErrorBody>(`http://user:secret@${pages.host}/articles/lighthouse-keepers`);
    expect(credentials.status).toBe(400);
  });

  it('checks every redirect hop: into loopback, the metadata address, mapped and named loopback, other ports', async () => {
    const cases: [string, string][] = [
      ['/redirect-loopback', LINK_REFUSED_ADDRESS],
      ['/redirect-chain', LINK_REFUSED_ADDRESS],
      ['/redirect-mapped', LINK_REFUSED_ADDRESS],
      ['/redirect-localhost', LINK_REFUSED_ADDRESS],
      ['/redirect-other-port', LINK_REFUSED_PORT],
    ];
    for (const [path, message] of cases) {
      const { status, body } = await summarizeLink<ErrorBody>(`${pages.url}${path}`);
      expect(status, path).toBe(400);
      expect(body.error, path).toBe(message);
    }
    // The chain was followed up to the refused hop, and nothing behind it was requested.
    expect(pages.requests).toContain('/redirect-chain-2');
  });

  it('answers clear errors for hostile or broken pages, never a 500 and never a hang', async () => {
    const cases: [string, number, RegExp][] = [
      ['/loop', 502, new RegExp(`^${TOO_MANY_REDIRECTS}$`)],
      ['/huge', 422, /too large to summarise: more than 2 MB/],
      ['/huge-declared', 422, /too large to summarise/],
      ['/drip', 504, new RegExp(`^${PAGE_TIMEOUT}$`)],
      ['/stall', 504, new RegExp(`^${PAGE_TIMEOUT}$`)],
      ['/data.json', 415, new RegExp(`^${NOT_HTML.replace(/[()]/g, '\\$&')} \\(it is application/json\\)$`)],
      ['/report.pdf', 415, /application\/pdf/],
      ['/broken', 502, /answered HTTP 500/],
      ['/missing', 502, /answered HTTP 404/],
      ['/empty', 422, /No readable text|too little text/],
    ];
    for (const [path, status, message] of cases) {
      const response = await summarizeLink<ErrorBody>(`${pages.url}${path}`);
      expect(response.status, path).toBe(status);
      expect(response.body.error, path).toMatch(message);
      expect(response.body.message, path).toBe(response.body.error);
    }
  });

  it('refuses a host name that resolves to a private address, whatever the resolver answers', async () => {
    const resolvingTo =
      (address: string, family: number): LookupFunction =>
      (_hostname, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address, family }]);
        else callback(null, address, family);
      };
    for (const [address, family] of [
      ['127.0.0.1', 4],
      ['10.20.30.40', 4],
      ['169.254.169.254', 4],
      ['::1', 6],
      ['::ffff:127.0.0.1', 6],
      ['fd00::5', 6],
    ] as const) {
      await expect(
        fetchPage('http://intranet.example.com/', { allowedHosts: [], timeoutMs: 1500, maxBytes: 1024 * 1024, lookup: resolvingTo(address, family) }),
        address,
      ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: LINK_REFUSED_ADDRESS });
    }
  });

  it('names the text limits in a 400 and needs exactly one of text and link', async () => {
    const tooShort = await app.rest<ErrorBody>('POST', '/v1/utils/summary', { token, body: { text: 'Too short.' } });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error).toContain(`at least ${SUMMARIZER_MIN_TEXT_CHARS} characters`);
    const empty = await app.rest<ErrorBody>('POST', '/v1/public/utils/summary', { body: { text: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain(`at least ${SUMMARIZER_MIN_TEXT_CHARS} characters`);
    const tooLong = await app.rest<ErrorBody>('POST', '/v1/utils/summary', { token, body: { text: 'word '.repeat(SUMMARIZER_MAX_TEXT_CHARS / 4) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain(`at most ${SUMMARIZER_MAX_TEXT_CHARS} characters`);
    for (const body of [{}, { text: 'x'.repeat(100), link: 'https://example.com' }]) {
      const response = await app.rest<ErrorBody>('POST', '/v1/utils/summary', { token, body });
      expect(response.status).toBe(400);
      expect(response.body.error).toContain('Give either text or link');
    }
    const badKey = await app.rest<ErrorBody>('POST', '/v1/utils/summary', { token, body: { text: 'x '.repeat(60), params: { summaryKey: 'custom' } } });
    expect(badKey.status).toBe(400);
    expect(badKey.body.error).toContain('params.summaryKey');
  });

  it('summarises pasted text with its word count as metadata', async () => {
    const text = readArticleFixture('council-bike-lanes')
      .match(/<div class="article-body"[^>]*>([\s\S]*?)<\/div>\s*<div class="corrections">/)![1]!
      .replace(/<div class="inline-promo">[\s\S]*?<\/div>/, '')
      .replace(/<\/p>/g, '\n')
      .replace(/<[^>]+>/g, '')
      .trim();
    const { status, body } = await app.rest<{ result: SummarizeResult }>('POST', '/v1/utils/summary', { token, body: { text } });
    expect(status).toBe(200);
    expect(body.result.source).toEqual({ kind: 'text', title: '', site: '', url: '', words: countWords(text), durationSeconds: null });
    expect(body.result.metadata).toBe(`<p><b>Words:</b> ${countWords(text)}</p>`);
    expect(body.result.summary).toContain('<li>');
    expect(body.result.summary).not.toContain('The text:');
  });
});
