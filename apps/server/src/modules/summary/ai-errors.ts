import { EMPTY_RESULT_ERROR } from '@mbox/shared';
import { AiInputError, LlmNotConfiguredError, LlmRequestError } from '../../ai/index.js';
import { AppError } from '../../app-error.js';
import type { AppDeps } from '../../deps.js';

export const AI_UNAVAILABLE = 'The AI service is unavailable, try again later';
export const AI_BUSY = 'The AI service is busy, try again in a moment';
export const AI_TIMEOUT = 'The AI service took too long to answer, try again later';
export const AI_REFUSED = 'The AI service refused the request; the server administrator should check its configuration';

/**
 * The API error of an AI engine failure (docs/ai.md, "Errors"). Upstream failures are not the
 * client's fault, so they are 5xx with a clear message, never the opaque 500. A rate-limited LLM
 * is 503, not 429: clients read every 429 as the user's own 'Daily limit reached' (product.md, Errors).
 */
export function aiError(deps: AppDeps, error: unknown): unknown {
  if (error instanceof LlmNotConfiguredError) {
    // A server configuration state, not bad input: 412 with the message that says how to configure.
    return new AppError('PRECONDITION_FAILED', error.message, { cause: error });
  }
  if (error instanceof AiInputError) {
    return new AppError('BAD_REQUEST', `${error.field}: ${error.message}`, { cause: error });
  }
  if (!(error instanceof LlmRequestError)) return error;
  deps.log.warn({ err: error, kind: error.kind, status: error.status, attempts: error.attempts }, 'LLM request failed');
  switch (error.kind) {
    case 'rate_limited':
      return new AppError('SERVICE_UNAVAILABLE', AI_BUSY, { cause: error });
    case 'unavailable':
      return new AppError('SERVICE_UNAVAILABLE', AI_UNAVAILABLE, { cause: error });
    case 'timeout':
      return new AppError('GATEWAY_TIMEOUT', AI_TIMEOUT, { cause: error });
    case 'empty':
      return new AppError('BAD_GATEWAY', EMPTY_RESULT_ERROR, { cause: error });
    case 'rejected':
      return new AppError('BAD_GATEWAY', AI_REFUSED, { cause: error });
  }
}

/** Runs an engine call, turning its failures into API errors. */
export async function callAi<T>(deps: AppDeps, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw aiError(deps, error);
  }
}
