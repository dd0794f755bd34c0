/**
 * A short name for a browser or client from its User-Agent, e.g. "Chrome on macOS", for the lists of
 * sessions and connected extensions. Unknown agents keep their first word ("curl", "node").
 */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent.trim();
  if (!ua) return 'Unknown client';
  const browser =
    /Edg\//.test(ua) ? 'Edge'
    : /OPR\/|Opera/.test(ua) ? 'Opera'
    : /Firefox\//.test(ua) ? 'Firefox'
    : /HeadlessChrome\//.test(ua) ? 'Headless Chrome'
    : /Chrome\/|Chromium\//.test(ua) ? 'Chrome'
    : /Safari\//.test(ua) ? 'Safari'
    : null;
  const system =
    /Android/.test(ua) ? 'Android'
    : /iPhone|iPad|iPod/.test(ua) ? 'iOS'
    : /CrOS/.test(ua) ? 'ChromeOS'
    : /Windows/.test(ua) ? 'Windows'
    : /Mac OS X|Macintosh/.test(ua) ? 'macOS'
    : /Linux/.test(ua) ? 'Linux'
    : null;
  if (!browser) return (ua.split(/[\s/]/)[0] ?? ua).slice(0, 60);
  return system ? `${browser} on ${system}` : browser;
}
