/** What GET /v1/subscription answers: the payment page's address, or a text to show (product.md, API / Errors). */
export type CheckoutAnswer = { url: string } | { error: string };

/** The part of `window` the checkout needs (a parameter, so tests can hand in their own). */
export interface TabOpener {
  open(url: string, target: string): Window | null;
  location: { assign(url: string): void };
}

const PENDING_TAB_TEXT = 'Opening the secure payment page…';

/**
 * product.md, States: the payment page opens in a new tab. Browsers only let a click open a tab synchronously,
 * and the payment page's address arrives after a round trip — so the tab is opened blank during the
 * click and sent to the address once it is known. When the tab cannot be opened (popups blocked), the
 * current tab goes to the payment page instead. An error answer closes the blank tab and is returned
 * for the page to show; a failed call closes it too and rethrows.
 */
export async function openCheckout(request: () => Promise<CheckoutAnswer>, opener: TabOpener = window): Promise<string | null> {
  const tab = opener.open('about:blank', '_blank');
  if (tab) {
    // The payment page must not reach back into this app through window.opener.
    tab.opener = null;
    try {
      tab.document.title = PENDING_TAB_TEXT;
      tab.document.body.textContent = PENDING_TAB_TEXT;
    } catch {
      // A browser that gives the blank tab another origin only loses the waiting text.
    }
  }
  let answer: CheckoutAnswer;
  try {
    answer = await request();
  } catch (error) {
    tab?.close();
    throw error;
  }
  if ('error' in answer) {
    tab?.close();
    return answer.error;
  }
  if (tab) tab.location.href = answer.url;
  else opener.location.assign(answer.url);
  return null;
}
