import type { FastifyRequest } from 'fastify';
import type { AnyRouter } from '@trpc/server';

/** A procedure of the API router, as the request guards need to know it. */
export interface ProcedureInfo {
  /** Dotted tRPC path, e.g. `auth.login`. */
  name: string;
  type: 'query' | 'mutation' | 'subscription';
}

interface ProcedureDef {
  _def: { type: ProcedureInfo['type'] };
}

/**
 * Finds which procedures a request calls, over either transport: `/trpc/a,b` (a batch names each one,
 * every occurrence counts) and the REST API, whose routes name their procedure in their config
 * (trpc/rest-adapter.ts), so whatever spelling Fastify routes to a procedure is counted as it.
 */
export class ProcedureResolver {
  private readonly procedures = new Map<string, ProcedureInfo>();

  constructor(
    router: AnyRouter,
    private readonly trpcPrefix: string,
  ) {
    for (const [name, procedure] of Object.entries(router._def.procedures as Record<string, ProcedureDef>)) {
      this.procedures.set(name, { name, type: procedure._def.type });
    }
  }

  has(name: string): boolean {
    return this.procedures.has(name);
  }

  /** The procedures the request calls, one entry per call; empty for anything else. */
  resolve(request: FastifyRequest): ProcedureInfo[] {
    const rest = request.routeOptions.config.procedure;
    if (rest) return [rest];
    const pathname = request.url.split('?', 1)[0] ?? '';
    if (!pathname.startsWith(`${this.trpcPrefix}/`)) return [];
    // As the tRPC adapter reads it: the route parameter, percent-decoded by the router.
    const param = (request.params as { path?: unknown } | undefined)?.path;
    const names = typeof param === 'string' ? param.split(',') : [];
    return names.flatMap((name) => this.procedures.get(name) ?? []);
  }
}
