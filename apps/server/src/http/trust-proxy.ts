import type { Config } from '../config.js';

/**
 * TRUST_PROXY as Fastify's trustProxy. A hop count trusts that many hops of X-Forwarded-For, counted from
 * this server: Fastify's own number option now trusts none (it cannot check the peer), so the count is
 * given as the function it stands for. It suits a server only its proxies can reach; else list them.
 */
export function trustProxyOption(trust: Config['TRUST_PROXY']): false | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}
