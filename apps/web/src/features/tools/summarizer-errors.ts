import { ERROR_TEXT, handleApiError, isDailyLimit, refusalOf } from '../../lib/errors';
import { toast } from '../../lib/toast';

/**
 * What the error alert of a summarizer page says (product.md, Errors: the summarization error is shown in an
 * error alert): the server's own message for a refused request (it names the problem: too short,
 * not a YouTube link, page unreachable…), 'Daily limit reached' for a 429, and the generic text when
 * no answer arrived or it says nothing to the person (refusalOf).
 */
export function summarizerErrorMessage(error: unknown): string {
  if (isDailyLimit(error)) return ERROR_TEXT.dailyLimit;
  return refusalOf(error)?.message ?? ERROR_TEXT.request;
}

/**
 * Reports a failed summarization through the app's single error mapping: a 401 signs out and a 429
 * toasts 'Daily limit reached' (product.md, Errors); everything else is only logged, since the page's alert
 * already says it.
 */
export function reportSummarizerError(error: unknown): void {
  handleApiError(error, { silent: !isDailyLimit(error) });
}

/**
 * A refusal the server answered as data (`{ error }`, or the stream's `error` event, which carries
 * no status): the daily limit is toasted like a 429 would be (product.md, Errors).
 */
export function reportSummarizerRefusal(message: string): void {
  if (message === ERROR_TEXT.dailyLimit) toast.error(message);
}
