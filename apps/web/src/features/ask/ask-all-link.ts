/** Router state of a link that asks its `q` at once (the search page's button); a bare URL only fills the field in. */
export interface AskNowState {
  askNow: true;
}

/** The page that asks all meetings, its field filled with `q`: `/ask?q=…`. */
export function askAllPath(q = ''): string {
  const question = q.trim();
  return question ? `/ask?${new URLSearchParams({ q: question }).toString()}` : '/ask';
}

export function isAskNow(state: unknown): state is AskNowState {
  return typeof state === 'object' && state !== null && 'askNow' in state && state.askNow === true;
}
