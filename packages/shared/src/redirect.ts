/** Stands in for the app's own origin while a target is resolved: only the path part is ever kept. */
const OWN_ORIGIN = 'http://mbox.invalid';

/**
 * Where a `redirect` query parameter may send the browser (the login and sign-in guards): a path of this
 * app, or `/` for anything else. The value is resolved as a URL against the app's own origin, so the
 * browser's own rules decide (dot segments, backslashes, tabs and newlines, percent escapes); a target
 * with a scheme, one that lands on another origin, or one whose resolved path would itself read as
 * another host (`/.//evil.test` resolves to `//evil.test`) is refused. `subscribe` (no slash, as the pricing page's
 * links write it) means `/subscribe`.
 */
export function sameOriginRedirectPath(target: string): string {
  const raw = target.trim();
  // A scheme makes it a URL, not a path, wherever it points.
  if (/^[a-z][a-z\d+.-]*:/i.test(raw)) return '/';
  let url: URL;
  try {
    url = new URL(raw.startsWith('/') ? raw : `/${raw}`, OWN_ORIGIN);
  } catch {
    return '/';
  }
  if (url.origin !== OWN_ORIGIN) return '/';
  const path = `${url.pathname}${url.search}${url.hash}`;
  // What the router will navigate to must resolve to the same place again.
  let again: URL;
  try {
    again = new URL(path, OWN_ORIGIN);
  } catch {
    return '/';
  }
  if (!path.startsWith('/') || path.startsWith('//') || again.origin !== OWN_ORIGIN || again.pathname !== url.pathname) return '/';
  return path;
}
