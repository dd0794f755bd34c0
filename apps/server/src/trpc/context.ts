import type { AppDeps } from '../deps.js';
import type { AuthUser } from '../modules/auth/service.js';
import { authenticateBearer } from '../modules/auth/service.js';

export interface Context {
  deps: AppDeps;
  /** The request's logger: every line carries its request id. */
  log: AppDeps['log'];
  /** Fastify's id of the request, shown to the client on a 500 so the log line can be found. */
  requestId: string;
  user: AuthUser | null;
  /** Client address, for limits on public calls. */
  ip: string;
}

/** Builds the context of one call from its bearer token (header, or connection params for SSE). */
export async function createContext(
  deps: AppDeps,
  request: { authorization?: string; connectionToken?: string; ip: string; id: string; log: AppDeps['log'] },
): Promise<Context> {
  const header = request.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  const token = header ?? request.connectionToken;
  const user = token ? await authenticateBearer(deps, token) : null;
  return { deps, log: request.log, requestId: request.id, user, ip: request.ip };
}
