import type { FastifyRequest } from 'fastify';
import type { AnyRouter } from '@trpc/server';

/** A procedure of the API router, as the request guards need to know it. */
export interface ProcedureInfo {
  /** Dotted tRPC path, e.g. `auth.login`. */
  name: string;
  type: 'query' | 'mutation' | 'subscription';
}

interface RestRoute extends ProcedureInfo {
  method: string;
  pattern: RegExp;
}

interface ProcedureDef {
  _def: { type: ProcedureInfo['type']; meta?: { openapi?: { method: string; path: string } } };
}

/**
 * Finds which procedures a request calls, over either transport: `/trpc/a,b` (a batch names each one,
 * every occurrence counts) and the REST facade `/v1/...`, matched exactly as trpc-to-openapi matches it
 * (raw path, case-insensitive, trailing slash ignored), so no spelling reaches a procedure unseen.
 */
export class ProcedureResolver {
  private readonly procedures = new Map<string, ProcedureInfo>();
  private readonly restRoutes: RestRoute[] = [];

  constructor(
    router: AnyRouter,
    private readonly prefixes: { trpc: string; rest: string },
  ) {
    for (const [name, procedure] of Object.entries(router._def.procedures as Record<string, ProcedureDef>)) {
      const info = { name, type: procedure._def.type };
      this.procedures.set(name, info);
      const openapi = procedure._def.meta?.openapi;
      if (!openapi || info.type === 'subscription') continue;
      const path = `/${openapi.path.replace(/^\/|\/$/g, '')}`.replace(/\{(.+?)\}/g, '[^/]+');
      this.restRoutes.push({ ...info, method: openapi.method.toUpperCase(), pattern: new RegExp(`^${path}$`, 'i') });
    }
  }

  has(name: string): boolean {
    return this.procedures.has(name);
  }

  /** The REST routes that run a mutation behind GET (the documented referral acceptance, checkout links). */
  get mutationsBehindGet(): ProcedureInfo[] {
    return this.restRoutes.filter((route) => route.method === 'GET' && route.type === 'mutation');
  }

  /** The procedures the request calls, one entry per call; empty for anything else. */
  resolve(request: FastifyRequest): ProcedureInfo[] {
    const pathname = request.url.split('?', 1)[0] ?? '';
    if (pathname.startsWith(`${this.prefixes.trpc}/`)) {
      // As the tRPC adapter reads it: the route parameter, percent-decoded by the router.
      const param = (request.params as { path?: unknown } | undefined)?.path;
      const names = typeof param === 'string' ? param.split(',') : [];
      return names.flatMap((name) => this.procedures.get(name) ?? []);
    }
    if (pathname.startsWith(`${this.prefixes.rest}/`)) {
      const rest = request.url.replace(this.prefixes.rest, '');
      let path: string;
      try {
        path = new URL(`http://127.0.0.1${rest}`).pathname;
      } catch {
        return [];
      }
      path = `/${path.replace(/^\/|\/$/g, '')}`;
      const route = this.restRoutes.find((r) => r.method === request.method && r.pattern.test(path));
      return route ? [route] : [];
    }
    return [];
  }
}
