import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../app-error.js';
import type { AppDeps } from '../deps.js';
import type { AuthUser } from '../modules/auth/service.js';
import { contextRequest, createContext } from '../trpc/context.js';
import { sessionUser } from '../trpc/trpc.js';
import { errorBody } from './error-body.js';

/**
 * The caller of a Fastify route outside tRPC (a file download), signed in exactly as authedProcedure
 * signs in: the bearer header, or the web app's session cookie (so a plain link downloads in the
 * browser); extension tokens are refused. On refusal the error is answered and null returned.
 */
export async function routeSessionUser(deps: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<AuthUser | null> {
  try {
    return sessionUser(await createContext(deps, contextRequest(deps, request, reply)));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await reply.status(error.status).send(errorBody(error.status, error.message));
    return null;
  }
}
