import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { INVALID_LINK } from '@mbox/shared';
import { AppError } from '../../app-error.js';
import {
  OutboundRefusedError,
  checkOutboundUrl,
  isRefusedAddressError,
  outboundRequest,
  type OutboundRefusal,
} from '../../net/outbound.js';

/**
 * Fetching a page a user names, without letting that user reach what only the server can reach
 * (SSRF). docs/summarizer.md, "Security", says what is allowed and why.
 *
 * Every hop (the link and each redirect) goes through the checks of net/outbound.ts: http/https only,
 * ports 80/443, no literal non-public address, and the addresses a host name resolves to checked at
 * connect time. Hosts listed in SUMMARIZER_ALLOWED_HOSTS (host:port) skip them.
 */

export const LINK_REFUSED_ADDRESS = 'Link refused: it points to a private, local or reserved network address';
export const LINK_REFUSED_PORT = 'Link refused: only web pages on ports 80 and 443 can be summarised';
export const LINK_REFUSED_CREDENTIALS = 'Link refused: links with a user name or password cannot be summarised';
export const TOO_MANY_REDIRECTS = 'The page redirects too many times';
export const PAGE_TIMEOUT = 'The page took too long to answer';
export const PAGE_UNREACHABLE = 'The page could not be reached';
export const NOT_HTML = 'The link is not a web page (HTML); only web pages can be summarised';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const USER_AGENT = 'Mozilla/5.0 (compatible; MboxSummarizer/1.0; +https://github.com/mbox-app)';

export interface FetchPageOptions {
  /** `host:port` pairs exempt from the address and port checks (SUMMARIZER_ALLOWED_HOSTS). */
  allowedHosts: readonly string[];
  /** Deadline of the whole fetch: every hop, headers and body. */
  timeoutMs: number;
  /** Largest body read, after decompression. */
  maxBytes: number;
  maxRedirects?: number;
  /** The caller left: stop at once. */
  signal?: AbortSignal;
  /** Name resolution; tests give one that resolves a name to a private address. Checked all the same. */
  lookup?: LookupFunction;
}

export interface FetchedPage {
  /** The address the page was finally read from (after redirects). */
  url: string;
  html: string;
}

function refused(message: string): AppError {
  return new AppError('BAD_REQUEST', message);
}

const REFUSALS: Record<OutboundRefusal, string> = {
  scheme: INVALID_LINK,
  credentials: LINK_REFUSED_CREDENTIALS,
  port: LINK_REFUSED_PORT,
  address: LINK_REFUSED_ADDRESS,
};

/** Checks one hop's URL as written; the resolved address is checked at connect time. Returns whether it is exempt. */
function checkUrl(url: URL, allowedHosts: readonly string[]): boolean {
  try {
    return checkOutboundUrl(url, allowedHosts);
  } catch (error) {
    if (error instanceof OutboundRefusedError) throw refused(REFUSALS[error.reason]);
    throw error;
  }
}

function get(url: URL, exempt: boolean, signal: AbortSignal, lookup: LookupFunction | undefined): Promise<IncomingMessage> {
  return outboundRequest(url, {
    method: 'GET',
    exempt,
    signal,
    lookup,
    headers: {
      'user-agent': USER_AGENT,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1',
      'accept-encoding': 'gzip, deflate, br',
      'accept-language': 'en;q=1, *;q=0.5',
    },
  });
}

function decoded(response: IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

function tooLarge(maxBytes: number): AppError {
  const mb = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new AppError('UNPROCESSABLE_CONTENT', `The page is too large to summarise: more than ${mb} MB`);
}

/** Reads the body up to `maxBytes` (decompressed), stopping the download as soon as it is over. */
async function readBody(response: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes && !response.headers['content-encoding']) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  const stream = decoded(response);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } finally {
    if (size > maxBytes || !response.complete) {
      response.destroy();
      stream.destroy();
    }
  }
  return Buffer.concat(chunks);
}

/** The body's text in the charset the headers or the page's <meta> name; UTF-8 otherwise. */
function decodeText(body: Buffer, contentType: string): string {
  const head = body.subarray(0, 2048).toString('latin1');
  const label =
    contentType.match(/charset\s*=\s*"?([\w-]+)/i)?.[1] ?? head.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(label).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** The failure of a request as the API error a client can act on. */
function requestError(error: unknown, timedOut: boolean): unknown {
  if (error instanceof AppError) return error;
  if (timedOut) return new AppError('GATEWAY_TIMEOUT', PAGE_TIMEOUT, { cause: error });
  const cause = error instanceof Error ? error : undefined;
  if (isRefusedAddressError(cause)) {
    return new AppError('BAD_REQUEST', LINK_REFUSED_ADDRESS, { cause });
  }
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new AppError('BAD_GATEWAY', `${PAGE_UNREACHABLE}: its host name does not exist`, { cause });
  }
  return new AppError('BAD_GATEWAY', PAGE_UNREACHABLE, { cause });
}

/**
 * Fetches a web page for summarising. Redirects are followed by hand (each hop checked again).
 * Errors are AppErrors: 400 refused or invalid link, 415 not HTML, 422 too large, 502 upstream
 * failure or error status, 504 timeout.
 */
export async function fetchPage(link: string, options: FetchPageOptions): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const maxRedirects = options.maxRedirects ?? 5;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw refused(INVALID_LINK);
  }
  for (let hop = 0; ; hop++) {
    const exempt = checkUrl(url, options.allowedHosts);
    let response: IncomingMessage;
    try {
      response = await get(url, exempt, signal, options.lookup);
    } catch (error) {
      throw requestError(error, timeout.aborted);
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location) {
      response.destroy();
      if (hop >= maxRedirects) throw new AppError('BAD_GATEWAY', TOO_MANY_REDIRECTS);
      try {
        url = new URL(location, url);
      } catch {
        throw new AppError('BAD_GATEWAY', 'The page redirects to an invalid address');
      }
      continue;
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      throw new AppError('BAD_GATEWAY', `The page could not be read: its server answered HTTP ${status}`);
    }
    const contentType = String(response.headers['content-type'] ?? '');
    const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
    if (!HTML_TYPES.has(mediaType)) {
      response.destroy();
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', `${NOT_HTML} (it is ${mediaType || 'of no stated type'})`);
    }
    try {
      const body = await readBody(response, options.maxBytes);
      return { url: url.href, html: decodeText(body, contentType) };
    } catch (error) {
      throw requestError(error, timeout.aborted);
    }
  }
}
