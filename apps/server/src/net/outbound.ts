import { lookup as dnsLookup, type LookupAddress, type LookupOneOptions } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';

/**
 * Requests to addresses a user names (the link summarizer's pages, outgoing webhooks), without letting
 * that user reach what only the server can reach (SSRF). docs/summarizer.md, "Security", says what is
 * allowed and why.
 *
 * The URL as written is checked first (http/https, ports 80/443, no credentials, no literal non-public
 * address); the connection then goes through request-filtering-agent, and name resolution refuses any
 * non-public address, so DNS names of private addresses and DNS rebinding are refused too. Hosts in the
 * allow-list (SUMMARIZER_ALLOWED_HOSTS or WEBHOOK_ALLOWED_HOSTS, host:port) skip both checks.
 */

const WEB_PORTS = new Set(['80', '443']);

/** Why a URL was refused; each caller words it for its own users. */
export type OutboundRefusal = 'scheme' | 'credentials' | 'port' | 'address';

export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  constructor(readonly reason: OutboundRefusal) {
    super(`Outbound request refused: ${reason}`);
  }
}

/** A resolved address that was refused at connect time. */
class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

/** True only for ordinary public unicast addresses (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** `host:port` of a URL as the allow-lists (SUMMARIZER_ALLOWED_HOSTS, WEBHOOK_ALLOWED_HOSTS) name it (default ports written out). */
export function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}

/**
 * Checks a URL as written (the resolved address is checked at connect time). Throws
 * OutboundRefusedError; returns whether the host is on the allow-list (exempt from the address checks).
 */
export function checkOutboundUrl(url: URL, allowedHosts: readonly string[]): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('scheme');
  if (url.username || url.password) throw new OutboundRefusedError('credentials');
  if (allowedHosts.includes(hostKey(url))) return true;
  if (url.port && !WEB_PORTS.has(url.port)) throw new OutboundRefusedError('port');
  // WHATWG URL parsing already turned decimal, hex and octal IPv4 forms into dotted form.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.isValid(host) && !isPublicAddress(host)) throw new OutboundRefusedError('address');
  return false;
}

/** True when a request failed because its host resolved to, or was, a refused address. */
export function isRefusedAddressError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  // request-filtering-agent's own refusal (literal addresses, resolution) says "is not allowed".
  return error instanceof RefusedAddressError || (/is not allowed/.test(error.message) && /DNS lookup/.test(error.message));
}

/** Resolution that fails on any non-public address, before request-filtering-agent checks it again. */
function checkedLookup(resolve: LookupFunction): LookupFunction {
  return ((hostname: string, options: LookupOneOptions & { all?: boolean }, callback: (...args: unknown[]) => void) => {
    resolve(hostname, options, ((error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      if (error) return callback(error);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const bad = addresses.find((a) => !isPublicAddress(a));
      if (bad !== undefined) return callback(new RefusedAddressError(`${hostname} resolves to ${bad}`));
      callback(null, address, family);
    }) as never);
  }) as LookupFunction;
}

const filteringAgents = { http: new RequestFilteringHttpAgent(), https: new RequestFilteringHttpsAgent() };
const exemptAgents = { http: new HttpAgent(), https: new HttpsAgent() };

export interface OutboundRequest {
  method: 'GET' | 'POST';
  headers: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** From checkOutboundUrl: an allow-listed host connects without the address checks. */
  exempt: boolean;
  signal: AbortSignal;
  /** Name resolution; tests give one that resolves a name to a private address. Checked all the same. */
  lookup?: LookupFunction;
}

/** One request (no redirect followed) to a URL already passed through checkOutboundUrl; resolves with the response head. */
export function outboundRequest(url: URL, options: OutboundRequest): Promise<IncomingMessage> {
  const https = url.protocol === 'https:';
  const agents = options.exempt ? exemptAgents : filteringAgents;
  const resolve = options.lookup ?? (dnsLookup as LookupFunction);
  return new Promise((resolvePromise, reject) => {
    const request = (https ? httpsRequest : httpRequest)(url, {
      method: options.method,
      agent: https ? agents.https : agents.http,
      lookup: options.exempt ? resolve : checkedLookup(resolve),
      signal: options.signal,
      headers: options.headers,
    });
    request.on('response', resolvePromise);
    request.on('error', reject);
    request.end(options.body);
  });
}
