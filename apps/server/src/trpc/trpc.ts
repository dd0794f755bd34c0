import { initTRPC, TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { getTRPCErrorFromUnknown } from '@trpc/server/unstable-core-do-not-import';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import { describeIssues, isPremiumActive, normalizeStrings, type ApiErrorData, type PersonalTokenScope } from '@mbox/shared';
import { AppError, ERROR_KINDS, type InputIssue } from '../app-error.js';
import { requireWriteScope } from '../modules/access-tokens/service.js';
import type { AuthUser } from '../modules/auth/service.js';
import { CSRF_REFUSAL, type AuthRefusal, type Context } from './context.js';

/** The cause of an input refusal: carries our issues to the error formatter, which answers them as `data.issues`. */
class InputError extends Error {
  override name = 'InputError';
  constructor(readonly issues: InputIssue[]) {
    super(issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  }
}

function inputError(issues: InputIssue[]): TRPCError {
  const cause = new InputError(issues);
  return new TRPCError({ code: 'BAD_REQUEST', message: `Invalid input: ${cause.message}`, cause });
}

/**
 * The tRPC error of any failure: the one translation of an AppError for tRPC, by its code's row of
 * ERROR_KINDS (also when tRPC already wrapped it as an internal error, e.g. thrown while a subscription
 * streams); a TRPCError as it is; anything else an internal error.
 */
export function trpcErrorOf(cause: unknown): TRPCError {
  const appError = cause instanceof AppError ? cause : cause instanceof TRPCError && cause.cause instanceof AppError ? cause.cause : null;
  if (!appError) return getTRPCErrorFromUnknown(cause);
  if (appError.issues) return inputError(appError.issues);
  return new TRPCError({ code: appError.trpcCode, message: appError.message, cause: appError });
}

/**
 * A procedure's meta: its REST operation, and the scope a personal access token needs to call it when
 * it is not the usual one (write for mutations, read for the rest): a subscription that stores
 * something needs write, a question asked by POST needs only read.
 */
export type ProcedureMeta = OpenApiMeta & { scope?: PersonalTokenScope };

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter({ shape: tRPCShape, error: raised, path, ctx }) {
      // Thrown where the procedure ladder does not translate it (a subscription's stream).
      const translated = raised.cause instanceof AppError;
      const error = translated ? trpcErrorOf(raised) : raised;
      const shape = translated ? { code: TRPC_ERROR_CODES_BY_KEY[error.code], message: error.message } : tRPCShape;
      const issues = error.cause instanceof InputError ? error.cause.issues : undefined;
      const internal = error.code === 'INTERNAL_SERVER_ERROR';
      const data: ApiErrorData = {
        code: error.code,
        httpStatus: getHTTPStatusCodeFromError(error),
        ...(issues ? { field: issues[0]?.path, issues } : {}),
        // The log line of the failure carries the same id (logFailures).
        ...(internal && ctx ? { requestId: ctx.requestId } : {}),
      };
      // Never leak internals of unexpected failures to the client.
      const message = internal ? ERROR_KINDS.INTERNAL_SERVER_ERROR.message : shape.message;
      // The summarizer tools answer `{ error }` on failure (product.md, Data / Errors), beside the common shape.
      return { message, code: shape.code, data, ...(path?.startsWith('tools.') ? { error: message } : {}) };
    },
  });

/**
 * Why a call signed in by cookie may have come from another site's page, whatever its method: the
 * context already refuses a non-GET one without the CSRF token; this covers the mutations the REST
 * facade serves behind GET (referral acceptance, checkout and portal links). A subscription (SSE: the
 * browser's EventSource can send no header) must come from a page of this very origin when the browser
 * says where it came from (Sec-Fetch-Site): a page on another port of the same host is same-site, so
 * SameSite cookies alone would let it start a summary as the user.
 */
function crossSiteRefusal(ctx: Context, type: 'query' | 'mutation' | 'subscription'): AuthRefusal | null {
  if (ctx.credentials !== 'cookie' || !ctx.user) return null;
  if (type === 'mutation' && !ctx.csrfPassed) return CSRF_REFUSAL;
  if (type === 'subscription' && ctx.fetchSite !== undefined && ctx.fetchSite !== 'same-origin' && ctx.fetchSite !== 'none') {
    return {
      code: 'FORBIDDEN',
      message: `Cross-site check failed: a subscription signed in by cookie must come from a page of this server's own origin (Sec-Fetch-Site: ${ctx.fetchSite})`,
    };
  }
  return null;
}

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/**
 * Every procedure's first step, one middleware rather than three: each middleware level costs tRPC a
 * call, its options and a context merge on every call (docs/performance.md).
 * - Every string of every input, before validation: NUL removed and lone surrogates replaced
 *   (normalizeText), so no text PostgreSQL refuses reaches a query, and a caption is stored, not dropped.
 *   One place for every procedure over tRPC and REST, object keys (JSON columns) included.
 * - Input validation failures become 400s whose message names each invalid field. Only those: a
 *   ZodError behind a 500 (the output check, or a parse in a service) is the server's fault.
 * - Unexpected failures are logged, with the request's id that the answer carries.
 */
const callBoundary = t.middleware(async ({ ctx, type, path, getRawInput, next }) => {
  const refusal = crossSiteRefusal(ctx, type);
  const result = await next({
    getRawInput: async () => normalizeStrings(await getRawInput()),
    // A cookie session that fails the check is no session: the call runs as an anonymous one would.
    ...(refusal ? { ctx: { user: null, sessionId: null, authRefusal: refusal } } : {}),
  });
  if (result.ok) return result;
  // Services throw AppError: the same code, status and message over /trpc, REST and the direct routes.
  const error = result.error.cause instanceof AppError ? trpcErrorOf(result.error.cause) : result.error;
  if (error.code === 'BAD_REQUEST' && error.cause instanceof ZodError) throw inputError(describeIssues(error.cause.issues));
  if (error.code === 'INTERNAL_SERVER_ERROR') {
    // A call that was signed in when it began, of an account deleted while it ran (its writes then
    // meet a missing user row): the caller is signed out, not faced with a server failure.
    if (ctx.user && !(await ctx.deps.db.user.count({ where: { id: ctx.user.id } }))) {
      throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in required: this account was deleted' });
    }
    ctx.log.error({ err: error.cause ?? error, path }, 'procedure failed');
  }
  if (error !== result.error) throw error;
  return result;
});

/** Every procedure starts here; the levels below decide who may call. */
const procedure = t.procedure.use(callBoundary);

/** A `read` personal access token may make the calls that only read (403 naming the scope otherwise). */
function checkTokenScope(user: AuthUser, type: 'query' | 'mutation' | 'subscription', path: string, meta: ProcedureMeta | undefined): void {
  if ((meta?.scope ?? (type === 'mutation' ? 'write' : 'read')) === 'write') requireWriteScope(user, `${path} changes data and`);
}

/**
 * Calls anyone may make, signed in or not. An extension token is refused here too (403): it may only
 * send transcripts, so it must never count as its owner, for instance on the public summarizers, where a
 * signed-in caller is counted per account and premium is unlimited.
 */
export const publicProcedure = procedure.use(({ ctx, type, path, meta, next }) => {
  if (ctx.user?.via === 'extension') throw extensionTokenRefused();
  if (ctx.user) checkTokenScope(ctx.user, type, path, meta);
  return next();
});

/**
 * Calls the browser extension makes with its token: sending caption lines and capture gaps, ending a
 * meeting. Session tokens (and write-scoped personal access tokens) may make them too. Missing or
 * refused credentials: 401 (403 for a failed CSRF check), naming why.
 */
export const extensionProcedure = procedure.use(({ ctx, type, path, meta, next }) => {
  const user = signedInUser(ctx);
  checkTokenScope(user, type, path, meta);
  // tRPC merges the returned ctx into the current one.
  return next({ ctx: { user } });
});

/**
 * Everything else, minting extension tokens included: a signed-in session (or Firebase ID token), or a
 * personal access token of the scope the call needs.
 */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => next({ ctx: { user: sessionUser(ctx) } }));

/**
 * Managing credentials and deleting the account: a signed-in session only. A leaked personal access
 * token must not be able to mint more tokens, revoke its owner's, or delete the account.
 */
export const sessionOnlyProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.via === 'personal-token') {
    throw new AppError('FORBIDDEN', 'Personal access tokens cannot make this call: sign in to the web app to manage tokens or the account');
  }
  return next();
});

/** The caller of an extensionProcedure call, or the refusal (an AppError: 401; 403 for a failed CSRF check). */
export function signedInUser(ctx: Context): AuthUser {
  if (ctx.user) return ctx.user;
  throw ctx.authRefusal ? new AppError(ctx.authRefusal.code, ctx.authRefusal.message) : new AppError('UNAUTHORIZED');
}

/** The caller of an authedProcedure call (routes outside tRPC sign in by it too), or the refusal. */
export function sessionUser(ctx: Context): AuthUser {
  const user = signedInUser(ctx);
  if (user.via === 'extension') throw extensionTokenRefused();
  return user;
}

function extensionTokenRefused(): AppError {
  return new AppError('FORBIDDEN', 'Extension tokens may only send transcripts and end meetings: this call needs a signed-in session');
}

export const premiumProcedure = authedProcedure.use(({ ctx, next }) => {
  if (!isPremiumActive(ctx.user)) throw new AppError('PREMIUM_REQUIRED');
  return next();
});
